"""The fast statement evaluator: effects change the GameData; decisions suspend the run.

A block runs as a generator that yields a Decision whenever some player must choose and is
sent back the chosen option (see menus.py for how a `do` lists its options). Plain
statements run as methods (exec_*), or as closures on hot paths (fn_*, stmt_fn); an action
decided by its menu option alone runs without a generator (perform_plain). The meaning of
each statement is rulelang/reference/statements.py's.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rulelang.errors import Refusal, RuleRuntimeError
from rulelang.fast.choice_fns import ChoiceFns
from rulelang.fast.menus import Menus
from rulelang.fast.walks import Walk
from rulelang.language import ast
from rulelang.language.decisions import DecisionAnalysis, requirement_failed
from rulelang.language.effect_statements import EffectStatements
from rulelang.library import effects
from rulelang.library.decision import NOTHING, Decision, GameOver, Option, Run, ThenMark, bound
from rulelang.library.semantics import Ctx, count_of, domain_items, times
from rulelang.model.values import Piece, PieceSource, Player, Site, show

if TYPE_CHECKING:
    from rulelang.language.program import Program

__all__ = ["Executor", "Decision", "GameOver", "Option", "Run"]
CHECK_REPLAY = False  # tests: every value a replay takes from the log is computed and compared


class Executor(EffectStatements, Menus, ChoiceFns):
    def __init__(self, runtime: Any) -> None:
        self.rt = runtime
        self.program: Program = runtime.program
        self.analysis = DecisionAnalysis(self.program)
        self.decides = self.analysis.decides
        self.chance = self.analysis.chance
        self._effect = self.analysis.effect
        self._tail: dict[ast.Block, tuple[bool, ...]] = {}
        self._plans: dict[str, tuple[tuple[ast.Put, ...], tuple[Any, ...], Any]] = {}
        self._hoisted_puts: set[ast.Put] = set()
        self._walks: dict[ast.Block, list[Walk | None]] = {}
        self._then_targets = {a.body.stmts[-1].action for a in self.program.actions.values()
                              if a.body.stmts and isinstance(a.body.stmts[-1], ast.Then)}
        self._exec: dict[type, Any] = {}
        self._run_plans: dict[ast.Block, tuple[tuple[bool, Any, ast.Stmt], ...]] = {}
        self._if_conditions: dict[ast.If, tuple[Any, ...]] = {}
        self._stmt_fns: dict[ast.Node, Any] = {}
        self._plain_steps: dict[str, tuple[Any, ...]] = {}
        self._choice_plans: dict[ast.Choose, Any] = {}  # choose -> choice_fn(choose)
        self._menu_entries: dict[tuple[str, ...], tuple[tuple[Any, ...], ...]] = {}
        self._sample_plans: dict[tuple[str, ...], tuple[tuple[tuple[Any, ...], bool], ...]] = {}
        self._last_choices: dict[tuple[int, int] | tuple[int, int, str], bool] = {}
        self._lazy_at: dict[str, tuple[int, int] | None] = {}  # Menus.lazy_choose
        self._fns = runtime._fns  # the runtime's closure cache, read directly on hot paths
        self.players = runtime.players

    # ---- running blocks
    def run(self, block: ast.Block, c: Ctx, e: dict[str, Any]) -> Run:
        plan = self._run_plans.get(block)
        if plan is None:
            plan = self._run_plans[block] = self.run_plan(block)
        for deciding, method, s in plan:
            if deciding:
                yield from method(s, c, e)
            else:
                method(s, c, e)

    def run_plan(self, block: ast.Block) -> tuple[tuple[bool, Any, ast.Stmt], ...]:
        """Per statement of a block, once: whether it decides, and its method (gen_X, a
        generator, if it does; else exec_X, as execute finds it)."""
        return tuple((True, getattr(self, f"gen_{type(s).__name__}"), s) if self.decides(s)
                     else (False, self.exec_method(s), s) for s in block.stmts)

    def run_plain(self, block: ast.Block, c: Ctx, e: dict[str, Any]) -> None:
        """A block known not to decide."""
        for s in block.stmts:
            self.execute(s, c, e)

    def execute(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> None:
        method = self._exec.get(type(s))
        if method is None:
            method = self.exec_method(s)
        method(s, c, e)

    def exec_method(self, s: ast.Stmt) -> Any:
        """The method that runs a statement of this type (exec_X), found once per type."""
        method = self._exec.get(type(s))
        if method is None:
            method = getattr(self, f"exec_{type(s).__name__}", None)
            if method is None:
                raise NotImplementedError(type(s).__name__)
            self._exec[type(s)] = method
        return method

    # ---- statements as closures (the executed form of plain statements on hot paths), run
    # only outside a segment (c.values None: plain actions, simple flows, the menu's trials),
    # so that an `if` logs no branch
    def stmt_fn(self, s: ast.Stmt) -> Any:
        f = self._stmt_fns.get(s)
        if f is None:
            make = getattr(self, f"fn_{type(s).__name__}", None)
            f = make(s) if make is not None else self._generic_fn(s)
            self._stmt_fns[s] = f
        return f

    def block_fns(self, stmts: tuple[ast.Stmt, ...]) -> tuple[Any, ...]:
        return tuple(self.stmt_fn(s) for s in stmts)

    def _generic_fn(self, s: ast.Stmt) -> Any:
        method = getattr(self, f"exec_{type(s).__name__}")
        return lambda c, e: method(s, c, e)

    def fn_Let(self, s: ast.Let) -> Any:
        pairs = [(name, self.rt.fn(value)) for name, value in s.bindings]

        def let(c: Ctx, e: dict[str, Any]) -> None:
            if c.values is not None:  # in a segment: the values logged (set_value)
                for name, f in pairs:
                    e[name] = self.logged(f, c, e)
                return
            for name, f in pairs:
                e[name] = f(c, e)
        return let

    def fn_Put(self, s: ast.Put) -> Any:
        piece_f, target_f = self.rt.fn(s.piece), self.rt.fn(s.target)
        slow = self.exec_Put
        if s.source is not None or s.name is not None:
            return lambda c, e: slow(s, c, e)

        def put(c: Ctx, e: dict[str, Any]) -> None:
            what = piece_f(c, e)
            if type(what) is PieceSource:
                data = c.data
                target = target_f(c, e)
                if type(target) is Site:
                    piece = data.put_from(what.zone, what.kind, target)
                    if piece is not None:
                        last = data.last
                        last["site"] = target
                        last["piece"] = piece
                        return
            slow(s, c, e)  # anything else, and every error message
        return put

    def fn_If(self, s: ast.If) -> Any:
        branches = [(self.rt.fn(cond), self.block_fns(body.stmts)) for cond, body in s.branches]
        orelse = self.block_fns(s.orelse.stmts) if s.orelse is not None else ()

        def if_(c: Ctx, e: dict[str, Any]) -> None:
            for cond, body in branches:
                if cond(c, e):
                    for f in body:
                        f(c, e)
                    return
            for f in orelse:
                f(c, e)
        return if_

    def fn_CallStmt(self, s: ast.CallStmt) -> Any:
        """exec_CallStmt as a closure: the effect's body as closures too, made at its first
        run (an effect may call itself)."""
        effect, span = self._effect(s), s.span
        params, args = effect.params, tuple(self.rt.fn(a) for a in s.call.args)
        body: list[tuple[Any, ...]] = []

        def call(c: Ctx, e: dict[str, Any]) -> None:  # (as fn_If: never in a segment)
            c.tick(span)
            env = dict(zip(params, [a(c, e) for a in args], strict=True))
            if not body:
                body.append(self.block_fns(effect.body.stmts))
            for f in body[0]:
                f(c, env)
        return call

    def fn_While(self, s: ast.While) -> Any:
        cond, span, stmts = self.rt.fn(s.cond), s.span, s.body.stmts
        body: list[tuple[Any, ...]] = []

        def while_(c: Ctx, e: dict[str, Any]) -> None:  # (as loop_items and exec_ForEach)
            while cond(c, e):
                c.tick(span)
                if not body:
                    body.append(self.block_fns(stmts))
                for f in body[0]:
                    f(c, e)
        return while_

    def fn_Remove(self, s: ast.Remove) -> Any:
        piece_f, remove_piece = self.rt.fn(s.piece), self.remove_piece
        return lambda c, e: remove_piece(s, piece_f(c, e), c)

    def fn_Require(self, s: ast.Require) -> Any:
        cond, slow = self.rt.fn(s.cond), self.exec_Require

        def require(c: Ctx, e: dict[str, Any]) -> None:
            if not cond(c, e):
                slow(s, c, e)
        return require

    def value(self, node: ast.Expr, c: Ctx, e: dict[str, Any]) -> Any:
        f = self._fns.get(node)
        if f is None:
            f = self.rt.fn(node)
        return f(c, e)

    def exec_Let(self, s: ast.Let, c: Ctx, e: dict[str, Any]) -> None:
        if c.values is not None:  # in a segment: the values logged (set_value)
            for name, value in s.bindings:
                e[name] = self.logged(self.rt.fn(value), c, e)
            return
        for name, value in s.bindings:
            e[name] = self.value(value, c, e)

    def exec_Require(self, s: ast.Require, c: Ctx, e: dict[str, Any]) -> None:
        if not self.value(s.cond, c, e):
            raise Refusal(requirement_failed(self.program, s), s.span)

    def exec_Choose(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> None:  # chance only
        values = self.choices(s, c, e)
        if not values:
            raise RuleRuntimeError(f"nothing to choose from for '{s.var}'", s.span)
        e[s.var] = effects.chance_draw(c.data, values, s.span)

    # move, remove, set, increase, shuffle, reveal, return: the meaning both evaluators share
    exec_Move = EffectStatements.effect_Move
    exec_Remove = EffectStatements.effect_Remove
    exec_Set = EffectStatements.effect_Set

    def set_value(self, s: ast.Set, c: Ctx, e: dict[str, Any]) -> Any:
        return self.logged(self.rt.fn(s.value), c, e)

    def logged(self, f: Any, c: Ctx, e: dict[str, Any]) -> Any:
        """The value of a `set` or a `let` (f, compiled), kept in the segment's log of values
        (Ctx.values) while the segment runs; a clone replaying the segment takes it from
        there (the same state, so the same value) instead of computing it again."""
        replay = c.replay_values
        if replay:
            value = replay.pop()
            if CHECK_REPLAY:
                again = f(c, e)
                assert again == value, f"a replayed value was {value!r}, now {again!r}"
        else:
            value = f(c, e)
        if c.values is not None:
            c.values.append(value)
        return value
    exec_Increase = EffectStatements.effect_Increase
    exec_Shuffle = EffectStatements.effect_Shuffle
    exec_Reveal = EffectStatements.effect_Reveal
    exec_Return = EffectStatements.effect_Return

    def exec_Put(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> None:
        piece = self.piece_of(s, c, e)
        self.place(piece, self.value(s.target, c, e), c, s)
        if s.name is not None:  # `put … as t`
            e[s.name] = piece

    def piece_of(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> Piece:
        what = self.value(s.piece, c, e)
        piece: Piece | None
        if type(what) is PieceSource and s.source is None:  # the common `ball of mover`
            piece = c.data.take_from(what.zone, what.kind)
            if piece is not None:
                return piece
        source = self.value(s.source, c, e) if s.source is not None else None
        return effects.take_piece(c.data, self.rt.players, what, source, s.source is not None,
                                  s.piece.span)

    def put_possible(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> bool:
        try:
            self.piece_of(s, c, e)
            return True
        except Refusal:
            return False

    def put_possible_fn(self, s: ast.Put) -> Any:
        """put_possible(s, …) as a closure: `ball of mover` with a ball on top of its zone
        is one list read (piece_of, inlined); anything else as piece_of goes on."""
        if s.source is not None:
            return lambda c, e: self.put_possible(s, c, e)
        piece_f, players, span = self.rt.fn(s.piece), self.rt.players, s.piece.span

        def possible(c: Ctx, e: dict[str, Any]) -> bool:
            try:
                what = piece_f(c, e)
                if type(what) is PieceSource:
                    pile = c.data.zones.get(what.zone)
                    if pile and (what.kind is None or pile[-1].kind == what.kind):
                        return True  # (take_from's first answer)
                    if c.data.take_from(what.zone, what.kind) is not None:
                        return True
                effects.take_piece(c.data, players, what, None, False, span)
                return True
            except Refusal:  # (as put_possible)
                return False
        return possible

    def exec_If(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> None:
        block = self.branch(s, c, e)
        if block is not None:
            for x in block.stmts:
                self.execute(x, c, e)

    def branch(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> ast.Block | None:
        """The block an `if` runs (its branch's number kept in the segment's log of values,
        as a `set`'s value is: see logged)."""
        if c.values is None:
            for k, cond in enumerate(self._conditions(s)):
                if cond(c, e):
                    return s.branches[k][1]
            return s.orelse
        replay = c.replay_values
        if replay:
            k = replay.pop()
            if CHECK_REPLAY:
                assert self._branch_number(s, c, e) == k, "a replayed if took another branch"
        else:
            k = self._branch_number(s, c, e)
        c.values.append(k)
        return s.branches[k][1] if k < len(s.branches) else s.orelse

    def _branch_number(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> int:
        conds = self._conditions(s)
        for k, cond in enumerate(conds):
            if cond(c, e):
                return k
        return len(conds)

    def _conditions(self, s: ast.If) -> tuple[Any, ...]:
        """The closures of an `if`'s conditions, in order (made once per `if`)."""
        found = self._if_conditions.get(s)
        if found is None:
            found = self._if_conditions[s] = tuple(self.rt.fn(cond) for cond, _ in s.branches)
        return found

    def loop_items(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> Iterator[None]:
        if isinstance(s, ast.ForEach):
            items = domain_items(c, self.value(s.domain, c, e), s.domain.span)
            values = items if type(items) is range else tuple(items)  # a range stays lazy
            c.tick(s.span, count_of(values))  # a step per item, all at once (as quantifiers)
            for v in values:
                e[s.var] = v
                yield None
        elif isinstance(s, ast.Repeat):
            turns = times(self.value(s.count, c, e), s.count.span)
            c.tick(s.span, count_of(turns))
            for _ in turns:
                yield None
        else:
            while self.value(s.cond, c, e):  # type: ignore[attr-defined]
                c.tick(s.span)
                yield None

    def exec_ForEach(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> None:
        for _ in self.loop_items(s, c, e):
            for x in s.body.stmts:  # type: ignore[attr-defined]
                self.execute(x, c, e)

    exec_Repeat = exec_While = exec_ForEach

    def exec_CallStmt(self, s: ast.CallStmt, c: Ctx, e: dict[str, Any]) -> None:
        effect, env = self.effect_env(s, c, e)
        for x in effect.body.stmts:
            self.execute(x, c, env)

    def effect_env(self, s: ast.CallStmt, c: Ctx, e: dict[str, Any]
                   ) -> tuple[ast.Effect, dict[str, Any]]:
        effect = self._effect(s)
        c.tick(s.span)
        args = [self.value(a, c, e) for a in s.call.args]
        return effect, dict(zip(effect.params, args, strict=True))

    def exec_Result(self, s: ast.Result, c: Ctx, e: dict[str, Any]) -> None:
        raise GameOver(self.winners(s, c, e), s.span)

    def winners(self, s: ast.Result, c: Ctx, e: dict[str, Any]) -> list[int]:
        if s.kind == "draw":
            return []
        if s.kind == "highest score":
            totals = self.rt.totals(c)
            best = max(totals)
            return [i for i, t in enumerate(totals) if t == best]
        value = self.value(s.value, c, e)  # type: ignore[arg-type]
        players = [value] if s.kind == "winner" else list(domain_items(c, value, s.span))
        if not all(isinstance(p, Player) for p in players):
            raise RuleRuntimeError(f"a winner must be a player, not {show(value)}", s.span)
        return sorted({p.index for p in players})

    # ---- statements that decide
    def gen_Block(self, s: ast.Block, c: Ctx, e: dict[str, Any]) -> Run:
        yield from self.run(s, c, e)

    def gen_If(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> Run:
        block = self.branch(s, c, e)
        if block is not None:
            yield from self.run(block, c, e)

    def gen_ForEach(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> Run:
        for _ in self.loop_items(s, c, e):
            yield from self.run(s.body, c, e)  # type: ignore[attr-defined]

    gen_Repeat = gen_While = gen_ForEach

    def gen_CallStmt(self, s: ast.CallStmt, c: Ctx, e: dict[str, Any]) -> Run:
        effect, env = self.effect_env(s, c, e)
        yield from self.run(effect.body, c, env)

    def gen_Choose(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> Run:
        if c.forced:  # a value of the chosen menu option
            e[s.var] = bound(c.forced.pop(0))
            return
        if c.replay:  # a clone replaying its segment (Ctx.log)
            option = yield c.replayed()
            e[s.var] = bound(option[1][0])
            return
        values = self.choices(s, c, e)
        if not values:
            raise RuleRuntimeError(f"nothing to choose from for '{s.var}'", s.span)
        who = c.data.mover
        if s.chooser is not None:
            player = self.value(s.chooser, c, e)
            if not isinstance(player, Player):
                raise RuleRuntimeError(f"a choice is made by a player, not {show(player)}",
                                       s.chooser.span)
            who = player.index
        options = [(None, (v,)) for v in values]
        d = Decision(who, options, secret=s.mode == "secret", choose=s, env=e)
        c.log.append(d)
        option = yield d
        e[s.var] = bound(option[1][0])

    def gen_Then(self, s: ast.Then, c: Ctx, e: dict[str, Any]) -> Run:
        """The action goes on as another (its chooses take the option's values after the
        mark; outside an option they ask)."""
        if c.forced and type(c.forced[0]) is ThenMark:
            c.forced.pop(0)
        yield from self.run(self.program.actions[s.action].body, c, {})

    def exec_Then(self, s: ast.Then, c: Ctx, e: dict[str, Any]) -> None:
        if c.forced and type(c.forced[0]) is ThenMark:
            c.forced.pop(0)
        self.run_plain(self.program.actions[s.action].body, c, {})

    def gen_Do(self, s: ast.Do, c: Ctx, e: dict[str, Any]) -> Run:
        if c.replay:  # a clone replaying its segment (Ctx.log): the menu as it was
            d = c.replayed()
        else:
            options = self.menu(s, c)
            d = Decision(c.data.mover, options, menu=s) if options else None
            c.log.append(d)
        if d is None:
            return
        option = yield d
        yield from self.perform(option, c)

    def perform(self, option: Option, c: Ctx) -> Run:
        action = self.program.actions[option[0]]
        c.data.begin_action()
        c.forced = list(option[1])  # every one is taken before the action can decide again
        yield from self.run(action.body, c, {})
        c.forced = []
        self.after_action(action, c)

    def after_action(self, action: ast.Action, c: Ctx) -> None:
        c.data.last["action"] = action.name  # while the action runs, `last` is the one before
        c.data.last["player"] = self.rt.players[c.data.mover]
        c.data.version += 1

    def perform_plain(self, option: Option, c: Ctx) -> None:
        """An action whose only decision was its own menu option: no generator needed."""
        data = c.data
        if data.moved:  # data.begin_action(), inlined on this hot path
            data.moved.clear()
        steps = self._plain_steps.get(option[0])
        if steps is None:
            action = self.program.actions[option[0]]
            steps = self._plain_steps[action.name] = tuple(
                s.var if type(s) is ast.Choose and s.mode == "mover" else self.stmt_fn(s)
                for s in action.body.stmts)
        values, k, e = option[1], 0, {}
        for step in steps:
            if type(step) is str:  # a choose: its value comes from the option
                v = values[k]
                e[step] = None if v is NOTHING else v  # bound(v), inlined
                k += 1
            else:
                step(c, e)
        last = data.last
        last["action"] = option[0]
        last["player"] = self.players[c.data.mover]
        data.version += 1
