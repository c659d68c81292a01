"""One option of a `do` drawn at random without listing its menu, for playouts, where the
menu tries effects on scratch copies (gen/walk.py): `draw<m>(S, a0)` (a0: the generator's
random bits, gen/playout.py), each option as likely as in `menu[below(a0, len(menu))]`
(rejection sampling).

An action whose first statement is a choose of the mover followed by effects that may
refuse it is *lazy*: its options are its first choose's values, each standing for as many
options as it can have at most (its bound: 1, times the board's sites for each later
`choose site`, or the empty sites there can be then where it offers empty sites only:
gen/empties.py), its ways found only when drawn (`rest`: the walk from its second
statement). A draw that lands on one of a value's ways takes it; one past them puts that
value's ways in the list and draws again. A *simple* action (its chooses before its effects,
the menu one comprehension) of several chooses, each after the first over a domain of a
known size at most (a site's neighbours), is lazy the same way, its bound those sizes
multiplied (lazy_entry). The other actions' options are listed as the menu
lists them. A value with more ways than its bound has the whole menu listed instead.

Where every action of the `do` offers a kept query's sites or has no choose, nothing is
tried: `write_direct` counts each action's options and takes the one at the number drawn,
the listed menu's option from the same numbers."""
from __future__ import annotations

import re
from typing import Any, NamedTuple

from rulelang.gen.code import Code, Func
from rulelang.gen.empties import emptied, empty_values
from rulelang.gen.playout import BIT_LENGTH, SHORT, below
from rulelang.gen.walk import Walk, simple
from rulelang.language import ast


class Unbounded(Exception):
    """A value of a lazy action with more ways than its bound."""


def sample(s: Any, bits: Any, group: tuple[tuple[Any, Any, int], ...]) -> Any:
    """One option of a group of actions (None: it has none): each entry (ways, None, 1) of
    an action listed, or (values, rest, bound) of a lazy one. The listed ways and those of
    the values drawn past them are one pool (any order: each option is as likely)."""
    # one lazy action: its first draw written out as _pool's loop takes it (a call of
    # _pool for it measured 0.94x in a game of moves (bench/ab_playouts.py): the loop stays)
    if len(group) == 1 and group[0][1] is not None:
        first, rest, bound = group[0]
        values = first(s)
        places = len(values) * bound
        if not places:
            return None
        r = below(bits, places)
        i, j = divmod(r, bound)
        ways = rest(s, values[i])
        if len(ways) > bound:
            raise Unbounded
        if j < len(ways):
            return ways[j]
        del values[i]  # (a phantom: the value's ways listed from now on)
        return _pool(s, bits, [(values, rest, bound)], list(ways), places - bound)
    lazy: list[tuple[list[Any], Any, int]] = []
    listed: list[Any] = []
    places = 0  # the lazy values' places: each value's bound
    for first, rest, bound in group:
        values = first(s)
        if rest is None:
            listed += values
        else:
            lazy.append((values, rest, bound))
            places += len(values) * bound
    return _pool(s, bits, lazy, listed, places)


def _pool(s: Any, bits: Any, lazy: list[tuple[list[Any], Any, int]], listed: list[Any],
          places: int) -> Any:
    """sample's draws from the lazy values' places and the listed ways."""
    while places or listed:
        r = below(bits, places + len(listed))
        if r >= places:
            return listed[r - places]
        for values, rest, bound in lazy:
            size = len(values) * bound
            if r >= size:
                r -= size
                continue
            i, j = divmod(r, bound)
            ways = rest(s, values[i])
            if len(ways) > bound:
                raise Unbounded
            if j < len(ways):
                return ways[j]
            del values[i]  # (a phantom: the value's ways listed from now on)
            places -= bound
            listed.extend(ways)
            break
    return None


class Direct(NamedTuple):
    """An action whose options a draw counts and picks in place (write_direct): a kept
    query's sites (an option per site), or an action without a choose (one option)."""
    sites: str | None  # the sites' indices (a kept query's list), or None: one option
    test: str | None  # the action has options only where this holds (None: always)
    option: str  # the options by site index (a constant), or the one option

    @staticmethod
    def one(guards: list[str], option: str) -> Direct:
        return Direct(None, " and ".join(guards) or None, option)


def write_direct(gw: Any, mover: int, do: ast.Do, parts: list[Direct]) -> None:
    """`draw<mover>` where every action's options are counted without listing them: per
    group, each action's count (its test asked as the menu asks it, in the menu's order),
    a number below their sum drawn as `below` draws it, and the option at that place: the
    menu's `menu[below(bits, len(menu))]`, from the same numbers."""
    w = gw.w
    fn = Func(f"def draw{mover}(S, a0):")  # (a0: the generator's bits)
    one, zero = w.const(1), w.const(0)
    for group in do.groups():
        mine, parts = parts[:len(group)], parts[len(group):]
        counts = []  # (the count's local, the sites' local or None, the action's part)
        for part in mine:
            n = w.fresh("v")
            if part.sites is None:
                fn.add(f"{n} = {one}" if part.test is None else
                       f"{n} = {one} if {part.test} else {zero}")
                counts.append((n, None, part))
                continue
            q = w.fresh("v")
            fn.add(f"{q} = {part.sites}" if part.test is None else
                   f"{q} = {part.sites} if {part.test} else {w.const(())}")
            fn.add(f"{n} = len({q})")
            counts.append((n, q, part))
        total = counts[0][0]
        if len(counts) > 1:
            total = w.fresh("v")
            fn.add(f"{total} = {' + '.join(n for n, _, _ in counts)}")
        most = sum(1 if q is None else w.n_sites for _, q, _ in counts)
        bits = f"{w.const(BIT_LENGTH)}[{total}]" if most < SHORT else f"{total}.bit_length()"
        pick = w.fresh("v")
        fn.add(f"if {total}:")
        fn.add(f"    {pick} = a0({bits})")
        fn.add(f"    while {pick} >= {total}:")
        fn.add(f"        {pick} = a0({bits})")
        for k, (n, q, part) in enumerate(counts):
            option = part.option if q is None else f"{part.option}[{q}[{pick}]]"
            if k == len(counts) - 1:
                fn.add(f"    return {option}")
                continue
            fn.add(f"    if {pick} < {n}:")
            fn.add(f"        return {option}")
            if any(later is not None for _, later, _ in counts[k + 1:]):
                fn.add(f"    {pick} -= {n}")
    fn.add("return None")
    w.funcs.append((f"draw{mover}", do.span, "menu", fn))


def write(gw: Any, mover: int, do: ast.Do) -> None:
    """`draw<mover>` for the turn's `do`: per group of its actions, listed or lazy."""
    w = gw.w
    fn = Func(f"def draw{mover}(S, a0):")
    gw.forget_moved(fn)  # (an action begins, as in the menu)
    fn.add("try:")
    for group in do.groups():
        entries: list[tuple[str, str, str]] = []  # (values, rest or None, bound)
        for name in group:
            action = gw.program.actions[name]
            if name in gw.lazy:  # a simple action's (lazy_entry)
                values, rest, bound = gw.lazy[name]
                entries.append((values, rest, w.const(bound)))
                continue
            lazy = _lazy(gw, action)
            first = w.fresh("w")
            f = Func(f"def {first}(S):")
            f.add("out = []")
            if lazy is None:
                gw._ways(action, f)
                f.add("return out")
                entries.append((first, "None", w.const(1)))
            else:
                rest, bound = lazy
                _first_values(gw, action.body.stmts[0], f)
                entries.append((first, rest, bound))
            w.funcs.append((first, action.span, "menu", f))
        listed = "".join(f"({', '.join(e)}), " for e in entries)
        fn.add(f"    option = {w.const(sample)}(S, a0, ({listed}))")
        fn.add("    if option is not None:")
        fn.add("        return option")
    fn.add("    return None")
    fn.add(f"except {w.const(Unbounded)}:")
    fn.add(f"    menu = menu{mover}(S)")
    fn.add(f"    return menu[{w.const(below)}(a0, len(menu))] if menu else None")
    w.funcs.append((f"draw{mover}", do.span, "menu", fn))


def _lazy(gw: Any, action: ast.Action) -> tuple[str, str] | None:
    """A lazy action's `rest` function (written) and bound (its source: the board's sites
    for each later `choose site`, or the empty sites there can be then when it offers
    empty sites: gen/empties.py), or None: it is listed."""
    stmts = action.body.stmts
    first = stmts[0] if stmts else None
    if not isinstance(first, ast.Choose) or first.mode != "mover" or first.optional \
            or first.chooser is not None or gw.deep(action) or simple(stmts):
        return None  # (a simple action's options are listed without trying anything)
    w = gw.w
    factors = []
    for k, s in enumerate(stmts[1:], 1):
        if isinstance(s, ast.Then):
            return None
        if isinstance(s, ast.Choose):
            if s.kind != "site" or s.optional:
                return None
            more = emptied(gw.program, stmts[1:k]) if empty_values(gw.program, s) else None
            factors.append(w.const(w.n_sites) if more is None else
                           f"{w.const(min)}({w.const(w.n_sites)}, "
                           f"S.at.count({w.const(())}) + {w.const(more)})")
    bound = " * ".join(factors) or w.const(1)
    name, value = w.fresh("w"), w.fresh("a")
    fn = Func(f"def {name}(S, {value}):")
    fn.add("out = []")
    dom = w.raw(first.domain, {})
    _, _, item = gw._domain(dom, first.domain.span)
    tries = gw.tries
    adopt = not w.counting and not w.hides  # (its tried copy: the state after the action)
    Walk(gw, action, adopt).walk(stmts, 1, {first.var: Code(value, item, 0)}, [value], fn)
    gw.tries = tries
    fn.add("return out")
    w.funcs.append((name, action.span, "walk", fn))
    return name, bound


def lazy_entry(gw: Any, name: str, option: str, clauses: list[str],
                bounds: list[int | None]) -> None:
    """A simple action of several chooses, drawn lazily: its first choose's values, and
    the options of one value (the menu's comprehension from its second clause on); its
    bound: each later domain's size at most, multiplied."""
    w = gw.w
    var = clauses[0].split()[1]  # (`for v<n> in …`: the first choose's local)
    test = 2 if len(clauses) > 1 and clauses[1].startswith("if ") else 1
    first, rest = w.fresh("w"), w.fresh("w")
    f = Func(f"def {first}(S):")
    r = Func(f"def {rest}(S, {var}):")
    kept = re.fullmatch(r"for \w+ in map\((k\d+), (S\.q\d+)\)", clauses[0])
    if kept is not None and test == 1:  # a kept query's sites: its indices copied,
        f.add(f"return {kept[2]}.copy()")  # the site of one made when it is drawn
        r.add(f"{var} = {kept[1]}({var})")
    else:
        f.add(f"return [{var} {' '.join(clauses[:test])}]")
    w.funcs.append((first, None, "menu", f))
    r.add(f"return [{option} {' '.join(clauses[test:])}]")
    w.funcs.append((rest, None, "walk", r))
    bound = 1
    for n in bounds[1:]:
        bound *= max(n or 0, 1)
    gw.lazy[name] = (first, rest, bound)


def _first_values(gw: Any, s: ast.Choose, fn: Func) -> None:
    """The first choose's values, in its domain's order (the menu's walk's)."""
    w = gw.w
    dom = w.raw(s.domain, {})
    src, n, item, test = gw.chosen(s, dom, {})
    v = w.fresh("v")
    c = w.ex(test, {s.var: Code(v, item, 0)}) if test is not None else None
    if w.charges(dom.cost + n * (1 + (c.cost if c is not None else 0))):
        src = w.charged(src, 1 + (c.cost if c is not None else 0), s.domain.span)
    if c is None:
        fn.add(f"return [{v} for {v} in {src}]")
        return
    fn.add(f"return [{v} for {v} in {src} if {c.src}]")
