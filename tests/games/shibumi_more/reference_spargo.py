"""Independent reference for Spargo (rulebooks/spargo.rule): Go on the Shibumi pyramid.

Pure Python, no rulelang import, written from the rules (docs/games/spargo.md), reusing only
the board tables and the visible groups of reference_impl.py (this folder):

* place a ball of your colour on a playable site; every visible group of the opponent without
  freedom (no level-0 ball of it beside an empty hole) is captured, from the top down, a ball
  staying when a ball still rests on it (S-17);
* the move is illegal if then the new ball's visible group has no freedom (S-19), or if the
  board equals the board at the start or after any earlier turn (S-18);
* when the player to act has no legal move the game ends: more balls wins, equal is a draw.
"""
from __future__ import annotations

from reference_impl import ABOVE, NAMES, ORTHO, SITES, playable, visible_groups


def has_freedom(board: list, group: set[int]) -> bool:
    return any(SITES[i][0] == 0 and any(board[j] is None for j in ORTHO[i]) for i in group)


def play_out(board: list, site: int, colour: int) -> list | None:
    """The board after `colour` places on `site` and captures, or None if that is suicide."""
    after = list(board)
    after[site] = colour
    doomed: set[int] = set()
    for group in visible_groups(after, 1 - colour):
        if not has_freedom(after, group):
            doomed |= group
    for i in sorted(doomed, key=lambda i: SITES[i], reverse=True):  # the top down
        if all(after[j] is None for j in ABOVE[i]):
            after[i] = None
    own = next(g for g in visible_groups(after, colour) if site in g)
    return after if has_freedom(after, own) else None


class SpargoRef:
    def __init__(self) -> None:
        self.board: list[int | None] = [None] * len(SITES)
        self.mover = 0
        self.seen = {tuple(self.board)}  # the boards at the start and after each turn
        self.done = False
        self.winners: list[int] = []

    def clone(self) -> SpargoRef:
        other = object.__new__(SpargoRef)
        other.board, other.mover, other.seen = list(self.board), self.mover, set(self.seen)
        other.done, other.winners = self.done, list(self.winners)
        return other

    def moves(self) -> dict[str, list]:
        out = {}
        for i in playable(self.board):
            after = play_out(self.board, i, self.mover)
            if after is not None and tuple(after) not in self.seen:
                out[f"place {NAMES[i]}"] = after
        return out

    def legal(self) -> list[str]:
        return [] if self.done else list(self.moves())

    def apply(self, action: str) -> None:
        self.board = self.moves()[action]  # KeyError: an illegal action
        self.seen.add(tuple(self.board))
        self.mover = 1 - self.mover
        if not self.moves():
            self.done = True
            balls = [self.board.count(p) for p in (0, 1)]
            self.winners = [] if balls[0] == balls[1] else [balls.index(max(balls))]
