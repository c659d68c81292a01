"""The writer's `move` and `remove`: the top piece of a site moved to a site (or removed)
written in place — lifted, put, the kept structures touched at both sites — and any other
through pieces.place / pieces.remove (the reference's checks and meaning)."""
from __future__ import annotations

from typing import Any

import rulelang.gen.pieces as pieces
from rulelang.errors import Refusal
from rulelang.gen.code import Code, Func
from rulelang.gen.puts import fills, on_site
from rulelang.language import ast


def move(gw: Any, s: ast.Move | ast.Remove, env: dict[str, Code], fn: Func) -> int:
    """`move P to T` / `remove P`; the top piece of a site moved to a site in place."""
    w, verb = gw.w, "move" if isinstance(s, ast.Move) else "remove"
    top = _top_of(gw, s.piece, env)
    target: Code | None = w.ex(s.target, env) if isinstance(s, ast.Move) else None
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
    refusal = w.const(f"'{verb}' needs a piece, not none")
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


def _top_of(gw: Any, e: ast.Expr, env: dict[str, Code]) -> Code | None:
    """The site whose top piece `top(x)` names, x of site form (else None)."""
    if isinstance(e, ast.Call) and len(e.args) == 1 and not e.kwargs \
            and gw.w.refs.get(e.func) == ("builtin", "top"):
        site: Code = gw.w.ex(e.args[0], env)
        if site.form.kind == "site":
            return site
    return None
