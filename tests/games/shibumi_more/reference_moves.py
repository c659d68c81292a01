"""Independent reference for the Shibumi games with moves (rulebooks/spought.rule and
spyramid.rule): pure Python, no rulelang import, written from the rules (not from the
rulebooks), sharing only the pyramid's tables with reference_impl.py.

* Lifting a ball: a ball with two or more balls resting on it (pinned) cannot be lifted;
  after the lift, balls fall (lower levels first, then site order; each into the first empty
  site of its base) until all are supported; the ball then goes on a playable site other than
  its origin and not resting on a ball that fell during this move.
* A position is the board and the player to act; it is counted at the start and after every
  turn (a skipped one too), and its third occurrence is a draw (S-07).
* Spought: a `pass` only when no move exists; two passes in a row draw (S-21).
* Spyramid: a player without an action is skipped; both in a row: a draw (S-06).
"""
from __future__ import annotations

from reference_impl import ABOVE, BASE, BLACK, BY_NAME, INDEX, NAMES, SITES, TOUCH, WHITE, playable


def _pyramids() -> list[tuple[int, ...]]:
    """Every apex with its four corners k levels below (pointing up) or above (down)."""
    out = []
    for (z, r, c) in SITES:
        for k in range(1, 4):
            up = [(z, r, c), (z - k, r, c), (z - k, r, c + k), (z - k, r + k, c),
                  (z - k, r + k, c + k)]
            down = [(z, r, c), (z + k, r - k, c - k), (z + k, r - k, c), (z + k, r, c - k),
                    (z + k, r, c)]
            for shape in (up, down):
                if all(s in INDEX for s in shape):
                    out.append(tuple(INDEX[s] for s in shape))
    return out


PYRAMIDS = _pyramids()
assert len(PYRAMIDS) == 25  # 20 pointing up, 5 pointing down


def settle(board: list, fell: set[int]) -> None:
    """Unsupported balls drop, lowest level and first site first; `fell` gets the sites
    that now hold a ball that dropped."""
    while True:
        loose = [i for i in range(len(SITES)) if board[i] is not None
                 and any(board[j] is None for j in BASE[i])]
        if not loose:
            return
        i = loose[0]  # SITES is in (z, r, c) order
        hole = next(j for j in BASE[i] if board[j] is None)
        board[hole], board[i] = board[i], None
        fell.discard(i)
        fell.add(hole)


def moves_of(board: list, colour: int, holes_only: bool) -> list[str]:
    out = []
    for src in range(len(SITES)):
        if board[src] != colour or (holes_only and SITES[src][0] != 0):
            continue
        if sum(board[a] is not None for a in ABOVE[src]) >= 2:
            continue  # pinned
        after = board.copy()
        after[src] = None
        fell: set[int] = set()
        settle(after, fell)
        for dest in playable(after):
            if dest != src and not any(b in fell for b in BASE[dest]):
                out.append(f"move {NAMES[src]} {NAMES[dest]}")
    return out


def one_group(board: list, colour: int) -> bool:
    balls = [i for i, v in enumerate(board) if v == colour]
    seen, stack = {balls[0]}, [balls[0]]
    while stack:
        a = stack.pop()
        for b in TOUCH[a]:
            if board[b] == colour and b not in seen:
                seen.add(b)
                stack.append(b)
    return len(seen) == len(balls)


class MoveRef:
    """One state of Spought or Spyramid; `game` is the rulebook's stem."""

    def __init__(self, game: str) -> None:
        assert game in ("spought", "spyramid")
        self.game = game
        self.n = 2
        self.board: list[int | None] = [None] * len(SITES)
        if game == "spought":
            for i, (z, r, c) in enumerate(SITES):
                if z == 0:
                    self.board[i] = WHITE if (r + c) % 2 == 0 else BLACK
        self.supply = [16, 16] if game == "spyramid" else [0, 0]
        self.mover = 0
        self.passes = 0
        self.done = False
        self.winners: list[int] = []
        self.seen: dict[tuple, int] = {self._key(0): 1}
        self._legal: list[str] | None = None  # the mover's actions, once computed

    def clone(self) -> MoveRef:
        other = object.__new__(MoveRef)
        other.__dict__ = {k: (v.copy() if isinstance(v, (list, dict)) else v)
                          for k, v in self.__dict__.items()}
        return other

    def _key(self, to_act: int) -> tuple:
        return (tuple(self.board), to_act)

    def _count(self, to_act: int) -> int:
        key = self._key(to_act)
        self.seen[key] = self.seen.get(key, 0) + 1
        return self.seen[key]

    def _actions(self, p: int) -> list[str]:
        if self.game == "spought":
            return moves_of(self.board, p, holes_only=True) or ["pass"]
        places = [f"place {NAMES[i]}" for i in playable(self.board)] if self.supply[p] else []
        return places + moves_of(self.board, p, holes_only=False)

    def legal(self) -> list[str]:
        if self._legal is None:
            self._legal = [] if self.done else self._actions(self.mover)
        return self._legal

    def apply(self, action: str) -> None:
        if action not in self.legal():
            raise ValueError(f"illegal action {action!r}")
        self._legal = None
        p = self.mover
        kind, *names = action.split()
        sites = [BY_NAME[a] for a in names]
        if kind == "place":
            self.board[sites[0]] = p
            self.supply[p] -= 1
        elif kind == "move":
            src, dest = sites
            self.board[src] = None
            settle(self.board, set())
            self.board[dest] = p
            self.passes = 0
        else:
            self.passes += 1
        times = self._count(1 - p)
        if self.game == "spought":
            if kind == "move" and one_group(self.board, p):
                return self._end(p)
            if self.passes >= 2 or times >= 3:
                return self._end()
        else:
            if self._pyramid(p):
                return self._end(p)
            if self._pyramid(1 - p):
                return self._end(1 - p)
            if times >= 3:
                return self._end()
        self._next()

    def _pyramid(self, colour: int) -> bool:
        return any(all(self.board[i] == colour for i in pyr) for pyr in PYRAMIDS)

    def _end(self, *winners: int) -> None:
        self.done, self.winners = True, list(winners)

    def _next(self) -> None:
        """The other player acts; one without an action is skipped (the position counted),
        and when both are skipped in a row the game is a draw (S-06)."""
        self.mover = 1 - self.mover
        idle = 0
        while not self.legal():
            if self._count(1 - self.mover) >= 3:
                return self._end()
            idle += 1
            if idle >= 2:
                return self._end()
            self.mover, self._legal = 1 - self.mover, None
