"""Nested quantifiers fused into one closure: `any l in LINES: all x in l: owner(x) == P`
(the full-line test of stdlib lines, after its rules are inlined) runs as two plain Python
loops over the board lists, instead of a closure call, a step count call and a player
lookup per line. The meaning is the two loops' own (loops.site_loop inside loops._q_bool),
step for step: every line is counted as the outer loop counts it, its sites as the inner
loop counts them, and anything that is not a tuple of sites goes, line by line, through
the closures it replaces, which say what is wrong."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.fast.columns import fixed_operand
from rulelang.fast.loops import _items
from rulelang.library.semantics import STEP_BUDGET, Ctx
from rulelang.model.values import LineSet, Player

Fn = Callable[[Ctx, dict[str, Any]], Any]
_MISSING = object()


def fuse_owner_lines(want_any: bool, domain: Fn, var: str, body: Fn, span: Any,
                     extra: int) -> Fn | None:
    """`any|all var in domain: BODY` where BODY is an owner loop (loops.site_loop, test
    "owner") over the sites of `var` itself, comparing with a value that cannot change in
    the loop (columns.fixed_operand): that value is computed once, not once per line. None when the
    body is not such a loop."""
    facts = getattr(body, "owner_loop", None)
    if facts is None:
        return None
    inner_all, inner_domain, other, inner_extra, inner_span, inner_general = facts
    if getattr(inner_domain, "local_name", None) != var or not fixed_operand(other, var):
        return None
    want_all = not want_any  # the outer quantifier: all (True) or any (False)

    def each_line(c: Ctx, e: dict[str, Any], xs: Any) -> Any:
        """loops._q_bool's loop, its body the owner loop (the domain already counted)."""
        old = e.get(var, _MISSING)
        result = want_all
        for x in xs:
            e[var] = x
            if (not body(c, e)) is want_all:
                result = not want_all
                break
        if old is not _MISSING:
            e[var] = old
        return result

    def lines(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is not tuple:
            if type(xs) is not LineSet:
                return each_line(c, e, _items(c, xs, span, extra))
            xs = xs.lines  # (its lines, as many items: the same steps)
        steps = c.steps = c.steps + len(xs) + extra  # loops._items, inlined
        if steps > STEP_BUDGET:
            c.tick(span)
        if not xs:
            return want_all
        p = other(c, e)
        if p is None:
            who = None
        elif type(p) is Player:
            who = p.index
        else:  # not a player: each line through the owner loop, which says why
            return each_line(c, e, xs)
        full = inner_all and who is not None  # the usual test: every site holds who's piece
        data = c.data
        at, owners = data.at, data.owner
        old = e.get(var, _MISSING)
        result = want_all
        for x in xs:
            if type(x) is not tuple:
                e[var] = x
                value = body(c, e)
            else:
                steps = c.steps = c.steps + len(x) + inner_extra
                if steps > STEP_BUDGET:
                    c.tick(inner_span)
                value = inner_all
                try:
                    if full:
                        for s in x:
                            stack = at[s.board_index]
                            if not stack or owners[stack[-1].id] != who:
                                value = False
                                break
                    else:
                        for s in x:
                            stack = at[s.board_index]
                            if ((owners[stack[-1].id] == who) if stack else who is None) \
                                    is not inner_all:
                                value = not inner_all
                                break
                except (AttributeError, TypeError):
                    e[var] = x
                    value = inner_general(c, e)
            if (not value) is want_all:
                result = not want_all
                break
        e[var] = x if old is _MISSING else old  # as the loop leaves it
        return result
    return lines
