"""Builtins over collections, grids of values and the pieces on sites: reading one attribute of
the pieces of a kind across many sites at once, reshaping, rectangles and patterns in a grid,
borders whose labels differ, the best set of disjoint pairs, and results kept until the
sites they depend on change. Registered in the same registry as builtins.py (imported at its
end); each is documented in docs/language.md and tested in tests/unit/test_grids.py.

A *grid* is a tuple of rows, each a tuple of values (`chunks(xs, width)` makes one from a
flat collection); a row given as a string is one value per character (`"*..*."`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError
from rulelang.library.registry import PURE, Facts, builtin
from rulelang.library.registry import Reads as R
from rulelang.model.values import Piece, Relation, Site, ZoneRef, show


# ---- collections ---------------------------------------------------------------------
@builtin(2, example="chunks(cells, 5)", facts=PURE, sig="coll[T], number -> list[list[T]]")
def chunks(c: Any, xs: Any, n: int) -> tuple[tuple[Any, ...], ...]:
    """The items in consecutive groups of n, in order: the rows of a grid from its cells
    listed row by row."""
    if type(xs) is tuple:  # a fixed collection (the sites of a line): made once
        try:
            return _CHUNKS[(xs, n)]
        except (KeyError, TypeError):
            pass
    items = tuple(c.data.zones[xs]) if isinstance(xs, ZoneRef) else tuple(xs)
    if not isinstance(n, int) or n < 1:
        raise RulelangError(f"'chunks' needs a group size of 1 or more, not {show(n)}")
    out = tuple(items[i:i + n] for i in range(0, len(items), n))
    if type(xs) is tuple and len(_CHUNKS) < 10_000 and all(type(x) is Site for x in xs):
        _CHUNKS[(xs, n)] = out
    return out


_CHUNKS: dict[tuple[Any, ...], tuple[tuple[Any, ...], ...]] = {}


@builtin(2, example="masked(row, flags)", facts=PURE, sig="coll, coll -> list[any]")
def masked(c: Any, xs: Any, flags: Any) -> tuple[Any, ...]:
    """The items of xs where the flag at the same position is true, none elsewhere (the
    positions are kept); rows of items with rows of flags give rows."""
    return tuple(tuple(masked(c, x, f)) if isinstance(x, tuple) and isinstance(f, tuple)
                 else (x if f else None) for x, f in zip(xs, flags, strict=False))


# ---- the pieces on sites -----------------------------------------------------------------
@builtin(3, example='attr_at(row, "card", "points")',
         facts=Facts(R.GIVEN_SITES | R.PIECES | R.GAME), sig="any, text, text -> any")
def attr_at(c: Any, where: Any, kind: str, name: str) -> Any:
    """The attribute `name` of the piece of kind `kind` on a site (the topmost one), none where
    there is none; a piece (of that kind) stands for itself. Given a collection of sites it
    gives a tuple, given rows of sites a tuple of rows (a grid of values)."""
    return _shaped(c, where, kind, _column(c, kind, name))


@builtin(2, example='pieces_at(rows, "card")', facts=Facts(R.GIVEN_SITES | R.GAME),
         sig="any, text -> any")
def pieces_at(c: Any, where: Any, kind: str) -> Any:
    """The piece of kind `kind` on a site (the topmost one), none where there is none; for a
    collection of sites a tuple, for rows of sites a tuple of rows (a grid of pieces)."""
    if kind not in c.game.piece_attrs:
        raise RulelangError(f"there is no piece kind '{kind}'")
    return _shaped(c, where, kind, None)


def _shaped(c: Any, where: Any, kind: str, column: list[Any] | None) -> Any:
    """The pieces (column None) or their attribute, in the shape of `where`."""
    if type(where) is tuple and column is not None:
        try:  # the common case: a grid (or a row) of pieces or none, as pieces_at gives
            return _piece_values(where, kind, column)
        except AttributeError:  # sites among them
            pass
    at = c.data.at
    if type(where) is Site or type(where) is Piece:
        return _values(at, (where,), kind, column)[0]
    if where is None:
        return None
    if not any(type(x) is tuple or type(x) is list for x in where):
        return _values(at, where, kind, column)
    return tuple([_values(at, row, kind, column) for row in where])


def _piece_values(where: tuple[Any, ...], kind: str, column: list[Any]) -> tuple[Any, ...]:
    """The attribute (column) of a row or a grid of pieces of `kind`, none elsewhere; raises
    AttributeError at a site (or anything else that is not a piece or none)."""
    if where and type(where[0]) is tuple:
        return tuple([tuple([None if x is None or x.kind != kind else column[x.id]
                             for x in row]) for row in where])
    # (rows of another shape among them: a tuple's or list's `kind` raises, the general path)
    return tuple([None if x is None or x.kind != kind else column[x.id] for x in where])


def _values(at: list[Any], cells: Any, kind: str, column: list[Any] | None
            ) -> tuple[Any, ...]:
    out: list[Any] = []
    for s in cells:
        found = None
        if type(s) is Piece:
            if s.kind == kind:
                found = s
        elif type(s) is Site:
            for piece in at[s.index]:  # the last one of the kind is the topmost
                if piece.kind == kind:
                    found = piece
        elif s is not None:
            raise RulelangError(f"{show(s)} is neither a site nor a piece")
        out.append(found if found is None or column is None else column[found.id])
    return tuple(out)


def _column(c: Any, kind: str, name: str) -> list[Any]:
    attrs = c.game.piece_attrs.get(kind)
    if attrs is None:
        raise RulelangError(f"there is no piece kind '{kind}'")
    if name not in attrs:
        raise RulelangError(f"a {kind} has no attribute '{name}'")
    column: list[Any] = c.data.attrs.get(name, [])
    return column


@builtin(5, example='mismatched(sites, east, "card", "right", "left")',
         facts=Facts(R.BOARD | R.PIECES | R.GAME), sig="coll, relation, text, text, text -> number")
def mismatched(c: Any, sites: Any, rel: Relation, kind: str, a: str, b: str) -> int:
    """How many pairs of sites (s, t), s in `sites` and t in rel(s), both hold a piece of
    kind `kind` whose attributes differ: s's attribute `a` is not t's attribute `b` (edge
    matching: a piece's right edge against its eastern neighbour's left edge)."""
    col_a, col_b = _column(c, kind, a), _column(c, kind, b)
    at, table = c.data.at, rel.indices
    ids: dict[int, int | None] = {}
    found = 0
    for s in sites:
        here = _kind_on(at[s.board_index], kind)
        ids[s.board_index] = here
        if here is None:
            continue
        for t in table[s.index]:
            there = ids[t] if t in ids else _kind_on(at[t], kind)
            if there is not None and col_a[here] != col_b[there]:
                found += 1
    return found


def _kind_on(stack: tuple[Any, ...], kind: str) -> int | None:
    """The id of the topmost piece of that kind in a stack, or None."""
    found = None
    for piece in stack:
        if piece.kind == kind:
            found = piece.id
    return found


# ---- grids of values ------------------------------------------------------------------------
_TRUE = object()  # no value given: truthy cells


def _grid(g: Any) -> Any:
    """Rows that can be indexed (tuples, lists or strings), as given when they are."""
    if type(g) is tuple or type(g) is list:
        return g
    return [tuple(row) for row in g]


@builtin(1, 2, example="largest_rectangle(grid, false)", facts=PURE, sig="coll, any -> number")
def largest_rectangle(c: Any, grid: Any, value: Any = _TRUE) -> int:
    """The number of cells of the largest rectangle (rows and columns of the grid) whose
    cells are all true, or all equal to `value` if given; 0 if there is none."""
    masks = []  # one bit per good cell of each row
    for row in _grid(grid):
        mask = 0
        for i, x in enumerate(row):
            if (x == value and x is not None) if value is not _TRUE else x:
                mask |= 1 << i
        masks.append(mask)
    best = 0
    for top in range(len(masks)):  # rows top..bottom: the columns good in all of them
        common = -1
        for bottom in range(top, len(masks)):
            common &= masks[bottom]
            if not common:
                break
            run, m = 0, common  # the longest run of good columns
            while m:
                m &= m << 1
                run += 1
            best = max(best, run * (bottom - top + 1))
    return best


@builtin(4, example="mismatches(right_edges, left_edges, 0, 1)", facts=PURE,
         sig="coll, coll, number, number -> number")
def mismatches(c: Any, a: Any, b: Any, dr: int, dc: int) -> int:
    """How many cells (r, c) of grid a, with a cell (r + dr, c + dc) in grid b, hold values
    that are both not none and differ (edge matching over grids of labels: right edges
    against the left edges one column further, dr = 0 and dc = 1)."""
    rows_a, rows_b = _grid(a), _grid(b)
    found = 0
    for r in range(max(0, -dr), min(len(rows_a), len(rows_b) - dr)):
        row_a, row_b = rows_a[r], rows_b[r + dr]
        for col in range(max(0, -dc), min(len(row_a), len(row_b) - dc)):
            x, y = row_a[col], row_b[col + dc]
            if x is not None and y is not None and x != y:
                found += 1
    return found


_ANY = object()  # a pattern cell `*`


def _pattern(pattern: Any) -> tuple[int, int, tuple[tuple[int, int, Any], ...]]:
    """(height, width, the cells to test as (row, column, wanted value or _ANY))."""
    rows = _grid(pattern)
    tests = tuple((i, j, _ANY if want == "*" else want)
                  for i, row in enumerate(rows) for j, want in enumerate(row)
                  if want is not None and want != ".")
    return len(rows), max((len(r) for r in rows), default=0), tests


_PATTERNS: dict[Any, tuple[int, int, tuple[tuple[int, int, Any], ...]]] = {}


@builtin(2, example='occurrences(grid, ["T.T", "*.*"])', facts=PURE, sig="coll, coll -> number")
def occurrences(c: Any, grid: Any, pattern: Any) -> int:
    """In how many places the pattern (a smaller grid) lies in the grid: each pattern cell
    must match the cell under it: `.` or none matches anything, `*` anything but none, any
    other value only an equal one. Rows written as strings have one cell per character."""
    try:
        h, w, tests = _PATTERNS[pattern]
    except KeyError:
        h, w, tests = _PATTERNS[pattern] = _pattern(pattern) if len(_PATTERNS) < 10_000 \
            else _pattern(pattern)
    except TypeError:  # a pattern that is not a value of a rule (a list): not remembered
        h, w, tests = _pattern(pattern)
    rows = _grid(grid)
    if h == 0 or w == 0 or len(rows) < h:
        return 0
    width = min(map(len, rows))
    if h == 1 and w == 1 and len(tests) == 1:  # one cell: count the cells that match it
        want = tests[0][2]
        if want is _ANY:
            return sum(width - list(row[:width]).count(None) for row in rows)
        return sum(list(row[:width]).count(want) for row in rows)
    found = 0
    for r0 in range(len(rows) - h + 1):
        for c0 in range(width - w + 1):
            for i, j, want in tests:
                cell = rows[r0 + i][c0 + j]
                if cell is None if want is _ANY else cell != want:
                    break
            else:
                found += 1
    return found


@builtin(3, 4, example="corner_pairs(grid, 3, 3)", facts=PURE,
         sig="coll, number, number, any -> list[any]")
def corner_pairs(c: Any, grid: Any, h: int, w: int, points: Any = None) -> tuple[Any, ...]:
    """The pairs of filled cells (not none) at opposite corners of an h x w block (h rows,
    w columns) of the grid whose other cells are all none; each pair as two (row, column)
    positions, the upper one first. With `points`, each pair is (position, position, points),
    ready for best_matching."""
    rows = _grid(grid)
    filled = [(r, j) for r, row in enumerate(rows) for j, x in enumerate(row) if x is not None]
    out: list[tuple[Any, ...]] = []
    for k, (r1, c1) in enumerate(filled):
        for r2, c2 in filled[k + 1:]:
            if r2 - r1 != h - 1 or abs(c2 - c1) != w - 1:
                continue
            lo, hi = min(c1, c2), max(c1, c2)
            inside = sum(1 for r, j in filled if r1 <= r <= r2 and lo <= j <= hi)
            if inside == 2:
                out.append(((r1, c1), (r2, c2)) if points is None else
                           ((r1, c1), (r2, c2), points))
    return tuple(out)


# ---- pairs -----------------------------------------------------------------------------------
@builtin(1, example="best_matching([(a, b, 5), (b, c, 7)])", facts=PURE, sig="coll -> any")
def best_matching(c: Any, edges: Any) -> Any:
    """The largest total weight of a set of pairs no two of which share an item, from pairs
    given as (item, item, weight) (a maximum-weight matching)."""
    items: dict[Any, int] = {}
    listed = []
    for a, b, weight in edges:
        if a != b:
            listed.append((items.setdefault(a, len(items)), items.setdefault(b, len(items)),
                           weight))
    if len(items) > 20:
        return _matching_networkx(listed)
    return _matching_exact(listed)


def _matching_exact(edges: list[tuple[int, int, Any]]) -> Any:
    """Exhaustive over the items, remembered by the set of items still free."""
    around: dict[int, list[tuple[int, Any]]] = {}
    for a, b, w in edges:
        around.setdefault(a, []).append((b, w))
        around.setdefault(b, []).append((a, w))
    return _best(0, sorted(around), around, {})


def _best(used: int, order: list[int], around: dict[int, list[tuple[int, Any]]],
          memo: dict[int, Any]) -> Any:
    """The best matching of the items not in `used` (a bit set). (A module function, not a
    closure calling itself: that would be a cycle left to the collector at every call.)"""
    if used in memo:
        return memo[used]
    u = next((x for x in order if not used >> x & 1), None)
    if u is None:
        return 0
    value = _best(used | 1 << u, order, around, memo)  # u stays single
    for v, w in around[u]:
        if not used >> v & 1:
            value = max(value, w + _best(used | 1 << u | 1 << v, order, around, memo))
    memo[used] = value
    return value


def _matching_networkx(edges: list[tuple[int, int, Any]]) -> Any:
    import networkx as nx
    g = nx.Graph()
    for a, b, w in edges:
        if not g.has_edge(a, b) or g[a][b]["weight"] < w:
            g.add_edge(a, b, weight=w)
    return sum(g[a][b]["weight"] for a, b in nx.max_weight_matching(g))


# ---- results kept until their sites change ----------------------------------------------------
@builtin(2, 99, example="cached(row, row_points, row)", facts=Facts(R.BOARD | R.PIECES, calls=(1,)),
         sig="coll, rule, any... -> any")
def cached(c: Any, sites: Any, f: Callable[..., Any], *args: Any) -> Any:
    """f(args …), where f depends only on its arguments and on the pieces on `sites` (and
    their attributes): the compiled mode keeps the value while none of those sites changes,
    and reuses it for the same pieces on those sites in another state when no rule sets a
    piece's attribute or owner. A rule named without parentheses is passed as f."""
    return f(*args)  # the specification: the interpreter computes it every time




# ---- values of rules that read only their arguments ----------------------------------------
@builtin(1, 99, example="memo(sand_of, grid)", facts=Facts(R.NOTHING, calls=(0,)),
         sig="rule, any... -> any")
def memo(c: Any, f: Callable[..., Any], *args: Any) -> Any:
    """f(args …), for a rule f that reads nothing but its arguments (and the attributes of
    pieces given in them): the compiled mode remembers its values and gives them again for
    equal arguments, as long as no rule sets a piece's attribute or owner. A rule named
    without parentheses is passed as f."""
    return f(*args)  # the specification: the interpreter computes it every time
