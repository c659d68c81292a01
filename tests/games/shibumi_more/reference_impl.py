"""Independent reference for the further Shibumi games (rulebooks/spava.rule, splice.rule, …).

Pure Python, no rulelang import, written from the rules (not from the rulebooks): the perft and
random-game tests compare every rulebook against it action by action.

* site (z, r, c), 0 <= r, c < 4 - z, named f"{z}{'abcd'[c]}{r + 1}", in the order (z, r, c);
* colours 0 = White, 1 = Black, 2 = Red; seats 0, 1 (and 2) in seat order;
* a player with no legal action is skipped; when every player in a row is skipped the game is
  a draw (S-06).
"""
from __future__ import annotations

from typing import Any

N = 4
SITES = [(z, r, c) for z in range(N) for r in range(N - z) for c in range(N - z)]
INDEX = {s: i for i, s in enumerate(SITES)}
NAMES = [f"{z}{'abcd'[c]}{r + 1}" for z, r, c in SITES]
BY_NAME = {n: i for i, n in enumerate(NAMES)}
WHITE, BLACK, RED = 0, 1, 2


def _at(z: int, r: int, c: int) -> int | None:
    return INDEX.get((z, r, c))


BASE = [tuple(i for i in (_at(z - 1, r, c), _at(z - 1, r, c + 1), _at(z - 1, r + 1, c),
                          _at(z - 1, r + 1, c + 1)) if i is not None) if z else ()
        for z, r, c in SITES]
ABOVE = [tuple(j for j in range(len(SITES)) if i in BASE[j]) for i in range(len(SITES))]
ORTHO = [tuple(i for i in (_at(z, r - 1, c), _at(z, r + 1, c), _at(z, r, c - 1),
                           _at(z, r, c + 1)) if i is not None) for z, r, c in SITES]
TOUCH = [tuple(sorted(set(ORTHO[i]) | set(BASE[i]) | set(ABOVE[i]))) for i in range(len(SITES))]
AXES = ((0, 1), (1, 0), (1, 1), (1, -1))  # row, column, diagonal, anti-diagonal steps (dr, dc)


def _full_lines() -> list[tuple[int, ...]]:
    out = []
    for z in range(N - 1):
        n = N - z
        out += [tuple(INDEX[(z, r, c)] for c in range(n)) for r in range(n)]
        out += [tuple(INDEX[(z, r, c)] for r in range(n)) for c in range(n)]
        out += [tuple(INDEX[(z, k, k)] for k in range(n)),
                tuple(INDEX[(z, k, n - 1 - k)] for k in range(n))]
    return out


LINES = _full_lines()
LINES_THROUGH = [[line for line in LINES if i in line] for i in range(len(SITES))]


def playable(board: list) -> list[int]:
    return [i for i in range(len(SITES))
            if board[i] is None and all(board[j] is not None for j in BASE[i])]


def run_length(board: list, i: int) -> int:
    """The longest straight run of board[i]'s colour through i on its level (any diagonal)."""
    z, r, c = SITES[i]
    best = 0
    for dr, dc in AXES:
        n = 1
        for sign in (1, -1):
            k = 1
            while True:
                j = _at(z, r + sign * k * dr, c + sign * k * dc)
                if j is None or board[j] != board[i]:
                    break
                n, k = n + 1, k + 1
        best = max(best, n)
    return best


class MoreRef:
    """One state of one of the games; `game` is the rulebook's stem ("spava", "splice")."""

    PLAYERS = {"spava": 2, "splice": 2, "spodd": 2, "spaiji": 2, "spire": 2, "splade": 3, "spao": 3}

    def __init__(self, game: str) -> None:
        self.game = game
        self.n = self.PLAYERS[game]
        self.board: list[int | None] = [None] * len(SITES)
        self.mover = 0
        self.supply = [16 if self.n == 2 else 10] * self.n
        self.reds = 16
        self.done = False
        self.winners: list[int] = []
        self.after_red = False  # Spire: the mover has placed a red ball and must place their own
        if game == "spodd":
            self.board[INDEX[(0, 0, 0)]] = self.board[INDEX[(0, 3, 3)]] = RED

    def clone(self) -> MoreRef:
        other = object.__new__(MoreRef)
        other.__dict__ = {k: (v.copy() if isinstance(v, list) else v)
                          for k, v in self.__dict__.items()}
        return other

    # -- the menu ------------------------------------------------------------------------
    def legal(self) -> list[str]:
        return [] if self.done else self._actions()

    def _actions(self) -> list[str]:
        b, p = self.board, self.mover
        if self.game in ("spava", "splade", "spao"):
            return [f"place {NAMES[i]}" for i in playable(b) if self.supply[p]]
        if self.game == "splice":
            own = [f"place {NAMES[i]}" for i in playable(b)
                   if self.supply[p] and (SITES[i][0] == 0 or any(b[j] == RED for j in BASE[i]))]
            red = [f"red {NAMES[i]}" for i in playable(b)] if self.reds else []
            return own + red
        if self.game == "spire":
            own = [f"place {NAMES[i]}" for i in playable(b) if spire_fits(b, i, p)]
            red = [] if self.after_red else [f"red {NAMES[i]}" for i in playable(b)
                                             if spire_fits(b, i, RED)]
            return own + red
        if self.game in ("spodd", "spaiji"):
            return [f"place {NAMES[w]} {NAMES[k]}" for w, k in pairs(b)]
        raise ValueError(self.game)

    # -- playing -------------------------------------------------------------------------
    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r}")
        kind, *args = action.split()
        getattr(self, "_" + self.game)(kind, [BY_NAME[a] for a in args])
        if self.done or (self.game == "spire" and self.after_red):
            return
        if self.game == "spire":
            self.mover = 1 - self.mover
            if not self._actions():
                self._win(1 - self.mover)  # stuck at the start of the turn: loses
            return
        self._next()

    def _win(self, *seats: int) -> None:
        self.done, self.winners = True, sorted(seats)

    def _next(self) -> None:
        """The next player who has an action; a draw if nobody has (S-06)."""
        for _ in range(self.n):
            self.mover = (self.mover + 1) % self.n
            if self._actions():
                return
        self.done = True

    def _spava(self, kind: str, sites: list[int]) -> None:
        (s,) = sites
        p = self.mover
        self.board[s] = p
        size = N - SITES[s][0]
        run = run_length(self.board, s)
        if run >= size:
            self._win(p)
        elif size - 1 >= 2 and run >= size - 1:
            self._win(1 - p)

    def _spire(self, kind: str, sites: list[int]) -> None:
        (s,) = sites
        p = self.mover
        self.board[s] = RED if kind == "red" else p
        self.after_red = kind == "red"
        if kind == "place" and SITES[s][0] == 3:
            self._win(p)
        elif self.after_red and not self._actions():
            self._win(1 - p)  # a red ball, then no place: the mover loses

    def _spodd(self, kind: str, sites: list[int]) -> None:
        w, k = sites
        self.board[w], self.board[k] = WHITE, BLACK
        if not pairs(self.board):
            cols = [spodd_columns(self.board, p) for p in (0, 1)]
            if max(cols) >= 3:
                self._win(cols.index(max(cols)))
            else:
                self.done = True

    def _spaiji(self, kind: str, sites: list[int]) -> None:
        w, k = sites
        self.board[w], self.board[k] = WHITE, BLACK
        if not pairs(self.board):
            big = [max((len(g) for g in visible_groups(self.board, p)), default=0)
                   for p in (0, 1)]
            self._win(WHITE if big[0] > big[1] else BLACK)

    def _splade(self, kind: str, sites: list[int]) -> None:
        (s,) = sites
        p = self.mover
        self.board[s] = p
        self.supply[p] -= 1
        nxt, prv = (p + 1) % 3, (p + 2) % 3
        kinds = {frozenset(self.board[i] for i in line) for line in LINES_THROUGH[s]
                 if all(self.board[i] is not None for i in line)}
        if frozenset((p, nxt)) in kinds:
            self._win(nxt)
        elif frozenset((p, prv)) in kinds:
            self._win(p)
        elif all(v is not None for v in self.board):
            self.done = True

    def _spao(self, kind: str, sites: list[int]) -> None:
        (s,) = sites
        self.board[s] = self.mover
        self.supply[self.mover] -= 1
        if all(v is not None for v in self.board):
            sc = self.scores()
            self._win(*[q for q in range(3) if sc[q] == max(sc)])

    def scores(self) -> list[int]:
        if self.game == "spao":
            out = []
            for q in range(3):
                seen: set[int] = set()
                score = 1
                for i in range(len(SITES)):
                    if self.board[i] == q and i not in seen:
                        size, stack = 0, [i]
                        seen.add(i)
                        while stack:
                            a = stack.pop()
                            size += 1
                            for b in TOUCH[a]:
                                if self.board[b] == q and b not in seen:
                                    seen.add(b)
                                    stack.append(b)
                        score *= size
                out.append(score)
            return out
        if self.game == "spodd":
            return [spodd_columns(self.board, p) for p in (0, 1)]
        if self.game == "spaiji":
            return [max((len(g) for g in visible_groups(self.board, p)), default=0)
                    for p in (0, 1)]
        return [0] * self.n

    def _splice(self, kind: str, sites: list[int]) -> None:
        (s,) = sites
        p = self.mover
        if kind == "red":
            self.board[s] = RED
            self.reds -= 1
        else:
            self.board[s] = p
            self.supply[p] -= 1

        def line_of(colour: int) -> bool:
            for line in LINES_THROUGH[s]:
                got = {self.board[i] for i in line}
                if got == {colour, RED}:
                    return True
            return False
        if line_of(p):
            self._win(p)
        elif line_of(1 - p):
            self._win(1 - p)
        elif all(v is not None for v in self.board):
            self.done = True


def spire_fits(board: list, i: int, colour: int) -> bool:
    """No 2x2 block of i's level with three balls of the colour, at most one in i's base."""
    z, r, c = SITES[i]
    for r0 in (r - 1, r):
        for c0 in (c - 1, c):
            block = [_at(z, r0 + a, c0 + d) for a in (0, 1) for d in (0, 1)]
            if None not in block and 1 + sum(board[j] == colour for j in block) > 2:
                return False
    return sum(board[j] == colour for j in BASE[i]) <= 1


def hidden(board: list, i: int) -> bool:
    z, r, c = SITES[i]
    above = _at(z + 2, r - 1, c - 1)
    return above is not None and board[above] is not None


def pairs(board: list) -> list[tuple[int, int]]:
    """(white site, black site): touching, empty, and fillable one after the other."""
    free = set(playable(board))

    def after(first: int, second: int) -> bool:  # second playable once first holds a ball
        return all(board[j] is not None or j == first for j in BASE[second])
    out = []
    for w in range(len(SITES)):
        if board[w] is None:
            for k in TOUCH[w]:
                if board[k] is None and ((w in free and after(w, k))
                                         or (k in free and after(k, w))):
                    out.append((w, k))
    return out


def visible_groups(board: list, colour: int) -> list[set[int]]:
    """Visible balls of a colour, linked through touching unless an overpass cuts them."""
    def linked(a: int, b: int) -> bool:
        if SITES[a][0] != SITES[b][0]:
            return True  # one rests on the other
        over = set(ABOVE[a]) & set(ABOVE[b])
        return not (len(over) == 2 and all(board[t] is not None for t in over))
    todo = {i for i in range(len(SITES)) if board[i] == colour and not hidden(board, i)}
    groups = []
    while todo:
        start = todo.pop()
        g, stack = {start}, [start]
        while stack:
            a = stack.pop()
            for b in TOUCH[a]:
                if b in todo and linked(a, b):
                    todo.discard(b)
                    g.add(b)
                    stack.append(b)
        groups.append(g)
    return groups


def spodd_columns(board: list, colour: int) -> int:
    won = 0
    for k in range(1, 6):
        seen = [0, 0]
        for i, (z, r, c) in enumerate(SITES):
            if z + r + c == k and board[i] in (0, 1) and not hidden(board, i):
                seen[board[i]] += 1
        won += seen[colour] > seen[1 - colour]
    return won


def perft(state: Any, depth: int) -> int:
    """Leaves at `depth` of any reference state (done, legal(), clone(), apply(a))."""
    if depth == 0 or state.done:
        return 1 if depth == 0 else 0
    total = 0
    for a in state.legal():
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total
