"""stdlib/shibumi.rule on its own (runs, visibility from above, overpasses, visible groups,
pairs of placements, 2x2 blocks) and connection.groups, in both evaluators, through the score
terms of tests/unit/rules/pyramid_probe.rule: A places balls, B passes."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"
LEVEL0 = [f"0{c}{r}" for r in "1234" for c in "abcd"]


def probe(mode: str, sites: list[str]) -> dict[str, float]:
    state = rulelang.load_game(RULES / "pyramid_probe.rule", mode=mode).new_initial_state(0)
    for s in sites:
        state.apply_action(f"place {s}")
        state.apply_action("pass")
    return state.score_breakdown(0)


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_runs_follow_rows_columns_and_every_diagonal(mode: str) -> None:
    assert probe(mode, ["0a1", "0c1"])["longest"] == 1          # a gap is no run
    assert probe(mode, ["0a1", "0b1", "0c1"])["longest"] == 3   # a row
    assert probe(mode, ["0b1", "0c2", "0d3"])["longest"] == 3   # a short diagonal
    assert probe(mode, ["0d1", "0c2", "0b3"])["longest"] == 3   # an anti-diagonal
    assert probe(mode, ["0a1", "0a2"])["longest"] == 2          # a column


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_groups_and_their_product(mode: str) -> None:
    got = probe(mode, ["0a1", "0a2", "0c1", "0d1", "0d3"])
    assert (got["groups"], got["group_product"]) == (3, 4)     # 0a1 0a2 | 0c1 0d1 | 0d3
    got = probe(mode, ["0a1", "0b2"])                            # diagonal: no touching
    assert (got["groups"], got["group_product"]) == (2, 1)


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_hidden_balls_and_visible_groups(mode: str) -> None:
    level1 = ["1a1", "1b1", "1a2", "1b2"]
    # level 0 full and 1a1 1b1 1a2 1b2: nothing is hidden yet (nothing two levels up)
    assert probe(mode, LEVEL0 + level1)["visible"] == 20
    # 2a1 lies straight above 0b2 (two levels down): 0b2 is hidden
    got = probe(mode, LEVEL0 + level1 + ["2a1"])
    assert got["visible"] == 20
    assert got["biggest_visible"] == 20                          # resting balls stay linked


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_an_overpass_cuts_the_contact_under_it(mode: str) -> None:
    # 0a1 0a2 0b1 0b2 0c1 0c2 with 1a1 and 1b1 resting on 0b1 and 0b2: the contact 0b1-0b2 is
    # cut, but every ball still links through the balls resting on it (one colour here)
    got = probe(mode, ["0a1", "0b1", "0c1", "0a2", "0b2", "0c2", "1a1", "1b1"])
    assert got["biggest_visible"] == 8
    assert got["groups"] == 1


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_pairs_of_placements(mode: str) -> None:
    # empty board: 24 touching pairs of holes, both ways
    assert probe(mode, [])["pairs"] == 48
    # 0a1 0b1 0a2 taken: 6 pairs of holes touch them, 18 are left; 0b2 then 1a1 (the second
    # ball on the first) joins them; each pair both ways
    assert probe(mode, ["0a1", "0b1", "0a2"])["pairs"] == 2 * (24 - 6) + 2


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_squares_are_the_2x2_blocks_of_each_level(mode: str) -> None:
    assert probe(mode, ["0a1", "0b1", "0a2"])["crowded"] == 1
    assert probe(mode, ["0a1", "0b1", "0c1"])["crowded"] == 0
    assert probe(mode, LEVEL0)["crowded"] == 9
