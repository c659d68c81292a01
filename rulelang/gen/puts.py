"""The writer's `put`: the piece of a kind a player's supply or a zone holds, put on a site
in place where both are known when written (the top of the pile lifted, the kept structures
touched), and any other put through pieces.take_value and pieces.place (the reference's
meaning: effects.take_piece); the menu's check that a put has its piece."""
from __future__ import annotations

import re
from typing import Any

import rulelang.gen.forms as F
import rulelang.gen.kept as kept
import rulelang.gen.pieces as pieces
from rulelang.gen.code import Code, Func, Unsupported
from rulelang.gen.rt import own_zone, zone_bits
from rulelang.language import ast
from rulelang.library.effects import zone_text
from rulelang.model.values import zone_ref


def piece_ok(gw: Any, s: ast.Put, env: dict[str, Code]) -> tuple[str, int]:
    """Has this put its piece now (the menu's check of an option's first put)?"""
    try:
        zone, kind, _ = supply(gw, s, env)
    except Unsupported:  # a value found as the game runs
        what, source, given = value(gw, s, env)
        if s.source is None and what.form in (F.PIECE, F.PIECE_OR_NONE):  # (refused: none)
            return f"({what.src} is not None)", what.cost
        return (f"{gw.w.const(pieces.put_ok)}(S, {what.src}, {source.src}, {given}, "
                f"{gw.w.const(s.piece.span)})", what.cost + source.cost)
    return (f"{gw.w.const(pieces.has_piece)}(S, {zone}, {kind}, "
            f"{gw.w.const(s.piece.span)})", 1)


def put(gw: Any, s: ast.Put, env: dict[str, Code], fn: Func) -> int:
    w = gw.w
    if s.source is None and not isinstance(s.piece, ast.Of) \
            and w.refs.get(s.piece, ("", ""))[0] != "kind":  # a piece itself
        piece, target = w.ex(s.piece, env), w.ex(s.target, env)
        fills(w, target)
        fn.add(f"{w.const(pieces.put_piece)}(S, {piece.src}, {target.src}, "
               f"{w.const(s.piece.span)}, {w.const(s.span)})")
        if s.name is not None:
            env[s.name] = Code(piece.src, F.PIECE, 0)
        return int(piece.cost + target.cost + 1)
    try:
        zone, kind, where = supply(gw, s, env)
    except Unsupported:  # a kind, a player or a zone found as the game runs
        return general(gw, s, env, fn)
    target = w.ex(s.target, env)
    if target.form.kind != "site" and gw._puts > 1:  # (it could feed another's zone)
        raise Unsupported("a put not known to go to a site, among several", s.target.span)
    z, pc, pile = named(w, zone, fn), w.fresh("v"), w.fresh("v")
    if target.form.kind == "site":  # the top piece of its pile, to a site: in place
        i, was = w.fresh("v"), w.fresh("v")
        own_pile(w, z, pile, fn)
        fn.add(f"if {pile}:" if only_kind(w, z, kind) else
               f"if {pile} and {pile}[{w.const(-1)}].kind == {kind}:")
        fn.depth += 1
        fn.add(f"{pc} = {pile}.pop()")
        if w.hides:  # (where it came from: GameData.lift's `came`)
            fn.add(f"S.came[{pc}.id] = {z}")
        t = named(w, target.src, fn)
        fn.add(f"{i} = {t}.index")
        if gw.tracks_moved:  # (before the upkeep: the bits of moved tops read it)
            fn.add(f"S.moved.add({pc}.id)")
        on_site(w, i, None if target.src in gw.empty_chosen else was, pc, fn)
        fn.depth -= 1
        fn.add(f"    S.loc[{pc}.id] = {t}")
        fn.add(f"    S.last[{w.const('site')}] = {t}")
        fn.add(f"    S.last[{w.const('piece')}] = {pc}")
        fn.add("else:")
        fn.depth += 1
    fills(w, target)
    fn.add(f"{pc} = {w.const(pieces.take)}(S, {z}, {kind}, {w.const(s.piece.span)}, {where})")
    fn.add(f"{w.const(pieces.place)}(S, {pc}, {target.src}, {w.const(s.span)}, "
           f"{w.const('put')})")
    if target.form.kind == "site":
        fn.depth -= 1
    if s.name is not None:
        env[s.name] = Code(pc, F.PIECE, 0)
    return int(target.cost + 2)


def own_pile(w: Any, z: str, pile: str, fn: Func) -> None:
    """The list of zone `z` (a name), to change, in the local `pile`: the state's own, or
    copied first where the state may share it (gen/kept.py SHARED_ZONES)."""
    if not kept.shares_zones(w):
        fn.add(f"{pile} = S.zones[{z}]")
        return
    bits, known = zone_bits(w.rt.template.zones), w.constants.get(z)
    bit = w.const(bits[known]) if known in bits else f"{w.const(bits)}.get({z}, {w.const(0)})"
    fn.add(f"{pile} = S.zones[{z}] if S.zown & {bit} else {w.const(own_zone)}(S, {z})")


def value(gw: Any, s: ast.Put, env: dict[str, Code]) -> tuple[Code, Code, str]:
    """What a put puts, the zone it names (or none) and whether it names one."""
    w = gw.w
    what = w.ex(s.piece, env)
    source = w.ex(s.source, env) if s.source is not None else w.static(None)
    return what, source, w.const(s.source is not None)


def general(gw: Any, s: ast.Put, env: dict[str, Code], fn: Func) -> int:
    """`put X [from Z] at T`, X or Z found as the game runs (the reference's way)."""
    w = gw.w
    what, source, given = value(gw, s, env)
    target = w.ex(s.target, env)
    fills(w, target)
    pc = w.fresh("v")
    fn.add(f"{pc} = {w.const(pieces.take_value)}(S, {what.src}, {source.src}, {given}, "
           f"{w.const(s.piece.span)})")
    fn.add(f"{w.const(pieces.place)}(S, {pc}, {target.src}, {w.const(s.span)}, "
           f"{w.const('put')})")
    if s.name is not None:
        env[s.name] = Code(pc, F.PIECE, 0)
    return int(what.cost + source.cost + target.cost + 2)


def supply(gw: Any, s: ast.Put, env: dict[str, Code]) -> tuple[str, str, str]:
    """The zone a `put KIND of PLAYER` (from the player's supply) or a `put KIND from
    ZONE` takes its piece from, the kind, and the zone's words for a refusal (each a
    source)."""
    piece, w = s.piece, gw.w
    if s.source is None and isinstance(piece, ast.Of) \
            and w.refs.get(piece.left, ("", ""))[0] == "kind":
        kind = w.refs[piece.left][1]
        who = w.ex(piece.right, env)
        if who.form.kind != "player":
            raise Unsupported("a put from the supply of a value not known as a player",
                              piece.right.span)
        zones = tuple(zone_ref("supply", p.index) for p in w.rt.players)
        if any(z not in w.rt.template.zones for z in zones):
            raise Unsupported("a put from a supply some player does not have", s.span)
        if who.form.known:
            zone = zones[who.form.static.index]
            return (w.const(zone), w.const(kind),
                    w.const(zone_text(w.rt.players, zone)))
        index = f"{who.src}.index"
        words = tuple(zone_text(w.rt.players, z) for z in zones)
        return f"{w.const(zones)}[{index}]", w.const(kind), f"{w.const(words)}[{index}]"
    if s.source is not None and isinstance(piece, ast.Name) \
            and w.refs.get(piece, ("", ""))[0] == "kind":
        zone = known_zone(gw, s.source, env)
        return (w.const(zone), w.const(w.refs[piece][1]),
                w.const(zone_text(w.rt.players, zone)))
    if s.source is not None:  # `put X from Z`, X a kind found as the game runs
        zone = known_zone(gw, s.source, env)
        what = w.ex(piece, env)
        return (w.const(zone), f"{w.const(pieces.kind_of)}({what.src}, {w.const(piece.span)})",
                w.const(zone_text(w.rt.players, zone)))
    raise Unsupported("a put of anything but 'KIND of PLAYER' or 'KIND from ZONE'", s.span)


def known_zone(gw: Any, e: ast.Expr, env: dict[str, Code]) -> Any:
    """A zone known when written: a shared one, or one of a known player's."""
    w = gw.w
    name, who = e, None
    if isinstance(e, ast.Of):
        name, who = e.left, w.ex(e.right, env)
    cat, key = w.refs.get(name, ("", ""))
    zone = None
    if cat == "zone" and who is None:
        zone = zone_ref(str(key), None)
    elif cat == "zone" and who is not None and who.form.kind == "player" \
            and who.form.known:
        zone = zone_ref(str(key), who.form.static.index)
    if zone is None or zone not in w.rt.template.zones:
        raise Unsupported("a zone not known when the game is made", e.span)
    return zone


def on_site(w: Any, i: str, was: str | None, pc: str, fn: Func) -> None:
    """Piece `pc` put on site index `i` (its pile read into the local `was`; None: the site
    is known empty), the kept structures touched: by `arrive` where the site was empty (a
    change of one kind, written for it)."""
    owners, who = w.owner_players(), w.fresh("v")
    fn.add(f"S.top[{i}] = {who} = {owners}[{pc}.id]")
    if was is None:
        fn.add(f"S.at[{i}] = ({pc}, )")
        if w.layout.kept:
            fn.add(f"arrive(S, {i}, {who})")
        return
    fn.add(f"{was} = S.at[{i}]")
    if not w.layout.kept:
        fn.add(f"S.at[{i}] = {was} + ({pc}, )")
        return
    fn.add(f"if {was}:")
    fn.add(f"    S.at[{i}] = {was} + ({pc}, )")
    fn.add(f"    touch(S, {i}, {was})")
    fn.add("else:")
    fn.add(f"    S.at[{i}] = ({pc}, )")
    fn.add(f"    arrive(S, {i}, {who})")


def only_kind(w: Any, zone: str, kind: str) -> bool:
    """Does this zone (a constant, by its name) hold only pieces of this kind (a constant)
    in every state the code runs on (gen/facts.py one_kind_zones)? Then a piece of it is
    its top one; the writer notes that its code relies on it."""
    value = w.constants.get(zone)
    if value is None or w.one_kind.get(value) != w.constants.get(kind, ""):
        return False
    w.kinds_used[value] = w.one_kind[value]
    return True


def fills(w: Any, target: Code) -> None:
    """A piece put (or moved) to this target: it may fill a zone where it is not a site."""
    if target.form.kind != "site":
        w.fills_zones = True


def named(w: Any, src: str, fn: Func) -> str:
    """A value's source as a name: itself where it is one (a local or a constant), else a
    new local it is put in."""
    if _NAME.fullmatch(src):
        return src
    name: str = w.fresh("v")
    fn.add(f"{name} = {src}")
    return name


_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
