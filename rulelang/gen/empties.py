"""Bounds on empty sites, for drawing a lazy action's option (gen/draws.py): a `choose site`
after effects whose values are empty sites, each once, has at most as many values as the
board has empty sites after those effects, and those are at most the empty sites before
them plus the sites the effects can empty (`emptied`). Where that is known the draw's bound
is counted on the board as it is drawn, not the board's size: fewer ways drawn in vain.

Everything here is an upper bound read from the statements (None: unknown); nothing is
matched by name but the builtins `empty` and `sites`."""
from __future__ import annotations

from typing import Any

from rulelang.language import ast
from rulelang.language.astwalk import conjuncts


def emptied(program: Any, stmts: tuple[ast.Stmt, ...], seen: frozenset[str] = frozenset()
            ) -> int | None:
    """How many sites the statements can leave empty that were not, at most (None: no
    bound): a `remove` one, a `move` one unless its target is an empty site (then the site
    it leaves is made up for by the one it fills), a loop none if its body empties none."""
    total = 0
    for s in stmts:
        n = _emptied(program, s, seen)
        if n is None:
            return None
        total += n
    return total


def _emptied(program: Any, s: ast.Stmt, seen: frozenset[str]) -> int | None:
    if isinstance(s, (ast.Let, ast.Require, ast.Choose, ast.Set, ast.Increase)):
        return 0
    if isinstance(s, (ast.Remove, ast.Put)):
        return 1
    if isinstance(s, ast.Move):
        return 0 if _empty_site(program, s.target) else 1
    if isinstance(s, ast.If):
        blocks = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
        found = [emptied(program, b.stmts, seen) for b in blocks]
        return None if None in found else max(n for n in found if n is not None)
    if isinstance(s, (ast.ForEach, ast.Repeat, ast.While)):
        return 0 if emptied(program, s.body.stmts, seen) == 0 else None
    if isinstance(s, ast.CallStmt):
        ref = program.refs.get(s.call.func)
        if ref is None or ref[0] != "effect" or ref[1] in seen:
            return None
        return emptied(program, program.effects[ref[1]].body.stmts, seen | {ref[1]})
    return None


def empty_values(program: Any, choose: ast.Choose) -> bool:
    """Are the values a `choose site` offers empty sites, each once: a domain of distinct
    sites (`sites`, or `each s in sites where …`, also through a constant rule) of which
    the domain's or the choose's condition asks `empty`?"""
    domain, empty = _domain(program, choose.domain, 0)
    if domain is None:
        return False
    return empty or (choose.cond is not None and asks_empty(program, choose.cond, choose.var))


def _domain(program: Any, e: ast.Expr, depth: int) -> tuple[ast.Expr | None, bool]:
    """The domain as distinct sites (None: not known so), and whether its items are empty."""
    ref = program.refs.get(e)
    if isinstance(e, (ast.Name, ast.Attr)) and ref is not None:
        if tuple(ref) == ("builtin", "sites"):
            return e, False
        d = program.defs.get(ref[1]) if ref[0] == "def" else None
        if d is not None and d.params is None and isinstance(d.body, ast.Expr) and depth < 8:
            return _domain(program, d.body, depth + 1)
    if isinstance(e, ast.Quant) and e.kind == "each" and e.body is None:
        inner, empty = _domain(program, e.domain, depth + 1)
        if inner is not None:
            return e, empty or (e.cond is not None and asks_empty(program, e.cond, e.var))
    return None, False


def _empty_site(program: Any, e: ast.Expr) -> bool:
    """Is e an empty site or none: `first b in … where empty(b) …`?"""
    return isinstance(e, ast.Quant) and e.kind == "first" and e.body is None \
        and e.cond is not None and asks_empty(program, e.cond, e.var)


def asks_empty(program: Any, cond: ast.Expr, var: str) -> bool:
    """Is `empty(var)` one of the condition's conjuncts?"""
    return any(isinstance(c, ast.Call) and tuple(program.refs.get(c.func, ()))
               == ("builtin", "empty") and len(c.args) == 1 and not c.kwargs
               and isinstance(c.args[0], ast.Name) and c.args[0].id == var
               and program.refs.get(c.args[0], ("local", var))[0] == "local"
               for c in conjuncts(cond))
