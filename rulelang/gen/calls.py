"""The writer's calls of builtins: in place where the flat state holds the answer (a site's
pile, its top owner, a kept query's size, a kept group, the lines through a site, the
position counts), else the builtin itself over the state (`S.view()`), its steps bounded
by the items of its arguments and the rules it may call."""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import rulelang.gen.forms as F
import rulelang.gen.helpers as H
import rulelang.gen.operators as operators
from rulelang.gen.bits import (
    CHUNKED,
    relation_masks,
    repeated,
    repeated_board,
    site_chunks,
    site_mask,
)
from rulelang.gen.code import READ_AGAIN, Code, Unsupported
from rulelang.gen.forms import Form
from rulelang.gen.rt import ticked
from rulelang.language import ast
from rulelang.library import BUILTINS
from rulelang.library.registry import Reads
from rulelang.library.semantics import STEP_BUDGET
from rulelang.model.values import Piece, ZoneRef

# builtins whose values the flat state can give through the builtin itself
_FLAT_READS = Reads.GAME | Reads.BOARD | Reads.GIVEN_SITES | Reads.PIECES | Reads.MOVER \
    | Reads.ZONES
_SIZED = frozenset({"items", "lines", "sitelist", "bits", "linemask"})
_REPEATS = {"repeated": repeated, "repeated_board": repeated_board}
# builtins of a piece, read in place when given one (gen/helpers.py)
_OF_PIECE = {"kind": H.kind_of, "owner": H.owner_of, "site": H.site_of}
# builtins of a list, in place where given a list (of a value of unknown form: a zone's)
_OF_LIST = {"size": H.size_of, "distinct": H.distinct_of, "first": H.first_of}
# builtins of a site or a zone: a site's pile read in place (gen/helpers.py)
_AT_SITE = {"pieces": H.at_site, "occupied": H.occupied_at, "empty": H.empty_at,
            "top": H.top_at, "moved": H.moved_at}

# builtins that call the rules passed to them: the forms of the values each gets, by the
# rule's position (reach asks the cost and the stop of sites; group its link of two sites)
PASSES: dict[str, dict[int, tuple[Form, ...]]] = {
    "reach": {3: (F.SITE,), 4: (F.SITE,)}, "group": {2: (F.SITE, F.SITE)}}
# and of those, the rules whose values it reads by site index where they are kept
# (SiteValues.by_site: gen/layout.py)
BY_SITE = frozenset({("reach", 3), ("reach", 4)})


def builtin(w: Any, key: str, args: list[Code], n: ast.Call) -> Code:
    """A builtin called: read in place where the flat state holds its answer, else the
    builtin itself over the state (`S.view()`)."""
    b = BUILTINS[key]
    # a step for the call, and at most the items of each argument a builtin may go
    # through (library/semantics.charge_items; they charge them as they run, in every
    # game); an argument of unknown form as a board
    cost = 1 + sum(a.cost + (a.form.size if a.form.kind in _SIZED else
                             w.n_sites if a.form.kind in ("any", "zone") else 0) for a in args)
    if w.counting:  # (the builtin charges its items itself, through S.view())
        cost = 1 + sum(a.cost for a in args)
    if key == "size" and len(args) == 1 and args[0].form.known \
            and type(args[0].form.static) in (tuple, range):  # (known when written)
        known: Code = w.static(len(args[0].form.static))
        return known
    kept = len(args) == 1 and args[0].form.kind in ("sitelist", "bits", "linemask")
    if kept and key in ("size", "count"):  # (a line's sites differ: its bits count them)
        src = args[0].src
        return Code(f"len({src})" if args[0].form.kind == "sitelist"
                    else f"{src}.bit_count()", F.NUM, cost)
    if key == "group" and len(args) == 2 and args[0].form.kind == "site" \
            and args[1].form.kind == "relation" and args[1].form.known:
        groups = w.layout.group(args[1].form.static)
        if groups is not None:
            return Code(f"{w.group_function(groups)}(S, {args[0].src}.index)",
                        F.bits(w.n_sites), cost)
    args = [w.plain(a) for a in args]
    site = len(args) == 1 and args[0].form.kind == "site"
    if site and key in ("empty", "occupied"):
        op = "not " if key == "empty" else "() != "
        return Code(f"({op}S.at[{args[0].src}.index])", F.BOOL, cost)
    if site and key == "moved":  # (its top piece put, moved or removed this action)
        at = f"S.at[{args[0].src}.index]"
        return Code(f"({at} != () and {at}[{w.const(-1)}].id in S.moved)", F.BOOL, cost)
    if key == "pieces" and site:  # (a site's pile: the tuple itself)
        return Code(f"S.at[{args[0].src}.index]", F.pile(w.n_pile), cost)
    zone = len(args) == 1 and is_zone(w, args[0])
    if zone and key == "pieces":  # (a zone's pile, as it is now)
        pile: Code = zone_pile(w, args[0])
        return pile._replace(cost=cost)
    if zone and key == "size":
        return Code(f"len(S.zones[{args[0].src}])", F.NUM, cost)
    if zone and key == "top":  # (the last piece of its pile, or none)
        return Code(f"(S.zones[{args[0].src}] or {w.const((None,))})[{w.const(-1)}]",
                    F.PIECE_OR_NONE, cost)
    piece = len(args) == 1 and args[0].form.kind == "piece"
    if piece and key == "owner":  # (owners are fixed in generated games)
        return Code(f"{w.owner_players()}[{args[0].src}.id]", F.ATOM, cost)
    if piece and key == "kind":
        return Code(f"{args[0].src}.kind", F.TEXT, cost)
    if key in _OF_PIECE and len(args) == 1 and args[0].form.kind == "any":  # (a piece?)
        x = args[0].src
        call = f"{w.const(_OF_PIECE[key])}(S, {w.const(b.impl)}, {w.const(key)}, " \
               f"{w.const(n.span)}, {x})"
        fast = {"kind": f"{x}.kind", "owner": f"{w.owner_players()}[{x}.id]"}.get(key)
        if fast is not None and READ_AGAIN.fullmatch(x):  # (a local's piece: read in place)
            call = operators.in_place(w, x, Piece, fast, call)
        return Code(call, F.ATOM, cost)
    if key in _AT_SITE and len(args) == 1 and (not site or key == "moved"):
        return Code(f"{w.const(_AT_SITE[key])}(S, {w.const(b.impl)}, {w.const(key)}, "
                    f"{w.const(n.span)}, {args[0].src})",
                    F.BOOL if key in ("occupied", "empty") else F.items(w.n_pieces, F.PIECE)
                    if key == "pieces" else F.ANY, cost)  # (pieces: a tuple, of the game's)
    if site and key == "owner":
        return Code(f"S.top[{args[0].src}.index]", F.ATOM, cost)
    if site and key == "top":  # the top piece, or none
        return Code(f"(S.at[{args[0].src}.index] or {w.const((None,))})[{w.const(-1)}]",
                    F.PIECE_OR_NONE, cost)
    if key == "size" and len(args) == 1 and args[0].form.kind in ("items", "lines"):
        return Code(f"len({args[0].src})", F.NUM, cost)
    if key == "reversed" and len(args) == 1 and args[0].form.kind == "items" \
            and not w.counting:  # (a tuple, reversed in place: its items charged nowhere)
        return Code(f"{args[0].src}[::{w.const(-1)}]",
                    F.items(args[0].form.size, args[0].form.item or F.ANY), cost)
    if key in _OF_LIST and len(args) == 1 and args[0].form.kind in ("any", "items"):
        form = F.NUM if key == "size" else F.ANY
        if key == "distinct" and args[0].form.kind == "items":  # (a tuple: no more)
            form = F.items(args[0].form.size, args[0].form.item or F.ANY)
        return Code(f"{w.const(_OF_LIST[key])}(S, {w.const(b.impl)}, {w.const(key)}, "
                    f"{w.const(n.span)}, {args[0].src})", form, cost)
    if key == "through" and len(args) == 2 and args[0].form.kind == "lines" \
            and args[0].form.known and args[1].form.kind == "site":
        lines = args[0].form.static
        most = max((len(t) for t in lines.through), default=0)
        masks = tuple(tuple(site_mask(line) for line in row) for row in lines.through)
        return Code(f"{w.const(lines.through)}[{args[1].src}.index]",
                    Form("items", most, args[0].form.item or F.ANY,
                         masks=f"{w.const(masks)}[{args[1].src}.index]"), cost)
    if key in ("repeated", "repeated_board") and len(args) == 1:
        count = w.plain(args[0])
        if count.form.kind == "num":
            return Code(f"{w.const(_REPEATS[key])}(S, {count.src})", F.BOOL, cost)
        return Code(f"{w.const(H.call_builtin)}({w.const(_REPEATS[key])}, {w.const(key)}, "
                    f"{w.const(n.span)}, S, {count.src})", F.BOOL, cost)  # (else R301)
    if key in ("pieces_at", "attr_at") and len(args) == 2 + (key == "attr_at") \
            and _kinds_known(w, args):  # (of a site: its piece of the kind, or none)
        return Code(_kind_at(w, key, args, n, b.impl), F.PIECE_OR_NONE if key == "pieces_at"
                    and args[0].form.kind == "site" else F.ANY, cost)
    if key in ("memo", "cached") and len(args) > (key == "cached"):
        return _kept(w, key, args, n, cost)
    if b.facts.reads & ~_FLAT_READS and key != "moved":  # (the flat state keeps `moved`)
        raise Unsupported(f"'{key}' in generated code", n.span)
    called = [i for i in b.facts.calls if i < len(args)]
    if called:  # rules passed to it: their steps as often as it may call them
        times = _calls(w, key, args)
        if times is None:
            raise Unsupported(f"'{key}' with a rule, in generated code", n.span)
        if not w.counting:  # (counted: each call of the rule charges itself)
            cost += times * sum(1 + args[i].cost for i in called)
    form = F.items(w.n_sites, F.SITE) if key in ("group", "reach") else F.ANY
    if key == "pieces":  # (of a site or a zone: the game's pieces at most)
        form = F.items(w.n_pieces, F.PIECE)
    if key == "reversed" and args and args[0].form.kind == "items":
        form = F.items(args[0].form.size, args[0].form.item or F.ANY)  # (a tuple: no more)
    if key in ("str", "letter"):
        form = F.TEXT
    if key in ("count", "size"):
        form = F.NUM
    if key == "through" and args and args[0].form.kind == "lines" and args[0].form.known:
        lines = args[0].form.static  # (whatever the site: lines of the set, or an error)
        form = F.items(max((len(t) for t in lines.through), default=0),
                       args[0].form.item or F.ANY)
    if key == "group" and len(args) == 3 and not w.counting \
            and args[1].form.kind == "relation" and args[1].form.known:
        rel = args[1].form.static  # (a link: the search over the flat state)
        bits = "None"  # (a relation's neighbours of a site come in board order, as
        helper = H.group_linked  # topology.freeze makes them: each site's as bits)
        if w.n_sites <= CHUNKED:  # (the group as bits: `x in g` a bit's test, loops over
            w.layout.owner_bits()  # its bits, the sites made where a value is needed)
            bits = w.const((relation_masks(rel), site_chunks(w.board.sites)))
            helper, form = H.group_bits, F.bits(w.n_sites)
        return Code(f"{w.const(helper)}(S, {args[0].src}, {w.const(rel.indices)}, "
                    f"{args[2].src}, {w.const(b.impl)}, {w.const(rel)}, {w.const(n.span)}, "
                    f"{bits})", form, cost)
    call = ", ".join([w.const(b.impl), w.const(key), w.const(n.span), "S.view()",
                      *(a.src for a in args)])
    return Code(f"{w.const(H.call_builtin)}({call})", form, cost)


def _kinds_known(w: Any, args: list[Code]) -> bool:
    """`pieces_at(x, kind)` or `attr_at(x, kind, name)` with a kind (and a name) of the
    game's pieces known when written."""
    kind, name = args[1].form.static, args[2].form.static if len(args) == 3 else None
    return type(kind) is str and kind in w.rt.piece_attrs and (name is None or type(
        name) is str and name in w.rt.piece_attrs[kind] and name in w.rt.template.attrs)


def _kind_at(w: Any, key: str, args: list[Code], n: ast.Call, impl: Any) -> str:
    kind = w.const(args[1].form.static)
    name = [w.const(args[2].form.static)] if key == "attr_at" else []
    if args[0].form.kind == "site":  # (its pile's topmost piece of the kind)
        found = f"{w.const(H.kind_at)}(S.at[{args[0].src}.index], {kind})"
        if not name:
            return found
        return f"{w.const(H.attr_of)}({found}, S.attrs[{name[0]}])"
    return f"{w.const(H.kind_at_any)}(S, {w.const(impl)}, {w.const(key)}, " \
        f"{w.const(n.span)}, {kind}, {args[0].src}{''.join(', ' + x for x in name)})"


def is_zone(w: Any, code: Code) -> bool:
    """Is the value a zone of the game (a key of the state's zones)?"""
    zone = code.form.static
    return code.form.kind == "zone" or type(zone) is ZoneRef and zone in w.rt.template.zones


def zone_pile(w: Any, code: Code, copy: bool = True) -> Code:
    """A zone of the game known when written, as a domain: its pieces now, in place
    (semantics.iterate): a copy, or (`copy` false: the domain of an expression, which
    changes nothing while it runs) the zone's own list; any other value as it is."""
    if is_zone(w, code):
        pile = f"S.zones[{code.src}]"
        return Code(f"tuple({pile})" if copy else pile, F.pile(w.n_pile), code.cost)
    copied = None if copy else _COPIED.fullmatch(code.src)  # (`pieces(z)`'s copy: not made)
    return code._replace(src=copied.group(1)) if copied else code


_COPIED = re.compile(r"tuple\((S\.zones\[k\d+\])\)")  # (a zone's pile copied: zone_pile)


def _kept(w: Any, key: str, args: list[Code], n: ast.Call, cost: int) -> Code:
    """`memo(f, …)` and `cached(sites, f, …)`: f(…), remembered for the game's states by
    the rule, its arguments (and the pieces on the sites) where no rule sets a piece's
    attribute or owner (helpers.remembered)."""
    at = int(key == "cached")
    ref = w.refs.get(n.args[at], ("", ""))
    name = ref[1] if ref[0] == "function" else None  # (a rule found as it runs: not kept)
    sites = args[0].src if key == "cached" else w.const(None)
    rest = "(" + "".join(a.src + ", " for a in args[at + 1:]) + ")"
    if not w.counting:
        cost += 1 + args[at].cost
    return Code(f"{w.const(H.remembered)}(S, {w.const((key, name))}, {sites}, {rest}, "
                f"{args[at].src}, {w.const(n.span)})", F.ANY, cost)


def _calls(w: Any, key: str, args: list[Code]) -> int | None:
    """How often a builtin may call the rules passed to it, at most: group's link once
    per step between two sites, reach's cost and stop once per site."""
    if key == "group" and len(args) > 1 and args[1].form.kind == "relation" \
            and args[1].form.known:
        return sum(len(row) for row in args[1].form.static.indices)
    if key == "group":  # a relation found as the game runs: the board's largest
        return max((sum(len(row) for row in r.indices) for r in w.board.relations.values()),
                   default=0)
    if key == "reach":
        return int(w.n_sites)
    return None



def recursive(w: Any, key: str, d: ast.Def, params: tuple[str, ...], args: list[Code],
              n: ast.Node) -> Code:
    """A rule called from within itself: one function of the module for every such call of
    the rule (per mover), its parameters of unknown form, named before its body is written
    so that the calls in it call it. Each call charges the reference's step; its depth is
    known only as the game runs, so the game's steps are counted (the non-counting writer's
    bound is the budget)."""
    shape: tuple[Any, ...] = (w.mover, None)
    made = w._rules.get((key, shape))
    if made is None:
        made = w._rules[(key, shape)] = (w.fresh("r"), F.ANY, 0)
        w._write_rule(key, d, params, [Code("", F.ANY, 0) for _ in params], made[0],
                      n.span)  # (placed at the call to itself)
    w.step2 = True
    passed = ", ".join(["S", *(a.src for a in args)])
    return Code(f"({w.const(ticked)}(S, 1, {w.const(n.span)}) or {made[0]}({passed}))", F.ANY,
                sum(a.cost for a in args) + (0 if w.counting else STEP_BUDGET))


def not_callable(w: Any, key: str, args: list[Code], n: ast.Node) -> Code:
    """A call of what is no rule, builtin or relation (a local, say): the reference's R301
    once its arguments are evaluated."""
    return Code(f"{w.const(H.not_callable)}({w.const(key)}, {w.const(n.span)}, "
                f"{''.join(a.src + ', ' for a in args)})", F.ANY, sum(a.cost for a in args))


def builtin_constant(w: Any, key: str, n: ast.Node) -> Code:
    """A builtin named without a call: `mover`, `sites`, `last`, `turn` …"""
    players = w.const(w.rt.players)
    count = len(w.rt.players)
    if key in ("mover", "opponent") and w.mover is not None:
        return _static(w, w.rt.players[(w.mover + (key == "opponent")) % count])
    if key == "mover":
        return Code(f"{players}[S.mover]", F.PLAYER, 0)
    if key == "opponent":
        return Code(f"{players}[(S.mover + 1) % {w.const(len(w.rt.players))}]",
                    F.PLAYER, 0)
    if key == "sites":  # (with the board's sites as bits, for mask tests)
        sites = _static(w, w.board.sites)
        return Code(sites.src, replace(sites.form, bits=w.const((1 << w.n_sites) - 1),
                                       distinct=True), 0)
    if key == "players":
        return _static(w, w.rt.players)
    if key == "last":
        return Code("S.last", F.LAST, 0)
    if key == "turn":
        return Code("S.turn", F.NUM, 0)
    if key == "others" and w.mover is not None:  # clockwise from the mover
        return _static(w, tuple(w.rt.players[(w.mover + i) % count]
                              for i in range(1, count)))
    if key in ("round", "starter"):  # (the starter as a player)
        return Code("S.round", F.NUM, 0) if key == "round" else \
            Code(f"{players}[S.starter]", F.PLAYER, 0)
    raise Unsupported(f"the builtin '{key}'", n.span)


def _static(w: Any, value: Any) -> Code:
    known: Code = w.static(value)
    return known
