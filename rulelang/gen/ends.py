"""The writer's score terms (`totals(S)`: each player's points, as game/runtime.py adds
them) and end section (`end<m>(S)`: the winners when the game ends, else None), and the
result statements both the end and a turn of several decisions use."""
from __future__ import annotations

from typing import Any

import rulelang.gen.helpers as H
import rulelang.gen.rt as rt
from rulelang.gen.code import Code, Func, Unsupported
from rulelang.language import ast


def totals(gw: Any) -> int:
    """`totals(S)`: each player's points, the terms written for each player. The most steps
    one player's terms can take."""
    w, scores = gw.w, gw.program.scores
    fn = Func("def totals(S):")
    fn.add("out = []")
    most = 0
    for player in w.rt.players:
        total, cost = w.fresh("v"), 0
        fn.add(f"{total} = {w.const(0)}")
        for s in scores:
            value = w.ex(s.expr, {s.param: w.static(player)})
            fn.add(f"{total} = {w.const(H.add_points)}({total}, {value.src}, {w.const(s)})")
            cost += value.cost
        fn.add(f"out.append({total})")
        most = max(most, cost)
    fn.add("return out")
    w.funcs.append(("totals", scores[0].span if scores else None, "end", fn))
    return int(most)


def end(gw: Any, mover: int) -> int:
    fn = Func(f"def end{mover}(S):")
    block = gw.program.sections.get("end")
    cost = 0
    env: dict[str, Code] = {}
    for s in block.stmts if block is not None else ():
        cost += _end_stmt(gw, s, env, fn)
    fn.add("return None")
    gw.w.funcs.append((f"end{mover}", block.span if block else None, "end", fn))
    return cost


def result(gw: Any, s: ast.Result, env: dict[str, Code], fn: Func) -> tuple[str, int]:
    """The winners a result statement names, in a local, and the statement kept as the one
    that ended the game."""
    w = gw.w
    out, cost = w.fresh("v"), 0
    if s.kind == "draw":
        fn.add(f"{out} = []")
    elif s.kind in ("winner", "winners") and s.value is not None:
        v = w.ex(s.value, env)
        cost = v.cost
        if v.form.kind == "player" and s.kind == "winner":
            fn.add(f"{out} = [{v.src}.index]")
        else:
            fn.add(f"{out} = {w.const(rt.winners)}(S, {v.src}, {w.const(s.span)}, "
                   f"{w.const(s.kind)})")
    elif s.kind == "highest score":
        points, cost = w.fresh("v"), w.n_sites
        fn.add(f"{points} = totals(S)")
        fn.add(f"{out} = [i for i in range(len({points})) if {points}[i] == max({points})]")
    else:
        raise Unsupported(f"the result '{s.kind}' in generated code", s.span)
    fn.add(f"S.ended_by = {w.const(s.span)}")
    return out, int(cost)


def _end_stmt(gw: Any, s: ast.Stmt, env: dict[str, Code], fn: Func) -> int:
    if isinstance(s, ast.Let):
        return int(gw._let(s, env, fn))
    if isinstance(s, ast.If):
        return int(gw._if(s, env, fn, lambda b, e, f: _end_stmt(gw, b, e, f)))
    if isinstance(s, ast.Result):
        out, cost = result(gw, s, env, fn)
        fn.add(f"return {out}")
        return cost
    if not gw.analysis.decides(s) and not isinstance(s, (ast.Require, ast.Then, ast.Do)):
        gw.w.step2 = True
        return int(gw.effect(s, env, fn))  # (an effect: `set ending = true`)
    raise Unsupported(f"the statement '{type(s).__name__}' in the end section", s.span)
