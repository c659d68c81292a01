"""stdlib/shibumi.rule's `before(a, b)` (site order: level, row, column) and `free(s)` (a ball
with nothing resting on it), on their own in both evaluators, through the score terms of
tests/unit/rules/pyramid_order_probe.rule: A places balls, B passes."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"
LEVEL0 = [f"0{c}{r}" for r in "1234" for c in "abcd"]


def probe(mode: str, sites: list[str]) -> dict[str, float]:
    state = rulelang.load_game(RULES / "pyramid_order_probe.rule", mode=mode).new_initial_state(0)
    for s in sites:
        state.apply_action(state.string_to_action(f"place {s}"))
        state.apply_action(state.string_to_action("pass"))
    return state.score_breakdown(0)


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_site_order_is_the_boards_order_and_total(mode: str) -> None:
    got = probe(mode, [])
    assert got["ordered"] == 30 * 29 // 2      # every pair of sites once, one way round
    assert (got["agrees"], got["backwards"]) == (29, 0)


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_free_balls_have_nothing_resting_on_them(mode: str) -> None:
    assert probe(mode, [])["free"] == 0                        # no ball at all
    assert probe(mode, LEVEL0)["free"] == 16
    # 1a1 rests on 0a1 0b1 0a2 0b2: those four are no longer free, 1a1 is
    assert probe(mode, LEVEL0 + ["1a1"])["free"] == 16 - 4 + 1
    # 1b1 rests on 0b1 0c1 0b2 0c2: 0c1 and 0c2 stop being free too
    assert probe(mode, LEVEL0 + ["1a1", "1b1"])["free"] == 16 - 6 + 2
