"""Classic games (tic-tac-toe, Connect Four, Hex, Breakthrough) through the public API, in both
engine modes: wins on every kind of line, draws, connections for each player, captures.

The sequences were built by hand (the capture-everything Breakthrough game was found by a
biased random search) and checked against OpenSpiel 2.0.2; the assertions use only the engine.
Sites are named letter(column) + str(row + 1); see the header of each rulebook.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario_tools import legal, play

import rulelang

ROOT = Path(__file__).resolve().parents[1]
_GAMES: dict[tuple[str, str, tuple], object] = {}


@pytest.fixture(params=["interpreted", "compiled"])
def load(request):
    """load(name, **options) -> Game for rulebooks/<name>.rule in the parametrized mode."""

    def _load(name: str, **options):
        key = (name, request.param, tuple(sorted(options.items())))
        if key not in _GAMES:
            _GAMES[key] = rulelang.load_game(ROOT / f"rulebooks/{name}.rule", options or None,
                                             mode=request.param)
        return _GAMES[key]

    return _load


def owners(state) -> dict[str, str]:
    """site -> owner of the piece on it; empty sites left out."""
    board = state.observation(0)["board"]
    return {e["site"]: e["pieces"][-1]["owner"] for e in board if e["pieces"]}


def assert_won(state, player: int) -> None:
    assert state.is_terminal()
    assert state.current_player() == rulelang.TERMINAL
    assert state.winners() == [player]
    assert list(state.returns()) == ([1, -1] if player == 0 else [-1, 1])


def assert_drawn(state) -> None:
    assert state.is_terminal()
    assert state.winners() == []
    assert list(state.returns()) == [0, 0]


def assert_live(state, to_move: int) -> None:
    assert not state.is_terminal()
    assert state.current_player() == to_move


# -- Tic-tac-toe ----------------------------------------------------------------------------
def test_tic_tac_toe_opening(load) -> None:
    state = load("tic_tac_toe").new_initial_state()
    assert state.current_player() == 0
    assert legal(state) == {f"place {c}{r}" for c in "abc" for r in (1, 2, 3)}
    state.apply_action("place b2")
    assert state.current_player() == 1
    assert "place b2" not in legal(state) and len(legal(state)) == 8
    with pytest.raises(rulelang.IllegalActionError):
        state.apply_action("place b2")


def test_tic_tac_toe_row(load) -> None:
    state = play(load("tic_tac_toe"), "place a1;place a2;place b1;place b2")
    assert_live(state, 0)
    play(load("tic_tac_toe"), "place c1", state)
    assert_won(state, 0)


def test_tic_tac_toe_column_for_o(load) -> None:
    state = play(load("tic_tac_toe"), "place a1;place b1;place a2;place b2;place c3")
    assert_live(state, 1)
    play(load("tic_tac_toe"), "place b3", state)
    assert_won(state, 1)


def test_tic_tac_toe_diagonals(load) -> None:
    state = play(load("tic_tac_toe"), "place a1;place a2;place b2;place a3;place c3")
    assert_won(state, 0)
    state = play(load("tic_tac_toe"), "place a3;place a1;place b2;place a2;place c1")
    assert_won(state, 0)


def test_tic_tac_toe_full_board_draw(load) -> None:
    state = play(load("tic_tac_toe"), "place a3;place b3;place c3;place b2;place a2;place c2;"
                                      "place b1;place a1")
    assert_live(state, 0)
    play(load("tic_tac_toe"), "place c1", state)
    assert_drawn(state)


def test_tic_tac_toe_ninth_mark_completes_a_line(load) -> None:
    # X c2 b3 a2 c3, O a3 b2 a1 b1: no line yet; the ninth mark c1 gives X column c.
    state = play(load("tic_tac_toe"),
                 "place c2;place a3;place b3;place b2;place a2;place a1;place c3;place b1")
    assert_live(state, 0)
    play(load("tic_tac_toe"), "place c1", state)
    assert_won(state, 0)


# -- Connect Four ---------------------------------------------------------------------------
def test_connect_four_opening(load) -> None:
    state = load("connect_four").new_initial_state()
    assert legal(state) == {f"place {c}1" for c in "abcdefg"}
    state.apply_action("place d1")
    assert legal(state) == {f"place {c}1" for c in "abcefg"} | {"place d2"}


def test_connect_four_vertical(load) -> None:
    state = play(load("connect_four"), "place a1;place b1;place a2;place b2;place a3;place b3")
    assert_live(state, 0)
    play(load("connect_four"), "place a4", state)
    assert_won(state, 0)


def test_connect_four_rising_diagonal(load) -> None:
    state = play(load("connect_four"), "place a1;place b1;place b2;place c1;place c2;place d1;"
                                       "place c3;place d2;place d3;place a2")
    assert_live(state, 0)
    play(load("connect_four"), "place d4", state)  # a1 b2 c3 d4
    assert_won(state, 0)


def test_connect_four_falling_diagonal_for_o(load) -> None:
    state = play(load("connect_four"), "place a1;place d1;place c1;place c2;place b1;place a2;"
                                       "place b2;place b3;place a3")
    assert_live(state, 1)
    play(load("connect_four"), "place a4", state)  # a4 b3 c2 d1
    assert_won(state, 1)


DRAW = ("place a1;place a2;place a3;place a4;place a5;place a6;place b1;place b2;place b3;"
        "place b4;place b5;place b6;place e1;place c1;place c2;place c3;place c4;place c5;"
        "place c6;place d1;place d2;place d3;place d4;place d5;place d6;place e2;place e3;"
        "place e4;place e5;place e6;place f1;place f2;place f3;place f4;place f5;place g1;"
        "place g2;place g3;place g4;place g5;place g6")


def test_connect_four_full_board_draw(load) -> None:
    # columns, bottom up: a b e f = X O X O X O, c d g = O X O X O X: no four anywhere
    moves = DRAW.split(";")
    state = play(load("connect_four"), ";".join(moves[:6]))
    assert not any(a.startswith("place a") for a in legal(state))  # column a is full
    play(load("connect_four"), ";".join(moves[6:]), state)
    assert_live(state, 1)
    assert legal(state) == {"place f6"}
    play(load("connect_four"), "place f6", state)
    assert_drawn(state)
    assert len(owners(state)) == 42


# -- Hex ------------------------------------------------------------------------------------
def test_hex_default_and_small_boards(load) -> None:
    assert len(legal(load("hex").new_initial_state())) == 121
    state = load("hex", size=3).new_initial_state()
    assert legal(state) == {f"place {c}{r}" for c in "abc" for r in (1, 2, 3)}


def test_hex_black_links_north_and_south(load) -> None:
    game = load("hex", size=3)
    state = play(game, "place b1;place a1;place b2;place a2")
    assert_live(state, 0)
    play(game, "place b3", state)
    assert_won(state, 0)


def test_hex_white_links_west_and_east(load) -> None:
    game = load("hex", size=3)
    state = play(game, "place a1;place a2;place b1;place b2;place a3")
    assert_live(state, 1)
    play(game, "place c2", state)
    assert_won(state, 1)


def test_hex_black_across_is_not_a_win(load) -> None:
    # Black's stones from west to east link the wrong edges; White's from north to south too
    game = load("hex", size=3)
    state = play(game, "place a2;place a1;place b2;place b1;place c2")
    assert_live(state, 1)
    play(game, "place c1", state)  # White a1 b1 c1: west to east along row 1
    assert_won(state, 1)


def test_hex_six_neighbours_on_size_four(load) -> None:
    # White's chain a3 b2 c1 d1 climbs north-east: (r, c) touches (r-1, c+1)
    game = load("hex", size=4)
    state = play(game, "place a1;place a3;place b1;place b2;place a2;place c1")
    assert_live(state, 0)
    play(game, "place a4", state)  # Black a1 a2 ... a4: a3 is White, no link
    assert_live(state, 1)
    play(game, "place d1", state)
    assert_won(state, 1)


def test_hex_north_west_diagonal_does_not_touch(load) -> None:
    # a1 and b2 are not neighbours: (r, c) does not touch (r+1, c+1)
    game = load("hex", size=3)
    state = play(game, "place a1;place a2;place b2;place b1")
    assert_live(state, 0)
    play(game, "place c3", state)  # Black a1 b2 c3: a staircase the wrong way, no link
    assert_live(state, 1)


# -- Breakthrough ---------------------------------------------------------------------------
def test_breakthrough_setup(load) -> None:
    state = load("breakthrough").new_initial_state()
    board = owners(state)
    assert {s for s, p in board.items() if p == "Black"} == \
        {f"{c}{r}" for c in "abcdefgh" for r in (7, 8)}
    assert {s for s, p in board.items() if p == "White"} == \
        {f"{c}{r}" for c in "abcdefgh" for r in (1, 2)}
    assert state.current_player() == 0 and len(legal(state)) == 22
    small = owners(load("breakthrough", size=4).new_initial_state())
    assert sorted(small) == sorted(f"{c}{r}" for c in "abcd" for r in (1, 4))


def test_breakthrough_capture_and_blocking(load) -> None:
    game = load("breakthrough", size=6)
    state = game.new_initial_state()
    assert len(legal(state)) == 16
    assert "move a5 a4" in legal(state) and "move a6 a5" not in legal(state)
    play(game, "move a5 a4;move a2 a3", state)
    assert "move a4 a3" not in legal(state)  # straight ahead never captures
    assert "move a4 b3" in legal(state)
    play(game, "move b5 b4;move b2 b3", state)
    assert {"move a4 b3", "move b4 a3", "move b4 c3"} <= legal(state)  # diagonal captures
    play(game, "move a4 b3", state)
    board = owners(state)
    assert board["b3"] == "Black" and "a4" not in board
    assert sum(p == "White" for p in board.values()) == 11
    assert {"move a3 b4", "move c2 b3", "move a3 a4"} <= legal(state)


def test_breakthrough_black_reaches_row_one(load) -> None:
    game = load("breakthrough", size=6)
    state = play(game, "move a5 a4;move b2 b3;move a4 b3;move f2 f3;move b3 a2;move f3 f4")
    assert_live(state, 0)
    play(game, "move a2 b1", state)
    assert_won(state, 0)


def test_breakthrough_white_reaches_the_top_row(load) -> None:
    game = load("breakthrough", size=4)
    state = play(game, "move a4 a3;move d1 d2;move a3 a2;move d2 d3;move b4 b3")
    assert_live(state, 1)
    assert "move d3 d4" not in legal(state)
    play(game, "move d3 c4", state)
    assert_won(state, 1)


CAPTURE_ALL = ("e5d4 d2e3 d4e3 c2b3 e3f2 a2a3 d6e5 c1c2 d5d4 e2e3 d4e3 b1a2 c5b4 a3a4 b5a4 "
               "c2d3 a4b3 e1d2 b3a2 b2c3 e3d2 f1e2 b4c3 a1b2 c3b2 d3e4 f5e4 e2d3 e4d3 d1c2 "
               "d3c2")


def test_breakthrough_win_by_capturing_every_pawn(load) -> None:
    game = load("breakthrough", size=6)
    moves = [f"move {m[:2]} {m[2:]}" for m in CAPTURE_ALL.split()]
    state = play(game, ";".join(moves[:-1]))
    assert_live(state, 0)
    assert list(owners(state).values()).count("White") == 1
    play(game, moves[-1], state)  # d3 takes c2, on row 2: not the far row
    assert_won(state, 0)
    assert "White" not in owners(state).values()
