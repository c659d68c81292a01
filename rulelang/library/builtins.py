"""The basic builtins: the turn and its players, numbers, texts and collections, sites and
the pieces on them (registered in registry.py; grids.py holds the builtins over grids)."""
from __future__ import annotations

import heapq
from itertools import combinations, islice
from itertools import product as cartesian
from math import comb
from typing import Any

from rulelang.errors import RulelangError
from rulelang.library.registry import PURE, Facts, builtin, constant
from rulelang.library.registry import BuiltinContext as _Ctx
from rulelang.library.registry import Reads as R
from rulelang.library.semantics import (
    charge,
    charge_items,
    largest,
    size_error,
    smallest,
    too_large,
    weight,
)
from rulelang.model.values import LineSet, Piece, Player, Relation, Site, ZoneRef, show


# ---- constants -----------------------------------------------------------------
@constant("owner(s) == mover", facts=Facts(R.MOVER, cheap=True), sig="player")
def mover(c: _Ctx) -> Player:
    """The player whose turn it is."""
    return c.game.players[c.data.mover]


@constant("winner opponent", facts=Facts(R.MOVER | R.GAME, cheap=True), sig="player")
def opponent(c: _Ctx) -> Player:
    """The next player after the mover (the opponent in a two-player game)."""
    return c.game.players[(c.data.mover + 1) % len(c.game.players)]


@constant("for each p in players", facts=Facts(R.GAME, cheap=True), sig="list[player]")
def players(c: _Ctx) -> tuple[Player, ...]:
    """All players in seat order."""
    return c.game.players


@constant("for each p in others", facts=Facts(R.MOVER | R.GAME, cheap=True), sig="list[player]")
def others(c: _Ctx) -> tuple[Player, ...]:
    """The other players, clockwise from the mover."""
    n, m = len(c.game.players), c.data.mover
    return tuple(c.game.players[(m + i) % n] for i in range(1, n))


@constant("each s in sites where empty(s)", facts=Facts(R.GAME, cheap=True), sig="list[site]")
def sites(c: _Ctx) -> tuple[Site, ...]:
    """Every site of the board, in board order."""
    return c.game.board.sites


@constant("last.site", facts=Facts(R.TURN, cheap=True),
          sig="record(action: text, player: player, site: site, piece: piece)")
def last(c: _Ctx) -> dict[str, Any]:
    """The last action: last.action (its name), last.player, last.site, last.piece."""
    return c.data.last


@constant("round >= 4", facts=Facts(R.TURN, cheap=True), sig="number")
def round_(c: _Ctx) -> int:
    """The number of the current round, from 1 (see the `round` section)."""
    return c.data.round


@constant("set starter = next_player(starter)", facts=Facts(R.TURN | R.GAME, cheap=True),
          sig="player")
def starter(c: _Ctx) -> Player:
    """The player who began the current round; `set starter = p` makes p begin the next."""
    return c.game.players[c.data.starter]


@builtin(1, example="next_player(starter)", facts=Facts(R.GAME), sig="player -> player")
def next_player(c: _Ctx, p: Player) -> Player:
    """The player after p in seat order (clockwise)."""
    return c.game.players[(p.index + 1) % len(c.game.players)]


@constant("turn > 10", facts=Facts(R.TURN, cheap=True), sig="number")
def turn(c: _Ctx) -> int:
    """The number of the current turn, from 1."""
    return c.data.turn


# ---- sites and pieces ------------------------------------------------------------
@builtin(1, example="occupied(s)", facts=Facts(R.BOARD, at_site=True), sig="site -> bool")
def occupied(c: _Ctx, s: Site) -> bool:
    """Some piece is on site s."""
    return bool(c.data.at[s.board_index])


@builtin(1, example="empty(s)", facts=Facts(R.BOARD, at_site=True), sig="site -> bool")
def empty(c: _Ctx, s: Site) -> bool:
    """No piece is on site s."""
    return not c.data.at[s.board_index]


@builtin(1, example="top(s)", facts=Facts(R.BOARD, at_site=True), sig="site|zone -> piece")
def top(c: _Ctx, where: Site | ZoneRef) -> Piece | None:
    """The topmost piece on a site, or the top of a zone's pile (its last piece); none if
    there is none."""
    stack = c.data.at[where.index] if isinstance(where, Site) else c.data.zones[where]
    return stack[-1] if stack else None


@builtin(1, example="pieces(s)", facts=Facts(R.BOARD, at_site=True), sig="site|zone -> list[piece]")
def pieces(c: _Ctx, where: Site | ZoneRef) -> tuple[Piece, ...]:
    """The pieces on a site (bottom first) or in a zone."""
    if isinstance(where, Site):
        return c.data.at[where.index]
    return tuple(c.data.zones[where])


@builtin(1, example="owner(s) == mover", facts=Facts(R.BOARD | R.PIECES | R.GAME, at_site=True),
         sig="site|piece -> player")
def owner(c: _Ctx, x: Site | Piece | None) -> Player | None:
    """The owner of a piece, or of the top piece on a site; none if nobody owns it."""
    if isinstance(x, Site):
        stack = c.data.at[x.index]
        if not stack:
            return None
        x = stack[-1]
    if x is None:
        return None
    o = c.data.owner[x.id]
    return None if o is None else c.game.players[o]


@builtin(1, example="site(p)", facts=Facts(R.BOARD), sig="piece -> site")
def site(c: _Ctx, p: Piece) -> Site | None:
    """The site a piece is on, or none."""
    where = c.data.loc[p.id]
    return where if isinstance(where, Site) else None


@builtin(1, example="moved(top(b))", facts=Facts(R.BOARD | R.TURN), sig="site|piece -> bool")
def moved(c: _Ctx, x: Site | Piece | None) -> bool:
    """Piece x (or the top piece on site x) has been put, moved or removed since the current
    action began, while its options are enumerated or it is taken (outside an action: since
    the last one began, or the game's start); false for none. After lifting a ball and
    letting the others settle: the balls that fell."""
    if isinstance(x, Site):
        stack = c.data.at[x.index]
        x = stack[-1] if stack else None
    return x is not None and x.id in c.data.moved


@builtin(1, example='kind(p) == "ball"', facts=PURE, sig="piece -> text")
def kind(c: _Ctx, p: Piece) -> str:
    """The kind of a piece."""
    return p.kind


@builtin(2, 3, example="group(s, touching)", facts=Facts(R.BOARD | R.PIECES | R.GAME, calls=(2,)),
         sig="site|coll, relation, rule -> list[site]")
def group(c: _Ctx, s: Site | Any, rel: Relation, link: Any = None) -> tuple[Site, ...]:
    """The sites linked to s through rel whose top pieces share the owner of s's top piece.
    With `link`, a step from site a to site b is taken only when link(a, b) holds (visible
    connections: `group(s, touching, visibly_linked)`). Given a collection of sites, the
    union of their groups, found in one search (the balls linked to any ball beside a hole)."""
    at, owners, sites = c.data.at, c.data.owner, c.game.board.sites
    if isinstance(s, Site):  # the common case: one start
        stack = at[s.index]
        if not stack:
            return ()
        found = _linked(at, owners, rel.indices, sites, link, owners[stack[-1].id], [s.index])
        return tuple([sites[i] for i in sorted(found)])
    starts = tuple(s)
    charge_items(c, starts)
    by_owner: dict[Any, list[int]] = {}
    for x in starts:
        if not isinstance(x, Site):
            raise RulelangError(f"group: {show(x)} is not a site")
        stack = at[x.index]
        if stack:
            by_owner.setdefault(owners[stack[-1].id], []).append(x.index)
    found = set()
    for who, first in by_owner.items():  # one search from all the starts of one owner
        found |= _linked(at, owners, rel.indices, sites, link, who, first)
    return tuple([sites[i] for i in sorted(found)])


def _linked(at: Any, owners: Any, table: Any, sites: Any, link: Any, who: Any,
            first: list[int]) -> set[int]:
    """The site indices reached from `first` through `table` over top pieces of `who`."""
    seen, todo = set(first), list(first)
    while todo:
        i = todo.pop()
        for t in table[i]:
            if t not in seen:
                st = at[t]
                if st and owners[st[-1].id] == who and (link is None
                                                        or link(sites[i], sites[t])):
                    seen.add(t)
                    todo.append(t)
    return seen


def entry_cost(site: Site, step: Any) -> Any:
    """What entering a site costs a `reach`, refused when negative: there is no cheapest
    path then (the search would go round for ever)."""
    if step is not None and step < 0:
        raise RulelangError(f"entering {show(site)} costs {show(step)}: a move's cost cannot "
                            "be negative")
    return step


@builtin(4, 5, example="reach(site(pawn), orthogonal, 3, step_cost, can_stop)",
         facts=Facts(R.GAME, calls=(3, 4)), sig="site, relation, number, rule, rule -> list[site]")
def reach(c: _Ctx, start: Site, rel: Relation, budget: int, cost: Any,
          stop: Any = None) -> tuple[Site, ...]:
    """The sites a move of at most `budget` points can end on, from `start` along `rel`.
    `cost(s)` is what entering s costs (none: it cannot be entered; below zero: an error);
    `stop(s)`, if given, says whether a move may end on s (it may still pass through). The
    start is excluded."""
    sites, origin = c.game.board.sites, start.board_index
    # entering each site costs, asked once (the values kept by the caller, if it keeps them)
    kept_costs = getattr(cost, "by_site", None)
    costs: list[Any] = kept_costs or [UNASKED] * len(sites)
    ask = cost if kept_costs is None else cost.rule  # (kept values': their rule, asked)
    ends = None
    if type(budget) is int and 0 <= budget <= _BUCKETS:
        ends = _by_buckets(sites, rel.indices, origin, budget, costs, ask)
    if ends is None:  # (costs or a budget not whole numbers: in order of cost)
        ends = _by_heap(sites, rel.indices, origin, budget, costs, ask)
    if stop is None:
        return tuple([sites[i] for i in ends])
    kept = getattr(stop, "by_site", None)
    if kept is None:
        return tuple([sites[i] for i in ends if stop(sites[i])])
    out, ask = [], stop.rule
    for i in ends:
        ok = kept[i]
        if ok is UNASKED:
            ok = kept[i] = ask(sites[i])
        if ok:
            out.append(sites[i])
    return tuple(out)


_BUCKETS = 64  # a whole budget up to this: the sites reached at each cost in a list


def _by_buckets(sites: Any, table: Any, origin: int, budget: int, costs: list[Any],
                ask: Any) -> list[int] | None:
    """reach's cheapest costs as Dial's search does it, a list of sites per cost: the
    sites reached within the budget but the start, in board order (None where a cost
    that is no whole number would lower a site's, as a bucket's index: the costs asked
    are kept for _by_heap). Each site's cost is asked where a site reached within the
    budget is next to it, as in _by_heap (a cost is a number: entry_cost compared it with
    0; true adds 1)."""
    over = budget + 1
    best = [over] * len(sites)  # site index -> the least it costs to get there (<= over,
    best[origin] = 0            # so a total below it is within the budget)
    reached: list[int] = []
    buckets: list[list[int]] = [[origin]]
    buckets.extend([] for _ in range(budget))
    for spent in range(over):
        for i in buckets[spent]:  # (a site entered for nothing joins this list as it runs)
            if best[i] != spent:  # (reached more cheaply since)
                continue
            for j in table[i]:
                step = costs[j]
                if step is UNASKED:
                    step = costs[j] = entry_cost(sites[j], ask(sites[j]))
                if step is None:
                    continue
                total = spent + step
                if total < best[j]:
                    try:
                        buckets[total].append(j)
                    except TypeError:  # (a cost that is no whole number)
                        return None
                    if best[j] == over:
                        reached.append(j)
                    best[j] = total
    reached.sort()
    return reached


def _by_heap(sites: Any, table: Any, origin: int, budget: Any, costs: list[Any],
             ask: Any) -> list[int]:
    """reach's cheapest costs as Dijkstra's search does it (_by_buckets' meaning)."""
    best: dict[int, Any] = {origin: 0}  # site index -> the least it costs to get there
    frontier = [(0, origin)]
    pop, push = heapq.heappop, heapq.heappush
    while frontier:
        spent, i = pop(frontier)
        if spent > best[i]:  # (reached more cheaply since)
            continue
        for j in table[i]:
            step = costs[j]
            if step is UNASKED:
                step = costs[j] = entry_cost(sites[j], ask(sites[j]))
            if step is None:
                continue
            total = spent + step
            if total <= budget and (j not in best or total < best[j]):
                best[j] = total
                push(frontier, (total, j))
    del best[origin]
    return sorted(best)


class _Unasked:
    """A value a rule has not been asked for (yet, or since a change)."""

    def __repr__(self) -> str:
        return "UNASKED"


UNASKED = _Unasked()


@builtin(2, example="through(rows, last.site)", facts=PURE, sig="lines, site -> list[list[site]]")
def through(c: _Ctx, lines: LineSet, s: Site) -> tuple[tuple[Site, ...], ...]:
    """The lines of a line set that pass through site s."""
    return lines.through[s.board_index]


@builtin(1, example="repeated(3)", facts=Facts(R.STATE | R.HISTORY), sig="number -> bool")
def repeated(c: _Ctx, n: int) -> bool:
    """The current position (board, zones, counters, player to move) occurred n times."""
    return c.game.position_count(c.data) >= n


@builtin(1, example="not repeated_board(1)", facts=Facts(R.STATE | R.HISTORY),
         sig="number -> bool")
def repeated_board(c: _Ctx, n: int) -> bool:
    """The current board (the pieces on every site, by kind and owner; zones, counters and the
    player to move aside) occurred n times, counted at the start of the game and after each
    turn. In an action it compares the board the action makes with every earlier one:
    `require not repeated_board(1)` is positional superko."""
    return c.game.board_count(c.data) >= n


# ---- values ------------------------------------------------------------------------
@builtin(1, example="size(l)", facts=PURE, sig="coll -> number")
def size(c: _Ctx, x: Any) -> int:
    """The number of items in a collection or pieces in a zone."""
    if isinstance(x, ZoneRef):
        return len(c.data.zones[x])
    return len(x)


@builtin(1, example="str(r + 1)", facts=PURE, sig="any -> text")
def str_(c: _Ctx, x: Any) -> str:
    """A value as text (costing the value's size: library/semantics.weight)."""
    charge(c, weight(x), None)
    return show(x)


@builtin(1, example="letter(0)", facts=PURE, sig="number -> text")
def letter(c: _Ctx, i: int) -> str:
    """The i-th letter of the alphabet, from 0: a, b, c …"""
    return "abcdefghijklmnopqrstuvwxyz"[i]


@builtin(1, example="abs(r - c)", facts=PURE, sig="number -> number")
def abs_(c: _Ctx, x: int) -> int:
    """The absolute value."""
    return abs(x)


def _items(args: tuple[Any, ...]) -> Any:
    return args[0] if len(args) == 1 and isinstance(args[0], (tuple, list, range)) else args


@builtin(1, 99, example="max(a, b)", facts=PURE)
def max_(c: _Ctx, *args: Any) -> Any:
    """The largest of the arguments (or of one collection); 0 for none."""
    items = _items(args)
    charge_items(c, items)
    return largest(items)


@builtin(1, 99, example="min(a, b)", facts=PURE)
def min_(c: _Ctx, *args: Any) -> Any:
    """The smallest of the arguments (or of one collection); 0 for none."""
    items = _items(args)
    charge_items(c, items)
    return smallest(items)


@builtin(1, example="sum(points)", facts=PURE, sig="coll -> number")
def sum_(c: _Ctx, xs: Any) -> int:
    """The sum of a collection of numbers."""
    charge_items(c, xs)
    total: int = sum(xs)
    if too_large(total):
        raise size_error(total, None)
    return total


@builtin(1, example="prod(sizes)", facts=PURE, sig="coll -> number")
def prod(c: _Ctx, xs: Any) -> int:
    """The product of a collection of numbers; 1 for none."""
    charge_items(c, xs)
    out = 1
    for x in xs:
        if not isinstance(x, int) or isinstance(x, bool):
            raise RulelangError(f"'prod' multiplies numbers, not {show(x)}")
        out *= x
        if too_large(out):
            raise size_error(out, None)
    return out


@builtin(1, example="count(playable)", facts=PURE, sig="coll -> number")
def count(c: _Ctx, xs: Any) -> int:
    """The number of items in a collection."""
    return size(c, xs)


@builtin(1, example="any(flags)", facts=PURE, sig="coll -> bool")
def any_(c: _Ctx, xs: Any) -> bool:
    """Some item of the collection is true."""
    charge_items(c, xs)
    return any(xs)


@builtin(1, example="all(flags)", facts=PURE, sig="coll -> bool")
def all_(c: _Ctx, xs: Any) -> bool:
    """Every item of the collection is true."""
    charge_items(c, xs)
    return all(xs)


@builtin(2, example="subsets(hand of p, 4)", facts=PURE, sig="coll[T], number -> list[list[T]]")
def subsets(c: _Ctx, xs: Any, k: int) -> tuple[tuple[Any, ...], ...]:
    """Every choice of k items of a collection (or zone), in order: `choose role in
    subsets(hand of p, 4)` offers each set of 4 cards once."""
    items = tuple(c.data.zones[xs]) if isinstance(xs, ZoneRef) else tuple(xs)
    charge_items(c, items)
    if isinstance(k, int) and 0 <= k <= len(items) and comb(len(items), k) > _PRODUCT_LIMIT:
        raise RulelangError(f"subsets: {comb(len(items), k):,} choices, more than "
                            f"{_PRODUCT_LIMIT:,}")
    return tuple(combinations(items, k))


@builtin(1, example="product([seasons(c) for c in role])", facts=PURE,
         sig="coll -> list[list[any]]")
def product(c: _Ctx, xs: Any) -> tuple[tuple[Any, ...], ...]:
    """Every way of taking one item from each of a list of collections, in order (the
    cartesian product): `product([["a", "b"], [1, 2]])` is `(("a", 1), ("a", 2), ("b", 1),
    ("b", 2))`. Each way of using a role's optional abilities, to pick the best with `best`."""
    lists = [tuple(c.data.zones[x]) if isinstance(x, ZoneRef) else tuple(x) for x in xs]
    size = 1
    for items in lists:
        size *= len(items)
    if size > _PRODUCT_LIMIT:
        raise RulelangError(f"product: {size} combinations, more than {_PRODUCT_LIMIT}")
    c.tick(None, size)
    return tuple(islice(cartesian(*lists), _PRODUCT_LIMIT))


_PRODUCT_LIMIT = 100_000


@builtin(1, example="distinct(each c in field: c.name)", facts=PURE, sig="coll[T] -> list[T]")
def distinct(c: _Ctx, xs: Any) -> tuple[Any, ...]:
    """The items of a collection without repeats, each where it first appears."""
    items = tuple(c.data.zones[xs]) if isinstance(xs, ZoneRef) else tuple(xs)
    charge_items(c, items)
    return tuple(dict.fromkeys(items))


@builtin(1, example="reversed(players)", facts=PURE, sig="coll[T] -> list[T]")
def reversed_(c: _Ctx, xs: Any) -> tuple[Any, ...]:
    """The items of a collection (or the pieces of a zone) in reverse order:
    `for each p in reversed(players)` goes round the table counter-clockwise, from the last
    seat to the first."""
    items = tuple(c.data.zones[xs]) if isinstance(xs, ZoneRef) else tuple(xs)
    charge_items(c, items)
    return items[::-1]


@builtin(1, example="first(playable)", facts=PURE, sig="coll[T] -> T")
def first(c: _Ctx, xs: Any) -> Any:
    """The first item of a collection, or none."""
    return next(iter(xs), None)


@builtin(1, example="each(playable)", facts=PURE, sig="coll[T] -> list[T]")
def each(c: _Ctx, xs: Any) -> tuple[Any, ...]:
    """The items of a collection, as a tuple."""
    charge_items(c, xs)
    return tuple(xs)


