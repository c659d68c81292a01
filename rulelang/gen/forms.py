"""What the writer knows of a value before the game runs: its form (a site, a player, a
tuple of sites …) and how many items it can hold at most, which bounds the steps of the
loops over it (gen/facts.py). A value whose form is not known is ANY: the writer then
calls the reference's own helper for it, never guesses."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_NO_VALUE = object()


@dataclass(frozen=True)
class Form:
    # site player piece piece_or_none zone num bool text none items lines last record any,
    # and the kept forms that only some readers take (the others ask Writer.plain for the
    # reference's value):
    # sitelist (a kept query's sorted site indices), bits (sites as an int bitset), maybe
    # (a site or none)
    kind: str
    size: int = 0  # items: at most this many; num: below this (0: any whole number)
    item: Form | None = None  # items: the form of each
    static: Any = _NO_VALUE  # the value itself, when known when the game is made
    # items that are lines of sites: the source of their masks, item by item (a tuple of
    # ints: each line's sites as bits), for loops that read each line only as bits
    masks: str | None = None
    # items that are sites: the source of the same as site indices, for loops that read
    # each item only as its index (a relation's neighbours of a site)
    indices: str | None = None
    # items that are sites: the source of the same as bits (for mask tests of them)
    bits: str | None = None
    fields: tuple[str, ...] = ()  # a record's fields, in order
    distinct: bool = False  # items: none twice (sites: the piles on them hold each piece once)
    # bool: the test that every site of the bits `within[0]` is in the bits `within[1]`
    # (sources), for `any` over lines as bits: one helper loop (bits.some_within)
    within: tuple[str, str] | None = None
    # any: a value that is never a tuple (a player, a site, a text or none: an owner, a
    # piece's kind or site), whose `==` charges no steps (the reference charges a tuple's
    # length)
    atom: bool = False

    @property
    def known(self) -> bool:
        return self.static is not _NO_VALUE

    @property
    def iterable(self) -> bool:
        """A tuple whose items can be looped over as they are (no zone, no none)."""
        return self.kind == "items"


ANY = Form("any")
NUM = Form("num")
BOOL = Form("bool")
TEXT = Form("text")
NONE = Form("none")
SITE = Form("site")
PLAYER = Form("player")
PIECE = Form("piece")
LAST = Form("last")
MAYBE_SITE = Form("maybe", 0, SITE)
ATOM = Form("any", atom=True)  # (never a list: a player, a site, a text or none)
PIECE_OR_NONE = Form("piece_or_none")  # (a site's top piece, or none: read as any value)
ZONE = Form("zone")  # a zone of the game (a ZoneRef in the state's zones)


def sitelist(size: int) -> Form:
    return Form("sitelist", size, SITE)


def below(n: int) -> Form:
    """A whole number from 0 to n - 1 (a player's number: an index of a tuple of n)."""
    return Form("num", n)


def pile(size: int) -> Form:
    """A site's pile or a zone's: a tuple of pieces (at most `size`, the bound the writer
    takes for any collection it cannot count)."""
    return Form("items", size, PIECE)


def bits(size: int) -> Form:
    return Form("bits", size, SITE)


def linemask(size: int) -> Form:
    """A line of sites as bits, read only by mask tests (never as the line itself, whose
    order is not the board's)."""
    return Form("linemask", size, SITE)


def an_item(form: Form) -> Form:
    """The form of one item of items of `form`: that form without a value known when
    written (the items' value is not an item's)."""
    return Form(form.kind, form.size, form.item, fields=form.fields)


def items(size: int, item: Form) -> Form:
    return Form("items", size, item)


def unknown_items(form: Form, unknown: int) -> int:
    """At most the items a domain of this form (no items form) goes through: a tuple, a list
    or a range known when written, its own; any other value, `unknown`."""
    value = form.static
    return len(value) if form.known and type(value) in (tuple, list, range) else unknown


def of_constant(value: Any, board: Any, players: int, zones: Any = ()) -> Form:
    """The form of a value known when the game is made (`zones`: the game's zones)."""
    from rulelang.model.values import LineSet, Player, Relation, Site, ZoneRef
    if type(value) is bool:
        return Form("bool", static=value)
    if type(value) is int:
        return Form("num", static=value)
    if type(value) is str:
        return Form("text", static=value)
    if value is None:
        return Form("none", static=None)
    if type(value) is Site:
        return Form("site", static=value)
    if type(value) is Player:
        return Form("player", static=value)
    if isinstance(value, LineSet):
        longest = max((len(ln) for ln in value.lines), default=0)
        return Form("lines", len(value.lines), items(longest, SITE), static=value)
    if isinstance(value, Relation):
        return Form("relation", static=value)
    if type(value) is range:
        return Form("items", len(value), NUM, static=value)
    if isinstance(value, tuple) and all(type(x) is Site for x in value):
        return Form("items", len(value), SITE, static=value)
    if isinstance(value, tuple) and all(type(x) is Player for x in value):
        return Form("items", len(value), PLAYER, static=value)
    if isinstance(value, tuple) and value and all(type(x) is ZoneRef and x in zones
                                                  for x in value):
        return Form("items", len(value), ZONE, static=value)  # (zones of the game)
    return Form("any", static=value)
