"""stdlib/shibumi.rule's moving part on its own, in both evaluators, through
tests/unit/rules/pyramid_moves_probe.rule (A places or moves, B passes): pinned balls,
falling and `on_fallen` (no ball onto a ball that fell), and the pyramids' corners."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"
CORNER = ["0a1", "0b1", "0c1", "0a2", "0b2", "0c2"]  # six holes; 1a1 and 1b1 rest on them


def placed(mode: str, sites: list[str]) -> rulelang.State:
    state = rulelang.load_game(RULES / "pyramid_moves_probe.rule", mode=mode).new_initial_state()
    for s in sites:
        state.apply_action(f"place {s}")
        state.apply_action("pass")
    return state


def labels(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_pyramid_shapes(mode: str) -> None:
    got = placed(mode, []).score_breakdown(0)
    assert got["shapes"] == 25 * 100 + 20  # 20 pointing up, 5 pointing down
    got = placed(mode, ["0a1", "0b1", "0a2", "0b2", "1a1"]).score_breakdown(0)
    assert (got["up"], got["down"], got["has_pyramid"]) == (1, 0, 1)  # a ball on its base
    got = placed(mode, ["0a1", "0b1", "0a2"]).score_breakdown(0)
    assert (got["up"], got["has_pyramid"]) == (0, 0)
    nine = [f"0{c}{r}" for r in "123" for c in "abc"]
    got = placed(mode, nine + ["1a1", "1b1", "1a2", "1b2"]).score_breakdown(0)
    assert got["down"] == 1  # 0b2 with the four balls resting on it
    assert got["up"] == 4    # each of the four level-1 balls on its base


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_pinned_balls_stay_and_no_ball_goes_onto_a_fallen_one(mode: str) -> None:
    state = placed(mode, CORNER + ["1a1", "1b1"])
    assert state.score_breakdown(0)["pinned"] == 2  # 0b1 and 0b2 each carry two balls
    moves = labels(state)
    assert not any(m.startswith(("move 0b1 ", "move 0b2 ")) for m in moves)
    # lifting 0a1 drops 1a1 into it: 1a1 is free again but rests on the fallen ball
    assert "move 0a1 0d4" in moves and "move 0a1 1a1" not in moves
    # 0c1 carries only 1b1, which drops into it: nowhere over 0c1 either (1b1 rests on it)
    assert "move 0c1 1b1" not in moves and "move 0c1 0d1" in moves
    state.apply_action("move 0a1 0d4")
    seen = {s["site"]: s["pieces"] for s in state.observation(0)["board"]}
    assert seen["0a1"] and not seen["1a1"] and seen["0d4"]  # 1a1 fell into 0a1


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_a_ball_that_fell_in_an_earlier_move_is_no_obstacle(mode: str) -> None:
    state = placed(mode, CORNER + ["1a1", "1b1"])
    state.apply_action("move 0a1 0d4")  # 1a1 falls into 0a1
    state.apply_action("pass")
    # a new action: 1a1 is playable again over the ball that fell one move ago
    assert "place 1a1" in labels(state)
    assert "move 0d4 1a1" in labels(state)
