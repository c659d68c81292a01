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
from rulelang.language.program import Category, Program, Ref
from rulelang.language.resolver import written
from rulelang.language.types import Type

# the words of written types: the designer's words for the types of values
WORDS: dict[str, Type] = {
    "number": ty.NUMBER, "text": ty.TEXT, "bool": ty.BOOL, "site": ty.SITE,
    "player": ty.PLAYER, "piece": ty.PIECE, "zone": ty.ZONE, "relation": ty.RELATION,
    "region": ty.REGION, "lines": ty.LINES, "rule": ty.RULE,
}
COLLECTION_WORDS = ("list",)  # `list of T`


def collect(ck: Any, program: Program) -> None:
    """The declared types of piece attributes (`with name: card_name`) and rules' parameters
    (`def f(s: site)`), into the program; a name that is no type reported (R201)."""
    for piece in program.pieces.values():
        if piece.types:
            program.attr_types[piece.name] = {
                name: resolve(ck, ck.namespaces[""], t) for name, t in piece.types}
    rules: list[tuple[str, ast.Def | ast.Effect]] = [*program.defs.items(),
                                                      *program.effects.items()]
    for key, rule in rules:
        if rule.types:
            ns = ck.namespaces.get(key.rpartition(".")[0], ck.namespaces[""])
            program.param_types[key] = tuple(
                None if t is None else resolve(ck, ns, t) for t in rule.types)


def resolve(ck: Any, ns: dict[str, Ref], t: ast.TypeName) -> Type:
    """The type a written type names in the namespace ns; UNKNOWN (reported, R201) for a name
    that is no type."""
    word, rest = t.words[0], t.words[1:]
    if word in COLLECTION_WORDS:
        if not rest:
            ck.error("R201", f"'{word}' needs the type of its items", t.span,
                     f"write '{word} of site', '{word} of number' …")
            return ty.UNKNOWN
        item = resolve(ck, ns, ast.TypeName(rest, span=t.span))
        return ty.list_of(item) if ty.known(item) else ty.UNKNOWN  # (reported)
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
    what = f"'{word}' names a {ref.category.value}, not a type" if ref is not None else \
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


def params_env(tc: Any, d: ast.Def | ast.Effect, marks: bool) -> dict[str, Type]:
    """A rule's parameters while its body is checked: a written type (`s: site`), else a
    parameter mark (marks: what the body needs of it is checked at calls) or UNKNOWN."""
    types = tc.written.get(id(d), ())
    env: dict[str, Type] = {}
    for i, p in enumerate(d.params or ()):
        t = types[i] if i < len(types) else None
        env[p] = t if t is not None else ty.param(i) if marks else ty.UNKNOWN
    return env


def check_args(tc: Any, e: ast.Call, key: str, args: list[Type]) -> None:
    """A rule's arguments against its parameters' written types (R230, at the call)."""
    types = tc.p.param_types.get(key)
    d = tc.p.defs.get(key) or tc.p.effects.get(key)
    if not types or d is None:
        return
    for i, (a, t) in enumerate(zip(e.args, args, strict=False)):
        want = types[i] if i < len(types) else None
        if want is None or compatible(t, want):
            continue
        decl = d.types[i]
        help = f"'{tc.text(a)}' is {t}; '{written(e.func)}' declares " \
            f"'{d.params[i]}: {' of '.join(decl.words) if decl else want}'"
        enum = tc.p.enums.get(want.name) if want.tag == "symbol" else None
        if enum is not None and isinstance(a, ast.Const) and a.value in enum.symbols:
            help = f"write the symbol without quotes: {a.value}"
        tc.error("R230", f"{written(e.func)}(…), argument {i + 1}: expected {want}, "
                 f"found {t}", a.span, help)


def attr_types(p: Program) -> dict[str, Type]:
    """The type of `x.name` for a piece x of any kind: the type every kind that has the
    attribute declares for it (`piece card with name: card_name`), if they agree."""
    out: dict[str, Type] = {}
    for n in {n for d in p.pieces.values() for n, _ in d.attrs}:
        found = [p.attr_types.get(k, {}).get(n) for k, d in p.pieces.items()
                 if any(a == n for a, _ in d.attrs)]
        if found and found[0] is not None and all(t == found[0] for t in found):
            out[n] = found[0]
    return out
