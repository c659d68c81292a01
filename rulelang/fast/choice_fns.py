"""The values a `choose` offers in the fast evaluator, as one closure per choose
(choice_fn): its domain filtered by its `where`, generated as a function of sites where the
predicate writer covers it (fast/site_code.py), kept up to date where a site query can be
(fast/site_queries.py), or kept for the game where the `where` reads no position. The meaning
is rulelang/reference/statements.py's.
"""
from __future__ import annotations

from typing import Any

from rulelang.fast import incremental
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.decision import NOTHING, bound
from rulelang.library.semantics import Ctx, domain_items
from rulelang.model.values import Site


class ChoiceFns:
    """Mixed into Executor, whose runtime (`rt`) it uses."""

    rt: Any
    _choice_plans: dict[ast.Choose, Any]  # choose -> choice_fn(choose)

    def choices(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> Any:
        """The values a choose offers, in the domain's order (`optionally choose`: no value
        first)."""
        f = self._choice_plans.get(s)
        if f is None:
            f = self._choice_plans[s] = self.choice_fn(s)
        return f(c, e)

    def choice_fn(self, s: ast.Choose) -> Any:
        """choices(s, …) as one closure, made once per choose."""
        domain_fn, var = self.rt.fn(s.domain), s.var
        cond: Any = self.rt.fn(s.cond) if s.cond is not None else None
        optional, span = s.optional, s.domain.span
        pred, other = self._site_condition(s) if cond is not None else (None, None)
        if pred is not None:
            var_ = var

            def site_values(c: Ctx, e: dict[str, Any]) -> Any:
                if other is None:
                    args: tuple[Any, ...] = ()
                else:
                    args = (e.get(other),)
                    if type(args[0]) is not Site:  # (not a site: the closure's loop)
                        return values(c, e)
                found = domain_fn(c, e)
                if type(found) is not tuple:
                    found = tuple(domain_items(c, found, span))
                out = []
                for v in found:
                    if type(v) is Site:
                        if pred(c, v, *args):
                            out.append(v)
                    else:  # (a value of another kind: the closure, as the loop below)
                        e[var_] = v
                        if cond(c, e):
                            out.append(v)
                if found:  # (where the loop below leaves it)
                    e[var_] = found[-1]
                if optional:
                    return (NOTHING, *out)
                return out

            if other is not None and not optional:
                def site_pairs(c: Ctx, e: dict[str, Any], firsts: Any, name: str,
                               out: list[Any]) -> None:
                    """The options (name, (a, b)) of `choose a …; choose b … (a)` for each
                    first value a, bound to `other`: site_values for each, in one loop."""
                    for a in firsts:
                        if type(a) is not Site:  # (not a site: the closure's loop)
                            e[other] = bound(a)
                            out.extend([(name, (a, b)) for b in values(c, e)])
                            continue
                        e[other] = a
                        found = domain_fn(c, e)
                        if type(found) is not tuple:
                            found = tuple(domain_items(c, found, span))
                        for v in found:
                            if type(v) is Site:
                                if pred(c, v, a):
                                    out.append((name, (a, v)))
                            else:
                                e[var_] = v
                                if cond(c, e):
                                    out.append((name, (a, v)))
                        if found:
                            e[var_] = found[-1]
                site_values.pairs = site_pairs  # type: ignore[attr-defined]
                site_values.pairs_var = other  # type: ignore[attr-defined]

        def values(c: Ctx, e: dict[str, Any]) -> Any:
            found = domain_fn(c, e)
            if type(found) is not tuple:
                found = tuple(domain_items(c, found, span))
            if cond is not None:
                out = []
                for v in found:
                    e[var] = v
                    if cond(c, e):
                        out.append(v)
                found = out
            if optional:
                return (NOTHING, *found)
            return found
        listed = site_values if pred is not None else values
        if s.cond is None:
            return listed
        static = getattr(self.rt.evaluator, "static_site_query", None)
        if static is not None:  # a where that reads no position: its values for the game
            kept = static(s.domain, var, s.cond, listed, restores=False)
            if kept is not None:
                return kept
        make = getattr(self.rt.evaluator, "site_filter", None)
        query = make(s, s.domain, var, s.cond) if make is not None else None
        if query is None:
            return listed
        if getattr(query, "declines", False):  # kept for some values of its other locals
            def kept_or_listed(c: Ctx, e: dict[str, Any]) -> Any:
                found = query(c, e)
                if found is incremental.UNKEPT:  # (values not kept: listed as without it)
                    return listed(c, e)
                return (NOTHING, *found) if optional else found
            return kept_or_listed
        if optional:  # `choose s in sites where <local>`: kept up to date
            return lambda c, e: (NOTHING, *query(c, e))
        return query

    def _site_condition(self, s: ast.Choose) -> tuple[Any, str | None]:
        """The `where` of a choose as a generated function of sites (codegen.SitePredicate):
        (f, None) with f(c, v) when it reads no other local, (f, name) with f(c, v, site)
        when it reads one more, `name`, a site where it runs; (None, None) otherwise (the
        closure then loops). (A name bound in C is not another local: the writer binds it,
        or does not cover C.)"""
        make = getattr(self.rt.evaluator, "site_predicates", None)
        if make is None or s.cond is None:
            return None, None
        refs = self.rt.evaluator.refs
        inner = {n.var for n in walk(s.cond) if isinstance(n, (ast.Quant, ast.Generator))}
        others = sorted({n.id for n in walk(s.cond) if isinstance(n, ast.Name)
                         and refs.get(n) == ("local", n.id)} - inner - {s.var})
        if len(others) > 1:
            return None, None
        other = others[0] if others else None
        pred = make().site_predicate(s.cond, s.var, other, own_frame=True)
        if pred is not None and incremental.CHECK:
            cond = self.rt.fn(s.cond)
            pred = incremental.checked((s.var, *others), lambda c, e: not not cond(c, e), pred)
        return pred, other
