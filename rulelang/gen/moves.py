"""The writer's `move` and `remove`: the top piece of a site moved to a site (or removed)
written in place — lifted, put, the kept structures touched at both sites — and the top
piece of a zone moved to a site or a zone; any other through pieces.place / pieces.remove
(the reference's checks and meaning)."""
from __future__ import annotations

from typing import Any

import rulelang.gen.pieces as pieces
from rulelang.errors import Refusal
from rulelang.gen.calls import is_zone
from rulelang.gen.code import Code, Func
from rulelang.gen.puts import fills, named, on_site, own_pile
from rulelang.language import ast


def move(gw: Any, s: ast.Move | ast.Remove, env: dict[str, Code], fn: Func) -> int:
    """`move P to T` / `remove P`; the top piece of a site or a zone moved in place."""
    w, verb = gw.w, "move" if isinstance(s, ast.Move) else "remove"
    top = _top_of(gw, s.piece, env)
    target: Code | None = w.ex(s.target, env) if isinstance(s, ast.Move) else None
    if top is not None and is_zone(w, top) and isinstance(s, ast.Move) and target is not None \
            and (target.form.kind == "site" or is_zone(w, target)):
        return _from_zone(gw, s, top, target, fn)
    if top is not None and top.form.kind != "site":
        top = None
    if top is None or (target is not None and target.form.kind != "site"):
        if target is not None:
            fills(w, target)
        piece: Code = w.ex(s.piece, env)
        if target is None:
            fn.add(f"{w.const(pieces.remove)}(S, {piece.src}, {w.const(s.piece.span)})")
            return piece.cost + 1
        fn.add(f"{w.const(pieces.place)}(S, {piece.src}, {target.src}, "
               f"{w.const(s.piece.span)}, {w.const(verb)})")
        return piece.cost + target.cost + 1
    owners = w.owner_players()
    last, i, was, pc, rest = w.const(-1), *(w.fresh("v") for _ in range(4))
    fn.add(f"{i} = {top.src}.index")
    fn.add(f"{was} = S.at[{i}]")
    refusal = w.const(_no_piece(verb))
    fn.add(f"if not {was}:")  # (no piece there: the action cannot be taken)
    fn.add(f"    raise {w.const(Refusal)}({refusal}, {w.const(s.piece.span)})")
    t = w.fresh("v")
    # (a chosen site empty now is empty after the lift: another site than the lift's)
    empty = target is not None and target.src in gw.empty_chosen
    if target is not None:
        fn.add(f"{t} = {target.src}")  # (the target is found before the piece is lifted)
    fn.add(f"{pc} = {was}[{last}]")
    fn.add(f"{rest} = S.at[{i}] = {was}[:{last}]")
    fn.add(f"S.top[{i}] = {owners}[{rest}[{last}].id] if {rest} else None")
    fn.add(f"S.loc[{pc}.id] = None")
    fn.add(f"S.moved.add({pc}.id)")
    if w.hides:  # (where it came from: GameData.lift's `came`)
        fn.add(f"S.came[{pc}.id] = {w.const(w.board.sites)}[{i}]")
    if w.layout.kept:
        fn.add(f"touch(S, {i}, {was})")
    if target is not None:
        j = w.fresh("v")
        fn.add(f"{j} = {t}.index")
        on_site(w, j, None if empty else w.fresh("v"), pc, fn)
        fn.add(f"S.loc[{pc}.id] = {t}")
        fn.add(f"S.last[{w.const('site')}] = {t}")
        fn.add(f"S.last[{w.const('piece')}] = {pc}")
    return top.cost + (target.cost if target is not None else 0) + 2


def _from_zone(gw: Any, s: ast.Move, zone: Code, target: Code, fn: Func) -> int:
    """`move top(Z) to T`, Z a zone of the game, T a site or a zone: the last piece of Z's
    list moved in place (place's meaning: none refused, the kept structures touched at a
    site, where it came from kept in a game that hides)."""
    w = gw.w
    fills(w, target)
    z = named(w, zone.src, fn)
    t, pile, pc = named(w, target.src, fn), w.fresh("v"), w.fresh("v")
    own_pile(w, z, pile, fn)
    fn.add(f"if not {pile}:")  # (no piece: the action cannot be taken)
    fn.add(f"    raise {w.const(Refusal)}({w.const(_no_piece('move'))}, "
           f"{w.const(s.piece.span)})")
    fn.add(f"{pc} = {pile}.pop()")
    fn.add(f"S.moved.add({pc}.id)")
    if w.hides:  # (where it came from: GameData.lift's `came`)
        fn.add(f"S.came[{pc}.id] = {z}")
    if target.form.kind == "site":
        i = w.fresh("v")
        fn.add(f"{i} = {t}.index")
        on_site(w, i, None if t in gw.empty_chosen else w.fresh("v"), pc, fn)
        fn.add(f"S.last[{w.const('site')}] = {t}")
    else:
        into = w.fresh("v")
        own_pile(w, t, into, fn)
        fn.add(f"{into}.append({pc})")
    fn.add(f"S.loc[{pc}.id] = {t}")
    fn.add(f"S.last[{w.const('piece')}] = {pc}")
    return zone.cost + target.cost + 2


def _no_piece(verb: str) -> str:
    """pieces.place's refusal of none."""
    return f"'{verb}' needs a piece, not none"


def _top_of(gw: Any, e: ast.Expr, env: dict[str, Code]) -> Code | None:
    """What `top(x)` names the top piece of: x (else None)."""
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.kwargs \
            and gw.w.refs.get(e.func) == ("builtin", "top"):
        return gw.w.ex(e.args[0], env)  # type: ignore[no-any-return]
    return None
