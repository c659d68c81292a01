"""Shibumi scenarios through the public API (action strings), in both engine modes.

The action sequences were worked out by hand and checked with tests/reference/shibumi_ref.py;
the assertions below use only the engine.  Sites are named f"{level}{column a-d}{row 1-4}".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_tools import legal, play

ROOT = Path(__file__).resolve().parents[1]
_GAMES: dict[tuple[str, str], object] = {}


@pytest.fixture(params=["interpreted", "compiled"])
def load(request):
    """load(name) -> Game for rulebooks/<name>.rule in the parametrized mode (cached)."""
    import rulelang

    def _load(name: str):
        key = (name, request.param)
        if key not in _GAMES:
            _GAMES[key] = rulelang.load_game(ROOT / f"rulebooks/{name}.rule", mode=request.param)
        return _GAMES[key]

    return _load


def owners(state) -> dict[str, str | None]:
    """site -> owner of the ball on it ("White", "Black", None for red); empty sites left out."""
    board = state.observation(0)["board"]
    return {e["site"]: e["pieces"][0]["owner"] for e in board if e["pieces"]}


def assert_won(state, player: int) -> None:
    assert state.is_terminal()
    assert state.winners() == [player]
    assert list(state.returns()) == ([1, -1] if player == 0 else [-1, 1])


# -- Sponnect -------------------------------------------------------------------------------
def test_sponnect_white_wins_through_level_one(load) -> None:
    # Level 0 row 1 is White 0a1 0b1, Black 0c1, White 0d1: no level-0 path.  1b1 (on
    # 0b1 0c1 and two reds) and 1c1 (on 0c1 0d1 red 0d2) bridge the gap above Black's 0c1.
    state = play(
        load("sponnect"), "place 0a1;place 0c1;place 0b1;place 0d2;place 0d1;pass;place 1b1;pass"
    )
    assert not state.is_terminal()
    assert owners(state)["0c1"] == "Black" and owners(state)["1b1"] == "White"
    play(load("sponnect"), "place 1c1", state)
    assert_won(state, 0)


def test_sponnect_pass_cannot_answer_pass(load) -> None:
    import rulelang

    state = load("sponnect").new_initial_state()
    assert "pass" in legal(state)
    state.apply_action("pass")
    assert state.current_player() == 1
    assert "pass" not in legal(state)
    with pytest.raises(rulelang.IllegalActionError, match="(?i)pass"):
        state.apply_action("pass")
    state.apply_action("place 0a1")
    assert "pass" in legal(state)


# -- Spline ---------------------------------------------------------------------------------
def test_spline_level_one_diagonal_wins(load) -> None:
    state = play(
        load("spline"),
        "place 0a1;place 0b1;place 0a2;place 0b2;place 0c2;place 0b3;"
        "place 0c3;place 0d3;place 0c4;place 0d4;place 1a1;place 0a4;place 1b2;place 0d1",
    )
    assert not state.is_terminal()
    play(load("spline"), "place 1c3", state)  # White 1a1 1b2 1c3
    assert_won(state, 0)


# -- Spline+ --------------------------------------------------------------------------------
def test_spline_plus_move_makes_one_ball_fall(load) -> None:
    state = play(load("spline_plus"), "place 0a1;place 0b1;place 0a2;place 0b2;place 1a1")
    before = owners(state)
    assert before["0b1"] == "Black" and before["1a1"] == "White" and "0d4" not in before
    play(load("spline_plus"), "move 0b1 0d4", state)  # White's 1a1 drops into 0b1
    after = owners(state)
    assert after["0b1"] == "White" and "1a1" not in after and after["0d4"] == "Black"
    assert len(after) == 5 and not state.is_terminal()


def test_spline_plus_move_makes_two_balls_fall(load) -> None:
    state = play(
        load("spline_plus"),
        "place 0a1;place 0b1;place 0c1;place 0a2;place 0b2;"
        "place 0c2;place 0a3;place 0b3;place 0c3;place 1b1;place 1a1;place 1a2;"
        "place 1b2;place 2a1",
    )
    before = owners(state)
    assert (before["0a1"], before["1a1"], before["2a1"]) == ("White", "White", "Black")
    play(load("spline_plus"), "move 0a1 0d1", state)  # 1a1 -> 0a1, then 2a1 -> 1a1
    after = owners(state)
    assert (after["0a1"], after["1a1"], after["0d1"]) == ("White", "Black", "White")
    assert "2a1" not in after and len(after) == 14 and not state.is_terminal()


def test_spline_plus_ball_under_two_balls_cannot_move(load) -> None:
    import rulelang

    state = play(
        load("spline_plus"),
        "place 0a1;place 0b1;place 0c1;place 0a2;place 0b2;place 0c2;place 1a1;place 1b1;place 0d4",
    )
    # Black to move: its 0b1 carries 1a1 and 1b1; its 0c2 carries only 1b1.
    moves = legal(state)
    assert not any(m.startswith("move 0b1 ") for m in moves)
    assert "move 0c2 0d3" in moves
    with pytest.raises(rulelang.IllegalActionError):
        state.apply_action("move 0b1 0d3")


def test_spline_plus_longer_line_wins_over_mover(load) -> None:
    # White lifts 0d4 from under Black's 1c3, which drops and completes Black's row 4 (four);
    # White completes its level-1 row 1a1 1b1 1c1 (three): Black wins on White's turn.
    state = play(
        load("spline_plus"),
        "place 0a1;place 0b1;place 0c1;place 0d1;place 0a2;"
        "place 0b2;place 0d2;place 0c2;place 1a1;place 0d3;place 1b1;place 0a4;"
        "place 0c3;place 0b4;place 0d4;place 0c4;place 0a3;place 1c3",
    )
    assert state.current_player() == 0
    play(load("spline_plus"), "move 0d4 1c1", state)
    assert [owners(state)[s] for s in ("0a4", "0b4", "0c4", "0d4")] == ["Black"] * 4
    assert [owners(state)[s] for s in ("1a1", "1b1", "1c1")] == ["White"] * 3
    assert_won(state, 1)


def test_spline_plus_equal_lines_mover_wins(load) -> None:
    # White lifts 0d4: Black's 1c3 drops in and completes Black's row 4; White's ball
    # completes White's row 1.  Both lines have four balls: the mover (White) wins.
    state = play(
        load("spline_plus"),
        "place 0a1;place 0a4;place 0b1;place 0b4;place 0c1;"
        "place 0c4;place 0d4;place 0d3;place 0c3;place 1c3",
    )
    play(load("spline_plus"), "move 0d4 0d1", state)
    assert [owners(state)[s] for s in ("0a4", "0b4", "0c4", "0d4")] == ["Black"] * 4
    assert [owners(state)[s] for s in ("0a1", "0b1", "0c1", "0d1")] == ["White"] * 4
    assert_won(state, 0)


def test_spline_plus_threefold_repetition_is_a_draw(load) -> None:
    cycle = ";move 0a1 0a2;move 0d4 0d3;move 0a2 0a1;move 0d3 0d4"
    # the position after "place 0d4" (White to move) occurs for the 2nd time after one cycle
    state = play(
        load("spline_plus"), "place 0a1;place 0d4" + cycle + cycle[: -len(";move 0d3 0d4")]
    )
    assert not state.is_terminal()
    play(load("spline_plus"), "move 0d3 0d4", state)  # ... and for the 3rd time here
    assert state.is_terminal()
    assert state.winners() == []
    assert list(state.returns()) == [0, 0]
