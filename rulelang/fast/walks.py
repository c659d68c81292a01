"""The walk of the fast menus (menus.py) through an action's statements: every way of
taking it, its chooses enumerated together, the effects between them tried on a scratch copy
of the data, up to the first statement that needs another player or chance (the meaning is
rulelang/reference/menus.py's). Each statement's step of the walk is a closure made once
(walk_fn): what the statement is and what may follow it are settled when it is made.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulelang.errors import Refusal
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.decision import ThenMark
from rulelang.library.decision import bound as bound_value
from rulelang.library.semantics import Ctx
from rulelang.model.values import Site, ZoneRef

if TYPE_CHECKING:
    from rulelang.language.program import Program

# a walk from one statement of an action: (c, locals, values chosen so far, options found)
Walk = Callable[[Ctx, dict[str, Any], tuple[Any, ...], list[tuple[Any, ...]]], None]


class Walks:
    """Mixed into Executor (through Menus), whose parts it uses (declared here for the type
    checker)."""

    program: Program
    rt: Any
    _tail: dict[ast.Block, tuple[bool, ...]]
    _hoisted_puts: set[ast.Put]
    _walks: dict[ast.Block, list[Walk | None]]  # per body: walk_fn's closure of each statement
    _last_choices: dict[tuple[int, int] | tuple[int, int, str], bool]
    decides: Callable[[ast.Node], bool]  # the analysis's (language/decisions.py)
    _effect: Callable[[ast.CallStmt], ast.Effect]

    if TYPE_CHECKING:
        def choices(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> Any: ...
        def value(self, node: ast.Expr, c: Ctx, e: dict[str, Any]) -> Any: ...
        def put_possible(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> bool: ...
        def put_possible_fn(self, s: ast.Put) -> Callable[[Ctx, dict[str, Any]], bool]: ...
        def exec_Let(self, s: ast.Let, c: Ctx, e: dict[str, Any]) -> None: ...
        def execute(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> None: ...
        def block_fns(self, stmts: tuple[ast.Stmt, ...]) -> tuple[Any, ...]: ...
        def branch(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> ast.Block | None: ...

    def needs_walk(self, body: ast.Block) -> tuple[bool, ...]:
        """For each statement index: does a choose or require follow (at top level)?"""
        key = body
        if key not in self._tail:
            flags, later = [], False
            for s in reversed(body.stmts):
                later = later or isinstance(s, (ast.Choose, ast.Require, ast.Then))
                flags.append(later)
            self._tail[key] = tuple(reversed(flags))
        return self._tail[key]

    def walk(self, body: ast.Block, i: int, c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
             out: list[tuple[Any, ...]]) -> None:
        """Add to `out` the values of each way of acting through body's statements from i
        on (the values chosen so far: `values`), as the reference's menu finds them."""
        self.walk_fn(body, i)(c, e, values, out)

    def walk_fn(self, body: ast.Block, i: int) -> Walk:
        """walk(body, i, …) as a closure (c, e, values, out), made once per statement: what
        statement i is, and what follows it, is settled when it is made."""
        steps = self._walks.get(body)
        if steps is None:
            steps = self._walks[body] = [None] * (len(body.stmts) + 1)
        f: Walk | None = steps[i]
        if f is None:
            f = steps[i] = self._make_walk(body, i)
        return f

    def _make_walk(self, body: ast.Block, i: int) -> Walk:
        stmts = body.stmts
        if i == len(stmts) or not self.needs_walk(body)[i]:
            return self._walk_end(stmts, i)
        s = stmts[i]
        nxt: Walk | None = None  # the walk from i + 1, made when first needed

        def rest() -> Walk:
            nonlocal nxt
            if nxt is None:
                nxt = self.walk_fn(body, i + 1)
            return nxt
        if isinstance(s, ast.Choose) and s.mode == "mover":
            return self._walk_choose(s, stmts, i, rest)
        if isinstance(s, ast.Then):  # the action goes on as another: its ways follow
            then, mark = self.program.actions[s.action].body, ThenMark(s.action)
            return lambda c, e, values, out: self.walk_fn(then, 0)(c, {}, values + (mark,), out)
        if isinstance(s, ast.Require):
            cond = self.rt.fn(s.cond)

            def require(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                        out: list[tuple[Any, ...]]) -> None:
                if cond(c, e):
                    (nxt or rest())(c, e, values, out)
            return require
        if isinstance(s, ast.Let):
            let = self.exec_Let

            def bind(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                     out: list[tuple[Any, ...]]) -> None:
                let(s, c, e)
                (nxt or rest())(c, e, values, out)
            return bind
        if self.decides(s) or isinstance(s, ast.Choose):
            # another player or chance decides next: the option ends here
            return lambda c, e, values, out: out.append(values)
        return self._walk_effects(body, i)

    def _walk_end(self, stmts: tuple[ast.Stmt, ...], i: int) -> Walk:
        """The walk from i, after which nothing chooses or requires: the way is one when a
        first `put` has its piece and the rest runs (only checked where it may refuse)."""
        put = stmts[i] if i < len(stmts) else None
        possible = (self.put_possible_fn(put) if isinstance(put, ast.Put)
                    and put not in self._hoisted_puts else None)
        refuses = self.tail_may_refuse(stmts, i)
        runs = self.tail_runs
        if possible is None and not refuses:
            return lambda c, e, values, out: out.append(values)

        def end(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                out: list[tuple[Any, ...]]) -> None:
            if possible is not None and not possible(c, e):
                return
            if refuses and not runs(stmts, i, c, e):
                return
            out.append(values)
        return end

    def _walk_choose(self, s: ast.Choose, stmts: tuple[ast.Stmt, ...], i: int,
                     rest: Callable[[], Walk]) -> Walk:
        """The walk at the mover's choose s: one way per value when nothing after it can
        refuse one (or only a put whose piece is the same for every value), else the walk
        of the rest for each value."""
        choices = self.choices
        if self._last_choice(stmts, i + 1):
            def last(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                     out: list[tuple[Any, ...]]) -> None:
                out.extend([values + (v,) for v in choices(s, c, e)])
            return last
        if self._put_alone_after(stmts, i):  # the put's piece is the same for each value
            possible = self.put_possible_fn(stmts[i + 1])  # type: ignore[arg-type]

            def alone(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                      out: list[tuple[Any, ...]]) -> None:
                chosen = choices(s, c, e)
                if chosen and possible(c, e):
                    out.extend([values + (v,) for v in chosen])
            return alone
        var = s.var

        def each(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                 out: list[tuple[Any, ...]]) -> None:
            after = rest()
            for v in choices(s, c, e):
                e[var] = bound_value(v)
                after(c, e, values + (v,), out)
        return each

    def _last_choice(self, stmts: tuple[ast.Stmt, ...], j: int) -> bool:
        """Nothing after position j can refuse a value (the common `choose; put` shape)."""
        key = (id(stmts), j)
        found = self._last_choices.get(key)
        if found is None:
            nxt = stmts[j] if j < len(stmts) else None
            found = self._last_choices[key] = j == len(stmts) or (
                not self.needs_walk_at(stmts, j)
                and not (isinstance(nxt, ast.Put) and nxt not in self._hoisted_puts)
                and not self.tail_may_refuse(stmts, j))
        return found

    def _put_alone_after(self, stmts: tuple[ast.Stmt, ...], i: int) -> bool:
        """The choose at i is followed by the action's last refusable statement, a `put`
        whose piece does not depend on the chosen value (`choose dest …` / `put b at dest`):
        the put is possible for every value or for none, as it only needs its piece (the
        target is checked when the put runs), so it is checked once."""
        key = (id(stmts), i, "put after")
        found = self._last_choices.get(key)
        if found is None:
            nxt = stmts[i + 1] if i + 1 < len(stmts) else None
            var = stmts[i].var  # type: ignore[attr-defined]
            found = self._last_choices[key] = (
                isinstance(nxt, ast.Put) and nxt not in self._hoisted_puts
                and not self.needs_walk_at(stmts, i + 1)
                and not self.tail_may_refuse(stmts, i + 1)
                and var not in free_names(nxt.piece) | free_names(nxt.source))
        return found

    def tail_may_refuse(self, stmts: tuple[ast.Stmt, ...], j: int) -> bool:
        """After the last choice, may a later statement still refuse: a `require` or a `put`
        inside an `if`, a loop or an effect, or a second `put`? (The first statement, when
        it is a `put`, is checked on its own.)"""
        key = (id(stmts), j, "tail")
        found = self._last_choices.get(key)
        if found is None:
            first = stmts[j] if j < len(stmts) else None
            nested = [first] if first is not None and not isinstance(first, ast.Put) else []
            found = any(self._refuses(s) for s in [*nested, *stmts[j + 1:]])
            self._last_choices[key] = found
        return bool(found)

    def _refuses(self, node: ast.Node) -> bool:
        for n in walk(node):
            if isinstance(n, (ast.Require, ast.Put)):
                return True
            if isinstance(n, ast.CallStmt) and any(
                    isinstance(m, (ast.Require, ast.Put)) for m in walk(self._effect(n).body)):
                return True
        return False

    def tail_runs(self, stmts: tuple[ast.Stmt, ...], j: int, c: Ctx, e: dict[str, Any]) -> bool:
        """Run the rest of an action on a scratch copy, up to the first decision: does it
        get through without a failed requirement or an impossible effect?"""
        key = (id(stmts), j, "guarded")
        guarded = self._last_choices.get(key)
        if guarded is None:
            guarded = self._last_choices[key] = j == len(stmts) - 1 and _guarded_put(stmts[j])
        if guarded:
            verdict = self.guarded_put_runs(stmts[j], c, e)  # type: ignore[arg-type]
            if verdict is not None:
                return verdict
        saved, scratch = c.data, dict(e)
        c.data = saved.scratch()
        try:
            for s in stmts[j:]:
                if self.decides(s):
                    break
                self.execute(s, c, scratch)
            return True
        except Refusal:
            return False
        finally:
            c.data = saved

    def guarded_put_runs(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> bool | None:
        """A last `if` each of whose branches is one `put` (`if t != none` / `put … at t`,
        after an `optionally choose`): it gets through when the branch taken, if any, has its
        piece and a site or zone to put it. Conditions and values have no effects, so this is
        what running it on a scratch copy finds, without the copy (None: a target neither
        a site, a zone nor none, which that run reports)."""
        try:
            block = self.branch(s, c, dict(e))
            if block is None:
                return True
            put = block.stmts[0]
            if not self.put_possible(put, c, dict(e)):  # type: ignore[arg-type]
                return False
            target = self.value(put.target, c, dict(e))  # type: ignore[attr-defined]
        except Refusal:
            return False
        if type(target) is Site or isinstance(target, ZoneRef):
            return True
        return False if target is None else None

    def needs_walk_at(self, stmts: tuple[ast.Stmt, ...], j: int) -> bool:
        return any(isinstance(s, (ast.Choose, ast.Require, ast.Then)) for s in stmts[j:])

    def _walk_effects(self, body: ast.Block, i: int) -> Walk:
        """The walk at an effect: it and the effects in a row after it are tried on one
        scratch copy of the data, then the walk goes on from there on that copy; an effect
        that cannot happen makes the way illegal."""
        run: list[Any] = []  # (the effects' closures, the walk after them), made at the first

        def effects(c: Ctx, e: dict[str, Any], values: tuple[Any, ...],
                    out: list[tuple[Any, ...]]) -> None:
            if not run:
                stmts, flags = body.stmts, self.needs_walk(body)
                j = i + 1
                while j < len(stmts) and flags[j] and self._effect_at(stmts, j):
                    j += 1
                run.extend((self.block_fns(stmts[i:j]), self.walk_fn(body, j)))
            fns, after = run
            saved = c.data
            c.data = saved.scratch()
            try:
                for f in fns:
                    f(c, e)
                after(c, e, values, out)
            except Refusal:
                pass  # an effect that cannot happen makes this way of acting illegal
            finally:
                c.data = saved
        return effects

    def _effect_at(self, stmts: tuple[ast.Stmt, ...], i: int) -> bool:
        """Statement i is one that walk tries as an effect (_walk_effects)."""
        key = (id(stmts), i, "effect")
        found = self._last_choices.get(key)
        if found is None:
            st = stmts[i]
            found = self._last_choices[key] = not isinstance(
                st, (ast.Choose, ast.Then, ast.Require, ast.Let)) and not self.decides(st)
        return found


def free_names(node: Any) -> set[str]:
    """Every name an expression mentions (a superset of the locals it reads)."""
    return {n.id for n in walk(node) if isinstance(n, ast.Name)}


def bound_names(s: ast.Stmt) -> set[str]:
    if isinstance(s, ast.Let):
        return {name for name, _ in s.bindings}
    if isinstance(s, ast.Choose):
        return {s.var}
    if isinstance(s, ast.Put) and s.name is not None:
        return {s.name}
    return set()


def _guarded_put(s: ast.Stmt) -> bool:
    """An `if` (with or without `else`) each of whose branches is a single `put`."""
    if type(s) is not ast.If:
        return False
    blocks = [b for _, b in s.branches] + ([s.orelse] if s.orelse is not None else [])
    return all(len(b.stmts) == 1 and type(b.stmts[0]) is ast.Put for b in blocks)
