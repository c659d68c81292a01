"""The static types of rulebook values (see "Types" in docs/language.md): what the type checker
(typecheck.py) infers for every expression, how two types join where a value may come from
either, whether a value of a type may stand where an expectation holds, and how a type reads
in the designer's words.

A type never claims more than the value guarantees: `none` may stand anywhere (a none where a
site is needed is a runtime error, R3xx), and UNKNOWN ("could be anything") is never wrong.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Type:
    """tag: one of TAGS. args: the element type of a list, the item types of a tuple, the key
    and value types of a map, the field types of a record. name: the piece kind of a piece or a
    kind, the zone's name, the option of an option value."""
    tag: str
    args: tuple[Type, ...] = ()
    name: str = ""
    fields: tuple[str, ...] = ()  # a record's field names, in the order of args

    def __str__(self) -> str:
        return describe(self)


TAGS = ("unknown", "none", "number", "text", "bool", "site", "player", "piece", "kind", "zone",
        "source", "list", "tuple", "map", "record", "relation", "region", "lines", "rule",
        "option", "board", "symbol", "zones")

UNKNOWN = Type("unknown")
NONE = Type("none")
NUMBER = Type("number")
TEXT = Type("text")
BOOL = Type("bool")
SITE = Type("site")
PLAYER = Type("player")
PIECE = Type("piece")
ZONE = Type("zone")
RELATION = Type("relation")
REGION = Type("region")
LINES = Type("lines")
RULE = Type("rule")
BOARD = Type("board")


def list_of(t: Type) -> Type:
    return Type("list", (t,))


def tuple_of(items: tuple[Type, ...]) -> Type:
    return Type("tuple", items)


def map_of(k: Type, v: Type) -> Type:
    return Type("map", (k, v))


def record(**fields: Type) -> Type:
    return Type("record", tuple(fields.values()), fields=tuple(fields))


def piece(kind: str = "") -> Type:
    return Type("piece", name=kind)


def kind(name: str) -> Type:
    return Type("kind", name=name)


def zone(name: str = "") -> Type:
    return Type("zone", name=name)


def source(kind_name: str = "") -> Type:
    """`ball of mover`: a piece of a kind still to be taken from a zone."""
    return Type("source", name=kind_name)


def symbol(enum: str) -> Type:
    """A symbol of the enumeration `enum` (its key: module.name or name)."""
    return Type("symbol", name=enum)


def zones(name: str, each: bool = False) -> Type:
    """Indexed zones `zone stack[1..9]`: stack[i] is a zone; of each player, their items are
    the zones' names (`z of p` is a zone)."""
    return Type("zones", (TEXT,) if each else (), name=name)


def option(name: str) -> Type:
    """A value of a choice option: one of its names (a text)."""
    return Type("option", name=name)


# ---- how values are read ----------------------------------------------------------------
TEXTUAL = frozenset({"text", "kind", "option"})  # a text at run time
SEQUENCES = frozenset({"list", "tuple", "region", "lines"})  # items in order, indexable
COLLECTIONS = SEQUENCES | {"zone", "map", "zones"} | TEXTUAL  # what a domain or `in` goes over


ORDERED = frozenset({"number", "text", "list", "tuple", "region", "site", "player", "piece",
                     "bool"})


@lru_cache(maxsize=64)
def param(i: int) -> Type:
    """The value of a rule's parameter i while the rule's body is analysed: of any type, but
    known to be that parameter (what the body needs of it is checked where the rule is
    called)."""
    return Type("unknown", name=f"@{i}")


def param_index(t: Type) -> int | None:
    return int(t.name[1:]) if t.tag == "unknown" and t.name.startswith("@") else None


def plain(t: Type) -> Type:
    """t without parameter marks (a rule's result, seen from where it is called)."""
    if t.tag == "unknown":
        return UNKNOWN
    if not t.args:
        return t
    return Type(t.tag, tuple(plain(a) for a in t.args), t.name, t.fields)


def known(t: Type) -> bool:
    return t.tag not in ("unknown", "none")


def element(t: Type) -> Type:
    """The type of the items of a collection (the pieces of a zone, the keys of a map)."""
    if t.tag == "list":
        return t.args[0]
    if t.tag == "tuple":
        return join_all(t.args)
    if t.tag == "region":
        return SITE
    if t.tag == "lines":
        return list_of(SITE)
    if t.tag == "zone":
        return piece()
    if t.tag == "map":
        return t.args[0]
    if t.tag == "zones":
        return t.args[0] if t.args else ZONE
    if t.tag in TEXTUAL:
        return TEXT
    return UNKNOWN


def as_list(t: Type) -> Type:
    """A collection read as a list of its items (what `each`, `reversed` … give)."""
    return list_of(element(t)) if t.tag in COLLECTIONS else UNKNOWN


def join(a: Type, b: Type) -> Type:
    """A type for a value that is either an a or a b: the common type, none giving way to the
    other, UNKNOWN when they have nothing in common."""
    if a == b:
        return a
    if a.tag == "none":
        return b
    if b.tag == "none":
        return a
    if a.tag == "unknown" or b.tag == "unknown":
        return UNKNOWN
    if a.tag in TEXTUAL and b.tag in TEXTUAL:
        return TEXT
    if a.tag == b.tag and a.tag in ("piece", "zone", "source"):
        return Type(a.tag)
    seq = _join_sequences(a, b)
    if seq is not None:
        return seq
    if a.tag == b.tag == "map":
        return map_of(join(a.args[0], b.args[0]), join(a.args[1], b.args[1]))
    if a.tag == b.tag == "record" and a.fields == b.fields:
        return Type("record", tuple(join(x, y) for x, y in zip(a.args, b.args, strict=True)),
                    fields=a.fields)
    return UNKNOWN


def _join_sequences(a: Type, b: Type) -> Type | None:
    if a.tag == b.tag == "tuple" and len(a.args) == len(b.args):
        return tuple_of(tuple(join(x, y) for x, y in zip(a.args, b.args, strict=True)))
    if a.tag in ("list", "tuple", "region") and b.tag in ("list", "tuple", "region"):
        return list_of(join(element(a), element(b)))
    return None


def join_all(ts: tuple[Type, ...] | list[Type]) -> Type:
    out = NONE
    for t in ts:
        out = join(out, t)
        if out.tag == "unknown":
            break
    return out


def fits(t: Type, tags: frozenset[str]) -> bool:
    """A value of type t may stand where one of these tags is expected: always for an unknown
    or a none, and "text" accepts a kind or an option value, "list" any sequence."""
    if not known(t) or t.tag in tags:
        return True
    if "text" in tags and (t.tag in TEXTUAL or t.tag == "symbol"):
        return True
    if "list" in tags and t.tag in SEQUENCES:
        return True
    if "any" in tags:
        return True
    return False


# ---- the builtins' signatures (declared in rulelang/library, read here) --------------------
@dataclass(frozen=True, slots=True)
class Signature:
    params: tuple[frozenset[str], ...]  # the tags each argument may have
    rest: frozenset[str] | None  # the tags of further arguments, if any are allowed
    result: str  # a type expression; T is the item type of the first `coll[T]` argument
    generic: int | None  # the position of the `coll[T]` argument


_ALIASES = {"coll": COLLECTIONS, "seq": SEQUENCES | {"zone"} | TEXTUAL}


def parse_signature(sig: str) -> Signature:
    """"site, relation -> list[site]", "coll[T] -> T", "any... -> any"; a constant's is its
    result alone ("list[player]")."""
    head, arrow, result = sig.rpartition("->")
    if not arrow:
        return Signature((), None, sig.strip(), None)
    params: list[frozenset[str]] = []
    rest: frozenset[str] | None = None
    generic = None
    for i, word in enumerate(w.strip() for w in head.split(",") if w.strip()):
        if word.endswith("[T]"):
            generic = i if generic is None else generic
            word = word[:-3]
        tags = _tags(word.removesuffix("..."))
        if word.endswith("..."):
            rest = tags
        else:
            params.append(tags)
    return Signature(tuple(params), rest, result.strip(), generic)


def _tags(word: str) -> frozenset[str]:
    out: set[str] = set()
    for part in word.split("|"):
        part = part.strip()
        out |= _ALIASES.get(part, {part})
    return frozenset(out)


@lru_cache(maxsize=512)
def parse_type(text: str, t: Type = UNKNOWN) -> Type:
    """A result type expression: number, list[site], list[list[T]], record(a: site, …)."""
    text = text.strip()
    if text == "T":
        return t
    if text.startswith("list[") and text.endswith("]"):
        return list_of(parse_type(text[5:-1], t))
    if text.startswith("record(") and text.endswith(")"):
        fields = {}
        for part in text[7:-1].split(","):
            name, _, tag = part.partition(":")
            fields[name.strip()] = parse_type(tag, t)
        return record(**fields)
    if text == "any":
        return UNKNOWN
    if text not in TAGS:
        raise ValueError(f"unknown type in a builtin signature: {text!r}")
    return Type(text)


# ---- in the designer's words ---------------------------------------------------------------
_WORDS = {
    "unknown": "a value", "none": "none", "number": "a number", "text": "a text",
    "bool": "a truth value (true or false)", "site": "a site", "player": "a player",
    "zone": "a zone",
    "source": "a piece still in a zone", "record": "a record", "relation": "a relation",
    "region": "a region (a set of sites)", "lines": "a set of lines", "rule": "a rule",
    "board": "a board",
}
_PLURAL = {
    "number": "numbers", "text": "texts", "bool": "true/false values", "site": "sites",
    "player": "players", "piece": "pieces", "zone": "zones", "kind": "piece kinds",
    "relation": "relations", "region": "regions", "rule": "rules", "option": "option values",
    "zones": "sets of indexed zones",
    "record": "records",
}


def describe(t: Type) -> str:
    """'a site', 'a list of players', "a 'stone' piece", 'a tuple (text, number)'."""
    if t.tag == "piece":
        return f"a '{t.name}' piece" if t.name else "a piece"
    if t.tag == "kind":
        return f"the piece kind '{t.name}'" if t.name else "a piece kind"
    if t.tag == "zone" and t.name:
        return f"the zone '{t.name}'"
    if t.tag == "option":
        return f"a value of the option '{t.name}'"
    if t.tag == "symbol":
        return f"a symbol of the enumeration '{t.name}'"
    if t.tag == "zones":
        return f"the indexed zones '{t.name}'"
    if t.tag == "list":
        inner = t.args[0]
        return "a list" if not known(inner) else f"a list of {plural(inner)}"
    if t.tag == "tuple":
        if not t.args:
            return "an empty tuple"
        return "a tuple (" + ", ".join(_short(a) for a in t.args) + ")"
    if t.tag == "record" and t.fields:
        return "a record (" + ", ".join(t.fields) + ")"
    if t.tag == "map":
        k, v = t.args
        return "a map" if not known(k) else f"a map from {plural(k)}" + (
            f" to {plural(v)}" if known(v) else "")
    return _WORDS.get(t.tag, t.tag)


def plural(t: Type) -> str:
    if t.tag in ("list", "tuple"):
        return "lists" if t.tag == "list" or not t.args else "tuples"
    if t.tag == "lines":
        return "sets of lines"
    if t.tag == "symbol":
        return f"symbols of the enumeration '{t.name}'"
    return _PLURAL.get(t.tag, describe(t))


def _short(t: Type) -> str:
    return describe(t).removeprefix("a ").removeprefix("an ") if known(t) else "?"


_EXPECTED = {"list": "a list", "tuple": "a tuple", "map": "a map", "piece": "a piece"}


def expected(tags: frozenset[str]) -> str:
    """What an expectation asks for, in words: 'a site or a zone', 'a collection'."""
    if tags >= COLLECTIONS - TEXTUAL:
        return "a collection (a list, a region, a zone …)"
    words = [_WORDS.get(tag) or _EXPECTED[tag] for tag in sorted(tags - TEXTUAL)
             if tag in _WORDS or tag in _EXPECTED]
    if tags & TEXTUAL:
        words.insert(0, "a text")
    return " or ".join(words) if words else "a value"


# ---- operators ------------------------------------------------------------------------
def arith(op: str, a: Type, b: Type) -> Type | None:
    """The type of a op b, None when it is certainly an error."""
    ka, kb = known(a), known(b)
    num = frozenset({"number"})
    if op == "+":
        if not ka or not kb:
            one = a if ka else b
            if not known(one):
                return UNKNOWN
            if one.tag in ("number", "text") or one.tag in TEXTUAL:
                return NUMBER if one.tag == "number" else TEXT
            return as_list(one) if one.tag in ("list", "tuple", "region") else None
        if a.tag == b.tag == "number":
            return NUMBER
        if a.tag in TEXTUAL and b.tag in TEXTUAL:
            return TEXT
        if a.tag == b.tag == "tuple":
            return tuple_of(a.args + b.args)
        seqs = ("list", "tuple", "region")
        if a.tag in seqs and b.tag in seqs:
            return list_of(join(element(a), element(b)))
        return None
    if op == "*":
        if ka and kb and a.tag == b.tag == "number":
            return NUMBER
        for x, n in ((a, b), (b, a)):
            if fits(n, num) and known(x) and x.tag != "number":
                if x.tag in TEXTUAL:
                    return TEXT
                return as_list(x) if x.tag in ("list", "tuple", "region") else None
        if ka and kb:
            return None
        return UNKNOWN if not (ka or kb) else (UNKNOWN if (a if ka else b).tag in
                                                  ("number", "list", "tuple", "text")
                                                  else None)
    if not fits(a, num) or not fits(b, num):
        return None
    return NUMBER


def comparable(a: Type, b: Type) -> bool:
    ta = "text" if a.tag in TEXTUAL else "list" if a.tag in ("list", "tuple", "region") \
        else a.tag
    tb = "text" if b.tag in TEXTUAL else "list" if b.tag in ("list", "tuple", "region") \
        else b.tag
    return ta == tb and ta in ORDERED
