"""The keys of positions, for the repetition rules (`repeated`, `repeated_board`): the board
(each site's stack as (kind, owner) pairs), the zones' sizes, the counters and who moves."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.model.state import GameData

if TYPE_CHECKING:
    from rulelang.language.program import Program

_BOARD_KEY = ("the board of the position keys",)  # data.cache key (board_of)


class RepetitionKeys:
    """Runtime's part that makes and counts position keys."""

    players: Any
    program: Program

    def board_of(self, data: GameData) -> tuple[Any, ...]:
        """The board part of the position keys: each site's stack as (kind, owner) pairs.
        Kept in the state's cache until the board changes (every change of a stack or of a
        piece's owner is logged in data.changes), so that counting a position and asking
        how often it was seen, in the same turn, build it once."""
        changes = data.changes
        n, kept = len(changes), data.cache.get(_BOARD_KEY)
        if kept is not None and kept[0] == n:
            board: tuple[Any, ...] = kept[1]
            return board
        owner, at = data.owner, data.at
        if kept is not None and n - kept[0] < 8:  # a few sites changed: only these again
            board = updated(kept[1], changes[kept[0]:], at, owner)
        else:
            board = tuple([tuple([(p.kind, owner[p.id]) for p in stack]) for stack in at])
        data.cache[_BOARD_KEY] = (n, board)
        return board

    def position_key(self, data: GameData, to_move: int) -> tuple[Any, ...]:
        board = self.board_of(data)
        zones = tuple(map(len, data.zones.values()))
        return (board, zones, tuple(data.counters.values()), to_move)

    def position_count(self, data: GameData) -> int:
        key = self.position_key(data, (data.mover + 1) % len(self.players))
        return data.positions.get(key, 0)

    def board_count(self, data: GameData) -> int:
        """How often the board alone was counted (`repeated_board`)."""
        return data.positions.get(self.board_key(data), 0)

    def board_key(self, data: GameData) -> tuple[Any, ...]:
        return ("board", self.board_of(data))

    def count_position(self, data: GameData, to_move: int) -> None:
        """Count the position (for `repeated`) and its board (for `repeated_board`), each
        where the rulebook asks for it."""
        positions, used = data.positions, self.program.repetition
        if "repeated" in used:
            key = self.position_key(data, to_move)
            positions[key] = positions.get(key, 0) + 1
        if "repeated_board" in used:
            key = self.board_key(data)
            positions[key] = positions.get(key, 0) + 1


def updated(board: tuple[Any, ...], changed: list[int], at: Any, owner: Any) -> tuple[Any, ...]:
    """The board key with the stacks of the changed sites made again."""
    rows = list(board)
    for i in changed:
        rows[i] = tuple([(p.kind, owner[p.id]) for p in at[i]])
    return tuple(rows)
