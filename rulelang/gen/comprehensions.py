"""The writer's comprehensions: quantifiers over a domain's items (`any`, `all`, `count`,
`each`, `first`, `max`, `min`, `sum`, `best`, `sorted`) as one Python comprehension each
(`any`/`all` over sites as bits as one mask test), list comprehensions over several
domains, and records."""
from __future__ import annotations

import re
from dataclasses import replace
from operator import attrgetter
from typing import Any

import rulelang.gen.calls as calls
import rulelang.gen.forms as F
import rulelang.gen.helpers as H
from rulelang.gen.bits import (
    CHUNKED,
    chunk_sites,
    lanes,
    site_chunks,
    site_mask,
    some_within,
    within_lanes,
)
from rulelang.gen.bits import bit_sites as bits_to_sites
from rulelang.gen.code import READ_AGAIN, Code, Unsupported
from rulelang.gen.forms import Form
from rulelang.gen.lower import Loop
from rulelang.language import ast
from rulelang.language.astwalk import conjuncts, walk
from rulelang.model.values import Record


def record(w: Any, n: ast.RecordExpr, env: dict[str, Code]) -> Code:
    values = [w.ex(x, env) for x in n.items]
    return Code(f"{w.const(Record)}({w.const(n.fields)}, "
                f"({''.join(v.src + ', ' for v in values)}))", Form("record", fields=n.fields),
                sum(v.cost for v in values))


def list_comp(w: Any, n: ast.ListComp, env: dict[str, Code]) -> Code:
    """`[x for a in A, b in B where c]`: one comprehension, its domains found in turn."""
    inner, loops, cost, size = dict(env), [], 0, 1
    sites = None  # (the last domain of distinct sites: its variable and size)
    for g in n.generators:
        dom = calls.zone_pile(w, w.plain(w.ex(g.domain, inner)), copy=False)
        var = w.fresh("v")
        known = dom.form.kind == "items"
        src = dom.src if known else \
            f"{w.const(H.items)}(S, {dom.src}, {w.const(n.span)})"
        n_items = dom.form.size if known else F.unknown_items(dom.form, w.n_unknown)
        loops.append((var, src, dom.cost))
        inner[g.var] = Code(var, dom.form.item if known and dom.form.item else F.ANY, 0)
        cost += size * (1 + dom.cost)
        if sites is not None and _pile_of(w, g.domain, sites[0]):  # the pieces on distinct
            size = size // sites[1] * min(sites[1] * max(n_items, 1), w.n_pieces)  # sites
        else:
            size *= max(n_items, 1)
        sites = (g.var, max(n_items, 1)) if dom.form.distinct and dom.form.item == F.SITE \
            else None
    cond = w.ex(n.cond, inner) if n.cond is not None else None
    item = w.ex(n.item, inner)
    cost += size * (1 + item.cost + (cond.cost if cond else 0))
    if w.charges(cost):  # each domain charged as it is found: its items and what they do
        each = 1 + item.cost + (cond.cost if cond else 0)
        loops = [(v, w.charged(src, each, n.span), c) for v, src, c in loops]
        cost = 0
    fors = " ".join(f"for {v} in {src}" for v, src, _ in loops)
    where = f" if {cond.src}" if cond is not None else ""
    return Code(f"tuple([{item.src} {fors}{where}])", F.items(size, item.form), cost)


def _pile_of(w: Any, domain: ast.Expr, var: str) -> bool:
    """Is the domain `pieces(var)`, the pile of the site var?"""
    return isinstance(domain, ast.Call) and w.refs.get(domain.func) == ("builtin", "pieces") \
        and len(domain.args) == 1 and not domain.kwargs \
        and isinstance(domain.args[0], ast.Name) and domain.args[0].id == var \
        and w.refs.get(domain.args[0], ("local", var)) == ("local", var)


def quant(w: Any, n: ast.Quant, env: dict[str, Code], dom: Code, src: str, size: int,
          item: Form) -> Code:
    var = w.fresh("v")
    inner = {**env, n.var: Code(var, item, 0)}
    cond = w.ex(n.cond, inner) if n.cond is not None else None
    body = w.ex(n.body, inner) if n.body is not None else None
    each = 1 + (cond.cost if cond else 0) + (body.cost if body else 0)
    read = (body.src if body else "") + (cond.src if cond else "")
    if dom.form.indices is not None and (body is not None or n.kind == "count") \
            and not re.search(rf"\b{var}\b(?!\.index\b)", read):
        # each site read only as its index: the loop goes over the indices
        src, index = dom.form.indices, re.compile(rf"\b{var}\.index\b")
        body = None if body is None else Code(index.sub(var, body.src), body.form, body.cost)
        cond = None if cond is None else Code(index.sub(var, cond.src), cond.form, cond.cost)
    cost = dom.cost + size * each
    if w.charges(cost):  # the loop charges its items as it starts
        src, cost = w.charged(src, each, n.span), dom.cost
    where = f" if {cond.src}" if cond is not None else ""
    value = body.src if body is not None else var
    gen = f"{value} for {var} in {src}{where}"
    kind = n.kind
    if kind == "each":  # (the items of distinct ones, or some of them: distinct)
        form = F.items(size, body.form if body is not None else item)
        if body is None and (dom.form.distinct or dom.form.kind in ("sitelist", "bits")):
            form = replace(form, distinct=True)
        some = _some_within(w, cond, var, src)  # (no item passes unless this holds)
        items = f"tuple([{gen}])"
        return Code(items if some is None else f"({items} if {some} else ())", form, cost)
    kind_in = _kind_in(w, n, dom, src, env)
    if kind_in is not None:
        return Code(kind_in, F.BOOL, cost)
    within = body.form.within if body is not None and cond is None else None
    if kind == "any" and within is not None and within[0] == var \
            and not re.search(rf"\b{var}\b", within[1]):  # (lines as bits: one loop)
        packed = _lanes(w, src)
        if packed is not None:
            return Code(f"{w.const(within_lanes)}({packed}, {within[1]})", F.BOOL, cost)
        some = f"{w.const(some_within)}({src}, {within[1]})"
        enough = _enough(w, src, within[1])
        return Code(some if enough is None else f"({enough} and {some})", F.BOOL, cost)
    if kind in ("any", "all"):
        loop = Loop(kind, var, src, cond, body if body is not None else Code(var, item, 0))
        if _PILE.fullmatch(src):  # (an empty pile: no generator made for it)
            return Code(f"({kind}({gen}) if {src} else {kind == 'all'})", F.BOOL, cost, loop)
        return Code(f"{kind}({gen})", F.BOOL, cost, loop)
    some = _some_within(w, cond, var, src)
    if kind == "count":
        test = f" if {body.src}" if body is not None else ""
        counted = f"sum([1 for {var} in {src}{where}{test}])"
        return Code(counted if some is None else f"({counted} if {some} else {w.const(0)})",
                    F.NUM, cost)
    if kind == "first":  # (stops at the first: no later item's condition is evaluated)
        found = body.form if body else item  # (none when no item is found)
        first = f"next(({gen}), None)"
        return Code(first if some is None else f"({first} if {some} else None)",
                    F.MAYBE_SITE if found == F.SITE else F.ANY, cost)
    if kind in ("max", "min", "sum"):
        folded = f"{w.const(H.fold)}({w.const(kind)}, [{gen}], {w.const(n.span)})"
        if some is not None:  # (none passing: the fold of no items, known when written)
            folded = f"({folded} if {some} else {w.const(H.fold(kind, [], n.span))})"
        numbers = (body.form if body is not None else item).kind == "num"
        return Code(folded, F.NUM if kind == "sum" or numbers else F.ANY, cost)
    if kind in ("best", "sorted"):  # items ranked by the body (or by themselves)
        w.step2 = True
        pairs = f"[({var}, {value}) for {var} in {src}{where}]"
        form = F.items(size, item) if kind == "sorted" else F.ANY
        return Code(f"{w.const(H.ranked)}({w.const(kind)}, {pairs}, "
                    f"{w.const(n.span)})", form, cost)
    raise Unsupported(f"the quantifier '{kind}'", n.span)


def _some_within(w: Any, cond: Code | None, var: str, src: str) -> str | None:
    """The test that some mask of `src` (many masks, as lanes) is within the bits of a
    condition `var & ~B == 0` (B read again at no cost, not through var): when it fails,
    no item passes the condition — one test instead of the loop (None: no such test)."""
    within = cond.form.within if cond is not None else None
    if within is None or within[0] != var or not _PURE.fullmatch(within[1]):
        return None
    packed = _lanes(w, src)
    return None if packed is None else f"{w.const(within_lanes)}({packed}, {within[1]})"


_PILE = re.compile(r"S\.at\[[av]\d+\.index\]")  # (a site's pile, a local's: read again)
_PURE = re.compile(r"S\.\w+(\[k\d+\])?|[avk]\d+(\[k\d+\])?")  # (a slot's or local's read)


def bit_sites(w: Any, bits: str) -> str:
    """The source of the sites of a bitset's source, in board order (gen/bits.py)."""
    sites = w.board.sites
    if len(sites) > CHUNKED:
        return f"{w.const(bits_to_sites)}({w.const(sites)}, {bits})"
    return f"{w.const(chunk_sites)}({w.const(site_chunks(sites))}, {bits})"


def owned_sites(w: Any, n: ast.Quant, dom: Code, env: dict[str, Code]) -> Code | None:
    """A quantifier over sites known when the game is made, in board order, whose condition
    begins with `owner(s) == P` (P a player known when written): over the sites of P's
    owner bits among them (the kept bits: no test of the others), the rest of the
    condition as it is (owned_domain). Not where steps are counted."""
    owned = owned_domain(w, n.var, dom, n.cond, env)
    if owned is None:
        return None
    src, rest = owned
    size = len(list(dom.form.static))
    mine = Code(src, F.items(size, F.SITE), dom.cost)
    return quant(w, replace(n, cond=rest), env, mine, src, size, F.SITE)


def owned_domain(w: Any, var: str, dom: Code, cond: ast.Expr | None,
                 env: dict[str, Code]) -> tuple[str, ast.Expr | None] | None:
    """Sites known when the game is made (dom), in board order, with a condition on var
    that begins with `owner(var) == P` (P a player known when written): the source of
    the sites among them in P's owner bits (in board order: the kept bits, no test of
    the others) and the rest of the condition (None: no rest), for a quantifier or a
    choose. Not where steps are counted (the loop charges its items)."""
    parts = conjuncts(cond)
    first = parts[0] if parts else None
    rest = None
    for part in parts[1:]:  # (the others, tested in the same order)
        rest = part if rest is None else ast.BoolOp("and", rest, part, span=part.span)
    if w.counting or not dom.form.known or dom.form.item != F.SITE \
            or not isinstance(first, ast.Compare):
        return None
    indices = [x.index for x in dom.form.static]
    if indices != sorted(set(indices)):  # (not in board order)
        return None
    owners = w.layout.owners
    bits = _owned_by(w, var, first, env)
    if bits is None:
        w.layout.owners = owners  # (the owner bits kept only where read)
        return None
    if len(indices) < w.n_sites:
        bits = f"({bits} & {w.const(site_mask(dom.form.static))})"
    return bit_sites(w, bits), rest


def _kind_in(w: Any, n: ast.Quant, dom: Code, src: str, env: dict[str, Code]) -> str | None:
    """`any x in D: kind(x) == K` (or `x.kind == K`), D pieces (a pile, a zone's) and K a
    local or a constant: `K in map(kind of, D)`, the loop in C. Not where steps are
    counted (the loop charges its items)."""
    body = n.body
    if w.counting or n.kind != "any" or n.cond is not None or dom.form.kind != "items" \
            or dom.form.item != F.PIECE or not isinstance(body, ast.Compare) \
            or body.op != "==":
        return None
    for side, other in ((body.left, body.right), (body.right, body.left)):
        of_x = isinstance(side, ast.Call) and w.refs.get(side.func) == ("builtin", "kind") \
            and len(side.args) == 1 and not side.kwargs and _names(side.args[0], n.var) \
            or isinstance(side, ast.Attr) and side.name == "kind" and _names(side.obj, n.var) \
            and w.refs.get(side) is None
        if of_x and not any(isinstance(x, ast.Name) and x.id == n.var for x in walk(other)):
            k = w.ex(other, env)  # (read before the items: a local or a constant, which
            if k.form.known or READ_AGAIN.fullmatch(k.src):  # cannot fail, as an empty
                return f"({k.src} in map({w.const(KIND)}, {src}))"  # D never reads it)
    return None


def _names(e: ast.Expr, var: str) -> bool:
    return isinstance(e, ast.Name) and e.id == var


KIND = attrgetter("kind")  # (a piece's kind: `_kind_in`)


def by_coordinate(w: Any, n: ast.Quant, dom: Code, env: dict[str, Code], loop: Code) -> Code:
    """`each s in X where s.c == v`, X sites known when the game is made, c one of their
    coordinates, v a local (not read through s): for a whole number v, the sites of X
    whose c is v from a table made once (in X's order); the loop otherwise. Not where
    steps are counted (the loop charges its items)."""
    cond = n.cond
    if w.counting or n.kind != "each" or n.body is not None or not dom.form.known \
            or dom.form.item != F.SITE or not isinstance(cond, ast.Compare) \
            or cond.op != "==":
        return loop
    for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
        if not (isinstance(side, ast.Attr) and isinstance(side.obj, ast.Name)
                and side.obj.id == n.var and side.name in w.rt.coord_index
                and w.refs.get(side) is None
                and not any(isinstance(x, ast.Name) and x.id == n.var for x in walk(other))):
            continue
        value = w.ex(other, env)
        if not READ_AGAIN.fullmatch(value.src):
            return loop
        at = w.rt.coord_index[side.name]
        table: dict[Any, list[Any]] = {}
        for site in dom.form.static:
            table.setdefault(site.coords[at], []).append(site)
        found = {k: tuple(v) for k, v in table.items()}
        return Code(f"({w.const(found)}.get({value.src}, ()) if {value.src}.__class__ is "
                    f"{w.const(int)} else {loop.src})",
                    replace(loop.form, size=max(map(len, found.values()), default=0)),
                    loop.cost)
    return loop


def of_query(w: Any, kind: str, kept: Code) -> Code:
    """`any`, `first`, `each` or `count` of the sites whose condition holds, from their
    kept query's list (in board order)."""
    if kind == "any":
        return Code(f"({kept.src} != [])", F.BOOL, kept.cost)
    if kind == "count":
        return Code(f"len({kept.src})", F.NUM, kept.cost)
    if kind == "first":
        return Code(f"({w.const(w.board.sites)}[{kept.src}[{w.const(0)}]] if {kept.src} "
                    "else None)", F.MAYBE_SITE, kept.cost)
    return kept  # each: the list itself (a sitelist)


def occupied(w: Any, n: ast.Quant, bits: str, cost: int,
             env: dict[str, Code]) -> Code | None:
    """`any`, `all` or `count` of a relation's sites (as `bits`) by `occupied(x)`,
    `empty(x)` or `moved(x)`, alone or with `x in R` (R sites known as bits, not read
    through x, e.g. a relation's sites of another site): a mask test of the kept occupied
    sites' bits (or of the sites whose top moved)."""
    test = n.body if n.cond is None else n.cond if n.body is None else None
    if n.kind not in ("any", "all", "count") or test is None:
        return None
    parts = conjuncts(test)
    held, which = bits, None
    for part in parts:
        if isinstance(part, ast.Call) and len(part.args) == 1 and not part.kwargs \
                and isinstance(part.args[0], ast.Name) and part.args[0].id == n.var \
                and which is None \
                and w.refs.get(part.func) in (("builtin", "occupied"), ("builtin", "empty"),
                                              ("builtin", "moved")):
            which = w.refs[part.func][1]
            continue
        within = _within(w, n.var, part, env)
        if within is None:
            return None
        held, cost = f"{held} & {within.form.bits}", cost + within.cost
    if which is None:
        return None
    if which == "moved":
        held = f"({held} & S.{w.layout.moved_bits()})"
    else:
        occ = "S." + w.layout.occupied_bits()
        held = f"({held} & {occ})" if which == "occupied" else f"({held} & ~{occ})"
    zero = w.const(0)
    if n.kind == "count":
        return Code(f"{held}.bit_count()", F.NUM, cost)
    if n.kind == "any":
        return Code(f"({held} != {zero})", F.BOOL, cost)
    return Code(f"({held} == {bits})", F.BOOL, cost)  # all


def _within(w: Any, var: str, part: ast.Node, env: dict[str, Code]) -> Code | None:
    """`var in R`, R's sites known as bits (its form's `bits`) and not read through var."""
    if not (isinstance(part, ast.Compare) and part.op == "in"
            and isinstance(part.left, ast.Name) and part.left.id == var) \
            or any(isinstance(x, ast.Name) and x.id == var for x in walk(part.right)):
        return None
    right = w.ex(part.right, env)
    return right if right.form.bits is not None and right.form.item == F.SITE else None


def masked(w: Any, n: ast.Quant, dom: Code, env: dict[str, Code]) -> Code | None:
    """`any x in g: x in A` / `all x in g: x in A` over bits g and a site set A known
    when the game is made: one mask test."""
    body = n.body
    if n.kind not in ("any", "all") or n.cond is not None \
            or not isinstance(body, ast.Compare):
        return None
    owned = _owned_by(w, n.var, body, env)
    if owned is not None:  # any/all x in g: owner(x) == p
        return _mask_test(w, n.kind, dom, owned)
    if body.op != "in" or not isinstance(body.left, ast.Name) or body.left.id != n.var \
            or any(isinstance(x, ast.Name) and x.id == n.var for x in walk(body.right)):
        return None
    right = w.ex(body.right, env)
    if right.form.kind != "items" or right.form.item != F.SITE:
        return None
    if right.form.known:
        mask = w.const(site_mask(right.form.static))
    else:
        mask = f"{w.const(site_mask)}({right.src})"
    return _mask_test(w, n.kind, dom, mask)


def _mask_test(w: Any, kind: str, dom: Code, mask: str) -> Code:
    """any: some site of dom's bits is in mask; all: every one is."""
    zero, cost = w.const(0), dom.cost + dom.form.size
    if kind == "any":
        return Code(f"({dom.src} & {mask} != {zero})", F.BOOL, cost)
    return Code(f"({dom.src} & ~{mask} == {zero})", replace(F.BOOL, within=(dom.src, mask)),
                cost)


def _owned_by(w: Any, var: str, body: ast.Compare, env: dict[str, Code]) -> str | None:
    """`owner(var) == P` (either way round) with P a player known when written: the
    source of that player's owner bits."""
    if body.op != "==":
        return None
    for call, other in ((body.left, body.right), (body.right, body.left)):
        if isinstance(call, ast.Call) and len(call.args) == 1 and not call.kwargs \
                and w.refs.get(call.func) == ("builtin", "owner") \
                and isinstance(call.args[0], ast.Name) and call.args[0].id == var \
                and not any(isinstance(x, ast.Name) and x.id == var for x in walk(other)):
            who = w.ex(other, env)
            if who.form.kind == "player" and who.form.known:
                slot = w.layout.owner_bits()
                return f"S.{slot}[{w.const(who.form.static.index)}]"
    return None


def _enough(w: Any, src: str, bits: str) -> str | None:
    """For masks `src` (a constant tuple, or a constant table of them indexed): the test
    that the bits hold, among the sites of all the masks, at least as many as the smallest
    mask has — false, and no mask is within them (the loop not run). None: another source,
    or bits not read again at no cost."""
    named = _named_masks(w, src)
    if named is None or not _PURE.fullmatch(bits):
        return None
    rows, at = named

    def need(v: tuple[int, ...]) -> tuple[int, int]:  # (all the sites, the fewest a mask has)
        union = 0
        for m in v:
            union |= m
        return union, min((m.bit_count() for m in v), default=1)
    if not at:
        union, fewest = need(rows[0])
        return f"(({bits} & {w.const(union)}).bit_count() >= {w.const(fewest)})"
    table = tuple(need(v) for v in rows)
    unions, fewest_of = w.const(tuple(u for u, _ in table)), w.const(tuple(f for _, f in table))
    return f"(({bits} & {unions}{at}).bit_count() >= {fewest_of}{at})"


def _lanes(w: Any, src: str) -> str | None:
    """The masks `src` names — a constant tuple of them, or a constant table of such
    tuples indexed — as lanes of one number (bits.lanes), where they are many (LANES on
    average: fewer take less time in the loop, some_within) (None: another source)."""
    named = _named_masks(w, src)
    if named is None:
        return None
    (rows, at), n = named, w.n_sites
    if not at:
        return str(w.const(lanes(rows[0], n))) if len(rows[0]) >= LANES else None
    if not rows or sum(map(len, rows)) < LANES * len(rows):
        return None
    table: str = w.const(tuple(lanes(v, n) for v in rows))
    return table + at


def _named_masks(w: Any, src: str) -> tuple[tuple[tuple[int, ...], ...], str] | None:
    """The masks of sites `src` names: a constant tuple of them (one row, no index) or a
    constant table of such tuples and the source of its index (None: another source)."""
    found = re.fullmatch(r"(k\d+)(\[.+\])?", src)
    if found is None:
        return None
    value, at, n = w.constants.get(found.group(1)), found.group(2) or "", w.n_sites

    def masks(v: Any) -> bool:
        return type(v) is tuple and all(type(m) is int and 0 <= m < 1 << n for m in v)
    rows = (value, ) if not at else value
    if type(rows) is not tuple or not all(masks(v) for v in rows):
        return None
    return rows, at


# as many masks as this, or more, are tested in lanes (bench/ab_playouts.py --play-out:
# 25 masks 1.035x; 6.6 on average 1.01x; 2.5 on average 0.95x)
LANES = 8
