"""The types of enumerations, tables and indexed zones (docs/language.md, "Enumerations",
"Tables", "Indexed zones"), for the type checker (typecheck.py): a symbol compared with a
symbol of another enumeration or with a text (R251), a table read at a key it certainly does
not hold or given a key twice (R252), indexed zones read at an index out of their range (R253)."""
from __future__ import annotations

from typing import Any

from rulelang.language import ast
from rulelang.language import types as ty
from rulelang.language.types import Type

_UNSET = object()


def ref_type(tc: Any, cat: str, key: str) -> Type:
    """The type of a symbol, an enumeration, a table or indexed zones named by `key`."""
    if cat == "symbol":
        return ty.symbol(tc.p.symbols.get(key, ""))
    if cat == "enum":
        return ty.list_of(ty.symbol(key))
    if cat == "zones":
        d = tc.p.zone_families.get(key)
        return ty.zones(key, d is not None and d.each)
    return table_type(tc, key)


def table_type(tc: Any, key: str) -> Type:
    """A table's type: a map from the join of its keys' types to the join of its values'
    types, named by the table; computed once, its mistakes reported (never quietly)."""
    cache: dict[str, Type] = tc.__dict__.setdefault("table_types", {})
    if key in cache:
        return cache[key]
    t = tc.p.tables.get(key)
    if t is None:
        return ty.UNKNOWN
    cache[key] = ty.UNKNOWN  # a table that names itself
    quiet, maybe, collect = tc.quiet, tc.maybe, tc.collect
    tc.quiet, tc.maybe, tc.collect = 0, 0, None
    try:
        keys = ty.join_all([tc.expr(k, {}) for k in t.keys])
        values = ty.join_all([tc.expr(v, {}) for v in t.values])
    finally:
        tc.quiet, tc.maybe, tc.collect = quiet, maybe, collect
    out = cache[key] = Type("map", (keys, values), name=key)
    return out


def table_decl(tc: Any, d: ast.Table) -> None:
    """A table's types, and a key written twice (R252)."""
    key = next((k for k, t in tc.p.tables.items() if t is d), None)
    if key is not None:
        table_type(tc, key)
    seen: dict[object, ast.Expr] = {}
    for k in d.keys:
        value = literal(tc, k)
        if value is _UNSET:
            continue
        if value in seen:
            first = seen[value].span
            tc.error("R252", f"the table '{d.name}' has the key {tc.text(k)} twice", k.span,
                     f"first given at line {first.line}: a key has one value")
        else:
            seen[value] = k


def literal(tc: Any, e: ast.Expr) -> object:
    """The value of a key written as a number, a text or a symbol; _UNSET otherwise."""
    if isinstance(e, ast.Const) and type(e.value) in (int, str):
        return e.value
    ref = tc.refs.get(e)
    if ref is not None and ref[0] == "symbol":
        return ref[1].rpartition(".")[2]
    return _UNSET


def index(tc: Any, e: ast.Index, obj: Type, i: Type) -> Type:
    """`points["oak"]` and `stack[3]`."""
    if obj.tag == "zones":
        return _zone_index(tc, e, obj, i)
    t = tc.p.tables.get(obj.name)
    key_type = obj.args[0] if obj.args else ty.UNKNOWN
    if key_type.tag == "symbol" and ty.known(i) and (i.tag != "symbol"
                                                     or i.name != key_type.name):
        _symbol_key(tc, e, obj, key_type, i)
        return obj.args[1]
    written = literal(tc, e.index)
    if t is not None and written is not _UNSET:
        keys = [literal(tc, k) for k in t.keys]
        if _UNSET not in keys and written not in keys:
            texts = list(dict.fromkeys(tc.text(k) for k in t.keys))
            shown = ", ".join(texts[:8]) + (", …" if len(texts) > 8 else "")
            tc.error("R252", f"the table '{t.name}' has no entry for {tc.text(e.index)}",
                     e.index.span, f"its keys are {shown}")
    return obj.args[1]


def of_index(tc: Any, e: ast.Of, env: dict[str, Type]) -> Type:
    """`hand[2] of p` for indexed zones of each player (any other left side of `of` that is
    not a name: its type, unknown)."""
    left = e.left
    if isinstance(left, ast.Index):
        obj = tc.expr(left.obj, env)
        d = tc.p.zone_families.get(obj.name) if obj.tag == "zones" else None
        if d is not None:
            i = tc.expr(left.index, env)
            if not d.each:
                tc.error("R204", f"'{d.name}[…]' are shared, not one per player: write "
                         f"'{tc.text(left)}' without 'of'", e.span,
                         f"or declare them 'zone {d.name}[…] each player'")
            return _zone_index(tc, left, ty.zones(d.name), i, of=True)
    tc.expr(left, env)
    return ty.UNKNOWN


def _symbol_key(tc: Any, e: ast.Index, obj: Type, key_type: Type, i: Type) -> None:
    """A table whose keys are symbols, read at a text or another enumeration's symbol: never
    a key it has (R251)."""
    enum = tc.p.enums.get(key_type.name)
    symbols = tuple(enum.symbols) if enum is not None else ()
    index = e.index
    quoted = isinstance(index, ast.Const) and index.value in symbols
    help = f"write the symbol without quotes: {index.value}" if isinstance(
        index, ast.Const) and quoted else f"a key of '{obj.name}' is one of {', '.join(symbols)}"
    tc.error("R251", f"the table '{obj.name}' is read at {i}: its keys are symbols of "
             f"'{key_type.name}'", index.span, help)


def _zone_index(tc: Any, e: ast.Index, obj: Type, i: Type, of: bool = False) -> Type:
    d = tc.p.zone_families.get(obj.name)
    if d is not None and d.each and not of:
        tc.error("R204", f"'{d.name}[…]' belong to each player: write "
                 f"'{tc.text(e)} of <player>'", e.span, f"e.g. '{tc.text(e)} of mover'")
        return ty.UNKNOWN
    if not ty.fits(i, frozenset({"number"})):
        tc.mismatch(e.index, i, "a number", f"the zones '{obj.name}'",
                    f"'{tc.text(e.index)}' is {i}; write {obj.name}[1], {obj.name}[i] …")
        return ty.ZONE
    if d is None or d.indices is None:
        return ty.ZONE
    lo, hi = d.indices
    n = _number(e.index)
    if n is not None and not lo <= n <= hi:
        tc.error("R253", f"there is no zone {obj.name}[{n}]", e.index.span,
                 f"the zones '{obj.name}' are {obj.name}[{lo}] to {obj.name}[{hi}]")
        return ty.ZONE
    return ty.zone(f"{obj.name}[{n}]") if n is not None else ty.ZONE


def _number(e: ast.Expr) -> int | None:
    if isinstance(e, ast.Const) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.Neg) and isinstance(e.operand, ast.Const) \
            and type(e.operand.value) is int:
        return -e.operand.value
    return None


def compare(tc: Any, e: ast.Compare, a: Type, b: Type) -> None:
    """A number is never equal to a text (R230). `x == accept`: both symbols of one
    enumeration; a symbol is never a text (R251). A
    record is never equal to a list or tuple, nor to a record of other fields (R266)."""
    if a.tag == "record" or b.tag == "record":
        _compare_record(tc, e, a, b)
    if {a.tag, b.tag} == {"number", "text"}:  # `size(free) == "zero"`
        tc.error("R230", f"'{e.op}' compares a number with a text: it is "
                 f"{'never' if e.op == '==' else 'always'} true", e.span,
                 "a number is equal only to a number: write it without quotes")
        return
    if a.tag != "symbol" and b.tag != "symbol":
        return
    sym, other, other_e = (a, b, e.right) if a.tag == "symbol" else (b, a, e.left)
    if not ty.known(other) or (other.tag == "symbol" and other.name == sym.name):
        return
    enum = tc.p.enums.get(sym.name)
    values = ", ".join(enum.symbols) if enum is not None else "its symbols"
    if other.tag == "symbol":
        tc.error("R251", f"'{e.op}' compares symbols of two enumerations, '{sym.name}' and "
                 f"'{other.name}': it is never true", e.span,
                 f"a symbol of '{sym.name}' is one of {values}")
        return
    if isinstance(other_e, ast.Const) and isinstance(other_e.value, str):
        name = other_e.value
        if enum is not None and name in enum.symbols:
            help = f"write the symbol without quotes: {name}"
        else:
            help = f"\"{name}\" is not a symbol of '{sym.name}', which has {values}"
        tc.error("R251", f"'{e.op}' compares a symbol of '{sym.name}' with a text",
                 other_e.span, help)
        return
    tc.error("R251", f"'{e.op}' compares {sym} with {other}: it is never true", e.span,
             f"a symbol of '{sym.name}' is one of {values}")


def _compare_record(tc: Any, e: ast.Compare, a: Type, b: Type) -> None:
    rec, other = (a, b) if a.tag == "record" else (b, a)
    if not ty.known(other) or not rec.fields:
        return
    side = e.left if a.tag == "record" else e.right
    help = (f"a record equals only a record of the same fields, in the same order, and equal "
            f"values; compare a field instead, e.g. '{tc.text(side)}.{rec.fields[0]} == …'")
    never = "true" if e.op == "==" else "false"
    if other.tag in ("list", "tuple"):
        tc.error("R266", f"'{e.op}' compares {rec} with {other}: a record is never equal to "
                 f"a list or a tuple, so it is never {never}", e.span, help)
    elif other.tag == "record" and other.fields and other.fields != rec.fields:
        tc.error("R266", f"'{e.op}' compares records of different fields, {rec} and "
                 f"{other}: it is never {never}", e.span, help)

