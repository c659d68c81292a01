"""Plain data handed from the front end (loader, checker) to the runtime: the runtime imports
this module and never the parser, the builder or the checker."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, NamedTuple

from rulelang.language import ast
from rulelang.library.registry import Reads
from rulelang.source import Source


class Category(StrEnum):
    """What a name resolves to: the first item of a Ref. Whether such a name may be called
    (`callable`) and what naming it reads (`reads`; None for rules and builtins, whose reads
    rulelang.language.analysis derives from their bodies and the builtins' facts)."""
    LOCAL = "local"          # a parameter or a bound variable: a value given
    BUILTIN = "builtin"
    DEF = "def"              # a rule
    FUNCTION = "function"    # a rule named as an argument, passed as a function
    EFFECT = "effect"
    GEOMETRY = "geometry"
    MODULE = "module"
    ACTION = "action"
    RELATION = "relation"    # of the board: fixed for a game
    REGION = "region"
    LINES = "lines"
    KIND = "kind"            # a piece kind
    PLAYER = "player"
    OPTION = "option"        # fixed when the game is made
    ZONE = "zone"            # naming it reads its pieces (size(bag), top(bag))
    COUNTER = "counter"
    VAR = "var"
    ENUM = "enum"            # an enumeration: its value is the list of its symbols
    SYMBOL = "symbol"        # one symbol of an enumeration: its value is its name
    TABLE = "table"          # a table: a map evaluated once when the game is made
    ZONES = "zones"          # indexed zones (`zone stack[1..9]`): stack[i] is a zone

    @property
    def callable(self) -> bool:
        """A name of this category may be called (a local never is; `size(x)` with an
        option named `size` calls the builtin)."""
        return self in _CALLABLE

    @property
    def reads(self) -> Reads | None:
        return _READS.get(self)

    @property
    def fixed(self) -> bool:
        """Its value never changes during a game."""
        return _READS.get(self) == Reads.GAME


_CALLABLE = frozenset({Category.BUILTIN, Category.DEF, Category.FUNCTION, Category.EFFECT,
                       Category.GEOMETRY, Category.MODULE, Category.ACTION, Category.RELATION})
_READS: dict[Category, Reads] = {
    Category.LOCAL: Reads.NOTHING,
    **dict.fromkeys((Category.RELATION, Category.REGION, Category.LINES, Category.KIND,
                     Category.PLAYER, Category.OPTION, Category.ENUM, Category.SYMBOL,
                     Category.TABLE), Reads.GAME),
    Category.ZONE: Reads.ZONES, Category.ZONES: Reads.ZONES,
    Category.COUNTER: Reads.COUNTERS, Category.VAR: Reads.COUNTERS,
}


class Ref(NamedTuple):
    """How the checker resolved a name: its category and its key (a rule's module-qualified
    name, a player's index, a builtin's name …). A pair: it unpacks as `cat, key = ref`, and
    its category is a str enum, so it equals the plain pair of strings."""
    category: Category
    key: str


@dataclass
class Module:
    name: str  # "" for the game itself
    source: Source
    decls: tuple[ast.Decl, ...]
    uses: dict[str, str] = field(default_factory=dict)  # local name -> module key


@dataclass
class Loaded:
    game: Module
    modules: dict[str, Module]  # key: module name
    sources: dict[str, Source]
    # data files: (path of the declaring file, path as written) -> rows (one dict per row)
    data: dict[tuple[str, str], list[dict[str, Any]]] = field(default_factory=dict)


@dataclass
class Program:
    """A checked rulebook: its declarations by name and the resolution of every name."""
    loaded: Loaded
    game: ast.Game
    players: ast.Players
    options: dict[str, ast.Option]
    board: ast.Board | None
    pieces: dict[str, ast.Piece]
    zones: dict[str, ast.Zone]
    counters: dict[str, ast.Counter]
    vars: dict[str, ast.Var]
    defs: dict[str, ast.Def] = field(default_factory=dict)  # key: "module.name" or "name"
    effects: dict[str, ast.Effect] = field(default_factory=dict)
    geometries: dict[str, ast.Geometry] = field(default_factory=dict)
    actions: dict[str, ast.Action] = field(default_factory=dict)
    sections: dict[str, ast.Block] = field(default_factory=dict)
    scores: list[ast.Score] = field(default_factory=list)
    pictures: dict[str, ast.Picture] = field(default_factory=dict)  # key: piece kind
    views: list[ast.View] = field(default_factory=list)  # the game's `view` sections
    refs: dict[ast.Node, Ref] = field(default_factory=dict)  # by node (identity)
    uses_repetition: bool = False
    repetition: frozenset[str] = frozenset()  # of `repeated` and `repeated_board`, those used
    round: ast.Round | None = None
    max_plies: int | None = None  # `end at most N plies`: a longer game is capped
    enums: dict[str, ast.Enum] = field(default_factory=dict)  # key: "module.name" or "name"
    symbols: dict[str, str] = field(default_factory=dict)  # a symbol's key -> its enum's key
    option_enums: dict[str, str] = field(default_factory=dict)  # option -> its enum's key
    tables: dict[str, ast.Table] = field(default_factory=dict)  # key: "module.name" or "name"
    zone_families: dict[str, ast.Zone] = field(default_factory=dict)  # `zone stack[1..9]`
    # declared types: kind -> attribute -> type (`piece card with name: card_name`), and a
    # rule's (def or effect, by key) parameters' types, None where none is written
    attr_types: dict[str, dict[str, Any]] = field(default_factory=dict)
    param_types: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    # the type of the values each `choose` offers (types.Type), by the choose's node: what
    # the fixed action space (game/action_space.py) is numbered from
    choice_types: dict[ast.Node, Any] = field(default_factory=dict)


def indexed_zone(name: str, i: int) -> str:
    """The name of zone i of the indexed zones `name`: stack[3]."""
    return f"{name}[{i}]"
