"""The writer's statements: the turn's menu (`menu(S)`: every way of taking each action of
the turn's `do`, in the reference's order), the actions' effects (`act(S, o)`) and the end
section (`end(S)`: the winners, or None while the game goes on). Expressions are written
by emit.Writer."""
from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import rulelang.gen.calls as calls
import rulelang.gen.comprehensions as comprehensions
import rulelang.gen.draws as draws
import rulelang.gen.ends as ends
import rulelang.gen.facts as facts
import rulelang.gen.forms as F
import rulelang.gen.kept as kept
import rulelang.gen.loops as loops
import rulelang.gen.lower as lower
import rulelang.gen.moves as moves
import rulelang.gen.pieces as pieces
import rulelang.gen.puts as puts
import rulelang.gen.rt as rt
import rulelang.gen.turns as turns
from rulelang.errors import Refusal
from rulelang.gen.code import Code, Func, Generated, Unsupported
from rulelang.gen.emit import Writer
from rulelang.gen.empties import empty_values
from rulelang.gen.playout import Tried, below, finish
from rulelang.gen.walk import Walk, first_effect, leading_puts, puts_first, simple, through_thens
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.decisions import DecisionAnalysis, requirement_failed
from rulelang.library.decision import NOTHING
from rulelang.library.semantics import STEP_BUDGET

# the functions in the module, rules first
_ORDER = ("r", "menu", "walk", "turn", "act", "end", "kept")


class GameWriter:
    def __init__(self, writer: Writer, turn: ast.Block, setup: bool = False) -> None:
        self.w = writer
        self.program = writer.program
        self.turn = turn
        self.analysis = DecisionAnalysis(writer.program)
        self.dos = self._dos(turn)  # (those of the effects it calls too)
        rnd = writer.program.round
        if rnd is not None and any(isinstance(n, ast.Do) for n in walk(rnd.body)):
            raise Unsupported("a 'do' in the round section", rnd.span)
        self.setup = setup  # the setup written as a machine too (gen/turns.py)
        self.do: Any = self.dos[0] if self.dos else None  # (a turn of chooses alone: None)
        # (run by the turns' machine: a turn of more than one `do`, or whose `do` offers an
        # action that asks more, rounds, a setup that decides)
        self.machine = not (len(turn.stmts) == 1 and isinstance(turn.stmts[0], ast.Do)) \
            or writer.program.round is not None or self.setup or any(
                self.deep(writer.program.actions[a]) for do in self.dos
                for group in do.groups() for a in group)
        program = writer.program
        # can the game read `moved`, or run loops without a bound (charged as they run)?
        runs = facts.reachable(program)
        self.tracks_moved = any(str(r[0]) == "builtin" and r[1] == "moved"
                                for r in map(program.refs.get, runs) if r is not None)
        self.counts_steps = any(isinstance(n, ast.While) for n in runs)
        # each action's options drawn without listing the menu (gen/draws.py write_direct)
        self.draws: list[draws.Direct] = []
        self.adopts = False  # does a draw give a copy its action ran on (playout.Tried)?
        # simple actions drawn lazily (gen/draws.py): name -> (first values, rest, bound)
        self.lazy: dict[str, tuple[str, str, int]] = {}
        self.fills: dict[int, tuple[str, str]] = {}  # turns.memos
        self.bounded = True  # is the size _domain gave last a true bound?
        self._puts = 0  # the leading puts of the action being written
        # the locals of the option's chosen sites empty now (gen/puts.py: no pile to add to)
        self.empty_chosen: set[str] = set()
        self._effects: set[str] = set()  # the effects being written in place
        self._effect_functions: dict[tuple[str, int | None], str] = {}  # (calling themselves)
        self.tries = False  # does a menu try effects on a scratch copy (gen/walk.py)?
        self.slots = self.n_slots = 0  # the turn's locals (gen/turns.py: S.tl)
        # does the turn use what the generator takes since compiled mode's step 2 (chooses,
        # lets and loops around decisions, effects with decisions, rounds)?
        self.step2 = writer.program.round is not None or self.setup
        self.option_slot: int | None = None  # an option the machine performs (turns.py)
        self.chooses: list[tuple[ast.Choose, int]] = []  # the turn's chooses, their slots
        self.choose_locals: list[dict[str, int]] = []  # … and the locals where each asks

    def _dos(self, block: ast.Block) -> list[ast.Do]:
        """The `do`s of a section, and of the effects with decisions it calls and of the
        actions its `do`s offer (the machine performs those that ask more), in order."""
        out: list[ast.Do] = []
        seen: set[str] = set()

        def visit(node: ast.Node) -> None:
            for n in walk(node):
                if isinstance(n, ast.Do) and not any(n is d for d in out):
                    out.append(n)
                    for a in dict.fromkeys(a for group in n.groups() for a in group):
                        if "action " + a not in seen:
                            seen.add("action " + a)
                            visit(self.program.actions[a].body)
                elif isinstance(n, ast.CallStmt) and self.analysis.decides(n):
                    effect = self.analysis.effect(n)
                    if effect.name not in seen:
                        seen.add(effect.name)
                        visit(effect.body)
        visit(block)
        return out

    def new_slot(self) -> int:
        self.slots += 1
        return self.slots - 1

    def choose_point(self, s: ast.Choose, slot: int, names: dict[str, int]) -> int:
        """The decision point of a choose in the turn (after the `do`s), whose option's
        value goes to the turn's slot `slot` (each mover's turn writes it alike)."""
        for k, (node, at) in enumerate(self.chooses):
            if node is s and at == slot:  # (an effect's choose: one point per call of it)
                return len(self.dos) + k
        self.chooses.append((s, slot))
        self.choose_locals.append({k: v for k, v in names.items() if k != s.var})
        return len(self.dos) + len(self.chooses) - 1

    def write(self) -> Generated:
        w = self.w
        steps = 0
        for mover in range(len(w.rt.players)):  # each written for one mover: rules of the
            w.mover = mover                     # mover are values known when written
            if self.machine:  # several decisions a turn: a stepper and a menu per `do`
                self.fills = turns.memos(self)  # (rules asked by an `if` and its `do`)
                menus = max((self.menu(mover, do, k) for k, do in enumerate(self.dos)), default=0)
                steps = max(steps, menus + turns.write(self, mover) + self.act(mover)
                            + self.end(mover))
                w.memo, self.fills = {}, {}
                if self.setup and mover == w.rt.template.mover:  # (the setup's mover)
                    steps = max(steps, turns.write_setup(self, mover))
            else:
                steps = max(steps, self.menu(mover) + self.act(mover) + self.end(mover))
        w.mover = None
        steps = max(steps, self.totals())
        w.funcs.extend(kept.write(w))
        funcs = sorted(w.funcs, key=lambda f: _ORDER.index(f[2] if f[2] != "rule" else "r"))
        lines = ["# generated by rulelang.gen: the names are the writer's own, the values "
                 "are in its constants table"]
        origins = []
        for name, span, _, fn in funcs:
            origins.append((name, span, "\n".join(fn.lines)))
            lines.extend(fn.lines)
            lines.append("")
        return Generated("\n".join(lines) + "\n", w.constants, origins, steps,
                         tries=self.tries, adopts=self.adopts, turn_slots=self.n_slots,
                         chooses=tuple(self.chooses),
                         choose_locals=tuple(self.choose_locals),
                         calls=w.call_sites, step2=self.step2 or w.step2,
                         dos=tuple(self.dos), option_slot=self.option_slot,
                         one_kind=tuple(w.kinds_used.items()))

    # ---- the menu of the turn's `do`
    def menu(self, mover: int, do: ast.Do | None = None, k: int | None = None) -> int:
        """The menu of the turn's `do` (or of its k-th, `menu<m>_<k>`, in a turn of several
        decisions)."""
        self.draws, self.lazy = [], {}
        tried, self.tries = self.tries, False
        do = self.do if do is None else do
        name = f"menu{mover}" if k is None else f"menu{mover}_{k}"
        fn = Func(f"def {name}(S):")
        fn.add("out = []")
        self.forget_moved(fn)  # (an action begins)
        cost = 0
        for group in do.groups():
            for action in group:
                cost += self._ways(self.program.actions[action], fn)
            fn.add("if out:")
            fn.add("    return out")
        fn.add("return out")
        self.w.funcs.append((name, do.span, "menu", fn))
        actions = [a for group in do.groups() for a in group]
        if k is None and (self.tries or any(a in self.lazy for a in actions)):
            draws.write(self, mover, do)  # (its options drawn without listing them all)
        elif k is None and len(self.draws) == len(actions):  # each action's options drawn
            draws.write_direct(self, mover, do, self.draws)  # in place
        elif k is None:  # its menu listed, an option of it drawn (the playout's own loop)
            draw = Func(f"def draw{mover}(S, a0):")
            draw.add(f"menu = menu{mover}(S)")
            draw.add(f"return menu[{self.w.const(below)}(a0, len(menu))] if menu else None")
            self.w.funcs.append((f"draw{mover}", self.do.span, "menu", draw))
        self.tries = self.tries or tried
        return cost

    def forget_moved(self, fn: Func) -> None:  # (where the game reads `moved`: its bits too)
        if self.tracks_moved:
            fn.add("S.moved.clear()")
            if self.w.layout.moved_tops:
                fn.add(f"S.mv = {self.w.const(0)}")

    def _begin(self, fn: Func) -> None:
        """An action is taken: `moved` forgets, and the steps counted start anew (as the
        reference's budget does with each apply_action: the action, the end, the next
        menu)."""
        self.forget_moved(fn)
        if self.counts_steps or self.w.counting:
            fn.add(f"S.steps[{self.w.const(0)}] = {self.w.const(0)}")

    def deep(self, action: ast.Action, seen: frozenset[str] = frozenset()) -> bool:
        """Does the action ask more after its option (another player's choice, chance, or
        a statement that may ask): then the turn's machine performs it (gen/turns.py)?"""
        for s in action.body.stmts:  # (in the order of reference/menus.py walk)
            if isinstance(s, ast.Choose) and s.mode == "mover":
                continue
            if isinstance(s, ast.Then):  # the option goes on as the named action's
                return s.action not in seen and self.deep(self.program.actions[s.action],
                                                          seen | {action.name})
            if self.analysis.ends_option(s):
                return True
        return False

    def _ways(self, action: ast.Action, fn: Func) -> int:
        stmts = action.body.stmts
        if not simple(stmts) or self.deep(action):  # effects between chooses, or that may
            # refuse, or more to ask after the option: walked
            return Walk(self, action).write(fn)
        first = first_effect(stmts)
        env: dict[str, Code] = {}
        chosen: list[str] = []
        cost, size, plain = 0, 1, 0  # (plain: what it takes besides its loops' items)
        bounds: list[int | None] = []  # each choose's domain: at most this many (None: unknown)
        loops: list[tuple[int, str, str, Any, int]] = []  # each choose's clause, to charge
        check = self._piece_check(stmts[first:], fn)
        self._refusals(action, stmts[first:])
        one = stmts[0] if first == 1 else None
        if isinstance(one, ast.Choose) and one.cond is None and one.mode == "mover" \
                and not one.optional and one.chooser is None:
            dom = self.w.raw(one.domain, env)
            if dom.form.kind == "sitelist":  # the options made once, one per site
                w = self.w
                options = tuple((action.name, (site,)) for site in w.board.sites)
                charged = w.charges(dom.cost + dom.form.size)
                listed = w.charged(dom.src, 1, one.domain.span) if charged else dom.src
                add = f"out.extend(map({w.const(options.__getitem__)}, {listed}))"
                fn.add(add if check is None else f"if {check}:\n{'    ' * (fn.depth + 1)}{add}")
                if not charged:  # (charged: every menu listed, its steps charged)
                    needs = None if check is None else self._piece_test(stmts[first:])
                    self.draws.append(draws.Direct(dom.src, needs, w.const(options)))
                return dom.cost + (0 if charged else dom.form.size)
        clauses: list[str] = []  # the options as one comprehension: its for and if clauses
        for s in stmts[:first]:
            if isinstance(s, ast.Let):
                for var, value in s.bindings:
                    v = self.w.ex(value, env)
                    local = self.w.fresh("v")
                    clauses.append(f"for {local} in [{v.src}]")
                    env[var] = v if v.form.known else Code(local, v.form, 0)
                    cost, plain = cost + size * v.cost, plain + v.cost
                continue
            if isinstance(s, ast.Require):  # (an option it refuses is not on the menu)
                cond = self.w.ex(s.cond, env)
                clauses.append(f"if {cond.src}")
                cost, plain = cost + size * cond.cost, plain + cond.cost
                continue
            assert isinstance(s, ast.Choose)
            if s.mode != "mover" or s.optional or s.chooser is not None:
                raise Unsupported("this kind of choose", s.span)
            dom = self.w.raw(s.domain, env)
            src, n, item, rest = self.chosen(s, dom, env)
            var = self.w.fresh("v")
            env[s.var] = Code(var, item, 0)
            test = self.w.ex(rest, env) if rest is not None else None
            loops.append((len(clauses), var, src, s.domain.span, 1 + (test.cost if test else 0)))
            bounds.append(n if self.bounded else None)
            clauses.append(f"for {var} in {src}")
            if test is not None:
                clauses.append(f"if {test.src}")
                cost += size * n * test.cost
            cost, plain = cost + size * (dom.cost + n), plain + dom.cost
            size *= max(n, 1)
            chosen.append(var)
        charged = self.w.charges(cost + size)  # (every loop charged its items, or none)
        for at, var, src, span, each in loops if charged else ():
            clauses[at] = f"for {var} in {self.w.charged(src, each, span)}"
        values = "(" + "".join(v + ", " for v in chosen) + ")"
        first_for = next((i for i, c in enumerate(clauses) if c.startswith("for ")),
                         len(clauses))
        guards = [c[3:] for c in clauses[:first_for]]  # requires before any choose
        option = f"({self.w.const(action.name)}, {values})"
        made = f"[{option} {' '.join(clauses[first_for:])}]" if first_for < len(clauses) \
            else None
        add = f"out.extend({made})" if made else f"out.append({option})"
        if len(bounds) > 1 and None not in bounds[1:] and check is None and not guards \
                and isinstance(stmts[0], ast.Choose) and not charged:
            draws.lazy_entry(self, action.name, option, clauses, bounds)
        if made is None and check is None and not charged:  # (no choose: drawn as itself)
            self.draws.append(draws.Direct.one(guards, option))
        if check is not None:  # the pieces missing, the statements before the puts still
            # run as the reference runs them, for their errors (the action offers nothing)
            fn.add(f"if {check}:")
            fn.add(f"    {self._guarded(guards, add)}")
            fn.add(f"else:\n{'    ' * (fn.depth + 1)}{self._guarded(guards, made or 'pass')}")
        else:
            fn.add(self._guarded(guards, add))
        return plain if charged else cost + size

    def _guarded(self, guards: list[str], line: str) -> str:
        return f"if {' and '.join(guards)}: {line}" if guards else line

    def _refusals(self, action: ast.Action, rest: tuple[ast.Stmt, ...]) -> None:
        """Effects the menu does not try: the ones that could refuse the action."""
        if any(isinstance(n, (ast.Choose, ast.Require, ast.Then)) for r in rest
               for n in walk(r)):
            raise Unsupported("a choose or require after an action's effects", action.span)
        if not puts_first(rest):
            raise Unsupported("effects that may refuse an action", action.span)
        if any(isinstance(n, ast.CallStmt) for r in rest for n in walk(r)):
            raise Unsupported("an effect called by an action", action.span)

    def _piece_check(self, rest: tuple[ast.Stmt, ...], fn: Func) -> str | None:
        """The menu's check that the `put`s that begin the effects have their pieces, made
        once before the chooses' loops (walk.simple: they read none of their values): a
        local holding it."""
        if not leading_puts(rest):
            return None
        local = self.w.fresh("v")
        fn.add(f"{local} = {self._piece_test(rest)}")
        return local

    def _piece_test(self, rest: tuple[ast.Stmt, ...]) -> str:
        """Each zone the leading puts take from holds as many pieces of each kind as they
        take (their targets are sites: gen checks it where it writes them)."""
        needed: dict[tuple[str, str], tuple[int, Any]] = {}
        for put in leading_puts(rest):
            zone, kind, _ = puts.supply(self, put, {})
            n, span = needed.get((zone, kind), (0, put.piece.span))
            needed[(zone, kind)] = (n + 1, span)
        tests = []
        for (zone, kind), (n, span) in needed.items():
            if n > 1:
                tests.append(f"{self.w.const(pieces.has_pieces)}(S, {zone}, {kind}, "
                             f"{self.w.const(n)}, {self.w.const(span)})")
                continue
            test = f"{self.w.const(pieces.has_piece)}(S, {zone}, {kind}, {self.w.const(span)})"
            if re.fullmatch(r"k\d+", zone) and re.fullmatch(r"k\d+", kind):
                # a zone of the game and a kind known when written: its top piece read in
                # place, the pile searched only when that is not one
                last = self.w.const(-1)
                test = f"(S.zones[{zone}] or {test})" if puts.only_kind(self.w, zone, kind) \
                    else f"(S.zones[{zone}] and S.zones[{zone}][{last}].kind == {kind} or {test})"
            tests.append(test)
        return " and ".join(tests)

    def _domain(self, dom: Code, span: Any) -> tuple[str, int, F.Form]:
        """A choose's domain: its source, its size at most (`bounded`: whether that size is
        a true bound, else the board's sites, for a cost) and its item's form."""
        self.bounded = True
        if dom.form.kind == "sitelist":  # (a menu changes nothing: the list itself)
            return (f"map({self.w.const(self.w.board.sites.__getitem__)}, {dom.src})",
                    dom.form.size, F.SITE)
        dom = calls.zone_pile(self.w, self.w.plain(dom))
        if dom.form.kind == "items":
            item = dom.form.item or F.ANY
            return dom.src, dom.form.size, F.an_item(item)
        if dom.form.kind == "lines" and dom.form.known:
            return f"{dom.src}.lines", dom.form.size, dom.form.item or F.ANY
        size = F.unknown_items(dom.form, -1)
        self.bounded = size >= 0
        return (f"tuple({self.w.const(rt.domain)}(S, {dom.src}, {self.w.const(span)}))",
                size if size >= 0 else self.w.n_unknown, F.ANY)

    def chosen(self, s: ast.Choose, dom: Code,
               env: dict[str, Code]) -> tuple[str, int, F.Form, ast.Expr | None]:
        """_domain, and the condition left to test (`owner(x) == P` first: owned_domain)."""
        src, n, item = self._domain(dom, s.domain.span)
        owned = comprehensions.owned_domain(self.w, s.var, dom, s.cond, env)
        return (src, n, item, s.cond) if owned is None else (owned[0], n, item, owned[1])

    def _let(self, s: ast.Let, env: dict[str, Code], fn: Func) -> int:
        cost = 0
        for var, value in s.bindings:
            v = self.w.ex(value, env)
            local = self.w.fresh("v")
            fn.add(f"{local} = {v.src}")
            env[var] = v if v.form.known else Code(local, v.form, 0)
            cost += v.cost
        return cost

    # ---- the actions' effects
    def act(self, mover: int) -> int:
        fn = Func(f"def act{mover}(S, o):")
        player = self.w.const(self.w.rt.players[mover])
        if self.adopts:  # (a drawn option whose action ran on S, the copy: finished)
            fn.add(f"if o.__class__ is {self.w.const(Tried)} and o.state is S:")
            fn.add(f"    {self.w.const(finish)}(S, o, {player})")
            fn.add("    return")
        fn.add("name, vals = o")
        self._begin(fn)
        cost = 0
        offered = list(dict.fromkeys(a for do in self.dos for group in do.groups()
                                     for a in group))
        actions = [a for a in offered
                   if not self.deep(self.program.actions[a])]  # (the machine's: turns.py)
        for i, name in enumerate(actions):
            action = self.program.actions[name]
            indent = 0 if offered == [name] else 1  # (the only action: no name asked)
            if indent:
                fn.add(f"{'if' if i == 0 else 'elif'} name == {self.w.const(name)}:")
            fn.depth += indent
            cost = max(cost, self._perform(action, fn))
            fn.depth -= indent
        fn.add(f"S.last[{self.w.const('action')}] = name")
        fn.add(f"S.last[{self.w.const('player')}] = {player}")  # (act<m>: m to move)
        self.w.funcs.append((f"act{mover}", self.turn.span, "act", fn))
        return cost

    def _perform(self, action: ast.Action, fn: Func) -> int:
        """The action's statements in order, its chooses taking the option's values (its
        requires held when the menu listed it)."""
        stmts = action.body.stmts
        self._puts = len(leading_puts(stmts[first_effect(stmts):])) if simple(stmts) else 0
        sequence = through_thens(self.program, action, set())
        names = [self.w.fresh("v") for s in sequence if isinstance(s, (ast.Choose, ast.Then))]
        fn.add("(" + "".join(v + ", " for v in names) + ") = vals")
        env: dict[str, Code] = {}
        cost, at, effected = 0, 0, False
        for s in sequence:
            if isinstance(s, ast.Then):  # (its mark's value: the named action goes on)
                env, at = {}, at + 1
            elif isinstance(s, ast.Choose):
                dom = self.w.ex(s.domain, dict(env))
                _, _, item = self._domain(dom, s.domain.span)
                raw, at = names[at], at + 1
                if s.optional:  # (NOTHING: none)
                    local = self.w.fresh("v")
                    fn.add(f"{local} = None if {raw} is {self.w.const(NOTHING)} else {raw}")
                    env[s.var] = Code(local, F.MAYBE_SITE if item == F.SITE else F.ANY, 0)
                else:
                    env[s.var] = Code(raw, item, 0)
                    # (the option is the menu's, listed on the state as it is until the
                    # action's first effect: its empty sites are empty until then)
                    if not effected and empty_values(self.program, s):
                        self.empty_chosen.add(raw)
            elif not isinstance(s, ast.Require):
                if not isinstance(s, (ast.Put, ast.Move)):
                    self.empty_chosen.clear()  # (no put within it sees the sites empty)
                cost += self.effect(s, env, fn)
                self.empty_chosen.clear()
                effected = True
        self.empty_chosen.clear()
        fn.add("pass")
        return cost

    def effect(self, s: ast.Stmt, env: dict[str, Code], fn: Func) -> int:
        w = self.w
        if isinstance(s, ast.Let):
            return self._let(s, env, fn)
        if isinstance(s, ast.Put):
            return puts.put(self, s, env, fn)
        if isinstance(s, (ast.Move, ast.Remove)):
            return self._move(s, env, fn)
        if isinstance(s, ast.If):
            return self._if(s, env, fn, self.effect)
        if isinstance(s, ast.Require):  # (in effects: the action is refused)
            c = w.ex(s.cond, env)
            fn.add(f"if not {c.src}:")
            fn.add(f"    raise {w.const(Refusal)}({w.const(requirement_failed(self.program, s))}, "
                   f"{w.const(s.span)})")
            return c.cost
        if isinstance(s, ast.CallStmt):
            return self._call_effect(s, env, fn)
        if isinstance(s, (ast.Set, ast.Increase)):
            return loops.set_value(self, s, env, fn)
        if isinstance(s, ast.While):
            return loops.while_loop(self, s, env, fn)
        if isinstance(s, ast.Repeat):
            return loops.repeat(self, s, env, fn)
        if isinstance(s, (ast.Shuffle, ast.Reveal)):
            w.step2 = True
        if isinstance(s, ast.Shuffle):
            zone = w.ex(s.zone, env)
            fn.add(f"{w.const(pieces.shuffle)}(S, {zone.src}, {w.const(s.span)})")
            return zone.cost + 1
        if isinstance(s, ast.Reveal):
            fn.add(f"{w.const(pieces.reveal)}(S, {w.const(s.var)})")
            return 1 + len(w.rt.players)
        if isinstance(s, ast.ForEach):
            dom = w.ex(s.domain, env)
            src, n, item = self._domain(dom, s.domain.span)
            var = w.fresh("v")
            line = len(fn.lines)
            fn.add(f"for {var} in {src}:")
            fn.depth += 1
            inner = {**env, s.var: Code(var, item, 0)}
            cost = sum(self.effect(b, inner, fn) for b in s.body.stmts)
            counted = w.charges(dom.cost + n * (1 + cost))  # its items charged as it starts
            # (their bodies' bound apiece)
            if counted:
                fn.lines[line] = fn.lines[line].replace(
                    f" in {src}:", f" in {w.charged(src, 1 + cost, s.span)}:")
            fn.add("pass")
            fn.depth -= 1
            return dom.cost if counted else dom.cost + n * (1 + cost)
        raise Unsupported(f"the statement '{type(s).__name__}' in generated code", s.span)

    def _move(self, s: ast.Move | ast.Remove, env: dict[str, Code], fn: Func) -> int:
        return moves.move(self, s, env, fn)

    def _call_effect(self, s: ast.CallStmt, env: dict[str, Code], fn: Func) -> int:
        """An effect's statements in place, its parameters locals holding the arguments."""
        effect = self.analysis.effect(s)
        if effect.name in self._effects:  # (a call from within itself)
            return self._recursive_call(s, effect, env, fn)
        inner: dict[str, Code] = {}
        cost = 1
        for param, arg in zip(effect.params, s.call.args, strict=True):
            a = self.w.ex(arg, env)
            local = self.w.fresh("v")
            fn.add(f"{local} = {a.src}")
            inner[param] = a if a.form.known else Code(local, a.form, 0)
            cost += a.cost
        self._effects.add(effect.name)
        self.w.calls.append(s.span)
        try:
            cost += sum(self.effect(b, inner, fn) for b in effect.body.stmts)
        finally:
            self._effects.discard(effect.name)
            self.w.calls.pop()
        return cost

    def _recursive_call(self, s: ast.CallStmt, effect: ast.Effect, env: dict[str, Code],
                        fn: Func) -> int:
        """An effect called from within itself: a function of the module (one per effect
        and mover), its parameters locals of unknown form. Each call charges the
        reference's step; its depth is known only as the game runs, so the game's steps
        are counted (the non-counting writer's bound is the budget)."""
        w = self.w
        args = [w.ex(a, env) for a in s.call.args]
        name = self._effect_functions.get((effect.name, w.mover))
        if name is None:
            name = self._effect_functions[(effect.name, w.mover)] = w.fresh("e")
            params = [w.fresh("a") for _ in effect.params]
            f = Func(f"def {name}({', '.join(['S', *params])}):")
            inner = {p: Code(a, F.ANY, 0) for p, a in zip(effect.params, params, strict=True)}
            outer, w.calls = w.calls, []  # (written once for every call: no call in it)
            try:
                for b in effect.body.stmts:
                    self.effect(b, inner, f)
            finally:
                w.calls = outer
            f.add("return None")
            w.funcs.append((name, s.span, "rule", f))  # (placed at the call to itself)
        w.step2 = True
        fn.add(f"{w.const(rt.ticked)}(S, 1, {w.const(s.span)}) or "
               f"{name}({', '.join(['S', *(a.src for a in args)])})")
        return sum(a.cost for a in args) + (0 if w.counting else STEP_BUDGET)

    def _if(self, s: ast.If, env: dict[str, Code], fn: Func, each: Any) -> int:
        def condition(cond: ast.Expr) -> Callable[[], Code]:
            return lambda: self.w.ex(cond, env)

        def body(stmts: ast.Block) -> Callable[[], int]:
            def write() -> int:
                inner = dict(env)
                return sum(each(b, inner, fn) for b in stmts.stmts)
            return write
        return lower.if_chain(self.w, fn, [(condition(c), body(b)) for c, b in s.branches],
                              body(s.orelse) if s.orelse is not None else None)

    # ---- the score terms and the end section (gen/ends.py)
    def totals(self) -> int:
        return ends.totals(self)

    def end(self, mover: int) -> int:
        return ends.end(self, mover)

    def result(self, s: ast.Result, env: dict[str, Code], fn: Func) -> tuple[str, int]:
        return ends.result(self, s, env, fn)

