"""Statements: effects change the GameData; decisions suspend the run.

A block runs as a generator that yields a Decision whenever some player must choose and is
sent back the chosen Option. A `do` offers every complete way of taking one of its actions
as one option: the chooses of the action are enumerated together (with effects between them
tried on a scratch copy), up to the first statement that needs another player or chance.
"""
from __future__ import annotations

from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import Any

from . import ast
from .errors import RuleRuntimeError, RulelangError
from .interpreter import Ctx, iterate
from .model.values import Piece, PieceSource, Player, Site, ZoneRef, piece_source, show

Run = Generator["Decision", "Option", None]
Option = tuple  # (action name or None, chosen values): one way to decide


@dataclass(slots=True)
class Decision:
    """Someone must choose among options; the strings are made only when asked for."""
    player: int
    options: list[Option]
    secret: bool = False
    menu: ast.Do | None = None
    choose: ast.Choose | None = None
    _labels: list[str] | None = None

    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = _unique([label(o) for o in self.options])
        return self._labels


def label(option: Option) -> str:
    action, values = option
    words = [] if action is None else [action]
    words.extend(show(v) for v in values)
    return " ".join(words)


class GameOver(Exception):
    def __init__(self, winners: list[int]) -> None:
        self.winners = winners


class Executor:
    def __init__(self, runtime: Any) -> None:
        self.rt = runtime
        self.program = runtime.program
        self._decides: dict[int, bool] = {}
        self._tail: dict[int, tuple[bool, ...]] = {}
        self._plans: dict[str, tuple[tuple[ast.Put, ...], tuple[Any, ...], Any]] = {}
        self._hoisted_puts: set[ast.Put] = set()
        self._exec: dict[type, Any] = {}
        self._stmt_fns: dict[int, Any] = {}
        self._plain_steps: dict[str, tuple[Any, ...]] = {}
        self._fns = runtime._fns  # the runtime's closure cache, read directly on hot paths

    # ---- static analysis
    def decides(self, s: ast.Node) -> bool:
        """May this statement ask a player (or chance) to decide?"""
        key = id(s)
        if key not in self._decides:
            self._decides[key] = False  # recursion guard
            self._decides[key] = self._analyse(s)
        return self._decides[key]

    def _analyse(self, s: ast.Node) -> bool:
        if isinstance(s, ast.Choose):
            return s.mode != "random"
        if isinstance(s, ast.Do):
            return True
        if isinstance(s, ast.Block):
            return any(self.decides(x) for x in s.stmts)
        if isinstance(s, ast.If):
            return any(self.decides(b) for _, b in s.branches) or (
                s.orelse is not None and self.decides(s.orelse))
        if isinstance(s, (ast.ForEach, ast.Repeat, ast.While)):
            return self.decides(s.body)
        if isinstance(s, ast.CallStmt):
            return self.decides(self._effect(s).body)
        return False

    def _effect(self, s: ast.CallStmt) -> ast.Effect:
        return self.program.effects[self.program.refs[id(s.call.func)][1]]

    def needs_walk(self, body: ast.Block) -> tuple[bool, ...]:
        """For each statement index: does a choose or require follow (at top level)?"""
        key = id(body)
        if key not in self._tail:
            flags, later = [], False
            for s in reversed(body.stmts):
                later = later or isinstance(s, (ast.Choose, ast.Require))
                flags.append(later)
            self._tail[key] = tuple(reversed(flags))
        return self._tail[key]

    # ---- running blocks
    def run(self, block: ast.Block, c: Ctx, e: dict) -> Run:
        for s in block.stmts:
            if self.decides(s):
                yield from getattr(self, f"gen_{type(s).__name__}")(s, c, e)
            else:
                self.execute(s, c, e)

    def run_plain(self, block: ast.Block, c: Ctx, e: dict) -> None:
        """A block known not to decide."""
        for s in block.stmts:
            self.execute(s, c, e)

    def execute(self, s: ast.Stmt, c: Ctx, e: dict) -> None:
        method = self._exec.get(type(s))
        if method is None:
            method = getattr(self, f"exec_{type(s).__name__}", None)
            if method is None:
                raise NotImplementedError(type(s).__name__)
            self._exec[type(s)] = method
        method(s, c, e)

    # ---- statements as closures (the executed form of plain statements on hot paths)
    def stmt_fn(self, s: ast.Stmt) -> Any:
        f = self._stmt_fns.get(id(s))
        if f is None:
            make = getattr(self, f"fn_{type(s).__name__}", None)
            f = make(s) if make is not None else self._generic_fn(s)
            self._stmt_fns[id(s)] = f
        return f

    def block_fns(self, stmts: tuple[ast.Stmt, ...]) -> tuple[Any, ...]:
        return tuple(self.stmt_fn(s) for s in stmts)

    def _generic_fn(self, s: ast.Stmt) -> Any:
        method = getattr(self, f"exec_{type(s).__name__}")
        return lambda c, e: method(s, c, e)

    def fn_Let(self, s: ast.Let) -> Any:
        pairs = [(name, self.rt.fn(value)) for name, value in s.bindings]

        def let(c: Ctx, e: dict) -> None:
            for name, f in pairs:
                e[name] = f(c, e)
        return let

    def fn_Put(self, s: ast.Put) -> Any:
        piece_f, target_f = self.rt.fn(s.piece), self.rt.fn(s.target)
        slow = self.exec_Put
        if s.source is not None:
            return lambda c, e: slow(s, c, e)

        def put(c: Ctx, e: dict) -> None:
            what = piece_f(c, e)
            if type(what) is PieceSource:
                data = c.data
                piece = data.take_from(what.zone, what.kind)
                target = target_f(c, e)
                if piece is not None and type(target) is Site:
                    data.put(piece, target)
                    data.last["site"] = target
                    data.last["piece"] = piece
                    return
            slow(s, c, e)  # anything else, and every error message
        return put

    def fn_If(self, s: ast.If) -> Any:
        branches = [(self.rt.fn(cond), self.block_fns(body.stmts)) for cond, body in s.branches]
        orelse = self.block_fns(s.orelse.stmts) if s.orelse is not None else ()

        def if_(c: Ctx, e: dict) -> None:
            for cond, body in branches:
                if cond(c, e):
                    for f in body:
                        f(c, e)
                    return
            for f in orelse:
                f(c, e)
        return if_

    def fn_Require(self, s: ast.Require) -> Any:
        cond, slow = self.rt.fn(s.cond), self.exec_Require

        def require(c: Ctx, e: dict) -> None:
            if not cond(c, e):
                slow(s, c, e)
        return require

    def value(self, node: ast.Expr, c: Ctx, e: dict) -> Any:
        f = self._fns.get(id(node))
        if f is None:
            f = self.rt.fn(node)
        return f(c, e)

    def exec_Let(self, s: ast.Let, c: Ctx, e: dict) -> None:
        for name, value in s.bindings:
            e[name] = self.value(value, c, e)

    def exec_Require(self, s: ast.Require, c: Ctx, e: dict) -> None:
        if not self.value(s.cond, c, e):
            raise RuleRuntimeError(f"requirement failed: {s.message or self.text(s.cond)}",
                                   s.span)

    def exec_Choose(self, s: ast.Choose, c: Ctx, e: dict) -> None:  # chance only
        values = self.choices(s, c, e)
        if not values:
            raise RuleRuntimeError(f"nothing to choose from for '{s.var}'", s.span)
        e[s.var] = values[c.data.rng.randrange(len(values))]

    def exec_Put(self, s: ast.Put, c: Ctx, e: dict) -> None:
        piece = self.piece_of(s, c, e)
        self.place(piece, self.value(s.target, c, e), c, s)

    def exec_Move(self, s: ast.Move, c: Ctx, e: dict) -> None:
        piece = self.value(s.piece, c, e)
        if not isinstance(piece, Piece):
            raise RuleRuntimeError(f"'move' needs a piece, not {show(piece)}", s.piece.span)
        self.place(piece, self.value(s.target, c, e), c, s)

    def exec_Remove(self, s: ast.Remove, c: Ctx, e: dict) -> None:
        piece = self.value(s.piece, c, e)
        if not isinstance(piece, Piece):
            raise RuleRuntimeError(f"'remove' needs a piece, not {show(piece)}", s.piece.span)
        c.data.lift(piece)

    def piece_of(self, s: ast.Put, c: Ctx, e: dict) -> Piece:
        what = self.value(s.piece, c, e)
        if type(what) is PieceSource and s.source is None:  # the common `ball of mover`
            piece = c.data.take_from(what.zone, what.kind)
            if piece is not None:
                return piece
        if isinstance(what, Piece):
            return what
        if s.source is not None:
            zone = self.value(s.source, c, e)
            what = piece_source(what if isinstance(what, str) else None, zone)
        if isinstance(what, PieceSource) and isinstance(what.zone, ZoneRef):
            if what.zone not in c.data.zones:
                raise RuleRuntimeError(f"there is no zone '{what.zone.name}' for this player",
                                       s.piece.span)
            piece = c.data.take_from(what.zone, what.kind)
            if piece is None:
                raise RuleRuntimeError(f"no {what.kind or 'piece'} left in "
                                       f"{self.zone_text(what.zone)}", s.piece.span)
            return piece
        raise RuleRuntimeError(f"'put' needs a piece, not {show(what)}", s.piece.span)

    def put_possible(self, s: ast.Put, c: Ctx, e: dict) -> bool:
        try:
            self.piece_of(s, c, e)
            return True
        except RuleRuntimeError:
            return False

    def place(self, piece: Piece, target: Any, c: Ctx, s: ast.Stmt) -> None:
        if type(target) is Site:
            c.data.put(piece, target)
            c.data.last["site"] = target
        elif isinstance(target, ZoneRef):
            c.data.to_zone(piece, target)
        else:
            raise RuleRuntimeError(f"a piece can go to a site or a zone, not {show(target)}",
                                   s.span)
        c.data.last["piece"] = piece

    def zone_text(self, z: ZoneRef) -> str:
        return z.name if z.owner is None else f"{z.name} of {self.rt.players[z.owner].name}"

    def exec_Set(self, s: ast.Set, c: Ctx, e: dict) -> None:
        table, key = self.slot(s.target, c, e)
        value = self.value(s.value, c, e)
        table[key] = self.clamp(key, value, c) if table is c.data.counters else value

    def exec_Increase(self, s: ast.Increase, c: Ctx, e: dict) -> None:
        table, key = self.slot(s.target, c, e)
        new = table[key] + s.sign * self.value(s.amount, c, e)
        table[key] = self.clamp(key, new, c) if table is c.data.counters else new

    def slot(self, t: ast.Expr, c: Ctx, e: dict) -> tuple[dict, tuple]:
        name_node = t.left if isinstance(t, ast.Of) else t
        cat, name = self.program.refs[id(name_node)]
        owner = None
        if isinstance(t, ast.Of):
            player = self.value(t.right, c, e)
            if not isinstance(player, Player):
                raise RuleRuntimeError(f"'of' needs a player, not {show(player)}", t.span)
            owner = player.index
        table = c.data.counters if cat == "counter" else c.data.vars
        if (name, owner) not in table:
            raise RuleRuntimeError(f"'{name}' belongs to each player: write '{name} of "
                                   "<player>'", t.span)
        return table, (name, owner)

    def clamp(self, key: tuple, value: int, c: Ctx) -> int:
        lo, hi = self.rt.counter_bounds(key[0], c)
        if hi is not None and value > hi:
            value = hi
        if lo is not None and value < lo:
            value = lo
        return value

    def exec_If(self, s: ast.If, c: Ctx, e: dict) -> None:
        block = self.branch(s, c, e)
        if block is not None:
            for x in block.stmts:
                self.execute(x, c, e)

    def branch(self, s: ast.If, c: Ctx, e: dict) -> ast.Block | None:
        for cond, body in s.branches:
            if self.value(cond, c, e):
                return body
        return s.orelse

    def loop_items(self, s: ast.Stmt, c: Ctx, e: dict) -> Iterator[None]:
        if isinstance(s, ast.ForEach):
            for v in tuple(iterate(c, self.value(s.domain, c, e))):
                c.tick(s.span)
                e[s.var] = v
                yield None
        elif isinstance(s, ast.Repeat):
            for _ in range(self.value(s.count, c, e)):
                c.tick(s.span)
                yield None
        else:
            while self.value(s.cond, c, e):  # type: ignore[attr-defined]
                c.tick(s.span)
                yield None

    def exec_ForEach(self, s: ast.Stmt, c: Ctx, e: dict) -> None:
        for _ in self.loop_items(s, c, e):
            for x in s.body.stmts:  # type: ignore[attr-defined]
                self.execute(x, c, e)

    exec_Repeat = exec_While = exec_ForEach

    def exec_CallStmt(self, s: ast.CallStmt, c: Ctx, e: dict) -> None:
        effect, env = self.effect_env(s, c, e)
        for x in effect.body.stmts:
            self.execute(x, c, env)

    def effect_env(self, s: ast.CallStmt, c: Ctx, e: dict) -> tuple[ast.Effect, dict]:
        effect = self._effect(s)
        c.tick(s.span)
        args = [self.value(a, c, e) for a in s.call.args]
        return effect, dict(zip(effect.params, args, strict=True))

    def exec_Shuffle(self, s: ast.Shuffle, c: Ctx, e: dict) -> None:
        zone = self.value(s.zone, c, e)
        if not isinstance(zone, ZoneRef):
            raise RuleRuntimeError(f"only a zone can be shuffled, not {show(zone)}", s.span)
        c.data.rng.shuffle(c.data.zones[zone])

    def exec_Reveal(self, s: ast.Reveal, c: Ctx, e: dict) -> None:
        c.data.revealed.add(s.var)

    def exec_Return(self, s: ast.Return, c: Ctx, e: dict) -> None:
        raise RuleRuntimeError("'return' belongs in a function (def)", s.span)

    def exec_Result(self, s: ast.Result, c: Ctx, e: dict) -> None:
        raise GameOver(self.winners(s, c, e))

    def winners(self, s: ast.Result, c: Ctx, e: dict) -> list[int]:
        if s.kind == "draw":
            return []
        if s.kind == "highest score":
            totals = self.rt.totals(c)
            best = max(totals)
            return [i for i, t in enumerate(totals) if t == best]
        value = self.value(s.value, c, e)  # type: ignore[arg-type]
        players = [value] if s.kind == "winner" else list(iterate(c, value))
        if not all(isinstance(p, Player) for p in players):
            raise RuleRuntimeError(f"a winner must be a player, not {show(value)}", s.span)
        return sorted({p.index for p in players})

    # ---- statements that decide
    def gen_Block(self, s: ast.Block, c: Ctx, e: dict) -> Run:
        yield from self.run(s, c, e)

    def gen_If(self, s: ast.If, c: Ctx, e: dict) -> Run:
        block = self.branch(s, c, e)
        if block is not None:
            yield from self.run(block, c, e)

    def gen_ForEach(self, s: ast.Stmt, c: Ctx, e: dict) -> Run:
        for _ in self.loop_items(s, c, e):
            yield from self.run(s.body, c, e)  # type: ignore[attr-defined]

    gen_Repeat = gen_While = gen_ForEach

    def gen_CallStmt(self, s: ast.CallStmt, c: Ctx, e: dict) -> Run:
        effect, env = self.effect_env(s, c, e)
        yield from self.run(effect.body, c, env)

    def gen_Choose(self, s: ast.Choose, c: Ctx, e: dict) -> Run:
        forced = e.get("\0forced")
        if forced:
            e[s.var] = forced.pop(0)
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
        option = yield Decision(who, options, secret=s.mode == "secret", choose=s)
        e[s.var] = option[1][0]

    def choices(self, s: ast.Choose, c: Ctx, e: dict) -> list[Any]:
        domain = list(iterate(c, self.value(s.domain, c, e)))
        if s.cond is None:
            return domain
        cond, out = self.rt.fn(s.cond), []
        for v in domain:
            e[s.var] = v
            if cond(c, e):
                out.append(v)
        return out

    def gen_Do(self, s: ast.Do, c: Ctx, e: dict) -> Run:
        options = self.menu(s, c)
        if not options:
            return
        option = yield Decision(c.data.mover, options, menu=s)
        yield from self.perform(option, c)

    def perform(self, option: Option, c: Ctx) -> Run:
        action = self.program.actions[option[0]]
        env: dict = {"\0forced": list(option[1])}
        yield from self.run(action.body, c, env)
        self.after_action(action, c)

    def after_action(self, action: ast.Action, c: Ctx) -> None:
        c.data.last["action"] = action.name  # while the action runs, `last` is the one before
        c.data.last["player"] = self.rt.players[c.data.mover]

    def perform_plain(self, option: Option, c: Ctx) -> None:
        """An action whose only decision was its own menu option: no generator needed."""
        action = self.program.actions[option[0]]
        steps = self._plain_steps.get(action.name)
        if steps is None:
            steps = self._plain_steps[action.name] = tuple(
                s.var if type(s) is ast.Choose else self.stmt_fn(s) for s in action.body.stmts)
        values, k, e = option[1], 0, {}
        for step in steps:
            if type(step) is str:  # a choose: its value comes from the option
                e[step] = values[k]
                k += 1
            else:
                step(c, e)
        last = c.data.last
        last["action"] = action.name
        last["player"] = self.rt.players[c.data.mover]

    def single_decision_turns(self) -> bool:
        """Does every turn ask exactly one `do`, before any change, and nothing else?"""
        turn, end = self.program.sections["turn"], self.program.sections.get("end")
        deciding = [s for s in turn.stmts if self.decides(s)]
        if len(deciding) != 1 or not isinstance(deciding[0], ast.Do):
            return False
        prefix = turn.stmts[: turn.stmts.index(deciding[0])]
        if not all(isinstance(s, (ast.Let, ast.Require)) for s in prefix):
            return False
        if end is not None and self.decides(end):
            return False
        return all(self._plain_action(self.program.actions[a]) for a in deciding[0].actions)

    def _plain_action(self, action: ast.Action) -> bool:
        return all(not self.decides(s) or (isinstance(s, ast.Choose) and s.mode == "mover")
                   for s in action.body.stmts)

    # ---- enumerating a menu
    def menu(self, s: ast.Do, c: Ctx) -> list[Option]:
        out: list[Option] = []
        for name in s.actions:
            puts, requires, shape = self.plan(name)
            if puts and not all(self.put_possible(p, c, {}) for p in puts):
                continue
            if requires and not all(r(c, {}) for r in requires):
                continue
            if shape is None:  # no choice: the action itself is the option
                out.append((name, ()))
            elif shape is not True:  # one choose then effects: one option per value
                out.extend([(name, (v,)) for v in self.choices(shape, c, {})])
            else:
                paths: list[tuple] = []
                self.walk(self.program.actions[name].body, 0, c, {}, (), paths)
                out.extend([(name, p) for p in paths])
        return out

    def plan(self, name: str) -> tuple[tuple[ast.Put, ...], tuple[Any, ...], Any]:
        """Per action, once: the puts and leading requires checked before enumerating, and
        the shape: None (no choice), the lone Choose (one choice, then effects), or True
        (the general walk)."""
        found = self._plans.get(name)
        if found is None:
            body = self.program.actions[name].body
            puts = self._independent_tail_puts(body)
            self._hoisted_puts.update(puts)
            stmts = body.stmts
            k = 0
            while k < len(stmts) and isinstance(stmts[k], ast.Require):
                k += 1
            requires = tuple(self.rt.fn(r.cond) for r in stmts[:k])
            rest = stmts[k:]
            shape: Any = True
            if self._last_choice(stmts, k):
                shape = None
            elif rest and isinstance(rest[0], ast.Choose) and rest[0].mode == "mover" and \
                    self._last_choice(stmts, k + 1):
                shape = rest[0]
            if shape is True:
                requires = ()  # the walk checks them in order
            found = self._plans[name] = (puts, requires, shape)
        return found

    def _independent_tail_puts(self, body: ast.Block) -> tuple[ast.Put, ...]:
        flags = self.needs_walk(body)
        bound: set[str] = set()
        for i, s in enumerate(body.stmts):
            if not flags[i]:
                if isinstance(s, ast.Put) and not (free_names(s.piece) | free_names(s.source)) \
                        & bound:
                    return (s,)
                return ()
            bound.update(bound_names(s))
        return ()

    def walk(self, body: ast.Block, i: int, c: Ctx, e: dict, values: tuple,
             out: list[tuple]) -> None:
        stmts = body.stmts
        if i == len(stmts) or not self.needs_walk(body)[i]:
            if i < len(stmts) and isinstance(stmts[i], ast.Put) and \
                    stmts[i] not in self._hoisted_puts and not self.put_possible(stmts[i], c, e):
                return
            out.append(values)
            return
        s = stmts[i]
        if isinstance(s, ast.Choose) and s.mode == "mover":
            if self._last_choice(stmts, i + 1):
                out.extend([values + (v,) for v in self.choices(s, c, e)])
                return
            for v in self.choices(s, c, e):
                e[s.var] = v
                self.walk(body, i + 1, c, e, values + (v,), out)
        elif isinstance(s, ast.Require):
            if self.value(s.cond, c, e):
                self.walk(body, i + 1, c, e, values, out)
        elif isinstance(s, ast.Let):
            self.exec_Let(s, c, e)
            self.walk(body, i + 1, c, e, values, out)
        elif self.decides(s) or isinstance(s, ast.Choose):
            out.append(values)  # another player or chance decides next: the option ends here
        else:
            self.try_effect(body, i, c, e, values, out)

    def _last_choice(self, stmts: tuple[ast.Stmt, ...], j: int) -> bool:
        """Nothing after position j can refuse a value (the common `choose; put` shape)."""
        if j == len(stmts):
            return True
        nxt = stmts[j]
        return not self.needs_walk_at(stmts, j) and not (
            isinstance(nxt, ast.Put) and nxt not in self._hoisted_puts)

    def needs_walk_at(self, stmts: tuple[ast.Stmt, ...], j: int) -> bool:
        return any(isinstance(s, (ast.Choose, ast.Require)) for s in stmts[j:])

    def try_effect(self, body: ast.Block, i: int, c: Ctx, e: dict, values: tuple,
                   out: list[tuple]) -> None:
        saved = c.data
        c.data = saved.copy()
        try:
            self.execute(body.stmts[i], c, e)
            self.walk(body, i + 1, c, e, values, out)
        except RuleRuntimeError:
            pass  # an effect that cannot happen makes this way of acting illegal
        finally:
            c.data = saved

    # ---- explaining
    def text(self, node: ast.Node) -> str:
        span = node.span
        src = self.program.loaded.sources.get(span.path)
        if src is None or span.line != span.end_line:
            return "a condition"
        return src.line(span.line)[span.column - 1: span.end_column - 1]

    def explain(self, d: Decision, text: str, c: Ctx) -> str:
        """Why `text` is not among the options of decision d."""
        words = text.split()
        if d.menu is None:
            return f"'{text}' is not one of the choices for '{d.choose.var}'"  # type: ignore
        names = d.menu.actions
        if not words or words[0] not in names:
            return f"'{words[0] if words else text}' is not an action now (actions: " \
                   f"{', '.join(names)})"
        action = self.program.actions[words[0]]
        if not any(o[0] == words[0] for o in d.options):
            return f"'{words[0]}' is not possible now: {self.first_failure(action, c)}"
        return f"'{text}' is not a legal way to {words[0]}: " + self.bad_value(action, words, d)

    def first_failure(self, action: ast.Action, c: Ctx) -> str:
        e: dict = {}
        for s in action.body.stmts:
            if isinstance(s, ast.Require):
                try:
                    ok = self.value(s.cond, c, e)
                except RulelangError:
                    ok = False
                if not ok:
                    return s.message or f"requires {self.text(s.cond)}"
            elif isinstance(s, ast.Let):
                self.exec_Let(s, c, e)
            else:
                break
        return "no choice satisfies its conditions"

    def bad_value(self, action: ast.Action, words: list[str], d: Decision) -> str:
        chooses = [s for s in action.body.stmts if isinstance(s, ast.Choose) and s.mode == "mover"]
        labels = [lab.split() for o, lab in zip(d.options, d.labels(), strict=True)
                  if o[0] == action.name]
        for k, s in enumerate(chooses):
            prefix = words[: k + 2]
            if k + 1 >= len(words) or not any(lab[: k + 2] == prefix for lab in labels):
                got = words[k + 1] if k + 1 < len(words) else "nothing"
                cond = f" where {self.text(s.cond)}" if s.cond is not None else ""
                return f"'{got}' is not a choice for '{s.var}' (from {self.text(s.domain)}" \
                       f"{cond})"
        return "too many values"


def _unique(labels: list[str]) -> list[str]:
    """Labels must be unique among the options: number repeated ones."""
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        n = seen.get(lab, 0) + 1
        seen[lab] = n
        out.append(lab if n == 1 else f"{lab} #{n}")
    return out


def free_names(node: Any) -> set[str]:
    """Every name an expression mentions (a superset of the locals it reads)."""
    if node is None:
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    out: set[str] = set()
    for f in getattr(node, "__dataclass_fields__", {}):
        child = getattr(node, f)
        for item in child if isinstance(child, tuple) else (child,):
            if isinstance(item, ast.Node):
                out |= free_names(item)
    return out


def bound_names(s: ast.Stmt) -> set[str]:
    if isinstance(s, ast.Let):
        return {name for name, _ in s.bindings}
    if isinstance(s, ast.Choose):
        return {s.var}
    return set()
