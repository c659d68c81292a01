"""How the classic rulebooks and OpenSpiel 2.0.2 name the same move and the same board.

Moves are matched through board coordinates, never through action indices: every OpenSpiel
action string is decoded into the sites it names and re-spelled the way the rulebook spells
that move (the conventions are documented at the top of each rulebook):

| game         | OpenSpiel (player 0 first)         | rulebook                              |
|--------------|------------------------------------|---------------------------------------|
| tic_tac_toe  | "x(r,c)", action 3r + c            | "place " + letter(c) + str(r + 1)     |
| connect_four | "x3": column 3, action = column    | "place d<h>", h = landing row from 1  |
| hex          | "c2": column c, row 2 (north = 1)  | "place c2"                            |
| breakthrough | "a7b6*": a7 to b6, '*' = a capture | "move a7 b6"                          |

Boards are compared as {site name: player index} read from OpenSpiel's ToString() and from
rulelang's observation(). Player indices are the same in both (player 0 moves first).
This module does not import pyspiel; it works on the pyspiel objects the tests hand it.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
Board = dict[str, int]  # site name -> index of the player whose piece is there

_MARKS = {"x": 0, "o": 1, "b": 0, "w": 1}


def letter(c: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[c]


def site(c: int, r: int) -> str:
    """A rulebook site name: column letter + 1-based row."""
    return f"{letter(c)}{r + 1}"


# -- OpenSpiel boards, from state.ToString() ---------------------------------------------------
def _grid_board(rows: list[str], row_of: Callable[[int], int]) -> Board:
    """Rows of one character per cell; row_of(line index) is the rulebook's 0-based row."""
    return {site(c, row_of(i)): _MARKS[ch] for i, line in enumerate(rows)
            for c, ch in enumerate(line) if ch != "."}


def tic_tac_toe_board(text: str) -> Board:
    """Three lines, OpenSpiel row r (0 first) = rulebook row r + 1."""
    return _grid_board(text.strip().splitlines(), lambda i: i)


def connect_four_board(text: str) -> Board:
    """Six lines printed top row first; the rulebook counts rows from the bottom."""
    lines = text.strip().splitlines()
    return _grid_board(lines, lambda i: len(lines) - 1 - i)


def hex_board(text: str) -> Board:
    """One line per row, north (row 1) first, cells separated by blanks, shifted right."""
    return _grid_board(["".join(line.split()) for line in text.strip("\n").splitlines()],
                       lambda i: i)


def breakthrough_board(text: str) -> Board:
    """Lines "<row label><cells>", top first, then a line of column letters; the rulebook's
    row numbers are OpenSpiel's labels."""
    lines = text.strip("\n").splitlines()[:-1]
    return {site(c, int(line[0]) - 1): _MARKS[ch] for line in lines
            for c, ch in enumerate(line[1:]) if ch != "."}


# -- OpenSpiel actions, decoded into the rulebook's strings ------------------------------------
def tic_tac_toe_move(text: str, board: Board) -> str:
    m = re.fullmatch(r"[xo]\((\d+),(\d+)\)", text)
    assert m, f"unexpected OpenSpiel tic_tac_toe action {text!r}"
    return "place " + site(int(m[2]), int(m[1]))


def connect_four_move(text: str, board: Board) -> str:
    """A column; the disc lands above the discs already in it."""
    m = re.fullmatch(r"[xo](\d+)", text)
    assert m, f"unexpected OpenSpiel connect_four action {text!r}"
    c = int(m[1])
    height = sum(1 for name in board if name[0] == letter(c))
    return "place " + site(c, height)


def hex_move(text: str, board: Board) -> str:
    m = re.fullmatch(r"([a-z])(\d+)", text)
    assert m, f"unexpected OpenSpiel hex action {text!r}"
    return "place " + site(ord(m[1]) - ord("a"), int(m[2]) - 1)


def breakthrough_move(text: str, board: Board) -> str:
    m = re.fullmatch(r"([a-z])(\d)([a-z])(\d)(\*?)", text)
    assert m, f"unexpected OpenSpiel breakthrough action {text!r}"
    src = site(ord(m[1]) - ord("a"), int(m[2]) - 1)
    dest = site(ord(m[3]) - ord("a"), int(m[4]) - 1)
    assert bool(m[5]) == (dest in board), f"capture mark of {text!r} disagrees with the board"
    return f"move {src} {dest}"


@dataclass(frozen=True)
class Pair:
    """One classic game: the rulebook, the OpenSpiel game, and how to translate between them."""

    rulebook: str                                   # file stem in rulebooks/
    openspiel: str                                  # pyspiel short name
    read_board: Callable[[str], Board]
    read_move: Callable[[str, Board], str]
    size_params: Callable[[int], dict[str, Any]] | None = None  # option size -> pyspiel params
    default_size: int | None = None
    needs_board: bool = field(default=False)         # does read_move look at the board?

    @property
    def path(self) -> Path:
        return ROOT / "rulebooks" / f"{self.rulebook}.rule"

    def options(self, size: int | None = None) -> dict[str, Any]:
        return {} if size is None else {"size": size}

    def params(self, size: int | None = None) -> dict[str, Any]:
        if self.size_params is None:
            return {}
        return self.size_params(self.default_size if size is None else size)

    def label(self, size: int | None) -> str:
        return self.rulebook if size is None else f"{self.rulebook} {size}x{size}"


PAIRS = {
    "tic_tac_toe": Pair("tic_tac_toe", "tic_tac_toe", tic_tac_toe_board, tic_tac_toe_move),
    "connect_four": Pair("connect_four", "connect_four", connect_four_board, connect_four_move,
                         needs_board=True),
    "hex": Pair("hex", "hex", hex_board, hex_move, lambda n: {"board_size": n}, 11),
    "breakthrough": Pair("breakthrough", "breakthrough", breakthrough_board, breakthrough_move,
                         lambda n: {"rows": n, "columns": n}, 8, needs_board=True),
}


# -- both engines behind one small interface ----------------------------------------------------
def openspiel_moves(pair: Pair, state: Any) -> dict[str, int]:
    """{rulebook action string: OpenSpiel action} for an OpenSpiel state."""
    board = pair.read_board(str(state)) if pair.needs_board else {}
    player = state.current_player()
    moves = {pair.read_move(state.action_to_string(player, a), board): a
             for a in state.legal_actions()}
    assert len(moves) == len(state.legal_actions()), "two OpenSpiel actions map to one move"
    return moves


def rulelang_moves(state: Any) -> dict[str, int]:
    """{action string: action} for a rulelang state."""
    moves = {state.action_to_string(a): a for a in state.legal_actions()}
    assert len(moves) == len(state.legal_actions()), "two rulelang actions share a string"
    return moves


def rulelang_board(state: Any) -> Board:
    obs = state.observation(0)
    seat = {name: i for i, name in enumerate(obs["players"])}
    board: Board = {}
    for cell in obs["board"]:
        owners = {seat[p["owner"]] for p in cell["pieces"]}
        assert len(owners) <= 1, f"several owners on {cell['site']}: {cell['pieces']}"
        if owners:
            board[cell["site"]] = owners.pop()
    return board


def render(board: Board, marks: str = "xo") -> str:
    """A short one-line picture of a board for assertion messages: 'a1:x b2:o …'."""
    return " ".join(f"{name}:{marks[p]}" for name, p in sorted(board.items(),
                    key=lambda kv: (int(kv[0][1:]), kv[0][0]))) or "(empty)"
