"""The reference statement evaluator: what each statement means.

A block runs as a generator that yields a Decision whenever some player must choose and is
sent back the chosen option. Each statement kind has one `run_<Kind>`: a plain statement
changes the data and returns None; a statement that holds others returns a generator over
them. Expressions are evaluated by walking their trees (interpreter.py), nothing is cached.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulelang.errors import Refusal, RuleRuntimeError
from rulelang.language import ast
from rulelang.language.decisions import DecisionAnalysis, requirement_failed
from rulelang.language.effect_statements import EffectStatements
from rulelang.library import effects
from rulelang.library.decision import NOTHING, Decision, GameOver, Option, Run, ThenMark, bound
from rulelang.library.semantics import Ctx, Fn, ReturnValue, count_of, domain_items, times
from rulelang.model.values import Piece, Player, show
from rulelang.reference.interpreter import Interpreter


class Reference(Interpreter):
    """The reference expression evaluator, with the bodies of rules (def)."""

    def def_body(self, key: str) -> list[Fn]:
        body = self.rt.program.defs[key].body
        if isinstance(body, ast.Block):
            return [lambda c, e: run_pure_block(self, body, c, e)]
        return [lambda c, e: self.eval(body, c, e)]


def run_pure_block(ev: Interpreter, block: ast.Block, c: Ctx, e: dict[str, Any]) -> Any:
    """A function body of let / if / return statements: its returned value (or none)."""
    try:
        _pure(ev, block, c, e)
    except ReturnValue as r:
        return r.value
    return None


def _pure(ev: Interpreter, block: ast.Block, c: Ctx, e: dict[str, Any]) -> None:
    for s in block.stmts:
        if isinstance(s, ast.Let):
            for name, value in s.bindings:
                e[name] = ev.eval(value, c, e)
        elif isinstance(s, ast.Return):
            raise ReturnValue(ev.eval(s.value, c, e))
        elif isinstance(s, ast.If):
            for cond, body in s.branches:
                if ev.eval(cond, c, e):
                    _pure(ev, body, c, e)
                    break
            else:
                if s.orelse is not None:
                    _pure(ev, s.orelse, c, e)
        else:
            raise RuleRuntimeError("a function may only use let, if and return", s.span)


class Statements(EffectStatements):
    def __init__(self, runtime: Any, menus: Any) -> None:
        self.rt = runtime
        self.program = runtime.program
        self.analysis = DecisionAnalysis(self.program)
        self.ev = Reference(runtime)
        self.menus = menus(self)  # the options of a `do` (reference/menus.py)
        # Rule coverage (tools/evidence/coverage.py): when a set, the ids of the action bodies and
        # the `if` branches that ran for real (not while a menu tried them on scratch data).
        self.covered: set[int] | None = None
        self.exploring = 0

    def value(self, node: ast.Expr, c: Ctx, e: dict[str, Any]) -> Any:
        return self.ev.eval(node, c, e)

    # ---- blocks
    def run(self, block: ast.Block, c: Ctx, e: dict[str, Any]) -> Run:
        for s in block.stmts:
            inner = self.stmt(s, c, e)
            if inner is not None:
                yield from inner

    def stmt(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> Run | None:
        """Run a plain statement (None) or give the generator of one that holds others."""
        method = getattr(self, f"run_{type(s).__name__}", None)
        if method is None:
            raise NotImplementedError(type(s).__name__)
        inner: Run | None = method(s, c, e)
        return inner

    def run_through(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> None:
        """Run a statement that cannot decide (the analysis says so) to its end."""
        inner = self.stmt(s, c, e)
        if inner is not None:
            for _ in inner:
                raise RuleRuntimeError("no decision can be made here", s.span)

    # ---- plain statements
    def run_Let(self, s: ast.Let, c: Ctx, e: dict[str, Any]) -> None:
        for name, value in s.bindings:
            e[name] = self.value(value, c, e)

    def run_Require(self, s: ast.Require, c: Ctx, e: dict[str, Any]) -> None:
        if not self.value(s.cond, c, e):
            raise Refusal(requirement_failed(self.program, s), s.span)

    # move, remove, set, increase, shuffle, reveal, return: the meaning both evaluators share
    run_Move = EffectStatements.effect_Move
    run_Remove = EffectStatements.effect_Remove
    run_Set = EffectStatements.effect_Set
    run_Increase = EffectStatements.effect_Increase
    run_Shuffle = EffectStatements.effect_Shuffle
    run_Reveal = EffectStatements.effect_Reveal
    run_Return = EffectStatements.effect_Return

    def run_Put(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> None:
        piece = self.piece_of(s, c, e)
        self.place(piece, self.value(s.target, c, e), c, s)
        if s.name is not None:  # `put … as t`
            e[s.name] = piece

    def piece_of(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> Piece:
        """The piece a `put` puts: a piece, or the last of its kind in a zone."""
        what = self.value(s.piece, c, e)
        source = self.value(s.source, c, e) if s.source is not None else None
        return effects.take_piece(c.data, self.rt.players, what, source, s.source is not None,
                                  s.piece.span)

    def run_Result(self, s: ast.Result, c: Ctx, e: dict[str, Any]) -> None:
        if s.kind == "draw":
            raise GameOver([], s.span)
        if s.kind == "highest score":
            totals = self.rt.totals(c)
            best = max(totals)
            raise GameOver([i for i, t in enumerate(totals) if t == best], s.span)
        value = self.value(s.value, c, e)  # type: ignore[arg-type]
        players = [value] if s.kind == "winner" else list(domain_items(c, value, s.span))
        if not all(isinstance(p, Player) for p in players):
            raise RuleRuntimeError(f"a winner must be a player, not {show(value)}", s.span)
        raise GameOver(sorted({p.index for p in players}), s.span)

    # ---- statements that hold others
    def run_Block(self, s: ast.Block, c: Ctx, e: dict[str, Any]) -> Run:
        yield from self.run(s, c, e)

    def run_If(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> Run:
        for cond, body in s.branches:
            if self.value(cond, c, e):
                if self.covered is not None and not self.exploring:
                    self.covered.add(id(body))
                yield from self.run(body, c, e)
                return
        if s.orelse is not None:
            if self.covered is not None and not self.exploring:
                self.covered.add(id(s.orelse))
            yield from self.run(s.orelse, c, e)

    def run_ForEach(self, s: ast.ForEach, c: Ctx, e: dict[str, Any]) -> Run:
        items = domain_items(c, self.value(s.domain, c, e), s.domain.span)  # once, first
        values = items if type(items) is range else tuple(items)
        c.tick(s.span, count_of(values))  # a step per item, all at once (as quantifiers)
        for v in values:
            e[s.var] = v
            yield from self.run(s.body, c, e)

    def run_Repeat(self, s: ast.Repeat, c: Ctx, e: dict[str, Any]) -> Run:
        turns = times(self.value(s.count, c, e), s.count.span)
        c.tick(s.span, count_of(turns))
        for _ in turns:
            yield from self.run(s.body, c, e)

    def run_While(self, s: ast.While, c: Ctx, e: dict[str, Any]) -> Run:
        while self.value(s.cond, c, e):
            c.tick(s.span)
            yield from self.run(s.body, c, e)

    def run_CallStmt(self, s: ast.CallStmt, c: Ctx, e: dict[str, Any]) -> Run:
        effect = self.analysis.effect(s)
        c.tick(s.span)
        args = [self.value(a, c, e) for a in s.call.args]
        yield from self.run(effect.body, c, dict(zip(effect.params, args, strict=True)))

    # ---- decisions
    def run_Choose(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> Run | None:
        if c.replay and s.mode != "random":
            return self._replayed(s, c, e)
        values = self.choices(s, c, e)
        if not values:
            raise RuleRuntimeError(f"nothing to choose from for '{s.var}'", s.span)
        if s.mode == "random":  # chance: a draw, no decision
            e[s.var] = effects.chance_draw(c.data, values, s.span)
            return None
        return self._ask(s, values, c, e)

    def _ask(self, s: ast.Choose, values: list[Any], c: Ctx, e: dict[str, Any]) -> Run:
        who = c.data.mover
        if s.chooser is not None:
            player = self.value(s.chooser, c, e)
            if not isinstance(player, Player):
                raise RuleRuntimeError(f"a choice is made by a player, not {show(player)}",
                                       s.chooser.span)
            who = player.index
        d = Decision(who, [(None, (v,)) for v in values], secret=s.mode == "secret", choose=s,
                     env=e)
        c.log.append(d)
        option = yield d
        e[s.var] = bound(option[1][0])

    def _replayed(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> Run:
        """A choose that asks, met again by a clone replaying its segment (Ctx.log)."""
        option = yield c.replayed()
        e[s.var] = bound(option[1][0])

    def choices(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> list[Any]:
        """The values a choose offers: the domain's items that satisfy `where`, in order
        (after NOTHING, no value, for an `optionally choose`)."""
        domain = tuple(domain_items(c, self.value(s.domain, c, e), s.domain.span))
        out: list[Any] = [NOTHING] if s.optional else []
        if s.cond is None:
            return out + list(domain)
        for v in domain:
            e[s.var] = v
            if self.value(s.cond, c, e):
                out.append(v)
        return out

    def perform_body(self, action: ast.Action, chosen: Iterator[Any], left: int,
                     c: Ctx) -> Run:
        """An action's body, its chooses taking the next `left` values of `chosen`; at a
        `then` whose mark comes next, the named action goes on with the values after it."""
        if self.covered is not None:
            self.covered.add(id(action.body))
        e: dict[str, Any] = {}
        for s in action.body.stmts:
            if left and isinstance(s, ast.Choose) and s.mode == "mover":
                e[s.var] = bound(next(chosen))
                left -= 1
                continue
            if left and isinstance(s, ast.Then):
                mark = next(chosen)
                assert type(mark) is ThenMark and mark.action == s.action
                yield from self.perform_body(self.program.actions[s.action], chosen, left - 1, c)
                return
            inner = self.stmt(s, c, e)
            if inner is not None:
                yield from inner

    def run_Then(self, s: ast.Then, c: Ctx, e: dict[str, Any]) -> Run:
        """Outside a menu's option: the named action's body runs, asking its own chooses."""
        body = self.program.actions[s.action].body
        if self.covered is not None and not self.exploring:
            self.covered.add(id(body))
        yield from self.run(body, c, {})

    def run_Do(self, s: ast.Do, c: Ctx, e: dict[str, Any]) -> Run:
        if c.replay:  # a clone replaying its segment (Ctx.log): the menu as it was
            d = c.replayed()
        else:
            self.exploring += 1
            try:
                options = self.menus.options(s, c)
            finally:
                self.exploring -= 1
            d = Decision(c.data.mover, options, menu=s) if options else None
            c.log.append(d)
        if d is None:
            return  # the turn goes on without this decision
        option = yield d
        yield from self.perform(option, c)

    def perform(self, option: Option, c: Ctx) -> Run:
        """An option of a `do`: its action, whose chooses up to the option's end take the
        option's values, and the rest of the action (which may ask for more)."""
        action = self.program.actions[option[0]]
        c.data.begin_action()
        yield from self.perform_body(action, iter(option[1]), len(option[1]), c)
        c.data.last["action"] = action.name  # while the action runs, `last` is the one before
        c.data.last["player"] = self.rt.players[c.data.mover]
