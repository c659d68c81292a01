"""Rules of one site kept per site: a rule passed as a value (`reach(…, step_cost, can_stop)`)
whose value at s depends only on the board at s and at sites reached from s through
relations, and on the mover (incremental.py's local analysis), is computed at most once per
site and position. Its values live in the data's cache with the length of the change log they
hold for; a later position forgets only the values of the sites its changes can reach
(incremental.dependents), and each is computed again when first asked. A rule of two sites
(`group`'s link) is kept per pair of sites in the same sense (kept_pair_rule). A value asked
at anything but sites of the board, or with other arguments, is the rule's plain call.

A value computed runs the rule's body as a site predicate (fast/site_code.py: generated with
real locals, the same steps) when the body is a condition the predicate writer covers, else
through its closure; incremental.CHECK compares the two on every value."""
from __future__ import annotations

from collections.abc import Callable
from itertools import count
from typing import Any
from weakref import WeakKeyDictionary

from rulelang.fast import incremental
from rulelang.fast.incremental import analyse, dependents
from rulelang.language import ast
from rulelang.library.semantics import Ctx
from rulelang.model.values import Site

_MISSING = object()


def site_rule(rt: Any, key: str, node: ast.Node, def_body: Callable[[str], list[Any]],
              predicate: Callable[..., Any] | None = None) -> Any:
    """The closure giving the rule `key` as a value, kept per site (or pair of sites) when
    the rule has one parameter (or two) and its value at sites is local; else None.
    predicate(cond, var, second, own_frame=True): the generator's site predicate of a
    condition, or None (codegen.Generator.site_predicate)."""
    d = rt.program.defs[key]
    if not d.params or len(d.params) > 2 or not rt.board.sites:
        return None
    found = analyse(rt.program, d.body, tuple(d.params))
    if found is None or not found[0]:  # (a rule that reads no board needs no keeping)
        return None
    paths, per_mover = found
    deps = dependents(rt.board, paths)
    params = tuple(d.params)
    box = def_body(key)
    made = None
    if predicate is not None and not isinstance(d.body, ast.Block):
        made = predicate(d.body, params[0], params[1] if len(params) == 2 else None,
                         own_frame=True)
    if made is None:
        run = _closure_runner(box, params)
    elif incremental.CHECK:
        run = incremental.checked(params, lambda c, e: box[0](c, e), made)
    else:
        run = made
    if len(params) == 2:
        return kept_pair_rule(rt, key, node, (params[0], params[1]), run, deps, per_mover)
    return kept_site_rule(rt, key, node, params[0], run, deps, per_mover)


def _closure_runner(box: list[Any], params: tuple[str, ...]) -> Callable[..., Any]:
    """The rule's compiled body (box[0], filled once compiled) as a function of (c, sites)."""
    if len(params) == 1:
        (param,) = params
        return lambda c, x: box[0](c, {param: x})
    first, second = params
    return lambda c, x, y: box[0](c, {first: x, second: y})


def kept_site_rule(rt: Any, key: str, node: ast.Node, param: str, run: Callable[..., Any],
                   deps: tuple[tuple[Site, ...], ...], per_mover: bool) -> Any:
    """The closure giving the rule `key` as a value: one that answers a call at a site from
    the kept values, and any other call as the rule's value (runtime.RuleFunction) does."""
    n_sites = len(rt.board.sites)
    qid = ("site rule", key)
    ref = ("function", key)

    class KeptSiteRule:
        __slots__ = ("values", "c")

        def __init__(self, values: list[Any], c: Ctx) -> None:
            self.values, self.c = values, c

        def __call__(self, *args: Any) -> Any:
            if len(args) == 1 and type(x := args[0]) is Site:
                values = self.values
                v = values[x.index]
                if v is _MISSING:
                    c = self.c
                    c.tick(node.span)  # a step for each value computed, as a call is
                    v = values[x.index] = run(c, x)
                return v
            return rt.ref_value(ref, self.c, {}, node)(*args)

        def at_site(self, x: Any) -> Any:
            """The rule's value at one argument: __call__(x), without its checks when x is
            a site (a builtin that calls a rule of one site, `reach`, asks so)."""
            if type(x) is Site:
                values = self.values
                v = values[x.index]
                if v is _MISSING:
                    c = self.c
                    c.tick(node.span)
                    v = values[x.index] = run(c, x)
                return v
            return self(x)

        def __repr__(self) -> str:
            return f"rule {key}"

    KeptSiteRule.key = key  # type: ignore[attr-defined]  # (as RuleFunction's, for memo)

    def value(c: Ctx, e: dict[str, Any]) -> Any:
        where = (qid, c.data.mover) if per_mover else qid
        # (filled in place: every data holding this list is at this position)
        return KeptSiteRule(_per_site(c.data, where, n_sites, deps, _missing), c)
    return value


def _missing() -> Any:
    return _MISSING


def _per_site(data: Any, where: Any, n_sites: int, deps: tuple[tuple[Site, ...], ...],
              fresh: Callable[[], Any]) -> list[Any]:
    """The list of one item per site kept in data's cache at `where`, for this position: made
    with `fresh()` everywhere the first time, else the kept one with `fresh()` (one value for
    all) at the sites the changes since can reach."""
    entry = data.cache.get(where)
    changes = data.changes
    n = len(changes)
    if entry is not None and entry[1] == n:
        items: list[Any] = entry[0]
        return items
    if entry is None:
        items = [fresh()] * n_sites
    else:
        items, mark = entry[0].copy(), fresh()
        for t in changes[entry[1]:]:
            for s in deps[t]:
                items[s.index] = mark
    data.cache[where] = (items, n)
    return items


_STAMPS = count()  # (a number no site's stamp has had: see kept_pair_rule)
_PAIRS_KEPT = 100_000  # pair values kept at most per rule, then forgotten all at once
_TABLES: WeakKeyDictionary[Any, dict[str, dict[Any, Any]]] = WeakKeyDictionary()  # per game


def kept_pair_rule(rt: Any, key: str, node: ast.Node, params: tuple[str, str],
                   run: Callable[..., Any],
                   deps: tuple[tuple[Site, ...], ...], per_mover: bool) -> Any:
    """The closure giving a rule of two sites (`group`'s link) as a value. Each position holds
    a stamp per site, a number renewed when a change can reach the site; a value at (a, b) is
    kept for the stamps a and b have, in one table for every position of the game: positions
    whose stamps of a and b are the same descend from the one that made them with no change
    around a or b since, so the value is the same (sibling positions share what their parent
    did not touch). A call with anything but two sites of the board is the rule's plain call."""
    n_sites = len(rt.board.sites)
    qid = ("pair rule", key)
    ref = ("function", key)
    kept = _TABLES.setdefault(rt, {}).setdefault(key, {})  # (one for all its references)

    class KeptPairRule:
        __slots__ = ("stamps", "c", "who")

        def __init__(self, stamps: list[int], c: Ctx) -> None:
            self.stamps, self.c = stamps, c
            self.who = c.data.mover if per_mover else None

        def __call__(self, *args: Any) -> Any:
            if len(args) == 2 and type(x := args[0]) is Site and type(y := args[1]) is Site:
                stamps = self.stamps
                i, j = x.index, y.index
                where = (i, j, stamps[i], stamps[j], self.who)
                v = kept.get(where, _MISSING)
                if v is _MISSING:
                    c = self.c
                    c.tick(node.span)  # a step for each value computed, as a call is
                    v = run(c, x, y)
                    if len(kept) >= _PAIRS_KEPT:
                        kept.clear()
                    kept[where] = v
                return v
            return rt.ref_value(ref, self.c, {}, node)(*args)

        def __repr__(self) -> str:
            return f"rule {key}"

    KeptPairRule.key = key  # type: ignore[attr-defined]  # (as RuleFunction's, for memo)

    def value(c: Ctx, e: dict[str, Any]) -> Any:
        return KeptPairRule(_per_site(c.data, qid, n_sites, deps, _STAMPS.__next__), c)
    return value
