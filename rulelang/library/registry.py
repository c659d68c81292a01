"""The builtin registry: name -> arity, implementation, doc and example.

Functions receive the evaluation context first (its .data is the GameData, its .game the
static game). The checker reads arities from here; docs/language.md is generated from it.
The builtins themselves live in builtins.py and grids.py; importing rulelang.library
registers them all.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from rulelang.model.state import GameData
from rulelang.model.topology import Board
from rulelang.model.values import Player


class StaticGame(Protocol):
    """What a builtin reads of the static game (game.runtime.Runtime), for the type checker
    only: the library sits below the game layer and never imports it."""
    players: tuple[Player, ...]
    board: Board
    piece_attrs: dict[str, frozenset[str]]
    program: Any

    def position_count(self, data: GameData) -> int: ...


class BuiltinContext(Protocol):
    """What a builtin reads of its context (semantics.Ctx), for the type checker only."""
    game: StaticGame
    data: GameData

    def tick(self, span: Any, n: int = 1) -> None: ...


_F = TypeVar("_F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Builtin:
    name: str
    lo: int  # arity; -1 for a constant (used without parentheses)
    hi: int
    impl: Callable[..., Any]
    doc: str
    example: str = ""


BUILTINS: dict[str, Builtin] = {}
MAX_PIECES = 100_000  # pieces a game may have (its zones' contents, data rows' copies)

# Builtins that read the state beyond their arguments. The checker keeps them out of the rules
# given to `memo` and `cached`, whose kept values would not follow them (R211): the turn and
# who plays it …
READS_TURN = frozenset({"mover", "opponent", "others", "last", "round", "starter", "turn",
                        "repeated"})
# … and the pieces on sites, which `cached` may read (it watches the sites it is given)
READS_BOARD = frozenset({"occupied", "empty", "top", "pieces", "owner", "site", "group",
                         "reach", "mismatched"})


def builtin(lo: int, hi: int | None = None, example: str = "") -> Callable[[_F], _F]:
    def register(fn: _F) -> _F:
        name = fn.__name__.rstrip("_")
        BUILTINS[name] = Builtin(name, lo, lo if hi is None else hi, fn,
                                 (fn.__doc__ or "").strip(), example)
        return fn
    return register


def constant(example: str = "") -> Callable[[_F], _F]:
    return builtin(-1, -1, example)


