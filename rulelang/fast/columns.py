"""Quantifiers over pieces that read one attribute of each, fused into one loop over the
attribute's column (GameData.attrs[name], indexed by piece id):

    each x in D: x.name            sum x in D: x.points         (the values)
    each|count|first x in D where x.name == V                   (a filter)
    any|all x in D: x.name == V        any|all x in D: x.flag   (a test)
    any|all x in D: kind(x) == V                                (a test of the kind)

with V a constant or a value that does not read x (computed once). Each loop counts its
domain's steps as loops._items does (Source); for each item that is a
piece (or a record with that field) whose value is no tuple (comparing tuples costs steps),
the column (the field) is read directly; any other item goes through the closures this
replaces (fields.local_piece_attribute, compiler.visit_Compare), with the quantifier's
variable bound, which say what is wrong.

Also the lines full of one player's pieces, `… l in D where all x in l: owner(x) == P`
(owner_where_over), the owner test of each line inlined."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rulelang.library.semantics import STEP_BUDGET, Ctx
from rulelang.model.values import Piece, Player, Record

Fn = Callable[[Ctx, dict[str, Any]], Any]
# the quantifier's domain, span, the steps of the inlined call it is the body of, and its
# items of a domain that is not a tuple, counted (loops._items)
Source = tuple[Fn, Any, int, Callable[[Ctx, Any], Iterable[Any]]]
_MISSING = object()


def column_of(f: Any, var: str) -> str | None:
    """The attribute a closure reads from the piece in local var (x.name), else None."""
    found = getattr(f, "piece_column", None)
    if found is None or found[0] != var:
        return None
    name: str = found[1]
    return name


def compare_of(f: Any, var: str) -> tuple[str, bool, Any, Any] | None:
    """(attribute, == (True) or != (False), "const" or the closure of V, the constant) for a
    comparison x.attr == V / != V where V does not read var, else None."""
    found = getattr(f, "compare", None)
    if found is None:
        return None
    op, left, right, value = found
    name = column_of(left, var)
    if name is None:
        return None
    if right != "const" and not fixed_operand(right, var):
        return None
    return name, op == "==", right, value


def values_over(var: str, body: Fn, src: Source) -> Fn | None:
    """`each x in D: x.attr` over given items."""
    name = column_of(body, var)
    if name is None:
        return None

    domain, span, extra, items = src

    def values(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        col = c.data.attrs.get(name)
        old, x, out = e.get(var, _MISSING), _MISSING, []
        fields: Any = None  # the fields of the last record met, and where name is in them
        at = 0
        for x in xs:
            t = type(x)
            if t is Piece and col is not None:
                out.append(col[x.id])
            elif t is Record and (x.fields is fields or name in x.fields):
                if x.fields is not fields:
                    fields, at = x.fields, x.fields.index(name)
                out.append(tuple.__getitem__(x, at))
            else:
                e[var] = x
                out.append(body(c, e))
        if old is not _MISSING:  # the variable as the general loop leaves it
            e[var] = old
        elif x is not _MISSING:
            e[var] = x
        return tuple(out)
    return values


def filter_over(var: str, cond: Fn, src: Source, first: bool = False) -> Fn | None:
    """`each x in D where x.attr == V` (the tuple; `first`: the first item or none)."""
    found = compare_of(cond, var)
    if found is None:
        return None
    name, eq, right, const = found

    domain, span, extra, items = src

    def where(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        col = c.data.attrs.get(name)
        old, x, out = e.get(var, _MISSING), _MISSING, []
        v: Any = const if right == "const" else _MISSING
        fields: Any = None  # the fields of the last record met, and where name is in them
        at = 0
        for x in xs:
            t = type(x)
            if t is Piece and col is not None:
                a = col[x.id]
            elif t is Record and (x.fields is fields or name in x.fields):
                if x.fields is not fields:
                    fields, at = x.fields, x.fields.index(name)
                a = tuple.__getitem__(x, at)
            else:
                a = ()  # (not read here: through the closure below)
            if type(a) is not tuple:
                if v is _MISSING:
                    v = right(c, e)
                if not (a == v if eq else a != v):
                    continue
            else:
                e[var] = x
                if not cond(c, e):
                    continue
            if first:
                if old is not _MISSING:  # the variable as the general loop leaves it
                    e[var] = old
                elif x is not _MISSING:
                    e[var] = x
                return x
            out.append(x)
        if old is not _MISSING:  # the variable as the general loop leaves it
            e[var] = old
        elif x is not _MISSING:
            e[var] = x
        return None if first else tuple(out)
    return where


def test_over(want_all: bool, var: str, body: Fn, src: Source) -> Fn | None:
    """`any|all x in D: x.attr == V` (or `x.attr` itself, or `kind(x) == V`): stops at the
    first item that decides."""
    found = compare_of(body, var)
    if found is None:
        name = column_of(body, var)
        if name is None:
            return _kind_over(want_all, var, body, src)
        return _truth_over(want_all, var, body, name, src)
    name, eq, right, const = found

    domain, span, extra, items = src

    def test(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        col = c.data.attrs.get(name)
        old, x = e.get(var, _MISSING), _MISSING
        v: Any = const if right == "const" else _MISSING
        result = want_all
        fields: Any = None  # the fields of the last record met, and where name is in them
        at = 0
        for x in xs:
            t = type(x)
            if t is Piece and col is not None:
                a = col[x.id]
            elif t is Record and (x.fields is fields or name in x.fields):
                if x.fields is not fields:
                    fields, at = x.fields, x.fields.index(name)
                a = tuple.__getitem__(x, at)
            else:
                a = ()  # (not read here: through the closure below)
            if type(a) is not tuple:
                if v is _MISSING:
                    v = right(c, e)
                hit = a == v if eq else a != v
            else:
                e[var] = x
                hit = body(c, e)
            if (not hit) is want_all:
                result = not want_all
                break
        if old is not _MISSING:  # the variable as the general loop leaves it
            e[var] = old
        elif x is not _MISSING:
            e[var] = x
        return result
    return test


def _truth_over(want_all: bool, var: str, body: Fn, name: str, src: Source) -> Fn:
    """`any|all x in D: x.attr`: the attribute's value itself is the test."""
    domain, span, extra, items = src

    def test(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        col = c.data.attrs.get(name)
        old, x = e.get(var, _MISSING), _MISSING
        result = want_all
        for x in xs:
            if type(x) is Piece and col is not None:
                hit = col[x.id]
            else:
                e[var] = x
                hit = body(c, e)
            if (not hit) is want_all:
                result = not want_all
                break
        if old is not _MISSING:  # the variable as the general loop leaves it
            e[var] = old
        elif x is not _MISSING:
            e[var] = x
        return result
    return test


def _kind_over(want_all: bool, var: str, body: Fn, src: Source) -> Fn | None:
    """`any|all x in D: kind(x) == V` (or `!=`), V not reading x (computed once): each
    piece's kind read directly; any other item through the closures (loops.INLINE's kind,
    compiler.visit_Compare). None for another body."""
    found = getattr(body, "compare", None)
    if found is None:
        return None
    op, left, right, value = found
    if getattr(left, "kind_of", None) != var or (
            right != "const" and not fixed_operand(right, var)):
        return None
    eq = op == "=="
    domain, span, extra, items = src

    def test(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        old, x = e.get(var, _MISSING), _MISSING
        v: Any = value if right == "const" else _MISSING
        result = want_all
        for x in xs:
            if type(x) is Piece:
                if v is _MISSING:
                    v = right(c, e)
                hit = (x.kind == v) is eq
            else:
                e[var] = x
                hit = body(c, e)
            if (not hit) is want_all:
                result = not want_all
                break
        if old is not _MISSING:  # the variable as the general loop leaves it
            e[var] = old
        elif x is not _MISSING:
            e[var] = x
        return result
    return test


_BAD = object()  # (owner_where_over: the value compared with is no player)


def fixed_operand(f: Any, var: str) -> bool:
    """A closure whose value cannot change while var takes each item: a constant, mover or
    opponent, or a local other than var."""
    local = getattr(f, "local_name", None)
    return (local is not None and local != var) or hasattr(f, "const") or \
        getattr(f, "no_locals", False)


def owner_where_over(var: str, cond: Fn, body: Fn | None, src: Source) -> Fn | None:
    """`each|max|sum … l in D where all x in l: owner(x) == P` (the lines full of P's pieces,
    stdlib lines.longest): the owner test of each line inlined (loops.site_loop, "owner"),
    its steps counted as it counts them, then the body (or the line) for a line that
    passes; P, which does not read l, computed once."""
    facts = getattr(cond, "owner_loop", None)
    if facts is None:
        return None
    inner_all, inner_domain, other, inner_extra, inner_span, inner_general = facts
    if getattr(inner_domain, "local_name", None) != var or not fixed_operand(other, var):
        return None

    domain, span, extra, items = src

    def where(c: Ctx, e: dict[str, Any]) -> Any:
        xs = domain(c, e)
        if type(xs) is tuple:  # loops._items, inlined
            steps = c.steps = c.steps + len(xs) + extra
            if steps > STEP_BUDGET:
                c.tick(span)
        else:
            xs = items(c, xs)
        old, x, out = e.get(var, _MISSING), _MISSING, []
        who: Any = _MISSING
        data = c.data
        at, owners = data.at, data.owner
        for x in xs:
            e[var] = x
            if who is _MISSING:  # (as the owner loop does before counting its domain)
                p = other(c, e)
                who = None if p is None else p.index if type(p) is Player else _BAD
            if who is _BAD or type(x) is not tuple:
                hit = cond(c, e)
            else:
                steps = c.steps = c.steps + len(x) + inner_extra
                if steps > STEP_BUDGET:
                    c.tick(inner_span)
                hit = inner_all
                try:
                    for s in x:
                        stack = at[s.board_index]
                        if ((owners[stack[-1].id] == who) if stack else who is None) \
                                is not inner_all:
                            hit = not inner_all
                            break
                except (AttributeError, TypeError):
                    hit = inner_general(c, e)
            if hit:
                out.append(x if body is None else body(c, e))
        if old is not _MISSING:  # the variable as the general loop leaves it
            e[var] = old
        elif x is not _MISSING:
            e[var] = x
        return tuple(out)
    return where
