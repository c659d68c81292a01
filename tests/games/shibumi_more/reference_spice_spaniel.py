"""Independent reference for Spice and Spaniel (rulebooks/spice.rule, spaniel.rule).

Pure Python, no rulelang import, written from the rules (not from the rulebooks); the pyramid's
tables come from reference_impl.py. The perft and random-game tests compare each rulebook with
it action by action.

Spaniel: three players, nobody owns a colour; a turn is two actions `place S` by the same
player in the colours of the schedule (P1 black then white, P2 red then black, P3 white then
red); after every ball, a visible line of three of its colour through it wins: along a row, a
column or any diagonal of its level (contiguous visible balls), or straight down two levels;
a full pyramid is a draw.

Spice: White and Black, a red neutral pyramid on the five hidden sites; a turn is one action:
`place S`, `place S T` (an unordered pair written in site order, both balls placeable one
after the other; not on the very first turn, and not when the first ball would be the 29th),
each optionally after `remove R` (an opponent's ball with nothing resting on it) when the
largest group of either colour grew during the previous turn; 29 balls end the game, the
larger largest group wins, equal is a draw.
"""
from __future__ import annotations

from reference_impl import ABOVE, BASE, BY_NAME, NAMES, SITES, TOUCH, _at, playable

SCHEDULE = (("black", "white"), ("red", "black"), ("white", "red"))
AXES = ((0, 1), (1, 0), (1, 1), (1, -1))
NEUTRAL = "red"
HIDDEN5 = [BY_NAME[n] for n in ("0b2", "0c2", "0b3", "0c3", "1b2")]


def is_visible(board: list, i: int) -> bool:
    """A ball with no ball two levels straight above it (z+2, r-1, c-1)."""
    z, r, c = SITES[i]
    above = _at(z + 2, r - 1, c - 1)
    return board[i] is not None and (above is None or board[above] is None)


def visible_line_of_three(board: list, i: int) -> bool:
    colour = board[i]
    z, r, c = SITES[i]

    def same(j: int | None) -> bool:
        return j is not None and board[j] == colour and is_visible(board, j)
    if not same(i):
        return False
    for dr, dc in AXES:
        n = 1
        for sign in (1, -1):
            k = 1
            while same(_at(z, r + sign * k * dr, c + sign * k * dc)):
                n, k = n + 1, k + 1
        if n >= 3:
            return True
    for a in (0, 1):
        for b in (0, 1):
            if same(_at(z - 1, r + a, c + b)) and same(_at(z - 2, r + 2 * a, c + 2 * b)):
                return True
    return False


class SpanielRef:
    n = 3

    def __init__(self) -> None:
        self.board: list[str | None] = [None] * len(SITES)
        self.mover = 0
        self.second = False  # the next ball is the second of the turn
        self.done = False
        self.winners: list[int] = []

    def clone(self) -> SpanielRef:
        other = object.__new__(SpanielRef)
        other.__dict__ = {k: (v.copy() if isinstance(v, list) else v)
                          for k, v in self.__dict__.items()}
        return other

    def legal(self) -> list[str]:
        return [] if self.done else [f"place {NAMES[i]}" for i in playable(self.board)]

    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r}")
        i = BY_NAME[action.split()[1]]
        self.board[i] = SCHEDULE[self.mover][1 if self.second else 0]
        if visible_line_of_three(self.board, i):
            self.done, self.winners = True, [self.mover]
        elif all(x is not None for x in self.board):
            self.done = True
        elif self.second:
            self.second, self.mover = False, (self.mover + 1) % 3
        else:
            self.second = True


def largest_group(board: list, colour: int) -> int:
    best, seen = 0, set()
    for i in range(len(SITES)):
        if board[i] == colour and i not in seen:
            size, stack = 0, [i]
            seen.add(i)
            while stack:
                a = stack.pop()
                size += 1
                for b in TOUCH[a]:
                    if board[b] == colour and b not in seen:
                        seen.add(b)
                        stack.append(b)
            best = max(best, size)
    return best


def fills_after(board: list, first: int, second: int) -> bool:
    """second is empty and fully supported once first holds a ball."""
    return second != first and board[second] is None and \
        all(board[j] is not None or j == first for j in BASE[second])


class SpiceRef:
    n = 2

    def __init__(self) -> None:
        self.board: list[object] = [None] * len(SITES)
        for i in HIDDEN5:
            self.board[i] = NEUTRAL
        self.mover = 0
        self.turn = 1
        self.right = False  # the mover may remove
        self.done = False
        self.winners: list[int] = []

    def clone(self) -> SpiceRef:
        other = object.__new__(SpiceRef)
        other.__dict__ = {k: (v.copy() if isinstance(v, list) else v)
                          for k, v in self.__dict__.items()}
        return other

    def _placements(self, board: list) -> list[str]:
        free = playable(board)
        out = [NAMES[i] for i in free]
        balls = sum(x is not None for x in board)
        if self.turn > 1 and balls + 2 <= 29:
            empty = [i for i in range(len(SITES)) if board[i] is None]
            for x in empty:
                for y in empty:
                    if x < y and ((x in free and fills_after(board, x, y))
                                  or (y in free and fills_after(board, y, x))):
                        out.append(f"{NAMES[x]} {NAMES[y]}")
        return out

    def legal(self) -> list[str]:
        if self.done:
            return []
        out = [f"place {p}" for p in self._placements(self.board)]
        if self.right:
            other = 1 - self.mover
            for r in range(len(SITES)):
                if self.board[r] == other and all(self.board[a] is None for a in ABOVE[r]):
                    after = self.board.copy()
                    after[r] = None
                    out += [f"remove {NAMES[r]} place {p}" for p in self._placements(after)]
        return out

    def g(self) -> int:
        return max(largest_group(self.board, 0), largest_group(self.board, 1))

    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r}")
        before = self.g()
        words = action.split()
        if words[0] == "remove":
            self.board[BY_NAME[words[1]]] = None
            words = words[2:]
        for name in words[1:]:
            self.board[BY_NAME[name]] = self.mover
        if sum(x is not None for x in self.board) == 29:
            mine, theirs = largest_group(self.board, 0), largest_group(self.board, 1)
            self.done = True
            self.winners = [0] if mine > theirs else [1] if theirs > mine else []
            return
        self.right = self.g() > before
        self.mover, self.turn = 1 - self.mover, self.turn + 1


def make(name: str):
    return {"spice": SpiceRef, "spaniel": SpanielRef}[name]()
