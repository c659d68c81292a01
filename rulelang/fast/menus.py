"""The fast menus: the options of a `do`, enumerated once per decision (their meaning is
rulelang/reference/menus.py's).

Every complete way of taking one of the actions is one option: the action's chooses are
enumerated together, effects between them tried on a scratch copy of the data, up to the
first statement that needs another player or chance. Common shapes skip the general walk:
an action with no choice, one `choose` followed only by effects, and two (a piece, then
where it goes).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from rulelang.fast.walks import Walks, bound_names, free_names
from rulelang.language import ast
from rulelang.library.decision import Option, Options
from rulelang.library.decision import bound as bound_value
from rulelang.library.semantics import Ctx, iterate

if TYPE_CHECKING:
    from rulelang.language.program import Program


class Menus(Walks):
    """Mixed into Executor, whose parts it uses (declared here for the type checker)."""

    program: Program
    rt: Any
    _tail: dict[ast.Block, tuple[bool, ...]]
    _plans: dict[str, tuple[tuple[ast.Put, ...], tuple[Any, ...], Any]]
    _hoisted_puts: set[ast.Put]
    _then_targets: set[str]  # the actions some action goes on as (`then NAME`)
    _last_choices: dict[tuple[int, int] | tuple[int, int, str], bool]
    _choice_plans: dict[ast.Choose, Any]
    _menu_entries: dict[tuple[str, ...], tuple[tuple[Any, ...], ...]]
    _sample_plans: dict[tuple[str, ...], tuple[tuple[tuple[Any, ...], bool], ...]]  # sample's
    _lazy_at: dict[str, tuple[int, int] | None]  # lazy_choose's verdicts
    decides: Callable[[ast.Node], bool]  # the analysis's (language/decisions.py)
    chance: Callable[[ast.Node], bool]
    _effect: Callable[[ast.CallStmt], ast.Effect]

    if TYPE_CHECKING:
        def choices(self, s: ast.Choose, c: Ctx, e: dict[str, Any]) -> Any: ...
        def choice_fn(self, s: ast.Choose) -> Any: ...
        def value(self, node: ast.Expr, c: Ctx, e: dict[str, Any]) -> Any: ...
        def put_possible(self, s: ast.Put, c: Ctx, e: dict[str, Any]) -> bool: ...
        def put_possible_fn(self, s: ast.Put) -> Callable[[Ctx, dict[str, Any]], bool]: ...
        def exec_Let(self, s: ast.Let, c: Ctx, e: dict[str, Any]) -> None: ...
        def execute(self, s: ast.Stmt, c: Ctx, e: dict[str, Any]) -> None: ...
        def stmt_fn(self, s: ast.Stmt) -> Any: ...
        def block_fns(self, stmts: tuple[ast.Stmt, ...]) -> tuple[Any, ...]: ...
        def branch(self, s: ast.If, c: Ctx, e: dict[str, Any]) -> ast.Block | None: ...

    def single_decision_turns(self) -> bool:
        """Does every turn ask exactly one `do` (only requires before it) and nothing else,
        and is each of its actions decided by that one option?"""
        turn, end = self.program.sections["turn"], self.program.sections.get("end")
        deciding = [s for s in turn.stmts if self.decides(s)]
        if len(deciding) != 1 or not isinstance(deciding[0], ast.Do):
            return False
        prefix = turn.stmts[: turn.stmts.index(deciding[0])]
        if not all(isinstance(s, ast.Require) for s in prefix):
            return False
        if end is not None and self.decides(end):
            return False
        return all(self._plain_action(self.program.actions[a]) for a in deciding[0].actions)

    def _plain_action(self, action: ast.Action) -> bool:
        """Its only decisions are the mover's chooses, all before any chance."""
        chance_seen = False
        for s in action.body.stmts:
            if isinstance(s, ast.Choose) and s.mode == "mover":
                if chance_seen:
                    return False
            elif self.decides(s):
                return False
            chance_seen = chance_seen or self.chance(s)
        return True

    def menu(self, s: ast.Do, c: Ctx, actions: tuple[str, ...] | None = None) -> Options:
        """The options of `do …` (of the group `actions` of a `do a otherwise b`, when given:
        the menu of the whole `do` is that of its first group that has a way)."""
        if actions is None:
            moved = c.data.moved
            if moved:  # data.begin_action(), inlined on this hot path
                moved.clear()
            if s.tiers:
                for group in s.groups():
                    menu = self.menu(s, c, group)
                    if menu:
                        break
                return menu
            actions = s.actions
        entries = self._menu_entries.get(actions)
        if entries is None:
            entries = self._menu_entries[actions] = self.menu_entries(actions)
        segments: list[tuple[Any, ...]] = []
        for name, puts, requires, shape in entries:
            segment = self.entry_segment(name, puts, requires, shape, c)
            if segment is not None:
                segments.append(segment)
        return Options(segments)

    def entry_segment(self, name: str, puts: tuple[Any, ...], requires: tuple[Any, ...],
                      shape: Any, c: Ctx) -> tuple[Any, Any] | None:
        """The segment of a menu (Options) that an action's entry (menu_entries) lists
        now: (name, values) or (None, options); None when it has no way."""
        if requires and not self.requires_hold(requires, c):
            return None
        segment: tuple[Any, Any] | None = None
        if shape is None:  # no choice: the action itself is the option
            segment = (None, [(name, ())])
        elif type(shape) is tuple:
            options = self.pairs(name, shape, c)
            if options:
                segment = (None, options)
        elif shape is not True:  # one choose then effects: one option per value
            values = shape(c, {})
            if type(values) is not tuple:
                values = tuple(iterate(c, values))
            if values:
                segment = (name, values)
        else:
            paths: list[tuple[Any, ...]] = []
            kept, c.values = c.values, None  # (the ways' trials: not the segment's values)
            try:
                self.walk(self.program.actions[name].body, 0, c, {}, (), paths)
            finally:
                c.values = kept
            if paths:
                segment = (None, [(name, p) for p in paths])
        # the put is tried after the ways, where the reference meets it: a rule error
        # while they are enumerated is reported even when the put refuses
        if segment is not None and puts:
            for possible in puts:  # (closures: put_possible_fn)
                if not possible(c, {}):
                    return None
        return segment

    # ---- one option drawn at random, for playouts
    def sample(self, s: ast.Do, c: Ctx, rng: Any) -> Option | None:
        """One option of `do …` drawn uniformly at random (each option of menu(s, c) as
        likely; None when the menu is empty), by `rng.randrange`, without trying every way
        of acting where an action's first choose is followed by effects that may refuse
        (`choose s …; put …; require …`; `choose src …; remove …; choose site dest …`:
        lazy_choose). Such an action's options are its first choose's values, each standing
        for as many options as it can have at most (its bound: 1, or the board's sites for
        a last `choose site`), its ways tried only when drawn: a draw that lands on one of
        its ways takes it, one past them draws again without the phantoms of that value.
        Every option has one place among those drawn from, at every draw: each is as likely
        (rejection sampling). The other actions' options are listed as menu() lists them
        (where nothing is tried the draw is rng.choice of the menu's). A value with more
        ways than its bound makes the whole menu listed. A rule error of a way not drawn
        is not met."""
        moved = c.data.moved
        if moved:  # data.begin_action(), as menu() does
            moved.clear()
        try:
            for group in s.groups():
                option = self._sample_group(s, group, c, rng)
                if option is not None:
                    return option
            return None
        except _Unbounded:
            options = self.menu(s, c)
            return options[rng.randrange(len(options))] if options else None

    def _sample_group(self, s: ast.Do, actions: tuple[str, ...], c: Ctx,
                      rng: Any) -> Option | None:
        plan = self._sample_plans.get(actions)
        if plan is None:  # each action's menu entry, and whether its first choose is lazy
            entries = self._menu_entries.get(actions)
            if entries is None:
                entries = self._menu_entries[actions] = self.menu_entries(actions)
            plan = self._sample_plans[actions] = tuple(
                (entry, entry[3] is True and self.lazy_choose(entry[0]) is not None)
                for entry in entries)
        # pools: [values, trial, bound, action]: options listed (trial None, bound 1; each
        # (action, (v,)) when the action is given) or the untried values of an action's
        # first choose (`bound` places each)
        pools: list[list[Any]] = []
        total = 0
        for (name, puts, requires, shape), lazy in plan:
            if not lazy:  # listed as menu() does
                segment = self.entry_segment(name, puts, requires, shape, c)
                if segment is not None:
                    action, values = segment
                    pools.append([values, None, 1, action])
                    total += len(values)
            elif not puts or all(possible(c, {}) for possible in puts):
                # (menu() checks the puts after the ways: the same verdict)
                pool = self._lazy_pool(name, c)
                if pool is not None:
                    pools.append(pool)
                    total += len(pool[0]) * pool[2]
        while total:
            k = rng.randrange(total)
            at = 0
            while k >= len(pools[at][0]) * pools[at][2]:
                k -= len(pools[at][0]) * pools[at][2]
                at += 1
            values, trial, bound, action = pools[at]
            if trial is None:
                option: Option = values[k] if action is None else (action, (values[k],))
                return option
            i, j = divmod(k, bound)
            ways = trial(values[i])  # the value's options, now known
            if len(ways) > bound:
                raise _Unbounded
            values[i] = values[-1]  # (no longer untried)
            values.pop()
            if j < len(ways):
                return ways[j]  # type: ignore[no-any-return]
            if ways:
                pools.append([ways, None, 1, None])
            total -= bound - len(ways)  # its phantoms go: drawn again
        return None

    def lazy_choose(self, name: str) -> tuple[int, int] | None:
        """(index, bound) of the action's first choose when its body is requires and lets,
        that choose (the mover's), and statements with no `then` nor another player's
        decision (at top level), of which one may refuse a value or one more choose, the
        last, offers sites: each value then has at most `bound` options (1, or one per
        site of the board and one for none, for that last choose's values), found by trying
        the value alone."""
        if name not in self._lazy_at:
            stmts, found = self.program.actions[name].body.stmts, None
            k = 0
            while k < len(stmts) and isinstance(stmts[k], (ast.Require, ast.Let)):
                k += 1
            rest = stmts[k + 1:]
            later = [x for x in rest if isinstance(x, ast.Choose)]
            if not _mover_choose(stmts, k) or any(
                    isinstance(x, ast.Then) or (self.decides(x) and x not in later)
                    for x in rest):
                pass
            elif not later:
                if not self._last_choice(stmts, k + 1) and not self._put_alone_after(stmts, k):
                    found = (k, 1)
            elif len(later) == 1 and _mover_choose(tuple(later), 0) and later[0].kind == "site":
                sites = getattr(self.rt.board, "sites", ())
                found = (k, len(sites) + 1)
            self._lazy_at[name] = found
        return self._lazy_at[name]

    def _lazy_pool(self, name: str, c: Ctx) -> list[Any] | None:
        """The values of the action's first choose (lazy_choose), the trial of one value
        (its options: walk's, from there) and the bound; None when a require before the
        choose fails."""
        body = self.program.actions[name].body
        found = self._lazy_at[name]
        assert found is not None
        i, bound = found
        e: dict[str, Any] = {}
        choose = body.stmts[i]
        kept, c.values = c.values, None  # (the ways' trials: not the segment's values)
        try:
            for s in body.stmts[:i]:  # as walk() meets them
                if isinstance(s, ast.Require):
                    if not self.value(s.cond, c, e):
                        return None
                else:
                    self.exec_Let(s, c, e)  # type: ignore[arg-type]
            values = list(self.choices(choose, c, e))  # type: ignore[arg-type]
        finally:
            c.values = kept
        var, walk = choose.var, self.walk_fn(body, i + 1)  # type: ignore[attr-defined]

        def trial(v: Any) -> list[Option]:
            paths: list[tuple[Any, ...]] = []
            scratch = dict(e)
            scratch[var] = bound_value(v)
            kept, c.values = c.values, None
            try:
                walk(c, scratch, (v,), paths)
            finally:
                c.values = kept
            return [(name, p) for p in paths]
        return [values, trial, bound, None]

    def menu_entries(self, actions: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
        """Per action of a menu, once: (name, the puts checked after its ways, as closures
        (c, e) -> whether it can take its piece, the leading requires, the shape — a lone
        choose as its values' closure, choice_fn)."""
        found = []
        for name in actions:
            puts, requires, shape = self.plan(name)
            if isinstance(shape, ast.Choose):
                shape = self.choice_fn(shape)
            found.append((name, tuple(self.put_possible_fn(p) for p in puts), requires, shape))
        return tuple(found)

    def pairs(self, name: str, shape: tuple[ast.Choose, ast.Choose],
              c: Ctx) -> list[tuple[Any, ...]]:
        """The options of `choose a …; choose b … (a)`, then effects, in order."""
        first, second = shape
        e: dict[str, Any] = {}
        out: list[tuple[Any, ...]] = []
        var = first.var
        seconds = self._choice_plans.get(second)  # the closure choices(second, …) calls
        if seconds is None:
            seconds = self._choice_plans[second] = self.choice_fn(second)
        key = (id(second), 0, "apart")
        apart = self._last_choices.get(key)
        if apart is None:  # the second's values do not depend on the first value
            apart = self._last_choices[key] = var not in free_names(second)
        if apart:  # computed once (the reference computes them for each first value)
            firsts = self.choices(first, c, e)
            if not firsts:
                return out
            e[var] = bound_value(firsts[0])
            bs = seconds(c, e)
            return [(name, (a, b)) for a in firsts for b in bs]
        if getattr(seconds, "pairs_var", None) == var:  # a where of sites: in one loop
            seconds.pairs(c, e, self.choices(first, c, e), name, out)
            return out
        for a in self.choices(first, c, e):
            e[var] = bound_value(a)
            out.extend([(name, (a, b)) for b in seconds(c, e)])
        return out

    def requires_hold(self, requires: tuple[Any, ...], c: Ctx) -> bool:
        e: dict[str, Any] = {}
        for r in requires:
            if not r(c, e):
                return False
        return True

    def plan(self, name: str) -> tuple[tuple[ast.Put, ...], tuple[Any, ...], Any]:
        """Per action, once: the puts and leading requires checked before enumerating, and
        the shape: None (no choice), the lone Choose (one choice, then effects), a pair of
        Chooses (two choices, then effects), or True (the general walk)."""
        found = self._plans.get(name)
        if found is None:
            body = self.program.actions[name].body
            # (an action another goes on as, `then NAME`, is walked there too, where no
            # check of its own menu entry covers the put: its put is not hoisted)
            puts = () if name in self._then_targets else self._independent_tail_puts(body)
            self._hoisted_puts.update(puts)
            stmts = body.stmts
            k = 0
            while k < len(stmts) and isinstance(stmts[k], ast.Require):
                k += 1
            leading = cast("tuple[ast.Require, ...]", stmts[:k])  # the loop above
            requires = tuple(self.rt.fn(r.cond) for r in leading)
            rest = stmts[k:]
            shape: Any = True
            if self._last_choice(stmts, k):
                shape = None
            elif _mover_choose(rest, 0) and self._last_choice(stmts, k + 1):
                shape = rest[0]
            elif _mover_choose(rest, 0) and _mover_choose(rest, 1) and \
                    self._last_choice(stmts, k + 2):
                shape = (rest[0], rest[1])  # pick a piece, then where it goes
            if shape is True:
                requires = ()  # the walk checks them in order
            found = self._plans[name] = (puts, requires, shape)
        return found

    def _independent_tail_puts(self, body: ast.Block) -> tuple[ast.Put, ...]:
        """The first put after the last choice, when whether it has its piece is the same for
        every way: its piece depends on no chosen value and nothing before it changes the
        data (an earlier effect may take the last piece of its supply)."""
        flags = self.needs_walk(body)
        bound: set[str] = set()
        for i, s in enumerate(body.stmts):
            if not flags[i]:
                if isinstance(s, ast.Put) and not (free_names(s.piece) | free_names(s.source)) \
                        & bound:
                    return (s,)
                return ()
            if not isinstance(s, (ast.Choose, ast.Require, ast.Let)):
                return ()  # an effect (or a then) comes first
            bound.update(bound_names(s))
        return ()

class _Unbounded(Exception):
    """A value of a lazily drawn choose has more options than its bound (Menus.sample)."""


def _mover_choose(stmts: tuple[ast.Stmt, ...], i: int) -> bool:
    return i < len(stmts) and isinstance(s := stmts[i], ast.Choose) and s.mode == "mover"
