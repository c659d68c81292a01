"""The writer's operators: arithmetic and comparisons, in place where both sides' forms
are known (numbers, a site in a kept query's list), else through the reference's meaning
(gen/helpers.py binop, compare)."""
from __future__ import annotations

from typing import Any

import rulelang.gen.forms as F
import rulelang.gen.helpers as H
from rulelang.gen.code import Code
from rulelang.language import ast


def _foldable(c: Code) -> bool:
    """A value known when written whose equality is identity (or an int's)."""
    return c.form.known and c.form.kind in ("player", "site", "num", "none") \
        and type(c.form.static) is not bool


def binop(w: Any, n: ast.BinOp, env: dict[str, Code]) -> Code:
    a, b = w.ex(n.left, env), w.ex(n.right, env)
    cost = a.cost + b.cost + a.form.size + b.form.size
    if n.op in ("+", "-") and a.form.kind == b.form.kind == "num":
        return Code(f"({a.src} {n.op} {b.src})", F.NUM, cost)
    form = F.NUM if a.form.kind == b.form.kind == "num" else F.ANY
    if n.op == "+" and a.form.kind == "text" or b.form.kind == "text":
        form = F.ANY
    if n.op == "+" and a.form.kind == b.form.kind == "items" and a.form.item is not None \
            and a.form.item == b.form.item:  # (two tuples: one, their items' form kept)
        form = F.items(a.form.size + b.form.size, F.an_item(a.form.item))
    return Code(f"{w.const(H.binop)}({w.const(n.op)}, {a.src}, {b.src}, "
                f"{w.const(n.span)})", form, cost)


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
    cost = a.cost + b.cost + max(a.form.size, b.form.size, 1 if n.op in ("in", "not in")
                                 and b.form.kind != "items" else 0)
    if n.op in ("==", "!="):
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)
    if n.op in ("in", "not in") and b.form.kind == "items":  # (the reference charges
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)  # the items: the bound)
    if n.op in ("<", "<=", ">", ">=") and a.form.kind == b.form.kind == "num":
        return Code(f"({a.src} {n.op} {b.src})", F.BOOL, cost)
    return Code(f"{w.const(H.compare)}({w.const(n.op)}, {a.src}, {b.src}, "
                f"{w.const(n.span)}, S)", F.BOOL, cost + w.n_sites)
