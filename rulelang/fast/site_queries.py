"""Quantifiers over the board's sites read from a kept site query (incremental.py): `each s
in sites where P`, `any s in sites: P`, `count|first s in sites where P` and any quantifier
with a condition and a body (`max s in sites where P: B`: B over the kept sites), when P is
local. A P that reads other locals (`owner(s) == p`, p a rule's parameter) is kept per their
values when these are players; for any other value the quantifier runs as it would without
the query (`general`), so its steps and errors are that loop's. A P that reads nothing of the
position (`s.b == b`: coordinates, locals) makes the quantifier's value one for the game, by
its locals' values when these are plain, at the loop's steps (incremental.static_memo)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.fast.codegen import Generator
from rulelang.fast.incremental import (
    UNKEPT,
    analyse_free,
    dependents,
    incremental_filter,
    static_memo,
)
from rulelang.fast.loops import QUANTS
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.semantics import Ctx

Fn = Callable[[Ctx, dict[str, Any]], Any]


class SiteQueries:
    """Mixed into the Compiler (which sets these fields)."""

    rt: Any
    refs: Any

    def expr(self, node: ast.Expr) -> Fn:
        raise NotImplementedError  # Compiler.expr

    def site_predicates(self) -> Generator:
        """The generator of site conditions (fast/codegen.py): the Compiler's own, when it
        generates expressions too (so that `rulelang compile --show` lists them), else one
        made once."""
        found: Generator | None = getattr(self, "generator", None) or getattr(
            self, "_site_generator", None)
        if found is None:
            found = self._site_generator = Generator(self)
        return found

    def kept_site_quant(self, n: ast.Quant, cond: Fn | None, body: Fn | None, extra: int,
                        general: Fn) -> Fn | None:
        """The quantifier n read from a kept site query, or None (not one of those shapes, or
        its condition is not local); `general` is the quantifier as a plain loop."""
        kept = kept_condition(n)
        if kept is None:
            return None
        if body is None or kept is n.body:  # (the whole value is its condition's)
            static = self.static_site_query(n.domain, n.var, kept, general)
            if static is not None:
                return static
        query = self.site_filter(n, n.domain, n.var, kept, body if kept is n.body else cond)
        if query is None:
            return None
        if body is not None and cond is not None:  # B over the kept sites
            over = QUANTS[n.kind](query, n.var, None, body, n.span, extra)
            if not getattr(query, "declines", False):
                return over

            def body_over(c: Ctx, e: dict[str, Any]) -> Any:  # (the second ask: a look)
                return general(c, e) if query(c, e) is UNKEPT else over(c, e)
            return body_over
        post: Callable[[tuple[Any, ...]], Any] | None = (
            (lambda found: len(found) > 0) if n.kind == "any" else len if n.kind == "count"
            else (lambda found: found[0] if found else None) if n.kind == "first" else None)
        if not getattr(query, "declines", False):
            if post is None:
                return query
            found_by = query
            return lambda c, e: post(found_by(c, e))

        def kept_or_general(c: Ctx, e: dict[str, Any]) -> Any:
            found = query(c, e)
            if found is UNKEPT:
                return general(c, e)
            return found if post is None else post(found)
        return kept_or_general

    def keeps_site_quant(self, n: ast.Quant) -> bool:
        """Whether n is read from a kept site query (kept_site_quant), its condition local."""
        kept = kept_condition(n)
        return kept is not None and self.refs.get(n.domain) == ("builtin", "sites") and \
            analyse_free(self.rt.program, kept, n.var) is not None

    def static_site_query(self, domain: ast.Expr, var: str, cond: ast.Expr,
                          general: Fn, restores: bool = True) -> Fn | None:
        """`general`, a loop over the board's sites filtered by cond, kept for the game when
        cond reads nothing of the position (incremental.static_memo: a quantifier restores
        its variable, a choose's listing does not); else None."""
        if self.refs.get(domain) != ("builtin", "sites") or not self.rt.board.sites:
            return None
        found = analyse_free(self.rt.program, cond, var)
        if found is None or found[0]:
            return None
        _, per_mover, free = found
        names = {x.id: x for x in walk(cond) if isinstance(x, ast.Name) and x.id in free}
        return static_memo(general, var, tuple(self.expr(names[name]) for name in sorted(free)),
                           per_mover, restores)

    def site_filter(self, node: ast.Node, domain: ast.Expr, var: str, cond: ast.Expr,
                    compiled: Fn | None = None) -> Fn | None:
        """`var in sites where cond` as an incremental query, when cond is local; `compiled`
        is cond already compiled where var is bound (inside a rule inlined with its arguments,
        var may have the name of one of its parameters). A query whose cond reads other locals
        is tagged `declines`: it answers UNKEPT where their values are not players."""
        if self.refs.get(domain) != ("builtin", "sites"):
            return None
        found = analyse_free(self.rt.program, cond, var)
        if found is None:
            return None
        paths, per_mover, free = found
        names = {x.id: x for x in walk(cond) if isinstance(x, ast.Name) and x.id in free}
        readers, board = tuple(self.expr(names[name]) for name in sorted(free)), self.rt.board
        site_fn = None if readers else self.site_predicates().site_predicate(cond, var)
        query = incremental_filter(node, board.sites, dependents(board, paths), var,
                                   compiled or self.expr(cond), per_mover, readers, site_fn)
        if readers:
            query.declines = True  # type: ignore[attr-defined]
        return query


def kept_condition(n: ast.Quant) -> ast.Expr | None:
    """The condition a kept site query keeps for a quantifier of its shapes (`any s in sites:
    P` keeps P; `each|count|first s in sites where P` and `Q s in sites where P: B` keep P),
    else None."""
    if n.kind == "any" and n.cond is None and n.body is not None:
        return n.body
    if n.cond is not None and (n.body is not None or n.kind in ("each", "count", "first")):
        return n.cond
    return None
