"""The capture section of stdlib/shibumi.rule on its own, in both evaluators: freedom of a
group (a level-0 ball of it beside an empty hole), `captured(p)` (visible balls whose visible
group has none) and the effect `capture(p, zone)` (from the top down, a ball on which a ball
still rests stays; hidden balls never go), through tests/unit/rules/capture_probe.rule."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"
MODES = ("interpreted", "compiled")


def build(mode: str, a: list[str], b: list[str], capture: bool = True):
    """A's balls on `a`, B's on `b` (in the order given), then A's groups captured."""
    state = rulelang.load_game(RULES / "capture_probe.rule", mode=mode).new_initial_state(0)
    for colour, sites in (("a", a), ("b", b)):
        for s in sites:
            state.apply_action(f"{colour} {s}")
    if capture:
        state.apply_action("capture_a")
    return state


def balls(state, player: str) -> list[str]:
    view = state.observation(0)
    return sorted(v["site"] for v in view["board"]
                  if v["pieces"] and v["pieces"][-1]["owner"] == player)


def supply(state, player: str) -> int:
    view = state.observation(0)
    return next(z["count"] for z in view["zones"] if z["zone"] == "supply" and z["owner"] == player)


@pytest.mark.parametrize("mode", MODES)
def test_a_group_beside_an_empty_hole_is_free(mode: str) -> None:
    state = build(mode, ["0a1", "0b1"], ["0a2"], capture=False)
    assert state.score_breakdown(0) == {"free": 2, "captured": 0}   # 0c1, 0b2 are empty
    state = build(mode, ["0a1"], ["0b1", "0a2"], capture=False)
    assert state.score_breakdown(0)["captured"] == 1


@pytest.mark.parametrize("mode", MODES)
def test_a_group_without_freedom_goes_back_to_the_zone(mode: str) -> None:
    state = build(mode, ["0a1"], ["0b1", "0a2"])
    assert balls(state, "A") == [] and supply(state, "A") == 30
    assert balls(state, "B") == ["0a2", "0b1"]


@pytest.mark.parametrize("mode", MODES)
def test_a_ball_above_level_0_gives_no_freedom(mode: str) -> None:
    # A's ball on 1a1 rests on four balls of B; holes are empty, but it touches none of them
    state = build(mode, [], ["0a1", "0b1", "0a2", "0b2"], capture=False)
    state.apply_action("a 1a1")
    assert state.score_breakdown(0) == {"free": 0, "captured": 1}
    state.apply_action("capture_a")
    assert balls(state, "A") == []


@pytest.mark.parametrize("mode", MODES)
def test_a_captured_group_goes_from_the_top_down(mode: str) -> None:
    # five balls of A: a 2x2 block and the ball on it, walled in by B
    state = build(mode, ["0a1", "0b1", "0a2", "0b2", "1a1"], ["0c1", "0c2", "0a3", "0b3"])
    assert balls(state, "A") == [] and supply(state, "A") == 30


@pytest.mark.parametrize("mode", MODES)
def test_a_captured_ball_that_supports_a_ball_stays(mode: str) -> None:
    # A's row 0a1 0b1 0c1 has no freedom; B's 1a1 rests on 0a1 and 0b1: those two stay
    state = build(mode, ["0a1", "0b1", "0c1"], ["0a2", "0b2", "0c2", "0d1", "1a1"])
    assert balls(state, "A") == ["0a1", "0b1"] and supply(state, "A") == 28


@pytest.mark.parametrize("mode", MODES)
def test_a_hidden_ball_is_in_no_group_and_stays(mode: str) -> None:
    # A's 0b2 under B's 2a1 (straight above it) is hidden; its neighbours are all B's
    others = ["0a1", "0b1", "0c1", "0a2", "0c2", "0a3", "0b3", "0c3"]
    state = build(mode, ["0b2"], others + ["1a1", "1b1", "1a2", "1b2", "2a1"], capture=False)
    assert state.score_breakdown(0) == {"free": 0, "captured": 0}
    state.apply_action("capture_a")
    assert balls(state, "A") == ["0b2"]
    state = build(mode, ["0b2"], others + ["1a1", "1b1", "1a2", "1b2"], capture=False)
    assert state.score_breakdown(0)["captured"] == 1          # visible without 2a1
