"""The menu of an action whose effects come between its chooses, or may refuse it after the
last one (reference/menus.py `walk`, written out): its chooses are loops, its requires
conditions, and each effect runs on a scratch copy of the state (`S.scratch()`) in a
function of its own whose `S` is that copy; the walk goes on there, and a refusal drops
the ways through it. After the last choose, the first `put` must have its piece, and
effects that may still refuse run on a scratch copy first."""
from __future__ import annotations

import re
from typing import Any

import rulelang.gen.forms as F
import rulelang.gen.invariant as invariant
import rulelang.gen.lower as lower
import rulelang.gen.pieces as pieces
import rulelang.gen.puts as puts
from rulelang.errors import Refusal
from rulelang.gen.code import Code, Func, Unsupported
from rulelang.gen.playout import Tried
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.builtins import UNASKED
from rulelang.library.decision import NOTHING, ThenMark

_LOCAL = re.compile(r"[va]\d+")


class Walk:
    """The ways of one action, written into the menu function `fn` (which holds `out`)."""

    def __init__(self, game_writer: Any, action: ast.Action, adopt: bool = False) -> None:
        self.gw, self.w = game_writer, game_writer.w
        self.action = action
        # a draw's walk (gen/draws.py), in a game whose steps are not counted: a way that
        # ran every statement on a scratch copy is drawn with that copy (playout.Tried)
        self.adopt = adopt
        self.analysis = game_writer.analysis
        self.thens: set[str] = {action.name}  # the actions the walk is in (`then`)
        # is the function being written the owner of its `S` (a scratch copy made for it),
        # and how many of its loops is the walk in? An effect that owner tries outside any
        # loop is the last use of its `S`: it goes on that copy, not on another.
        self.owned, self.loops = False, 0

    def write(self, fn: Func) -> int:
        return self.walk(self.action.body.stmts, 0, {}, [], fn)

    def walk(self, stmts: tuple[ast.Stmt, ...], i: int, env: dict[str, Code],
             chosen: list[str], fn: Func) -> int:
        if not any(isinstance(s, (ast.Choose, ast.Require, ast.Then)) for s in stmts[i:]):
            return self.final(stmts, i, env, chosen, fn)
        s, w, depth = stmts[i], self.w, fn.depth
        if isinstance(s, ast.Choose):
            if s.mode != "mover" or s.chooser is not None:
                raise Unsupported("this kind of choose", s.span)
            dom = w.raw(s.domain, env)
            src, n, item, test = self.gw.chosen(s, dom, env)
            var = w.fresh("v")
            value = w.fresh("v") if s.optional else var  # (the local: none for NOTHING)
            if s.optional:
                item = F.MAYBE_SITE if item == F.SITE else F.ANY
            inner = {**env, s.var: Code(value, item, 0)}
            kept = invariant.keep(w, test, s.var, env)  # (parts no value changes)
            try:
                c = w.ex(test, inner) if test is not None else None
            finally:
                w.kept_parts.clear()
            for v in kept:
                fn.add(f"{v} = {w.const(UNASKED)}")
            cond = c.cost if c is not None else 0
            nothing = w.const(NOTHING)
            line = len(fn.lines)  # (its items charged, once what they take is known)
            head = f"for {var} in ({nothing}, *{{}}):" if s.optional else f"for {var} in {{}}:"
            fn.add(head.format(src))
            fn.depth += 1
            if s.optional:
                fn.add(f"{value} = None if {var} is {nothing} else {var}")
            if c is not None:
                fn.add(f"if {var} is {nothing} or {c.src}:" if s.optional
                       else f"if {lower.test(w, c, fn)}:")
                fn.depth += 1
            self.loops += 1
            each = 1 + cond + self.walk(stmts, i + 1, inner, [*chosen, var], fn)
            self.loops -= 1
            fn.depth = depth
            cost: int = dom.cost + (n + s.optional) * each
            if not w.charges(cost):
                return cost
            fn.lines[line] = "    " * depth + head.format(w.charged(src, each, s.domain.span))
            return int(dom.cost)
        if isinstance(s, ast.Require):
            c = w.ex(s.cond, env)
            fn.add(f"if {lower.test(w, c, fn)}:")
            fn.depth += 1
            cost = int(c.cost) + self.walk(stmts, i + 1, env, chosen, fn)
            fn.depth = depth
            return cost
        if isinstance(s, ast.Then):  # the option goes on as the named action's ways
            if s.action in self.thens:
                raise Unsupported("an action that goes on as itself", s.span)
            self.thens.add(s.action)
            try:
                mark = w.const(ThenMark(s.action))
                return self.walk(self.gw.program.actions[s.action].body.stmts, 0, {},
                                 [*chosen, mark], fn)
            finally:
                self.thens.discard(s.action)
        if isinstance(s, ast.Let):
            inner = dict(env)
            return int(self.gw._let(s, inner, fn)) + self.walk(stmts, i + 1, inner, chosen, fn)
        if self.analysis.ends_option(s):  # another player or chance decides next: the
            fn.add(f"out.append({self.option(chosen)})")  # option ends here
            return 1
        return self.segment(stmts, i, env, chosen, fn)

    def option(self, chosen: list[str]) -> str:
        return f"({self.w.const(self.action.name)}, ({''.join(v + ', ' for v in chosen)}))"

    def segment(self, stmts: tuple[ast.Stmt, ...], i: int, env: dict[str, Code],
                chosen: list[str], fn: Func) -> int:
        """An effect before more chooses or requires: on a scratch copy, in a function of
        its own (the locals so far its parameters), the walk going on there."""
        w = self.w
        self.gw.tries = True
        name, params = w.fresh("w"), _params(env, chosen)
        fn.add(f"{name}({self._copy()}, out{''.join(', ' + p for p in params)})")
        sub = Func(f"def {name}(S, out{''.join(', ' + p for p in params)}):")
        inner = dict(env)
        sub.add("try:")
        sub.depth += 1
        cost = int(self.gw.effect(stmts[i], inner, sub))
        sub.add("pass")
        sub.depth -= 1
        sub.add(f"except {w.const(Refusal)}:")  # (this way cannot be taken)
        sub.add("    return")
        owned, loops = self.owned, self.loops
        self.owned, self.loops = True, 0
        cost += self.walk(stmts, i + 1, inner, chosen, sub)
        self.owned, self.loops = owned, loops
        w.funcs.append((name, stmts[i].span, "walk", sub))
        return cost

    def _copy(self) -> str:
        """The state an effect is tried on: the function's own copy where nothing uses it
        after (outside loops, in a function given a copy of its own), else a new one."""
        return "S" if self.owned and not self.loops else "S.scratch()"

    def final(self, stmts: tuple[ast.Stmt, ...], i: int, env: dict[str, Code],
              chosen: list[str], fn: Func) -> int:
        """The way is an option when its first put has a piece and the effects that may
        still refuse get through on a scratch copy."""
        w, rest, cost, checks = self.w, stmts[i:], 0, []
        guarded = self._guarded_put(rest, env)
        if guarded is not None:  # (its check in place of a try on a scratch copy)
            checks.append(guarded.src)
            cost += guarded.cost
        elif rest and isinstance(rest[0], ast.Put):
            test, more = puts.piece_ok(self.gw, rest[0], env)
            checks.append(test)
            cost += more
        if guarded is None and self.analysis.may_refuse(rest, 0):
            # (as reference/menus.py asks it: tried up to the first that may ask)
            tried = rest[:next((k for k, s in enumerate(rest) if self.analysis.decides(s)),
                               len(rest))]
            self.gw.tries = True
            name, params = w.fresh("w"), _params(env, chosen)
            sub = Func(f"def {name}(S{''.join(', ' + p for p in params)}):")
            sub.add("try:")
            sub.depth += 1
            inner = dict(env)
            for s in tried:
                cost += self.gw.effect(s, inner, sub)
            sub.add("pass")
            sub.depth -= 1
            sub.add(f"except {w.const(Refusal)}:")
            sub.add(f"    return {w.const(False)}")
            sub.add(f"return {w.const(True)}")
            w.funcs.append((name, rest[0].span, "walk", sub))
            checks.append(f"{name}({self._copy()}{''.join(', ' + p for p in params)})")
        option = self.option(chosen)
        if self.adopt and not rest and self.owned and self.thens == {self.action.name}:
            option = f"{w.const(Tried)}({option}, S)"  # (S: the copy the action ran on)
            self.gw.adopts = True
        if checks:
            fn.add(f"if {' and '.join(checks)}:")
            fn.add(f"    out.append({option})")
        else:
            fn.add(f"out.append({option})")
        return cost + 1

    def _guarded_put(self, rest: tuple[ast.Stmt, ...], env: dict[str, Code]) -> Code | None:
        """`if C` of one put, then effects that cannot refuse (`optionally choose t …; if
        t != none: put … at t`): the way is refused where C holds and the put has no piece
        or no target (as the put would refuse it), a test made on the state as it is."""
        if not rest or not isinstance(rest[0], ast.If) or len(rest[0].branches) != 1 \
                or rest[0].orelse is not None \
                or any(self.analysis.refuses(s) for s in rest[1:]):
            return None
        cond, body = rest[0].branches[0]
        if len(body.stmts) != 1 or not isinstance(body.stmts[0], ast.Put):
            return None
        put = body.stmts[0]
        w = self.w
        c, target = w.ex(cond, env), w.ex(put.target, env)
        if target.form.kind == "site":
            placed = ""
        elif target.form == F.MAYBE_SITE:  # (none: the put refuses it)
            placed = f" and {target.src} is not None"
        else:  # (pieces.place's test of its target: none refuses, what is no place fails)
            placed = f" and {w.const(pieces.target_ok)}({target.src}, {w.const(put.span)})"
        test, more = puts.piece_ok(self.gw, put, env)
        return Code(f"(not ({c.src}) or ({test}{placed}))", F.ANY,
                    c.cost + more + target.cost)


def simple(stmts: tuple[ast.Stmt, ...]) -> bool:
    """Are an action's chooses and requires all before its effects (lets among them),
    and can only the puts that begin the effects refuse it (the menu's comprehension)?"""
    last = max((i for i, s in enumerate(stmts)
                if isinstance(s, (ast.Choose, ast.Require, ast.Then))), default=-1)
    if any(not isinstance(s, (ast.Choose, ast.Let, ast.Require)) for s in stmts[:last + 1]):
        return False
    rest = stmts[last + 1:]
    names = {s.var for s in stmts[:last + 1] if isinstance(s, ast.Choose)} | {
        v for s in stmts[:last + 1] if isinstance(s, ast.Let) for v, _ in s.bindings}
    chosen_piece = any(isinstance(n, ast.Name) and n.id in names for put in leading_puts(rest)
                       for x in (put.piece, put.source) if x is not None for n in walk(x))
    return not chosen_piece and puts_first(rest) and not any(
        isinstance(n, (ast.CallStmt, ast.Choose, ast.Require, ast.Then)) for r in rest
        for n in walk(r))


def leading_puts(rest: tuple[ast.Stmt, ...]) -> list[ast.Put]:
    """The puts that begin an action's effects (lets among them)."""
    out = []
    for s in rest:
        if isinstance(s, ast.Put):
            out.append(s)
        elif not isinstance(s, ast.Let):
            break
    return out


def puts_first(rest: tuple[ast.Stmt, ...]) -> bool:
    """The only effects that may refuse the action are the puts that begin it (a put
    refuses when its zone has no piece to put, which the menu checks beforehand)."""
    leading = len(leading_puts(rest))
    seen = 0
    for s in rest:
        if seen < leading or isinstance(s, ast.Let):
            seen += isinstance(s, ast.Put)
            continue
        if any(isinstance(n, (ast.Put, ast.Require)) for n in walk(s)):
            return False
    return True


def _params(env: dict[str, Code], chosen: list[str]) -> list[str]:
    """The locals a walk's function needs from the one that calls it."""
    out: list[str] = []
    for code in [*env.values(), *(Code(c, None, 0) for c in chosen)]:  # type: ignore[arg-type]
        if _LOCAL.fullmatch(code.src) and code.src not in out:
            out.append(code.src)
    return out


def through_thens(program: Any, action: ast.Action, seen: set[str]) -> list[ast.Stmt]:
    """An action's statements as an option takes them: at a `then`, its mark and the named
    action's statements (what follows the `then` does not run)."""
    out: list[ast.Stmt] = []
    for s in action.body.stmts:
        if isinstance(s, ast.Then):
            if s.action in seen | {action.name}:
                raise Unsupported("an action that goes on as itself", s.span)
            return [*out, s, *through_thens(program, program.actions[s.action],
                                             seen | {action.name})]
        out.append(s)
    return out


def first_effect(stmts: tuple[ast.Stmt, ...]) -> int:
    """The index of the first statement after the action's chooses and requires (and lets
    among them): the menu's part of the action."""
    last = -1
    for i, s in enumerate(stmts):
        if isinstance(s, (ast.Choose, ast.Require)):
            last = i
    for i in range(last + 1):
        if not isinstance(stmts[i], (ast.Choose, ast.Let, ast.Require)):
            raise Unsupported("effects before a choose or require", stmts[i].span)
    return last + 1
