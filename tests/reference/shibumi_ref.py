"""Independent reference for Spline, Sponnect and Spline+ on the Shibumi pyramid.

Pure Python, no rulelang import: the perft and differential tests compare the rulebooks
against this file.  Conventions (shared with rulebooks/*.rule):

* site (z, r, c), 0 <= r, c < 4 - z, named f"{z}{'abcd'[c]}{r + 1}"; canonical order (z, r, c);
* players 0 = White (first), 1 = Black; red (neutral) balls are RED;
* actions "place <site>", "pass", "move <from> <to>", sorted by the game's declared action
  kinds, then by the canonical order of the chosen sites (as a tuple).

A state with no legal action (only possible in odd corner cases, e.g. Sponnect with the
mover's supply exhausted right after a pass) ends the game as a draw.
"""

from __future__ import annotations

from collections import Counter

EMPTY, RED = None, 2
SIZE = 4
SITES = [(z, r, c) for z in range(SIZE) for r in range(SIZE - z) for c in range(SIZE - z)]
INDEX = {s: i for i, s in enumerate(SITES)}
NAMES = [f"{z}{'abcd'[c]}{r + 1}" for z, r, c in SITES]
BY_NAME = {n: i for i, n in enumerate(NAMES)}


def _base(z: int, r: int, c: int) -> tuple[int, ...]:
    if z == 0:
        return ()
    b = [(z - 1, r, c), (z - 1, r, c + 1), (z - 1, r + 1, c), (z - 1, r + 1, c + 1)]
    return tuple(INDEX[s] for s in b)


BASE = [_base(*s) for s in SITES]
ABOVE = [tuple(j for j in range(len(SITES)) if i in BASE[j]) for i in range(len(SITES))]


def _touching(i: int) -> tuple[int, ...]:
    z, r, c = SITES[i]
    same = [
        INDEX[(z, r + dr, c + dc)]
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if (z, r + dr, c + dc) in INDEX
    ]
    return tuple(sorted(set(same) | set(BASE[i]) | set(ABOVE[i])))


TOUCH = [_touching(i) for i in range(len(SITES))]


def _lines() -> list[tuple[int, tuple[int, ...]]]:
    """(length, site indices) of every full-line candidate on levels 0..2."""
    out = []
    for z in range(SIZE - 1):
        n = SIZE - z
        cells = [[(z, r, c) for c in range(n)] for r in range(n)]
        groups = cells + [list(col) for col in zip(*cells, strict=True)]
        groups += [[(z, k, k) for k in range(n)], [(z, k, n - 1 - k) for k in range(n)]]
        out += [(n, tuple(INDEX[s] for s in g)) for g in groups]
    return out


LINES = _lines()
SPONNECT_RED = [INDEX[s] for s in ((0, 1, 1), (0, 1, 2), (0, 2, 1), (0, 2, 2), (1, 1, 1))]
# Edges per player: White left (c == 0) / right (c == 3); Black top (r == 0) / bottom (r == 3).
EDGES = (
    (frozenset(INDEX[(0, r, 0)] for r in range(4)), frozenset(INDEX[(0, r, 3)] for r in range(4))),
    (frozenset(INDEX[(0, 0, c)] for c in range(4)), frozenset(INDEX[(0, 3, c)] for c in range(4))),
)
GAMES = ("spline", "sponnect", "spline_plus")


class ShibumiRef:
    """One game state; `game` is "spline", "sponnect" or "spline_plus"."""

    def __init__(self, game: str) -> None:
        if game not in GAMES:
            raise ValueError(game)
        self.game = game
        self.board: list[int | None] = [EMPTY] * len(SITES)
        if game == "sponnect":
            for i in SPONNECT_RED:
                self.board[i] = RED
        self.mover = 0
        self.supply = [16, 16]
        self.last_was_pass = False
        self.done = False
        self.win: int | None = None
        self.history: list[str] = []
        self.seen: Counter[tuple] = Counter([self._key()])

    # -- queries ---------------------------------------------------------------------------
    def _key(self) -> tuple:
        return tuple(self.board), self.mover

    def playable(self, board: list | None = None) -> list[int]:
        b = self.board if board is None else board
        return [
            i
            for i in range(len(SITES))
            if b[i] is EMPTY and all(b[j] is not EMPTY for j in BASE[i])
        ]

    def _liftable(self) -> list[int]:
        return [
            i
            for i in range(len(SITES))
            if self.board[i] == self.mover
            and sum(self.board[j] is not EMPTY for j in ABOVE[i]) <= 1
        ]

    def legal(self) -> list[str]:
        if self.done:
            return []
        return self._actions()

    def _actions(self) -> list[str]:
        places = (
            [f"place {NAMES[i]}" for i in self.playable()] if self.supply[self.mover] > 0 else []
        )
        if self.game == "spline":
            return places
        if self.game == "sponnect":
            return places + ([] if self.last_was_pass else ["pass"])
        moves = []
        for f in self._liftable():
            after = settle(self.board, f)
            moves += [f"move {NAMES[f]} {NAMES[t]}" for t in self.playable(after) if t != f]
        return places + moves

    def is_terminal(self) -> bool:
        return self.done

    def winner(self) -> int | None:
        return self.win

    def clone(self) -> ShibumiRef:
        other = object.__new__(ShibumiRef)
        other.__dict__ = {
            k: (v.copy() if hasattr(v, "copy") else v) for k, v in self.__dict__.items()
        }
        return other

    def longest_line(self, player: int) -> int:
        b = self.board
        return max((n for n, line in LINES if all(b[i] == player for i in line)), default=0)

    def group(self, start: int) -> set[int]:
        colour, seen, todo = self.board[start], {start}, [start]
        while todo:
            for j in TOUCH[todo.pop()]:
                if j not in seen and self.board[j] == colour:
                    seen.add(j)
                    todo.append(j)
        return seen

    def owners(self) -> dict[str, int | None]:
        """site name -> 0, 1, RED, or None (empty)."""
        return {NAMES[i]: v for i, v in enumerate(self.board)}

    # -- effects ---------------------------------------------------------------------------
    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r}")
        self.history.append(action)
        kind, *args = action.split()
        p = self.mover
        if kind == "pass":
            self.last_was_pass = True
        else:
            self.last_was_pass = False
            if kind == "place":
                dest = BY_NAME[args[0]]
                self.supply[p] -= 1
            else:
                self.board = settle(self.board, BY_NAME[args[0]])
                dest = BY_NAME[args[1]]
            self.board[dest] = p
            self._judge(dest)
        self.mover = 1 - p
        if not self.done:
            self._after_turn()

    def _judge(self, dest: int) -> None:
        p = self.mover
        if self.game == "spline":
            if self.longest_line(p):
                self.done, self.win = True, p
        elif self.game == "sponnect":
            g = self.group(dest)
            if g & EDGES[p][0] and g & EDGES[p][1]:
                self.done, self.win = True, p
        else:
            mine, theirs = self.longest_line(p), self.longest_line(1 - p)
            if mine or theirs:
                self.done, self.win = True, (p if mine >= theirs else 1 - p)

    def _after_turn(self) -> None:
        if self.game == "spline_plus":
            key = self._key()
            self.seen[key] += 1
            if self.seen[key] >= 3:
                self.done = True
                return
        if not self._actions():
            self.done = True


def settle(board: list, lifted: int) -> list:
    """Board copy with `lifted` emptied, then balls dropped until every ball is supported:
    repeatedly the first (canonical order) unsupported ball drops into the first empty site
    of its base."""
    b = list(board)
    b[lifted] = EMPTY
    while True:
        for i in range(16, len(SITES)):
            if b[i] is not EMPTY:
                hole = next((j for j in BASE[i] if b[j] is EMPTY), None)
                if hole is not None:
                    b[hole], b[i] = b[i], EMPTY
                    break
        else:
            return b


def perft(state: ShibumiRef, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for a in state.legal():
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total
