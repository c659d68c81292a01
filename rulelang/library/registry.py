"""The builtin registry: name -> arity, implementation, doc, example and facts (what its
value depends on: Reads, Facts).

Functions receive the evaluation context first (its .data is the GameData, its .game the
static game). The checker reads arities from here; docs/language.md is generated from it.
The builtins themselves live in builtins.py and grids.py; importing rulelang.library
registers them all.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Flag
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

    def board_count(self, data: GameData) -> int: ...


class BuiltinContext(Protocol):
    """What a builtin reads of its context (semantics.Ctx), for the type checker only."""
    game: StaticGame
    data: GameData

    def tick(self, span: Any, n: int = 1) -> None: ...


_F = TypeVar("_F", bound=Callable[..., Any])


class Reads(Flag):
    """What a builtin reads beyond its arguments (a value of a rule: a site, a piece, a
    collection; a zone given as an argument is read where it is named, which the analysis
    counts as reading ZONES)."""
    NOTHING = 0
    GAME = 1 << 0      # the static game: its players, board, relations, piece kinds (fixed)
    BOARD = 1 << 1     # the pieces on sites (and where each piece is)
    GIVEN_SITES = 1 << 2  # the pieces on the sites among its arguments; given pieces, nothing
    PIECES = 1 << 3    # the attributes and owners of pieces
    MOVER = 1 << 4     # who plays the current turn
    TURN = 1 << 5      # the turn and round numbers, the starter, the last action
    ZONES = 1 << 6     # the pieces in zones
    COUNTERS = 1 << 7  # counters and vars
    HISTORY = 1 << 8   # the positions before this one
    RNG = 1 << 9       # the random number generator: chance
    STATE = BOARD | PIECES | MOVER | TURN | ZONES | COUNTERS  # the current position
    EVERYTHING = GAME | STATE | GIVEN_SITES | HISTORY | RNG


@dataclass(frozen=True)
class Facts:
    """What a builtin's value depends on and costs; consumers never keep their own lists but
    ask these (through rulelang.language.analysis for rules and expressions)."""
    reads: Reads
    at_site: bool = False  # its BOARD reads are at the site given as its first argument only
    calls: tuple[int, ...] = ()  # the positions of the functions (rules) it calls
    decides: bool = False  # it asks a player (or chance) to choose
    cheap: bool = False  # a constant that costs a field read: fine to compute twice

    @property
    def chance(self) -> bool:
        return Reads.RNG in self.reads

    @property
    def pure(self) -> bool:
        """Its value depends on its arguments only (and it calls none of them)."""
        return self.reads == Reads.NOTHING and not self.calls and not self.decides


# The facts of a builtin that declares none: it reads everything and decides, so that no
# consumer keeps, reuses or duplicates its value (tests/unit/test_facts.py: none is left so).
UNKNOWN = Facts(Reads.EVERYTHING, decides=True)
PURE = Facts(Reads.NOTHING)  # depends on its arguments only


@dataclass(frozen=True)
class Builtin:
    name: str
    lo: int  # arity; -1 for a constant (used without parentheses)
    hi: int
    impl: Callable[..., Any]
    doc: str
    example: str = ""
    facts: Facts = UNKNOWN
    # its type for the checker (rulelang/language/types.py reads it): the argument types and
    # the result, "site, relation -> list[site]"; a constant's is its type alone
    sig: str = "any... -> any"


BUILTINS: dict[str, Builtin] = {}
MAX_PIECES = 100_000  # pieces a game may have (its zones' contents, data rows' copies)

def builtin(lo: int, hi: int | None = None, example: str = "", facts: Facts = UNKNOWN,
            sig: str = "any... -> any") -> Callable[[_F], _F]:
    def register(fn: _F) -> _F:
        name = fn.__name__.rstrip("_")
        BUILTINS[name] = Builtin(name, lo, lo if hi is None else hi, fn,
                                 (fn.__doc__ or "").strip(), example, facts, sig)
        return fn
    return register


def constant(example: str = "", facts: Facts = UNKNOWN, sig: str = "any"
             ) -> Callable[[_F], _F]:
    return builtin(-1, -1, example, facts, sig)


def facts_of(name: str) -> Facts:
    """The facts of a builtin (UNKNOWN for a name that is none)."""
    b = BUILTINS.get(name)
    return UNKNOWN if b is None else b.facts


