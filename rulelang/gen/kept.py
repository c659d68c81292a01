"""The upkeep of the kept structures gen/layout.py decided on, as generated functions:

* `touch(S, i, was)` — site i's pile changed (it held the tuple `was`): each kept query
  tests again the sites that change can affect, and kept groups take an arriving piece
  in (or are dropped, to be built anew, on any other change of the site's top owner);
* `arrive(S, i, who)` — touch where a piece came to the empty site i (`who`: its owner,
  the site's top now): written for that change, a query asking `empty` of its site drops
  site i untested, its group is joined and its owner's bits gain i unasked;
* `group<n>(S, i)` — the sites of the kept group through site i, as bits (0: i is empty);
* `init_kept(S)` — every structure made from the board (a state made from data);
* `copy_kept(S, new)` — a clone's own copies (its zones' lists shared: rt.own_zone);
* `kept_now(S)` — the structures' meaning (the queries' lists, every site's group) as
  plain values, for the debug check that compares them with ones made anew (for kept site
  values: the entries that differ from the rule's value now, none when right).
"""
from __future__ import annotations

import re
from typing import Any

from rulelang.gen.bits import pile_code, uf_build
from rulelang.gen.code import Func
from rulelang.gen.emit import Writer
from rulelang.gen.empties import asks_empty
from rulelang.library.builtins import UNASKED

# a game of more zones than this shares their lists among a state's copies (a clone of a
# game of 31 zones: 5.5 -> 3.3 us); with fewer, a copy copies them (a game of two zones,
# shared: its playouts 0.95x, each copy's first put copying its zone by a call)
SHARED_ZONES = 4


def shares_zones(w: Writer) -> bool:
    return len(w.rt.template.zones) > SHARED_ZONES


def write(w: Writer) -> list[tuple[str, Any, str, Func]]:
    layout = w.layout
    sites, n = w.const(w.board.sites), w.n_sites
    owner_of = w.owner_players()
    one, zero, last = w.const(1), w.const(0), w.const(-1)
    funcs = []

    touch = Func("def touch(S, i, was):")
    arrive = Func("def arrive(S, i, who):")
    arrive.add(f"bit = {one} << i")  # (site i's)
    owned = all(o is not None for o in w.rt.template.owner)  # (who is then never none)
    init = Func("def init_kept(S):")
    copy = Func("def copy_kept(S, new):")
    if shares_zones(w):  # the zones' lists shared: each state copies one before it changes it
        copy.add("new.zones = S.zones.copy()")
        copy.add(f"S.zown = new.zown = {w.const(0)}")
    else:  # (each copied: the game's zones are its template's, in their order)
        copy.add("zones = S.zones")
        copy.add("new.zones = {" + ", ".join(f"{w.const(ref)}: zones[{w.const(ref)}].copy()"
                                             for ref in w.rt.template.zones) + "}")
        copy.add(f"new.zown = {w.const(-1)}")
    now = Func("def kept_now(S):")
    now.add("out = []")
    if layout.occupied:  # (first: the queries' tests may read it)
        touch.add("if (not was) != (not S.at[i]):")
        touch.add(f"    S.occ ^= {one} << i")
        arrive.add("S.occ |= bit")
        init.add(f"S.occ = {zero}")
        init.add(f"for j in range({w.const(n)}):")
        init.add("    if S.at[j]:")
        init.add(f"        S.occ |= {one} << j")
        copy.add("new.occ = S.occ")
        now.add("out.append(S.occ)")
    if layout.moved_tops:  # the sites whose top piece moved (`moved` asked of a site)
        for fn in (touch, arrive):
            fn.add("pile = S.at[i]")
            fn.add("if pile and pile[-1].id in S.moved:")
            fn.add(f"    S.mv |= {one} << i")
            fn.add("else:")
            fn.add(f"    S.mv &= ~({one} << i)")
        init.add(f"S.mv = {zero}")
        init.add(f"for j in range({w.const(n)}):")
        init.add("    if S.at[j] and S.at[j][-1].id in S.moved:")
        init.add(f"        S.mv |= {one} << j")
        copy.add("new.mv = S.mv")
        now.add("out.append(S.mv)")
    if layout.board_codes:  # each site's part of the board's repetition key
        code = w.const(pile_code)
        touch.add(f"S.bk[i] = {code}(S, S.at[i])")
        arrive.add(f"S.bk[i] = {code}(S, S.at[i])")
        init.add(f"S.bk = [{code}(S, pile) for pile in S.at]")
        copy.add("new.bk = S.bk.copy()")
        now.add("out.append(tuple(S.bk))")
    kept = [(q, *w.tests[key]) for key, q in layout.queries.items() if key in w.tests]
    # (a query only an earlier writing found is read by nothing: not kept)
    for affected in dict.fromkeys(q.affected for q, _, _ in kept):  # one loop per table
        mine = [(q, site, test) for q, site, test in kept if q.affected == affected]
        _retest(touch, w, affected, mine)
        # (arrive: site i is not empty now, so a query asking `empty` of its site drops it)
        asking = [k for k in mine if asks_empty(w.program, k[0].cond, k[0].var)]
        for q, _, _ in asking:
            lst, bits = q.slots
            arrive.add(f"if S.{bits} & bit:")
            arrive.add(f"    del S.{lst}[(S.{bits} & (bit - {one})).bit_count()]")
            arrive.add(f"    S.{bits} ^= bit")
        others = tuple(tuple(j for j in js if j != i) for i, js in enumerate(affected))
        _retest(arrive, w, others, asking)
        _retest(arrive, w, affected, [k for k in mine if k not in asking])
    for q, site, test in kept:
        lst, bits = q.slots
        init.add(f"S.{lst}, S.{bits} = [], {zero}")
        init.add(f"for j in range({w.const(n)}):")
        init.add(f"    {site} = {sites}[j]")
        init.add(f"    if {test.src}:")
        init.add(f"        S.{lst}.append(j)")
        init.add(f"        S.{bits} |= {one} << j")
        copy.add(f"new.{lst} = S.{lst}.copy()")
        copy.add(f"new.{bits} = S.{bits}")
        now.add(f"out.append((tuple(S.{lst}), S.{bits}))")
    for g in layout.groups.values():
        parent, bits = g.slots
        table = w.const(g.relation.indices)
        touch.add(f"if S.{parent} is not None:")
        touch.add("    pile = S.at[i]")
        # a piece arrives (on an empty site: a group of its own, its root itself): the
        # groups of its neighbours of the same owner join it, its site their root
        touch.add("    if not was and pile:")
        touch.add(f"        top, up, held = S.top, S.{parent}, S.{bits}")
        touch.add("        who = top[i]")
        touch.depth += 2
        _join(touch, table, owned)
        touch.depth -= 2
        touch.add(f"    elif not pile or not was or S.top[i] is not {owner_of}[was[{last}].id]:")
        touch.add(f"        S.{parent} = S.{bits} = None")
        arrive.add(f"if S.{parent} is not None:")
        arrive.add(f"    top, up, held = S.top, S.{parent}, S.{bits}")
        arrive.depth += 1
        _join(arrive, table, owned)
        arrive.depth -= 1
        name = w.group_function(g)
        fn = Func(f"def {name}(S, i):")
        fn.add("if not S.at[i]:")
        fn.add(f"    return {zero}")
        fn.add(f"parent = S.{parent}")
        fn.add("if parent is None:")
        fn.add(f"    parent, S.{bits} = {w.const(uf_build)}(S.at, S.top, {table})")
        fn.add(f"    S.{parent} = parent")
        fn.add("while parent[i] != i:")
        fn.add("    parent[i] = i = parent[parent[i]]")
        fn.add(f"return S.{bits}[i]")
        funcs.append((name, None, "kept", fn))
        # (made at once: a game's start is made once and copied, its groups with it)
        init.add(f"S.{parent}, S.{bits} = {w.const(uf_build)}(S.at, S.top, {table})")
        copy.add(f"if S.{parent} is None:")
        copy.add(f"    new.{parent} = new.{bits} = None")
        copy.add("else:")
        copy.add(f"    new.{parent}, new.{bits} = S.{parent}.copy(), S.{bits}.copy()")
        now.add(f"out.append(tuple([{name}(S, j) for j in range({w.const(n)})]))")
    if layout.owners:  # per player, the sites whose top piece is theirs
        touch.add("now = S.top[i]")
        touch.add(f"before = {owner_of}[was[{last}].id] if was else None")
        touch.add("if now is not before:")
        touch.add("    if before is not None:")
        touch.add(f"        S.own[before.index] &= ~({one} << i)")
        touch.add("    if now is not None:")
        touch.add(f"        S.own[now.index] |= {one} << i")
        if not owned:
            arrive.add("if who is not None:")
        arrive.add(f"{'' if owned else '    '}S.own[who.index] |= bit")
        init.add(f"S.own = [{zero}] * {w.const(len(w.rt.players))}")
        init.add(f"for j in range({w.const(n)}):")
        init.add("    if S.at[j] and S.top[j] is not None:")
        init.add(f"        S.own[S.top[j].index] |= {one} << j")
        copy.add("new.own = S.own.copy()")
        now.add("out.append(tuple(S.own))")
    unasked, players = w.const(UNASKED), w.const(len(w.rt.players))
    for v in layout.values.values():
        for fn in (touch, arrive):
            fn.add(f"for t in S.{v.slot}:")  # (each player's values)
            if all(a == (i,) for i, a in enumerate(v.affected)):  # (its own site's only)
                fn.add(f"    t[i] = {unasked}")
            else:
                fn.add(f"    for j in {w.const(v.affected)}[i]:")
                fn.add(f"        t[j] = {unasked}")
        init.add(f"S.{v.slot} = [[{unasked}] * {w.const(n)} for _ in range({players})]")
        copy.add(f"new.{v.slot} = [t.copy() for t in S.{v.slot}]")
        for mover, rule in sorted(w.value_rules.get(v.key, {}).items()):
            now.add(f"t, f = S.{v.slot}[{w.const(mover)}], {rule}")
            now.add(f"out.append([j for j in range({w.const(n)}) if t[j] is not {unasked} "
                    f"and t[j] != f({sites}[j])])")
    for fn in (touch, arrive, init, copy):
        fn.add("pass")
    now.add("return out")
    funcs += [(name, None, "kept", fn) for name, fn in
              (("touch", touch), ("arrive", arrive), ("init_kept", init), ("copy_kept", copy),
               ("kept_now", now))]
    return funcs


def _join(fn: Func, table: str, owned: bool) -> None:
    """The groups of site i's neighbours (by `table`) whose top is `who`'s join i's group,
    i their root (locals top, up, held: the tops and the union-find)."""
    fn.add("mine = held[i]")
    if not owned:  # (else top[j] is who only where j is occupied)
        fn.add("at = S.at if who is None else None")
    fn.add(f"for j in {table}[i]:")
    fn.add("    if top[j] is who:" if owned else "    if top[j] is who and (at is None or at[j]):")
    fn.add("        while up[j] != j:")
    fn.add("            up[j] = j = up[up[j]]")
    fn.add("        if j != i:")
    fn.add("            up[j] = i")
    fn.add("            mine |= held[j]")
    fn.add("held[i] = mine")


def _retest(fn: Func, w: Writer, affected: tuple[tuple[int, ...], ...],
            kept: list[tuple[Any, str, Any]]) -> None:
    """Each of these queries tests again the sites `affected[i]` (all reading the same
    table): each site in or out of its sorted list and bits as its condition says now."""
    if not kept or not any(affected):
        return
    one, sites = w.const(1), w.const(w.board.sites)
    alone = all(js == (i,) for i, js in enumerate(affected))  # (each site only itself)
    pad = "" if alone else "    "
    fn.add("j = i" if alone else f"for j in {w.const(affected)}[i]:")
    fn.add(f"{pad}m = {one} << j")
    for q, site, test in kept:
        lst, bits = q.slots
        src = re.sub(rf"\b{site}\.index\b", "j", test.src)  # (the site's index is j)
        if re.search(rf"\b{site}\b", src):
            fn.add(f"{pad}{site} = {sites}[j]")
        fn.add(f"{pad}if {src}:")
        fn.add(f"{pad}    if not S.{bits} & m:")
        fn.add(f"{pad}        S.{lst}.insert((S.{bits} & (m - {one})).bit_count(), j)")
        fn.add(f"{pad}        S.{bits} |= m")
        fn.add(f"{pad}elif S.{bits} & m:")
        fn.add(f"{pad}    del S.{lst}[(S.{bits} & (m - {one})).bit_count()]")
        fn.add(f"{pad}    S.{bits} ^= m")
