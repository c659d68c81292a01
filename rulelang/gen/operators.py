"""The writer's operators: arithmetic, comparisons and indexing, in place where the forms
are known (numbers, a site in a kept query's list, a tuple known when written by a number
below its length), else through the reference's meaning (gen/helpers.py binop, compare,
index)."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import rulelang.gen.forms as F
import rulelang.gen.helpers as H
from rulelang.errors import RulelangError
from rulelang.gen.bits import site_mask
from rulelang.gen.code import READ_AGAIN, Code
from rulelang.gen.forms import Form
from rulelang.gen.lower import Choice
from rulelang.language import ast
from rulelang.model.values import LineSet, MapValue, Piece, Player, Record, Site

SIMPLE = re.compile(r"^[\w.\[\]]+$")  # (a name, an attribute, an item: read again at will)
_COLUMN = re.compile(r"S\.attrs\[k\d+\]\[[av]\d+\.id\]")  # (a piece's attribute: the same)
_KIND = re.compile(r"[av]\d+\.kind")  # (a piece's kind: the same)
_AGAIN = (READ_AGAIN, _COLUMN, _KIND)
_HASHED = frozenset({"text", "num", "bool", "none", "player", "site", "piece"})  # (keys)


def _foldable(c: Code) -> bool:
    """A value known when written whose equality is identity (or an int's)."""
    return c.form.known and c.form.kind in ("player", "site", "num", "none") \
        and type(c.form.static) is not bool


def _length(form: F.Form) -> int:
    """At most the items a value of this form holds (a number's bound is no length)."""
    return 0 if form.kind == "num" else int(form.size)


def binop(w: Any, n: ast.BinOp, env: dict[str, Code]) -> Code:
    a, b = w.ex(n.left, env), w.ex(n.right, env)
    cost = a.cost + b.cost + _length(a.form) + _length(b.form)
    if n.op in ("+", "-") and a.form.kind == b.form.kind == "num":
        return Code(f"({a.src} {n.op} {b.src})", F.NUM, cost)
    if n.op in ("%", "//") and a.form.kind == "num" and b.form.known \
            and type(b.form.static) is int and b.form.static != 0:  # (no error to meet)
        return Code(f"({a.src} {n.op} {b.src})", F.NUM, cost)
    form = F.NUM if a.form.kind == b.form.kind == "num" else F.ANY
    if n.op == "+" and a.form.kind == "text" or b.form.kind == "text":
        form = F.ANY
    if n.op == "+" and a.form.kind == b.form.kind == "items" and a.form.item is not None \
            and a.form.item == b.form.item:  # (two tuples: one, their items' form kept)
        form = F.items(a.form.size + b.form.size, F.an_item(a.form.item))
    call = f"{w.const(H.binop)}({w.const(n.op)}, {a.src}, {b.src}, {w.const(n.span)}, S)"
    other = _beside_number(a, b)
    if n.op in ("+", "-") and other is not None:  # (a number and one where it is one too)
        call = f"(({a.src} {n.op} {b.src}) if {other}.__class__ is {w.const(int)} else {call})"
    return Code(call, form, cost)


def _again(code: Code) -> str | None:
    """The source of a value read again at will (a local, a piece's attribute or kind),
    or None."""
    return code.src if any(p.fullmatch(code.src) for p in _AGAIN) else None


def _beside_number(a: Code, b: Code) -> str | None:
    """Of a number and a value read again at will, that value (tested in place for a
    number too), or None."""
    other = b if a.form.kind == "num" else a if b.form.kind == "num" else None
    return None if other is None else _again(other)


def compare(w: Any, n: ast.Compare, env: dict[str, Code]) -> Code:
    a, b = w.ex(n.left, env), w.raw(n.right, env)
    if n.op in ("in", "not in") and a.form.kind == "site" \
            and b.form.kind in ("sitelist", "bits"):
        test = f"({a.src}.index in {b.src})" if b.form.kind == "sitelist" \
            else f"({b.src} >> {a.src}.index & 1 == 1)"
        return Code(test if n.op == "in" else f"(not {test})", F.BOOL,
                    a.cost + b.cost + b.form.size)
    b = w.plain(b)
    if n.op in ("==", "!=") and _foldable(a) and _foldable(b):  # known when written
        same = a.form.static is b.form.static if type(a.form.static) is not int \
            or type(b.form.static) is not int else a.form.static == b.form.static
        known: Code = w.static(same == (n.op == "=="))
        return known
    cost = a.cost + b.cost + max(_length(a.form), _length(b.form), 1 if n.op in ("in", "not in")
                                 and b.form.kind != "items" else 0)
    if n.op in ("==", "!=") and (a.form.kind != "any" or a.form.atom):
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)
    if n.op in ("==", "!="):  # (a list: its length charged, as the reference charges it)
        fn = w.const(H.equal if n.op == "==" else H.unequal)
        call = f"{fn}({a.src}, {b.src}, {w.const(n.span)}, S)"
        if _again(a) is not None:  # (a local, a piece's attribute: tested in place)
            call = f"(({a.src} {n.op} {b.src}) if {a.src}.__class__ is not " \
                   f"{w.const(tuple)} else {call})"
        return Code(call, F.BOOL, cost)
    if n.op in ("in", "not in") and b.form.kind == "items":  # (the reference charges
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)  # the items: the bound)
    if n.op in ("<", "<=", ">", ">=") and a.form.kind == b.form.kind == "num":
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)
    if n.op in ("in", "not in") and b.form.known and isinstance(b.form.static, MapValue) \
            and a.form.kind in _HASHED:  # (a key of a map or a table known when written)
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)
    call = f"{w.const(H.compare)}({w.const(n.op)}, {a.src}, {b.src}, {w.const(n.span)}, S)"
    other = _beside_number(a, b)
    if n.op in ("<", "<=", ">", ">=") and other is not None:
        # (a number and a value read again at will, in place where that is a number too)
        call = f"(({a.src} {n.op} {b.src}) if {other}.__class__ is {w.const(int)} else {call})"
    return Code(call, F.BOOL, cost + w.n_sites)


def index(w: Any, n: ast.Index, env: dict[str, Code]) -> Code:
    """`obj[i]`."""
    obj, i = w.ex(n.obj, env), w.ex(n.index, env)
    if obj.form.known and i.form.known and type(i.form.static) is int \
            and type(obj.form.static) in (tuple, LineSet) \
            and -len(obj.form.static) <= i.form.static < len(obj.form.static):
        known: Code = w.static(obj.form.static[i.form.static])  # (known when written)
        return known
    if obj.form.known and type(obj.form.static) in (tuple, LineSet) \
            and i.form.kind == "num" and 0 < i.form.size <= len(obj.form.static):
        item = obj.form.item  # (an index below its length: in place)
        form = F.an_item(item) if item else F.ANY
        rows = obj.form.static.lines if type(obj.form.static) is LineSet \
            else obj.form.static
        if form.kind == "items" and form.item == F.SITE and SIMPLE.match(i.src) \
                and all(len(set(row)) == len(row) for row in rows):
            masks = w.const(tuple(site_mask(row) for row in rows))  # (its bits too)
            form = replace(form, bits=f"{masks}[{i.src}]")
        return Code(f"{obj.src}[{i.src}]", form, obj.cost + i.cost)
    if obj.form.known and i.form.known and isinstance(obj.form.static, MapValue):
        try:  # (a map's or a table's entry known when written: a constant)
            entry = obj.form.static[i.form.static]
        except (RulelangError, TypeError):
            pass  # (its error is met where the game runs into it)
        else:
            known = w.static(entry)
            return known
    form = F.ANY  # (a line of a line set, or an item of a tuple of one form: that form,
    # whatever the index's form — any other index is the reference's error)
    if i.form.kind in ("num", "any") and obj.form.kind in ("lines", "items") \
            and (obj.form.kind == "items" or obj.form.known) and obj.form.item is not None:
        form = obj.form.item
    static = obj.form.static if obj.form.known else None
    values = _values(static)
    if values and all(type(v) is int and v >= 0 for v in values) \
            and type(static) is not MapValue:  # (a map gives none for a key it lacks)
        form = F.below(max(values) + 1)  # (whatever the index: one of these, or an error)
    call = f"{w.const(H.index)}({obj.src}, {i.src}, {w.const(n.span)})"
    key = _again(i) if isinstance(static, MapValue) and i.form.kind in _HASHED else None
    if key is not None:  # (a key of a map or a table known when written, in place)
        call = f"({obj.src}[{key}] if {key} in {obj.src} else {call})"
    return Code(call, form, obj.cost + i.cost)


def _values(x: Any) -> tuple[Any, ...] | None:
    """The entries a map, a table or a tuple known when written gives when indexed."""
    if isinstance(x, MapValue):
        return tuple(x.values())
    return x if type(x) is tuple else None


def attribute(w: Any, obj: Code, name: str, span: Any) -> Code:
    """`x.name` of a value of unknown form: by the helper (the reference's meaning), or,
    for a local of the writer's, in place where it is what the name most likely reads —
    a piece (one of its attributes), a player (its number or name), a site (one of its
    coordinates) — and by the helper otherwise."""
    attrs = w.rt.template.attrs
    piece = name in attrs and name != "kind"  # (a piece's, most likely)
    call = f"{w.const(H.piece_attr if piece else H.attr)}(S, {obj.src}, {w.const(name)}, " \
           f"{w.const(span)})"
    x = obj.src
    if not READ_AGAIN.fullmatch(x):
        return Code(call, F.ANY, obj.cost)
    fields = w.record_fields.get(name)
    if fields is not None:  # (a record the rules make, read in place: its tuple's item)
        call = f"({x}[{w.const(fields.index(name))}] if {x}.__class__ is " \
               f"{w.const(Record)} and {x}.fields is {w.const(fields)} else {call})"
    cls: type
    if piece:
        fast, cls = f"S.attrs[{w.const(name)}][{x}.id]", Piece
    elif name in ("index", "name"):
        fast, cls = f"{x}.{name}", Player
    elif name in w.rt.coord_index:
        fast, cls = f"{x}.coords[{w.const(w.rt.coord_index[name])}]", Site
    else:
        return Code(call, F.ANY, obj.cost)
    return Code(in_place(w, x, cls, fast, call), F.ANY, obj.cost)


def in_place(w: Any, x: str, cls: type, fast: str, call: str) -> str:
    """x's value read in place (`fast`) where x, a local of the writer's, is of class
    `cls`, by the helper's `call` otherwise."""
    return f"({fast} if {x}.__class__ is {w.const(cls)} else {call})"


def if_expr(w: Any, n: ast.IfExpr, env: dict[str, Code]) -> Code:
    """`A if C else B`: one branch where C is known when written; the bits of sites where
    one branch is bits and the other `()` (none), else both as the reference's values."""
    c = w.ex(n.cond, env)
    if c.form.known and type(c.form.static) is bool:  # known when written: one branch
        one: Code = w.raw(n.then if c.form.static else n.orelse, env)
        return one
    a, b = w.raw(n.then, env), w.raw(n.orelse, env)
    if a.form.kind == "bits" and _no_items(b):  # (no sites: no bits)
        b = Code(w.const(0), a.form, 0)
    elif b.form.kind == "bits" and _no_items(a):
        a = Code(w.const(0), b.form, 0)
    if a.form.kind != b.form.kind or a.form.kind == "maybe":
        a, b = w.plain(a), w.plain(b)
    size = max(a.form.size, b.form.size)  # (a number below a bound: both below it)
    if a.form.kind == "num" and not (a.form.size and b.form.size):
        size = 0
    form = F.ANY if a.form.kind != b.form.kind else \
        Form(a.form.kind, size, a.form.item or b.form.item)
    return Code(f"({a.src} if {c.src} else {b.src})", form, c.cost + max(a.cost, b.cost),
                Choice(c, a, b))


def _no_items(code: Code) -> bool:
    """Is the value the empty list (`()` as the writer writes it)?"""
    return code.src == "()" and code.form.kind == "items" or code.form.known \
        and type(code.form.static) is tuple and not code.form.static
