"""Types written out in a rulebook (docs/language.md, "Written types"): the declared type of a
piece attribute (`piece card with name: card_name`) and of a rule's parameter
(`def free(s: site) = empty(s)`). A written type is a word of the designer's (`number`,
`site`, `list of site` …), an enumeration's name or a piece kind's name; any other name is
R201. A data file's values are checked against their attribute's declared type (R210)."""
from __future__ import annotations

import difflib
from typing import Any

from rulelang.language import ast
from rulelang.language import types as ty
from rulelang.language.program import Category, Ref
from rulelang.language.types import Type

# the words of written types: the designer's words for the types of values
WORDS: dict[str, Type] = {
    "number": ty.NUMBER, "text": ty.TEXT, "bool": ty.BOOL, "site": ty.SITE,
    "player": ty.PLAYER, "piece": ty.PIECE, "zone": ty.ZONE, "relation": ty.RELATION,
    "region": ty.REGION, "lines": ty.LINES, "rule": ty.RULE,
}
COLLECTION_WORDS = ("list",)  # `list of T`


def resolve(ck: Any, ns: dict[str, Ref], t: ast.TypeName) -> Type:
    """The type a written type names in the namespace ns; UNKNOWN (reported, R201) for a name
    that is no type."""
    word, rest = t.words[0], t.words[1:]
    if word in COLLECTION_WORDS:
        if not rest:
            ck.error("R201", f"'{word}' needs the type of its items", t.span,
                     f"write '{word} of site', '{word} of number' …")
            return ty.UNKNOWN
        return ty.list_of(resolve(ck, ns, ast.TypeName(rest, span=t.span)))
    if rest:
        ck.error("R201", f"'{word} of …' is no type: only a list has items", t.span,
                 f"write 'list of {' of '.join(rest)}'")
        return ty.UNKNOWN
    if word in WORDS:
        return WORDS[word]
    ref = ns.get(word)
    if ref is not None and ref.category == Category.ENUM:
        return ty.symbol(ref.key)
    if ref is not None and ref.category == Category.KIND:
        return ty.piece(ref.key)
    names = [*WORDS, *COLLECTION_WORDS,
             *(n for n, r in ns.items() if r.category in (Category.ENUM, Category.KIND))]
    close = difflib.get_close_matches(word, names, n=1)
    what = f"'{word}' is {ref.category.value}, not a type" if ref is not None else \
        f"unknown type '{word}'"
    ck.error("R201", what, t.span,
             (f"did you mean '{close[0]}'? " if close else "") + "a type is one of "
             + ", ".join(WORDS) + ", list of T, an enumeration or a piece kind")
    return ty.UNKNOWN


def data_problem(value: Any, t: Type, enums: dict[str, Any]) -> str | None:
    """Why a value read from a data file is not of the declared type t (None: it is, or t
    is unknown: a written type already reported)."""
    if not ty.known(t):
        return None
    if t.tag == "symbol":
        enum = enums.get(t.name)
        symbols = tuple(enum.symbols) if enum is not None else ()
        if isinstance(value, str) and value in symbols:
            return None
        return f"is no symbol of the enumeration '{t.name}', which has {', '.join(symbols)}"
    if t.tag == "number":
        ok = isinstance(value, int) and not isinstance(value, bool)
        return None if ok else "is not a whole number"
    if t.tag == "text":
        return None if isinstance(value, str) else "is not a text"
    if t.tag == "bool":
        return None if isinstance(value, bool) else "is not true or false"
    if t.tag == "list":
        if not isinstance(value, (list, tuple)):
            return "is not a list"
        for item in value:
            problem = data_problem(item, t.args[0], enums)
            if problem is not None:
                return f"holds {show(item)}, which {problem}"
        return None
    return f"cannot be {ty.describe(t)}: a data file gives numbers, texts, true/false, " \
        "symbols and lists of them"


def show(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower() \
        if isinstance(value, bool) else str(value)


def compatible(found: Type, declared: Type) -> bool:
    """A value of type `found` may be given where `declared` is written (never false for a
    type inference cannot decide, or a none)."""
    if not ty.known(found) or not ty.known(declared):
        return True
    if declared.tag == "symbol":
        return found.tag == "symbol" and found.name == declared.name
    if declared.tag == "list":
        return ty.fits(found, frozenset({"list"})) and compatible(ty.element(found),
                                                                  declared.args[0])
    if declared.tag == "piece":
        return found.tag == "piece" and (not declared.name or not found.name
                                         or found.name == declared.name)
    if found.tag == "symbol":
        return False
    return ty.fits(found, frozenset({declared.tag}))
