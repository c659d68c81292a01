"""`repeated_board(n)`: the board alone (pieces on sites, by kind and owner) counted at the start
and after each turn, whoever is to move and whatever the zones hold; in an action's `require`
it compares the board the action makes with every earlier one (positional superko). Both
evaluators, on a two-site board where a stone can be put, taken back or thrown away."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

BOOK = """use square
game "Boards"
players A, B
board square.grid(1, {cols}, 2)
piece stone
zone supply each player: 5 stone
zone bin: 0 stone
action put
  choose site s in sites where empty(s)
  put stone of mover at s
  {guard}
action take
  choose site s in sites where owner(s) == mover
  move top(s) to supply of mover
  {guard}
action discard
  move first x in supply of mover to bin
action pass
turn
  do put or take or discard or pass
end
  when repeated(2)
    draw
  when repeated_board(2)
    winner mover
"""
SUPERKO = 'require not repeated_board(1) else "an earlier board"'
MODES = ("interpreted", "compiled")


def game(tmp_path: Path, mode: str, guard: str = "", cols: int = 2):
    path = tmp_path / "boards.rule"
    path.write_text(BOOK.replace("{guard}", guard).replace("{cols}", str(cols)),
                    encoding="utf-8")
    return rulelang.load_game(path, mode=mode)


def play(state, *actions: str):
    for a in actions:
        state.apply_action(a)
    return state


def strings(state) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


@pytest.mark.parametrize("mode", MODES)
def test_the_same_board_with_the_other_player_to_move_counts(tmp_path: Path, mode: str) -> None:
    state = play(game(tmp_path, mode).new_initial_state(), "put a1", "pass")
    # board {a1: A} twice, once with B and once with A to move: only the board repeated
    assert state.is_terminal() and state.winners() == [1]


@pytest.mark.parametrize("mode", MODES)
def test_zones_do_not_count(tmp_path: Path, mode: str) -> None:
    state = play(game(tmp_path, mode).new_initial_state(), "discard")
    # the empty board again, with B to move and one stone fewer in A's supply: A, who has
    # just acted, is the winner of `end`
    assert state.is_terminal() and state.winners() == [0]


@pytest.mark.parametrize("mode", MODES)
def test_the_whole_position_again_is_also_the_board_again(tmp_path: Path, mode: str) -> None:
    state = play(game(tmp_path, mode).new_initial_state(), "put a1", "put b1", "take a1",
                 "take b1")
    # the empty board with A to move: the start position; repeated(2) is checked first
    assert state.is_terminal() and state.winners() == []


@pytest.mark.parametrize("mode", MODES)
def test_a_different_owner_is_a_different_board(tmp_path: Path, mode: str) -> None:
    state = play(game(tmp_path, mode, cols=3).new_initial_state(), "put a1", "put b1",
                 "take a1", "put a1", "put c1", "take b1", "take c1")
    # {a1: B} now, {a1: A} after the first turn: not the same board
    assert not state.is_terminal()
    assert strings(state) == ["discard", "pass", "put b1", "put c1", "take a1"]


@pytest.mark.parametrize("mode", MODES)
def test_superko_refuses_an_action_that_remakes_an_earlier_board(tmp_path: Path,
                                                                 mode: str) -> None:
    state = play(game(tmp_path, mode, SUPERKO).new_initial_state(), "put a1")
    assert strings(state) == ["discard", "pass", "put b1"]  # B owns nothing to take yet
    state = play(state, "put b1", "take a1")                 # {a1: A, b1: B}, then {b1: B}
    # B taking b1 would remake the empty board of the start; B putting on a1 makes a new one
    assert strings(state) == ["discard", "pass", "put a1"]
    state = play(state, "put a1")                            # {a1: B, b1: B}
    # A cannot take (A owns nothing), and A's stone on a free site is impossible: no site
    assert strings(state) == ["discard", "pass"]


@pytest.mark.parametrize("mode", MODES)
def test_without_superko_the_earlier_board_is_offered(tmp_path: Path, mode: str) -> None:
    state = play(game(tmp_path, mode).new_initial_state(), "put a1", "put b1", "take a1")
    assert strings(state) == ["discard", "pass", "put a1", "take b1"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("asks", [("repeated",), ("repeated_board",),
                                  ("repeated", "repeated_board")])
def test_only_what_the_rulebook_asks_for_is_counted(
        tmp_path: Path, mode: str, asks: tuple[str, ...]) -> None:
    """A rulebook that asks only `repeated` counts positions, not boards, and one that asks
    only `repeated_board` boards; each still ends the game as it says, the third time the
    empty board with A to move comes back (`put`, `take` by both, twice): a draw, or B, who
    moved last, wins (`repeated` is asked first)."""
    ends = {"repeated": "  when repeated(3)\n    draw\n",
            "repeated_board": "  when repeated_board(3)\n    winner mover\n"}
    text = BOOK.replace("{guard}", "").replace("{cols}", "2")
    head, _ = text.split("end\n")
    path = tmp_path / "asks.rule"
    path.write_text(head + "end\n" + "".join(ends[a] for a in asks), encoding="utf-8")
    g = rulelang.load_game(path, mode=mode)
    state = g.new_initial_state()
    kinds = {"board" if key[0] == "board" else "position"
             for key in state.ctx.data.positions}
    assert kinds == {"board" if a == "repeated_board" else "position" for a in asks}
    plies = 0
    while not state.is_terminal():
        play(state, "put a1", "put b1", "take a1", "take b1")
        plies += 4
    assert plies == 8
    assert state.returns() == ([0.0, 0.0] if "repeated" in asks else [-1.0, 1.0])
