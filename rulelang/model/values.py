"""Runtime values shared by every state of a game: sites, players, pieces, relations, lines.

They are immutable and interned per game, so identity comparison and hashing are cheap.
Sites, players and pieces define no comparison method: a class with one written in Python
makes Python call it (and object's `__eq__` through it) for every `==`, `!=` and `in`, some
ten times the cost of the identity test it then is (a `site in row` of 20 sites: 2.1 against
0.2 us). The rules still order them (a site by its index in board order, a player by its
seat, a piece by its id): `less` and `order` below do it, where Python's `<` cannot.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulelang.errors import RuleRuntimeError


class Site:
    # board_index: the index again, under a name only sites have, so that the loops reading
    # the board's lists by it (occupied(s), fast/loops.py) fail on anything else at no cost
    # (a player has an index too)
    __slots__ = ("index", "name", "coords", "board_index")

    def __init__(self, index: int, name: str, coords: tuple[int, ...]) -> None:
        self.index, self.name, self.coords = index, name, coords
        self.board_index = index

    def __repr__(self) -> str:
        return self.name


class Player:
    __slots__ = ("index", "name")

    def __init__(self, index: int, name: str) -> None:
        self.index, self.name = index, name

    def __repr__(self) -> str:
        return self.name


class Piece:
    """A component: its kind and static data; where it is and its changing attributes live
    in the game state. It shows as its `name` attribute, else as its kind (never its id:
    the order in which pieces were made must not tell hidden cards apart)."""

    __slots__ = ("id", "kind", "label")

    def __init__(self, id: int, kind: str, label: str | None = None) -> None:
        self.id, self.kind, self.label = id, kind, label or kind

    def __repr__(self) -> str:
        return f"{self.kind}#{self.id}"


def less(a: Any, b: Any) -> bool:
    """a < b as the rules order values: two sites by board order, two players by seat, two
    pieces by id, lists and tuples item by item (the first items that differ decide, else the
    shorter comes first), anything else as Python does; a TypeError where the two cannot be
    ordered (a site and a number, a site and a player). For where Python's `<` raised one."""
    ta = type(a)
    if ta is type(b):
        if ta is Site or ta is Player:
            return a.index < b.index  # type: ignore[no-any-return]
        if ta is Piece:
            return a.id < b.id  # type: ignore[no-any-return]
    if (isinstance(a, tuple) and isinstance(b, tuple)) or (ta is list and type(b) is list):
        for x, y in zip(a, b, strict=False):
            if not (x is y or x == y):
                return less(x, y)
        return len(a) < len(b)
    return a < b  # type: ignore[no-any-return]


def order(a: Any, op: str, b: Any) -> bool:
    """`a op b` for op one of < <= > >= (less); a TypeError where they cannot be ordered."""
    if op == "<":
        return less(a, b)
    if op == ">":
        return less(b, a)
    if op == "<=":
        return not less(b, a)
    if op == ">=":
        return not less(a, b)
    raise ValueError(op)


class Ordered:
    """A sort key that orders values as the rules do (less): for sorted, min and max where
    Python cannot order the values themselves."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: Ordered) -> bool:
        return less(self.value, other.value)

    def __gt__(self, other: Ordered) -> bool:
        return less(other.value, self.value)


class SiteSet(tuple):  # type: ignore[type-arg]
    """A region: a tuple of sites in board order (iteration stays deterministic) that also
    answers `site in region` through a frozenset."""

    members: frozenset[Site]
    mask: int  # the same as a bitset of site indices (bit i: the site of index i)

    def __new__(cls, sites: tuple[Site, ...]) -> SiteSet:
        obj = super().__new__(cls, sites)
        obj.members = frozenset(sites)
        obj.mask = sum(1 << i for i in {s.index for s in sites})
        return obj

    def __contains__(self, site: object) -> bool:
        return site in self.members


@dataclass(frozen=True, eq=False)
class Relation:
    """A named relation between sites, frozen into a table: site index -> related sites
    (and the same as site indices, for loops that never need the Site objects)."""
    name: str
    table: tuple[tuple[Site, ...], ...]
    indices: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "indices",
                           tuple(tuple(t.index for t in row) for row in self.table))

    def __repr__(self) -> str:
        return f"relation {self.name}"


@dataclass(frozen=True, eq=False)
class LineSet:
    """Lines of sites (rows, diagonals …) with an index of the lines through each site."""
    name: str
    lines: tuple[tuple[Site, ...], ...]
    through: tuple[tuple[tuple[Site, ...], ...], ...] = field(repr=False)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self.lines)

    def __getitem__(self, i: int) -> tuple[Site, ...]:
        return self.lines[i]

    def __len__(self) -> int:
        return len(self.lines)

    def __str__(self) -> str:  # (as messages show it: not every line)
        return f"lines {self.name}"


class ZoneRef:
    """One zone instance: a shared zone (owner None) or one player's. Interned: zone_ref()
    makes each (name, owner) once per process, and copies and pickles come back through it,
    so a zone equals only itself and hashes by identity (in C: zones are the keys of every
    state's `zones`, rehashed by each copy)."""

    __slots__ = ("name", "owner")

    def __init__(self, name: str, owner: int | None) -> None:
        self.name, self.owner = name, owner

    def __reduce__(self) -> tuple[Any, tuple[str, int | None]]:
        return zone_ref, (self.name, self.owner)

    def __repr__(self) -> str:
        return self.name if self.owner is None else f"{self.name} of player {self.owner}"


class PieceSource:
    """`ball of mover` / `ball from reds`: any piece of a kind taken from a zone."""

    __slots__ = ("kind", "zone")

    def __init__(self, kind: str | None, zone: ZoneRef) -> None:
        self.kind, self.zone = kind, zone

    def __repr__(self) -> str:  # (as messages show it, never an address)
        return f"{self.kind or 'a piece'} from {show(self.zone)}"


class MapValue(dict):  # type: ignore[type-arg]
    """The value of a map literal `{key: value, …}`: rules only read it (nothing changes a
    map), so it hashes by its items; `m[k]` of a key it does not hold is none."""

    def __missing__(self, key: object) -> None:
        return None

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))


_ZONES: dict[tuple[str, int | None], ZoneRef] = {}
_SOURCES: dict[tuple[str | None, ZoneRef], PieceSource] = {}


class TableValue(MapValue):
    """The value of a `table`: a map made once per game; reading a key it does not hold is
    an error (R301), positioned where it is read."""

    name: str = ""

    def __missing__(self, key: object) -> None:
        keys = ", ".join(show(k) for k in list(self)[:8]) + (", …" if len(self) > 8 else "")
        raise RuleRuntimeError(f"the table '{self.name}' has no entry for {show(key)} "
                               f"(its keys: {keys or 'none'})", None)

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self.items()))


class ZoneFamily(tuple):  # type: ignore[type-arg]
    """Indexed zones `zone stack[1..9]`: their zones in order (their names, for zones of each
    player: `hand[2] of p` reads the name); `stack[i]` is zone i (from lo), any other index an
    error (R301), positioned where it is read."""

    name: str
    lo: int

    def __new__(cls, name: str, lo: int, zones: tuple[ZoneRef | str, ...]) -> ZoneFamily:
        obj = super().__new__(cls, zones)
        obj.name, obj.lo = name, lo
        return obj

    def __reduce__(self) -> tuple[Any, ...]:  # (a copy: gen/cache.py keeps generated modules)
        return ZoneFamily, (self.name, self.lo, tuple(self))

    def __getitem__(self, i: Any) -> Any:
        n = len(self)
        if type(i) is int and self.lo <= i < self.lo + n:
            return tuple.__getitem__(self, i - self.lo)
        raise RuleRuntimeError(f"the zones '{self.name}' are {self.name}[{self.lo}] to "
                               f"{self.name}[{self.lo + n - 1}]: there is no "
                               f"{self.name}[{show(i)}]", None)

    def __hash__(self) -> int:
        return hash((self.name, tuple(self)))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, ZoneFamily) and self.name == other.name)


class Record(tuple):  # type: ignore[type-arg]
    """A record with named fields `(name: x, season: s)`: its values in the order written,
    read by name (`r.name`). Equal to a record of the same fields and values only (never to a
    plain tuple), hashed by them, so records are keys, members of sets and choices."""

    fields: tuple[str, ...]

    def __new__(cls, fields: tuple[str, ...], values: tuple[Any, ...]) -> Record:
        obj = super().__new__(cls, values)
        obj.fields = fields
        return obj

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Record) and self.fields == other.fields \
            and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash((self.fields, tuple(self)))

    def __getnewargs__(self) -> tuple[Any, ...]:  # copies and pickles keep the fields
        return (self.fields, tuple(self))

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return tuple.__getitem__(self, self.fields.index(name))
        except ValueError:
            return default

    def as_dict(self) -> dict[str, Any]:
        return dict(zip(self.fields, self, strict=True))


def zone_ref(name: str, owner: int | None) -> ZoneRef:
    ref = _ZONES.get((name, owner))
    if ref is None:
        ref = _ZONES[(name, owner)] = ZoneRef(name, owner)
    return ref


def piece_source(kind: str | None, zone: ZoneRef) -> PieceSource:
    src = _SOURCES.get((kind, zone))
    if src is None:
        src = _SOURCES[(kind, zone)] = PieceSource(kind, zone)
    return src


def action_words(text: str) -> list[str]:
    """The words of an action string: split at spaces outside parentheses, so that a tuple
    or a record shown in it (`take (name: ember, card: 3)`) is one word."""
    words: list[str] = []
    depth, start = 0, None
    for i, ch in enumerate(text):
        if ch.isspace() and depth == 0:
            if start is not None:
                words.append(text[start:i])
                start = None
            continue
        if start is None:
            start = i
        depth += 1 if ch == "(" else -1 if ch == ")" and depth > 0 else 0
    if start is not None:
        words.append(text[start:])
    return words


def show(value: object) -> str:
    """How a value appears in action strings and messages."""
    if isinstance(value, (Site, Player)):
        return value.name
    if isinstance(value, Piece):
        return value.label
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Record):
        return "(" + ", ".join(f"{k}: {show(v)}" for k, v in zip(value.fields, value,
                                                                  strict=True)) + ")"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(show(v) for v in value) + ")"
    if isinstance(value, dict):  # a map literal, or `last`
        return "{" + ", ".join(f"{show(k)}: {show(v)}" for k, v in value.items()) + "}"
    if value is None:
        return "none"
    return str(value)
