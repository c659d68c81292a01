"""Specialised closures for the compiler: quantifier loops, loops over sites that read the
board lists directly, and builtins inlined for sites. Each keeps the meaning of the general
form (interpreter.py), as the conformance tests prove, and falls back to it for other values."""
from __future__ import annotations

from collections.abc import Callable, Sized
from itertools import compress
from operator import attrgetter, not_
from typing import Any

from rulelang.fast.columns import Source, filter_over, owner_where_over, test_over, values_over
from rulelang.fast.groups import LAST, KeptGroup
from rulelang.fast.membership import member_filter_over
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.semantics import (
    RANKED,
    STEP_BUDGET,
    Ctx,
    count_of,
    domain_items,
    largest,
    quant_error,
    smallest,
)
from rulelang.model.values import Piece, Player, Site, SiteSet, ZoneRef

Fn = Callable[[Ctx, dict[str, Any]], Any]
_INDEX = attrgetter("board_index")  # (Site.board_index: only sites have it)


def reader(name: str) -> Fn:
    return tag(lambda c, e: e[name], local_name=name)


def tag(f: Fn, **facts: Any) -> Fn:
    """A closure marked with what it computes (`local_name`: it reads that local; `const`: it
    gives that value), so that the closures above it can read e[name] or use the value
    directly (compiler.operand)."""
    for k, v in facts.items():
        setattr(f, k, v)
    return f


def is_var(node: ast.Expr, var: str) -> bool:
    return isinstance(node, ast.Name) and node.id == var


def counted(c: Ctx, xs: Any, extra: int, span: Any) -> bool:
    """The items of a domain counted as steps of the budget (and `extra` more: the call of an
    inlined rule whose body the loop is), all at once; False for a domain without a size,
    which the caller leaves to the general loop (it says what is wrong)."""
    try:
        steps = c.steps = c.steps + len(xs) + extra
    except TypeError:
        return False
    except OverflowError:  # (count_of: a range longer than a C integer is over the budget)
        steps = c.steps = c.steps + STEP_BUDGET + 1 + extra
    if steps > STEP_BUDGET:
        c.tick(span)
    return True


def member_loop(want_all: bool, inside: bool, domain: Fn, collection: Fn, general: Fn,
                span: Any = None, extra: int = 0) -> Fn:
    """all/any v in A: v in B (B not using v): B evaluated once, C-level membership. The
    items of A are steps (and `extra` more: the call of an inlined rule whose body this is)."""
    name = getattr(domain, "local_name", None)

    def loop(c: Ctx, e: dict[str, Any]) -> Any:
        b = collection(c, e)
        if type(b) is SiteSet:
            xs = domain(c, e)
            if xs is LAST[0] or type(xs) is KeptGroup:  # a kept group: bitsets intersected
                c.steps += len(xs) + extra
                if c.steps > STEP_BUDGET:
                    c.tick(span)
                mask = xs.mask if type(xs) is KeptGroup else LAST[1]
                if want_all:  # no site that fails: (x in b) is not inside
                    return not (mask & ~b.mask if inside else mask & b.mask)
                return (mask & b.mask if inside else mask & ~b.mask) != 0
            b = b.members
        elif type(b) is not tuple:
            if name is not None and type(e.get(name)) is KeptGroup:  # its tuple, from now on
                e[name] = e[name].sites()
            return general(c, e)
        else:
            xs = domain(c, e)
            if type(xs) is KeptGroup:  # not a region: the group's tuple, from now on
                xs = e[name] = xs.sites()  # type: ignore[index]
        if not counted(c, xs, extra, span):  # a domain without a size
            return general(c, e)
        for x in xs:
            if (x in b) is inside:
                if not want_all:
                    return True
            elif want_all:
                return False
        return want_all
    return loop


def occupancy_filter(count: bool, empty: bool, domain: Fn, general: Fn, span: Any = None,
                     extra: int = 0) -> Fn:
    """each/count v in SITES where occupied(v) (or empty(v)): the board lists read directly;
    anything that is not a site goes to the general loop, which says why."""
    def loop(c: Ctx, e: dict[str, Any]) -> Any:
        at = c.data.at
        xs = domain(c, e)
        if not counted(c, xs, extra, span):  # a domain without a size
            return general(c, e)
        try:  # the loop `s for s in xs if (not at[s.index]) is empty`, in C
            stacks = map(at.__getitem__, map(_INDEX, xs))
            found = tuple(compress(xs, map(not_, stacks) if empty else stacks))
        except (AttributeError, TypeError):
            return general(c, e)
        return len(found) if count else found
    return loop


def site_loop(want_all: bool, test: str, domain: Fn, other: Fn | None, general: Fn,
              span: Any = None, extra: int = 0) -> Fn:
    """all/any over sites of a board test, reading GameData lists directly; anything that
    is not a site (or a player to compare with) goes to the general loop, which says why."""
    if test == "owner":
        assert other is not None

        def owner_loop(c: Ctx, e: dict[str, Any]) -> Any:
            p = other(c, e)
            if type(p) is Player:
                who = p.index
            elif p is None:
                who = None
            else:
                return general(c, e)
            at, owners = c.data.at, c.data.owner
            xs = domain(c, e)
            if type(xs) is tuple:  # counted(), inlined
                steps = c.steps = c.steps + len(xs) + extra
                if steps > STEP_BUDGET:
                    c.tick(span)
            elif not counted(c, xs, extra, span):  # a domain without a size
                return general(c, e)
            try:
                for s in xs:
                    stack = at[s.board_index]
                    if ((owners[stack[-1].id] == who) if stack else who is None) \
                            is not want_all:
                        return not want_all
            except (AttributeError, TypeError):
                return general(c, e)
            return want_all
        # what nested.fuse_owner_lines needs to run this loop inside the one over its lines
        return tag(owner_loop, owner_loop=(want_all, domain, other, extra, span, general))
    empty = test == "empty"

    def loop(c: Ctx, e: dict[str, Any]) -> Any:
        at = c.data.at
        xs = domain(c, e)
        if not counted(c, xs, extra, span):  # a domain without a size
            return general(c, e)
        try:  # the loop over (not at[s.index]) is empty, stopping where it decides, in C
            stacks = map(at.__getitem__, map(_INDEX, xs))
            if empty:  # all empty: none occupied; any empty: not all occupied
                return not any(stacks) if want_all else not all(stacks)
            return all(stacks) if want_all else any(stacks)
        except (AttributeError, TypeError):
            return general(c, e)
    return loop


def local_names(node: Any, refs: dict[Any, Any]) -> set[str]:
    """The local names an expression reads."""
    return {n.id for n in walk(node)
            if isinstance(n, ast.Name) and refs.get(n, ("local",))[0] == "local"}


def bound_names(node: Any) -> set[str]:
    """The names its quantifiers and comprehensions bind."""
    return {n.var for n in walk(node) if isinstance(n, (ast.Quant, ast.Generator))}


# ---- inlined builtins: the site case reads the board lists; anything else goes through
# the builtin itself (same meaning, positioned errors), as the conformance tests prove
General = Callable[[Ctx, Any], Any]


def _occupied(a: Fn, rt: Any, general: General) -> Fn:
    def occupied(c: Ctx, e: dict[str, Any]) -> Any:
        x = a(c, e)
        return bool(c.data.at[x.index]) if type(x) is Site else general(c, x)
    return occupied


def _empty(a: Fn, rt: Any, general: General) -> Fn:
    def empty(c: Ctx, e: dict[str, Any]) -> Any:
        x = a(c, e)
        return not c.data.at[x.index] if type(x) is Site else general(c, x)
    return empty


def _owner(a: Fn, rt: Any, general: General) -> Fn:
    players = rt.players

    def owner(c: Ctx, e: dict[str, Any]) -> Any:
        x = a(c, e)
        if type(x) is Site:
            stack = c.data.at[x.index]
            if not stack:
                return None
            o = c.data.owner[stack[-1].id]
            return None if o is None else players[o]
        return general(c, x)
    return tag(owner, players=players)  # (for _owner_local)


def _top(a: Fn, rt: Any, general: General) -> Fn:
    def top(c: Ctx, e: dict[str, Any]) -> Any:
        x = a(c, e)
        if type(x) is Site:
            stack = c.data.at[x.index]
            return stack[-1] if stack else None
        return general(c, x)
    return top


def _empty_local(name: str, slow: Fn) -> Fn:
    def empty(c: Ctx, e: dict[str, Any]) -> Any:
        x = e.get(name)
        return not c.data.at[x.index] if type(x) is Site else slow(c, e)
    return empty


def _occupied_local(name: str, slow: Fn) -> Fn:
    def occupied(c: Ctx, e: dict[str, Any]) -> Any:
        x = e.get(name)
        return bool(c.data.at[x.index]) if type(x) is Site else slow(c, e)
    return occupied


def _owner_local(name: str, slow: Fn) -> Fn:
    players = getattr(slow, "players")  # noqa: B009 - set by _owner

    def owner(c: Ctx, e: dict[str, Any]) -> Any:
        x = e.get(name)
        if type(x) is Site:
            stack = c.data.at[x.index]
            if not stack:
                return None
            o = c.data.owner[stack[-1].id]
            return None if o is None else players[o]
        return slow(c, e)
    return owner


def _top_local(name: str, slow: Fn) -> Fn:
    def top(c: Ctx, e: dict[str, Any]) -> Any:
        x = e.get(name)
        if type(x) is Site:
            stack = c.data.at[x.index]
            return stack[-1] if stack else None
        return slow(c, e)
    return top


def _kind(a: Fn, rt: Any, general: General) -> Fn:
    def kind(c: Ctx, e: dict[str, Any]) -> Any:
        x = a(c, e)
        return x.kind if type(x) is Piece else general(c, x)
    return kind


def _kind_local(name: str, slow: Fn) -> Fn:
    def kind(c: Ctx, e: dict[str, Any]) -> Any:
        x = e.get(name)
        return x.kind if type(x) is Piece else slow(c, e)
    return tag(kind, kind_of=name)  # (for columns._kind_over)


def _pieces(a: Fn, rt: Any, general: General) -> Fn:
    def pieces(c: Ctx, e: dict[str, Any]) -> Any:
        x = a(c, e)
        if type(x) is Site:
            return c.data.at[x.index]
        if type(x) is ZoneRef:
            return tuple(c.data.zones[x])
        return general(c, x)
    return pieces


def _pieces_local(name: str, slow: Fn) -> Fn:
    def pieces(c: Ctx, e: dict[str, Any]) -> Any:
        x = e.get(name)
        return c.data.at[x.index] if type(x) is Site else slow(c, e)
    return pieces


INLINE_LOCAL: dict[str, Callable[[str, Fn], Fn]] = {
    "empty": _empty_local, "occupied": _occupied_local, "owner": _owner_local,
    "top": _top_local, "kind": _kind_local, "pieces": _pieces_local,
}


# the builtins of one argument written in place: the common values without a call (the
# builtin's own for any other, through `general`, which says what is wrong)
INLINE: dict[str, Callable[[Fn, Any, General], Fn]] = {
    "occupied": _occupied, "empty": _empty, "owner": _owner, "top": _top, "kind": _kind,
    "pieces": _pieces,
}


_MISSING = object()


def _items(c: Ctx, xs: Any, span: Any, extra: int = 0, budget: int = STEP_BUDGET) -> Any:
    """The items of a quantifier's domain, each counted as a step of the budget (all at
    once: a range of a billion numbers is refused before the first); `extra` steps more for
    the call of an inlined rule whose body is this quantifier."""
    if type(xs) is tuple:
        steps = c.steps = c.steps + len(xs) + extra
    else:
        xs = domain_items(c, xs, span)
        steps = c.steps = c.steps + (count_of(xs) if isinstance(xs, Sized) else 1) + extra
    if steps > budget:
        c.tick(span)
    return xs


def _source(domain: Fn, span: Any, extra: int) -> Source:
    """What a loop of columns.py needs to count its domain's items as _items counts them."""
    return domain, span, extra, lambda c, xs: _items(c, xs, span, extra)


def _q_all(domain: Fn, var: str, cond: Fn | None, body: Fn | None,
           span: Any = None, extra: int = 0) -> Fn:
    if cond is None and body is not None:
        over = test_over(True, var, body, _source(domain, span, extra))
        if over is not None:  # `all x in D: x.attr == V`: the column read directly
            return over
        def all_(c: Ctx, e: dict[str, Any]) -> Any:
            old = e.get(var, _MISSING)
            result = True
            for x in _items(c, domain(c, e), span, extra):
                e[var] = x
                if not body(c, e):
                    result = False
                    break
            if old is not _MISSING:
                e[var] = old
            return result
        return all_

    return _q_bool(True, domain, var, cond, body, span, extra)


def _q_any(domain: Fn, var: str, cond: Fn | None, body: Fn | None,
           span: Any = None, extra: int = 0) -> Fn:
    return _q_bool(False, domain, var, cond, body, span, extra)


def _q_bool(want_all: bool, domain: Fn, var: str, cond: Fn | None, body: Fn | None,
            span: Any = None, extra: int = 0) -> Fn:
    """all (want_all) or any: stops at the first item that decides."""
    src = _source(domain, span, extra)
    over = test_over(want_all, var, body, src) if cond is None and body is not None else None
    if over is not None:  # `any x in D: x.attr == V`: the column read directly
        return over
    def q(c: Ctx, e: dict[str, Any]) -> Any:
        old = e.get(var, _MISSING)
        result = want_all
        xs = domain(c, e)
        if type(xs) is tuple:  # _items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = _items(c, xs, span, extra)
        for x in xs:
            e[var] = x
            if cond is not None and not cond(c, e):
                continue
            if (not (body(c, e) if body is not None else x)) is want_all:
                result = not want_all
                break
        if old is not _MISSING:
            e[var] = old
        return result
    return q


def _q_each(domain: Fn, var: str, cond: Fn | None, body: Fn | None,
            span: Any = None, extra: int = 0) -> Fn:
    src = _source(domain, span, extra)
    over = ((filter_over(var, cond, src) or member_filter_over(var, cond, src))
            if cond is not None and body is None else
            values_over(var, body, src) if cond is None and body is not None else None)
    if over is None and cond is not None:  # `max l in D where all x in l: owner(x) == P: …`
        over = owner_where_over(var, cond, body, src)
    if over is not None:  # `each x in D where x.attr == V`, `each x in D: x.attr`
        return over
    if cond is not None and body is None:  # `each x in D where P`: the usual filter
        def where(c: Ctx, e: dict[str, Any]) -> Any:
            old = e.get(var, _MISSING)
            xs = domain(c, e)
            if type(xs) is tuple:  # _items, inlined
                steps = c.steps = c.steps + len(xs) + extra
                if steps > STEP_BUDGET:
                    c.tick(span)
            else:
                xs = _items(c, xs, span, extra)
            out = []
            for x in xs:
                e[var] = x
                if cond(c, e):
                    out.append(x)
            if old is not _MISSING:
                e[var] = old
            return tuple(out)
        return where
    if cond is None and body is not None:  # `each x in D: B`, `sum x in D: B`
        def each(c: Ctx, e: dict[str, Any]) -> Any:
            old = e.get(var, _MISSING)
            xs = domain(c, e)
            if type(xs) is tuple:  # _items, inlined
                steps = c.steps = c.steps + len(xs) + extra
                if steps > STEP_BUDGET:
                    c.tick(span)
            else:
                xs = _items(c, xs, span, extra)
            out = []
            for x in xs:
                e[var] = x
                out.append(body(c, e))
            if old is not _MISSING:
                e[var] = old
            return tuple(out)
        return each

    def q(c: Ctx, e: dict[str, Any]) -> Any:
        old = e.get(var, _MISSING)
        out = []
        for x in _items(c, domain(c, e), span, extra):
            e[var] = x
            if cond is None or cond(c, e):
                out.append(body(c, e) if body is not None else x)
        if old is not _MISSING:
            e[var] = old
        return tuple(out)
    return q


def _q_fold(kind: str, fold: Callable[[tuple[Any, ...]], Any]) -> Callable[..., Fn]:
    def make(domain: Fn, var: str, cond: Fn | None, body: Fn | None, span: Any = None,
             extra: int = 0) -> Fn:
        collect = _q_each(domain, var, cond, body, span, extra)

        def q(c: Ctx, e: dict[str, Any]) -> Any:
            values = collect(c, e)
            try:
                return fold(values)
            except TypeError as exc:  # values that cannot be added up or compared
                raise quant_error(kind, exc, span) from None
        return q
    return make


def _q_first(domain: Fn, var: str, cond: Fn | None, body: Fn | None,
             span: Any = None, extra: int = 0) -> Fn:
    over = filter_over(var, cond, _source(domain, span, extra), first=True) \
        if cond is not None and body is None else None
    if over is not None:  # `first x in D where x.attr == V`: the column read directly
        return over
    def q(c: Ctx, e: dict[str, Any]) -> Any:
        old = e.get(var, _MISSING)
        result = None
        for x in _items(c, domain(c, e), span, extra):
            e[var] = x
            if cond is None or cond(c, e):
                result = body(c, e) if body is not None else x
                break
        if old is not _MISSING:
            e[var] = old
        return result
    return q


def _q_count(domain: Fn, var: str, cond: Fn | None, body: Fn | None,
             span: Any = None, extra: int = 0) -> Fn:
    collect = _q_each(domain, var, cond, body, span, extra)
    if body is None:
        return lambda c, e: len(collect(c, e))
    return lambda c, e: sum(1 for v in collect(c, e) if v)


def _q_ranked(kind: str, rank: Callable[[list[tuple[Any, Any]]], Any]) -> Callable[..., Fn]:
    """best | sorted: the items that pass `where`, each with its key (the body, or itself)."""
    def make(domain: Fn, var: str, cond: Fn | None, body: Fn | None, span: Any = None,
             extra: int = 0) -> Fn:
        def q(c: Ctx, e: dict[str, Any]) -> Any:
            old = e.get(var, _MISSING)
            pairs = []
            for x in _items(c, domain(c, e), span, extra):
                e[var] = x
                if cond is None or cond(c, e):  # the key of every item, even of a single one
                    pairs.append((x, x if body is None else body(c, e)))
            if old is not _MISSING:
                e[var] = old
            try:
                return rank(pairs)
            except TypeError as exc:
                raise quant_error(kind, exc, span) from None
        return q
    return make


QUANTS: dict[str, Callable[..., Fn]] = {
    "all": _q_all, "any": _q_any, "each": _q_each, "first": _q_first,
    "count": _q_count,
    "max": _q_fold("max", largest),
    "min": _q_fold("min", smallest),
    "sum": _q_fold("sum", sum),
    **{kind: _q_ranked(kind, rank) for kind, rank in RANKED.items()},
}
