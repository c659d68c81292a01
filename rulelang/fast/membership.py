"""`each x in D where x in L` and `… where x not in L`, with L a value that does not read x
(a local, a constant): one pass over D testing each item against L made a set, instead of a
closure call and a look through L per item. The steps are the general loop's: D's items, and
as many per item as L has items when L is a list; a loop that would go over the budget, an L
that is no list or has items that cannot be in a set, and an item that cannot, go through the
general loop (the closures this replaces), which says what is wrong where it is wrong."""
from __future__ import annotations

from typing import Any

from rulelang.fast.columns import Fn, Source, fixed_operand
from rulelang.library.semantics import STEP_BUDGET, Ctx

_MISSING = object()


def member_filter_over(var: str, cond: Fn, src: Source) -> Fn | None:
    """The filter, when cond is `var in L` or `var not in L` (compiler.visit_Compare tags it
    `membership`) with L fixed while var takes each item; else None."""
    found = getattr(cond, "membership", None)
    if found is None:
        return None
    negated, left, right = found
    if getattr(left, "local_name", None) != var or not fixed_operand(right, var):
        return None
    domain, span, extra, items = src

    def general(c: Ctx, e: dict[str, Any], xs: Any) -> Any:
        """loops._q_each's filter over xs, already counted (its loop, which stays inlined
        there: the hot path; this one runs only where the set cannot be used)."""
        old, out = e.get(var, _MISSING), []
        for x in xs:
            e[var] = x
            if cond(c, e):
                out.append(x)
        if old is not _MISSING:
            e[var] = old
        return tuple(out)

    def where(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        if type(xs) is not tuple or not xs:
            return general(c, e, xs)
        b = right(c, e)
        if type(b) is not tuple:
            return general(c, e, xs)
        cost = len(xs) * len(b)  # (`x in L` looks through L: its length, for each item)
        if c.steps + cost > STEP_BUDGET:
            return general(c, e, xs)
        try:
            members = set(b)
            out = tuple([x for x in xs if (x in members) != negated])
        except TypeError:  # (an item or an element of L that cannot be in a set)
            return general(c, e, xs)
        c.steps += cost
        if var not in e:  # the variable as the general loop leaves it
            e[var] = xs[-1]
        return out
    return where
