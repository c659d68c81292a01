"""The writer's `set` and `increase` (of a var or counter, shared or a player's, and of the
round's starter) and its loops whose turns are known only as they run (`while`, `repeat`),
charged to the state's step counter."""
from __future__ import annotations

from typing import Any

import rulelang.gen.helpers as H
import rulelang.gen.rt as rt
from rulelang.gen.code import Code, Func, Unsupported
from rulelang.gen.emit import Writer
from rulelang.language import ast
from rulelang.library.semantics import STEP_BUDGET

# values semantics.stored keeps as they are (no list, text or whole number)
_PLAIN = frozenset({"bool", "site", "player", "piece", "none"})


def set_value(gw: Any, s: ast.Set | ast.Increase, env: dict[str, Code], fn: Func) -> int:
    """`set` or `increase` a var or counter (shared, or a player's), or `set starter`."""
    w: Writer = gw.w
    t = s.target
    name = t.left if isinstance(t, ast.Of) else t
    cat, key = w.refs.get(name, ("", ""))
    if (cat, key) == ("builtin", "starter") and isinstance(s, ast.Set):
        w.step2 = True
        value = w.ex(s.value, env)
        fn.add(f"S.starter = {w.const(H.starter)}({value.src}, {w.const(s.value.span)})")
        return value.cost + 1
    if isinstance(t, ast.Attr) and t not in w.refs and isinstance(s, ast.Set):
        if t.name == "owner":  # (the flat state's owners and tops are fixed)
            raise Unsupported("a set of a piece's owner", s.span)
        value, piece = w.ex(s.value, env), w.ex(t.obj, env)  # (the reference's order)
        fn.add(f"{w.const(H.set_attr)}(S, {value.src}, {piece.src}, {w.const(t.name)}, "
               f"{w.const(t.span)})")
        return value.cost + piece.cost + 1
    if str(cat) not in ("var", "counter"):
        raise Unsupported("a set of anything but a var or a counter", s.span)
    who = w.ex(t.right, env) if isinstance(t, ast.Of) else None
    if who is None or (who.form.kind == "player" and who.form.known):
        slot = w.owned(str(cat), str(key), who, t)
        table, k = slot.src.partition("[")[0], slot.src.partition("[")[2][:-1]
    elif who.form.kind == "player" and (key, 0) in getattr(w.rt.template, str(cat) + "s"):
        table, k = f"S.{cat}s", w.fresh("v")  # a player's, found as the game runs
        fn.add(f"{k} = ({w.const(key)}, {who.src}.index)")
    else:  # a value known only as the game runs (a player or not)
        w.step2 = True
        table, k = w.fresh("v"), w.fresh("v")
        fn.add(f"{table}, {k} = {w.const(H.slot)}(S, {w.const(str(cat))}, "
               f"{w.const(key)}, {who.src}, {w.const(t.span)})")
    if isinstance(s, ast.Set):
        value = w.ex(s.value, env)
        if cat == "var" and value.form.kind in _PLAIN:  # (stored as it is, no steps)
            fn.add(f"{table}[{k}] = {value.src}")
        else:
            fn.add(f"{table}[{k}] = {w.const(H.store)}(S, {w.const(str(cat))}, "
                   f"{w.const(key)}, {value.src}, {w.const(s.value.span)})")
        if cat == "var" and gw.program.vars[str(key)].secret:
            fn.add(f"S.revealed = S.revealed.difference(({k}, ))")  # hidden again
    else:
        value = w.ex(s.amount, env)
        fn.add(f"{table}[{k}] = {w.const(H.increase)}(S, {w.const(str(cat))}, "
               f"{w.const(key)}, {table}[{k}], {w.const(s.sign)}, {value.src}, "
               f"{w.const(s.span)})")
    return value.cost + 1 + (who.cost if who is not None else 0)


def while_loop(gw: Any, s: ast.While, env: dict[str, Code], fn: Func) -> int:
    """A loop whose turns no bound is known for: each charged (its condition and body
    at most) to a counter of the state, the budget's error past it."""
    w: Writer = gw.w
    c = w.ex(s.cond, env)
    fn.add(f"while {c.src}:")
    fn.depth += 1
    mark = len(fn.lines)
    fn.add("")  # (the charge, once the body's cost is known)
    inner = dict(env)
    body = sum(gw.effect(b, inner, fn) for b in s.body.stmts)
    fn.lines[mark] = "    " * fn.depth + \
        f"{w.const(rt.charge)}(S, {w.const(1 + c.cost + body)}, {w.const(s.span)})"
    fn.add("pass")
    fn.depth -= 1
    return c.cost  # (the loop's turns are charged as they run)


def repeat(gw: Any, s: ast.Repeat, env: dict[str, Code], fn: Func) -> int:
    """`repeat N times`: its turns charged as it starts (N is known only as it runs)."""
    w: Writer = gw.w
    w.step2 = True
    n = w.ex(s.count, env)
    line = len(fn.lines)
    fn.add("")  # (the loop's head, once the body's cost is known)
    fn.depth += 1
    body = sum(gw.effect(b, dict(env), fn) for b in s.body.stmts)
    fn.add("pass")
    fn.depth -= 1
    fn.lines[line] = "    " * fn.depth + \
        f"for _ in {w.const(rt.repeats)}(S, {n.src}, {w.const(1 + body)}, " \
        f"{w.const(s.count.span)}, {w.const(s.span)}):"
    if w.counting:  # (its turns charged as it starts)
        return n.cost + 1
    # uncounted only where the game's bound stays far below the budget: N turns at most
    turns = n.form.static if n.form.known and type(n.form.static) is int else \
        n.form.size - 1 if n.form.kind == "num" and n.form.size else STEP_BUDGET
    return int(n.cost + 1 + max(turns, 0) * (1 + body))
