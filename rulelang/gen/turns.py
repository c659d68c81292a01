"""A turn of several decisions as a resumable state machine: `turn<m>(S, pc)` runs the turn
section from point `pc` (0: its start) to its next decision, whose menu it returns (the
point to resume at and the `do` it came from kept in `S.pc` and `S.point`), or to its end
(None). Its statements are cut into blocks at each decision (a `do`, a `choose` by a player)
and at each `if` and loop around one, the blocks numbered and run by a loop over `pc`; the
turn's locals and the loops' items and positions live in the state's slots (`S.tl`), so a
clone is a copy of the state (no replay of the turn). A result statement in the turn ends
the game at once (playout.TurnOver). A setup with a decision is written the same way."""
from __future__ import annotations

import re
from typing import Any

import rulelang.gen.forms as F
import rulelang.gen.helpers as H
import rulelang.gen.lower as lower
import rulelang.gen.playout as playout
import rulelang.gen.rt as rt
from rulelang.errors import RuleRuntimeError
from rulelang.gen.code import Code, Func, Unsupported
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.decision import NOTHING, bound

END = 0  # the block that ends the turn; the turn starts at block 1


def write(gw: Any, mover: int) -> int:
    """Write `turn<mover>`; the most steps its statements take besides the menus."""
    gw.slots = 0  # (every mover's turn numbers its slots alike)
    if any(gw.deep(gw.program.actions[a]) for do in gw.dos for group in do.groups()
           for a in group):  # the option taken, for the machine to perform (GenState._play)
        gw.option_slot = gw.new_slot()
    cost = _Turn(gw, mover, gw.turn, "turn").write()
    rnd = gw.program.round
    if rnd is not None:  # the round section: `round<m>(S, pc)`, and when a round ends
        cost += _Turn(gw, mover, rnd.body, "round").write()
        fn = Func(f"def until{mover}(S):")
        if rnd.until is None:
            fn.add(f"return S.round_turns >= {gw.w.const(len(gw.w.rt.players))}")
        else:
            c = gw.w.ex(rnd.until, {})
            cost += c.cost
            fn.add(f"return {c.src}")
        gw.w.funcs.append((f"until{mover}", rnd.span, "turn", fn))
    gw.n_slots = max(gw.n_slots, gw.slots)
    return cost


def write_setup(gw: Any, mover: int) -> int:
    """Write `setup<mover>(S, pc)`: a setup with a decision, as a machine like a turn's (the
    state's phase SETUP until it is over); the most steps its statements take."""
    setup = gw.program.sections["setup"]
    cost = _Turn(gw, mover, setup, "setup").write()
    gw.n_slots = max(gw.n_slots, gw.slots)
    return cost


def memos(gw: Any) -> dict[int, tuple[str, str]]:
    """The rules of no argument a turn's `if` reads first and the `do` it begins with
    chooses from (`if any(destinations)` then `do move`, whose first choose is over
    `destinations`): nothing runs between the two, so the value is found once, kept in a
    slot of the state (`m<n>`) for the menu. By the `if`, the slot and the rule's value as
    written for the mover; the writer (Writer.memo) reads the slot at both places."""
    w, program, out = gw.w, gw.program, {}
    for node in walk(gw.turn):
        if not isinstance(node, ast.If) or not node.branches:
            continue
        cond, body = node.branches[0]
        do = body.stmts[0] if body.stmts else None
        names = [a for group in do.groups() for a in group] if isinstance(do, ast.Do) else []
        stmts = program.actions[names[0]].body.stmts if len(names) == 1 else ()
        first = stmts[0] if stmts else None
        if not isinstance(first, ast.Choose) or not isinstance(first.domain, ast.Name):
            continue
        ref = program.refs.get(first.domain)
        read = _read_first(program, cond, ref)
        if ref is None or ref[0] != "def" or program.defs[ref[1]].params is not None \
                or read is None:
            continue
        value = w.ex(first.domain, {})  # (the rule's function, written for the mover)
        slot = w.layout.memo_slot(str(ref[1]))
        kept = Code(f"S.{slot}", value.form, 0)
        w.memo[id(first.domain)] = w.memo[id(read)] = kept
        out[id(node)] = (slot, value.src)
    return out


def _read_first(program: Any, e: Any, ref: Any) -> Any:
    """The name of the rule `ref` that the condition evaluates before anything else (in a
    builtin's first argument, a comparison's left side, under `not`), else None."""
    if isinstance(e, ast.Name):
        return e if program.refs.get(e) == ref else None
    if isinstance(e, ast.Call) and e.args and not e.kwargs \
            and str(program.refs.get(e.func, ("",))[0]) == "builtin" \
            and all(isinstance(a, ast.Const) for a in e.args[1:]):
        return _read_first(program, e.args[0], ref)
    if isinstance(e, ast.Compare) and isinstance(e.right, ast.Const):
        return _read_first(program, e.left, ref)
    if isinstance(e, ast.Not):
        return _read_first(program, e.operand, ref)
    return None


class _Turn:
    def __init__(self, gw: Any, mover: int, block: ast.Block, name: str) -> None:
        self.gw, self.w, self.mover = gw, gw.w, mover
        self.section, self.name = block, name
        self.blocks: list[tuple[int, Func]] = []
        self.labels = 1
        self.cost = 0
        # the turn's locals (let, loops, chooses), in the state's slots S.tl: one per name,
        # as the reference keeps one dict for the whole turn
        self.env: dict[str, Code] = {}
        self.index: dict[str, int] = {}
        self.once = _bound_once(block.stmts)  # (its slot holds one form: turns.kept_form)
        self.calling: set[str] = set()  # the effects being written in place
        # an action performed by the machine: its chooses that take the option's values
        # (each with its index there) and the requires its menu checked
        self.given: dict[int, int] = {}
        self.performing: set[str] = set()  # the actions being written in place (perform)
        self.checked: set[int] = set()

    def write(self) -> int:
        self.run(self.section.stmts, self.block(1), END)
        end = self.block(END)
        end.add("return None")
        fn = Func(f"def {self.name}{self.mover}(S, pc):")
        fn.add("while True:")
        fn.depth += 1
        blocks = joined(dict(self.blocks), {self.w.const(label): label for label, _ in
                                            self.blocks})
        self._dispatch(fn, sorted(blocks.items(), key=lambda b: b[0]))
        self.w.funcs.append((f"{self.name}{self.mover}", self.section.span, "turn", fn))
        return self.cost

    def _dispatch(self, fn: Func, blocks: list[tuple[int, Func]]) -> None:
        """The blocks found by their labels in a few comparisons: halves by `<` down to a
        few tested in turn (each block ends in a jump, a return or a raise)."""
        w = self.w
        if len(blocks) > 4:
            half = len(blocks) // 2
            fn.add(f"if pc < {w.const(blocks[half][0])}:")
            fn.depth += 1
            self._dispatch(fn, blocks[:half])
            fn.depth -= 1
            fn.add("else:")
            fn.depth += 1
            self._dispatch(fn, blocks[half:])
            fn.depth -= 1
            return
        for label, block in blocks:
            fn.add(f"if pc == {w.const(label)}:")
            fn.lines.extend("    " * (fn.depth + 1) + line for line in block.lines)

    def label(self) -> int:
        self.labels += 1
        return self.labels

    def block(self, label: int) -> Func:
        fn = Func("")
        fn.lines, fn.depth = [], 0
        self.blocks.append((label, fn))
        return fn

    def jump(self, fn: Func, label: int) -> None:
        fn.add(f"pc = {self.w.const(label)}")
        fn.add("continue")

    def slot(self, name: str, form: F.Form = F.ANY) -> Code:
        """The slot of a local of the turn (made on its first binding); a local bound
        once in the turn keeps the form of its value there."""
        if name not in self.env:
            self.index[name] = k = self.gw.new_slot()
            kept = kept_form(form) if name in self.once else None
            self.env[name] = Code(f"S.tl[{self.w.const(k)}]", kept or F.ANY, 0)
        return self.env[name]

    def scratch(self) -> str:
        """A slot of the turn's own (a loop's items or position)."""
        return f"S.tl[{self.w.const(self.gw.new_slot())}]"

    def run(self, stmts: tuple[ast.Stmt, ...], fn: Func, then: int) -> None:
        """Write stmts from the block fn on, then go to block `then`."""
        w = self.w

        def decides(s: ast.Stmt) -> bool:  # (or ends the game: TurnOver, outside effects)
            return self.gw.analysis.decides(s) or any(isinstance(n, ast.Result)
                                                      for n in walk(s))
        for s in stmts:
            if isinstance(s, ast.Do):
                fn = self.do(s, fn)
            elif isinstance(s, ast.Choose) and id(s) in self.given:  # its value: the option's
                option = f"S.tl[{w.const(self.gw.option_slot)}][{w.const(1)}]"
                at = w.const(self.given[id(s)])
                fn.add(f"{self.slot(s.var).src} = {w.const(bound)}({option}[{at}])")
            elif id(s) in self.checked:
                continue
            elif isinstance(s, ast.Choose):
                self.gw.step2 = True
                fn = self.choose(s, fn)
            elif isinstance(s, ast.Let):
                self.gw.step2 = True
                for name, value in s.bindings:
                    c = w.ex(value, self.env)
                    self.cost += c.cost
                    fn.add(f"{self.slot(name, c.form).src} = {c.src}")
            elif isinstance(s, ast.If) and decides(s):
                fn = self.branches(s, fn)
            elif isinstance(s, (ast.ForEach, ast.Repeat)) and decides(s):
                self.gw.step2 = True
                fn = self.loop(s, fn)
            elif isinstance(s, ast.While) and decides(s):
                self.gw.step2 = True
                fn = self.while_loop(s, fn)
            elif isinstance(s, ast.CallStmt) and decides(s):
                self.gw.step2 = True
                fn = self.call(s, fn)
            elif isinstance(s, ast.Result):
                result, cost = self.gw.result(s, self.env, fn)
                self.cost += cost
                fn.add(f"raise {w.const(playout.TurnOver)}({result})")
                fn = self.block(self.label())  # (nothing after it runs)
            elif not decides(s) and not isinstance(s, ast.Then):  # (a require: a Refusal)
                inner = dict(self.env)
                self.cost += self.gw.effect(s, inner, fn)
                if isinstance(s, ast.Put) and s.name is not None:  # `put … as t`: a local
                    fn.add(f"{self.slot(s.name).src} = {inner[s.name].src}")
            else:
                raise Unsupported(f"the statement '{type(s).__name__}' in a turn of several "
                                  "decisions", s.span)
        self.jump(fn, then)

    def do(self, s: ast.Do, fn: Func) -> Func:
        """A `do`: its menu returned (the turn goes on at `after` once an option is taken,
        or at once when there is none). Where an action of the game asks more after its
        option, the option is kept in a slot and performed here: those actions by the
        machine, the others by the act function."""
        w = self.w
        k = next((k for k, d in enumerate(self.gw.dos) if d is s), None)
        if k is None:  # (the machine's menus are the turn's: a `do` of the setup has none)
            raise Unsupported("a 'do' in the setup", s.span)
        after = self.label()
        taken = after if self.gw.option_slot is None else self.label()
        fn.add(f"menu = menu{self.mover}_{k}(S)")
        fn.add("if menu:")
        fn.add(f"    S.pc = {w.const(taken)}")
        fn.add(f"    S.point = {w.const(k)}")
        fn.add("    S.chooser = None")
        fn.add("    return menu")
        self.jump(fn, after)  # (nobody can take it: the turn goes on without)
        if taken != after:
            top, o = self.block(taken), w.fresh("v")
            top.add(f"{o} = S.tl[{w.const(self.gw.option_slot)}]")
            for name in dict.fromkeys(a for group in s.groups() for a in group):
                action = self.gw.program.actions[name]
                if self.gw.deep(action):
                    label = self.label()
                    top.add(f"if {o}[{w.const(0)}] == {w.const(name)}:")
                    top.add(f"    pc = {w.const(label)}")
                    top.add("    continue")
                    self.perform(action, self.block(label), after)
            top.add(f"act{self.mover}(S, {o})")
            self.jump(top, after)
        return self.block(after)

    def perform(self, action: ast.Action, fn: Func, then: int) -> None:
        """An action that asks more after its option (reference/statements.py perform):
        its body from the start, the mover's chooses up to the option's end taking its
        values, the requires its menu checked passed over."""
        w, stmts = self.w, action.body.stmts
        if action.name in self.performing:  # (its own `do` offers it again, without end)
            raise Unsupported(f"the action '{action.name}' offered again by a 'do' it runs",
                              action.span)
        self.performing.add(action.name)
        self.gw._begin(fn)
        outer = (self.env, self.index, self.once)
        self.env, self.index, self.once = {}, {}, _bound_once(stmts)
        n = 0
        for s in stmts:
            if isinstance(s, ast.Then):
                raise Unsupported("a 'then' in an action that asks more after its option",
                                  s.span)
            if isinstance(s, ast.Choose) and s.mode == "mover":
                self.given[id(s)], n = n, n + 1
            elif isinstance(s, ast.Require):
                self.checked.add(id(s))
            elif self.gw.analysis.ends_option(s):
                break
        done = self.label()
        try:
            self.run(stmts, fn, done)
        finally:
            self.env, self.index, self.once = outer
            self.performing.discard(action.name)
        end = self.block(done)
        end.add(f"S.last[{w.const('action')}] = {w.const(action.name)}")
        end.add(f"S.last[{w.const('player')}] = {w.const(self.w.rt.players)}[S.mover]")
        self.jump(end, then)

    def call(self, s: ast.CallStmt, fn: Func) -> Func:
        """An effect with a decision in it, its statements in place: its parameters and
        locals in slots of their own (the reference runs it with an env of its own)."""
        effect = self.gw.analysis.effect(s)
        if effect.name in self.calling:
            raise Unsupported("an effect with a decision that calls itself", s.span)
        args = [self.w.ex(a, self.env) for a in s.call.args]
        self.cost += 1 + sum(a.cost for a in args)
        outer = (self.env, self.index, self.once)
        self.env, self.index = {}, {}
        self.once = _bound_once(effect.body.stmts, effect.params)
        for param, arg in zip(effect.params, args, strict=True):
            fn.add(f"{self.slot(param, arg.form).src} = {arg.src}")
        self.calling.add(effect.name)
        after = self.label()
        try:
            self.run(effect.body.stmts, fn, after)
        finally:
            self.calling.discard(effect.name)
            self.env, self.index, self.once = outer
        return self.block(after)

    def branches(self, s: ast.If, fn: Func) -> Func:
        w = self.w
        after = self.label()
        if id(s) in self.gw.fills and self.name == "turn":  # (turns.memos)
            slot, value = self.gw.fills[id(s)]
            fn.add(f"S.{slot} = {value}")
        for cond, body in s.branches:
            c = w.ex(cond, self.env)
            self.cost += c.cost
            branch = self.label()
            fn.add(f"if {lower.test(w, c, fn)}:")
            fn.add(f"    pc = {w.const(branch)}")
            fn.add("    continue")
            self.run(body.stmts, self.block(branch), after)
        if s.orelse is not None:
            branch = self.label()
            self.jump(fn, branch)
            self.run(s.orelse.stmts, self.block(branch), after)
        else:
            self.jump(fn, after)
        return self.block(after)

    def loop(self, s: ast.ForEach | ast.Repeat, fn: Func) -> Func:
        """A loop with a decision in its body: its items and position in slots, each turn
        of it a pass through the head block (the reference's steps charged as it starts)."""
        w = self.w
        items, at = self.scratch(), self.scratch()
        if isinstance(s, ast.ForEach):
            dom = w.ex(s.domain, self.env)
            fn.add(f"{items} = {w.const(H.loop_items)}(S, {dom.src}, {w.const(s.domain.span)}, "
                   f"{w.const(s.span)})")
        else:
            dom = w.ex(s.count, self.env)
            fn.add(f"{items} = {w.const(rt.repeats)}(S, {dom.src}, {w.const(1)}, "
                   f"{w.const(s.count.span)}, {w.const(s.span)})")
        self.cost += dom.cost + 1
        fn.add(f"{at} = {w.const(0)}")
        item = dom.form.item if dom.form.kind == "items" and dom.form.item else F.ANY
        step = [f"{self.slot(s.var, item).src} = {items}[{at}]"] \
            if isinstance(s, ast.ForEach) else []
        return self.headed(fn, f"{at} < len({items})", [*step, f"{at} += {w.const(1)}"],
                           s.body)

    def while_loop(self, s: ast.While, fn: Func) -> Func:
        """A `while` with a decision in its body: its condition tested at the head block,
        each turn charged a step (reference/statements.py run_While)."""
        w = self.w
        c = w.ex(s.cond, self.env)
        self.cost += c.cost + 1
        return self.headed(fn, c.src, [f"{w.const(rt.charge)}(S, {w.const(1)}, "
                                       f"{w.const(s.span)})"], s.body)

    def headed(self, fn: Func, test: str, enter: list[str], body: ast.Block) -> Func:
        """A loop as blocks: its head tests `test` (each turn runs `enter`, then the body,
        back to the head); the block after it is returned."""
        head, first, after = self.label(), self.label(), self.label()
        self.jump(fn, head)
        top = self.block(head)
        top.add(f"if {test}:")
        for line in enter:
            top.add("    " + line)
        top.add(f"    pc = {self.w.const(first)}")
        top.add("    continue")
        self.jump(top, after)
        self.run(body.stmts, self.block(first), head)
        return self.block(after)

    def choose(self, s: ast.Choose, fn: Func) -> Func:
        """`choose x in D [where …]` by the mover, `by p`, `secretly by p` (a decision whose
        menu the turn returns, its value bound when it is taken: GenState._play) or `at
        random` (a draw on the state's generator)."""
        w = self.w
        dom = w.ex(s.domain, self.env)
        values, v = w.fresh("v"), w.fresh("v")
        fn.add(f"{values} = [{w.const(NOTHING)}] if {w.const(s.optional)} else []")
        fn.add(f"for {v} in {w.const(rt.domain)}(S, {dom.src}, {w.const(s.domain.span)}):")
        if s.cond is None:
            fn.add(f"    {values}.append({v})")
            cost = dom.cost + 1
        else:
            c = w.ex(s.cond, {**self.env, s.var: Code(v, F.ANY, 0)})
            fn.add(f"    if {c.src}:")
            fn.add(f"        {values}.append({v})")
            cost = dom.cost + c.cost + 1
        self.cost += cost  # (a domain's items are charged where the game counts)
        empty = w.const(f"nothing to choose from for '{s.var}'")
        fn.add(f"if not {values}:")
        fn.add(f"    raise {w.const(RuleRuntimeError)}({empty}, {w.const(s.span)})")
        slot = self.slot(s.var)
        if s.mode == "random":
            fn.add(f"{slot.src} = {w.const(H.chance)}(S, {values}, {w.const(s.span)})")
            return fn
        point = self.gw.choose_point(s, self.index[s.var], self.index)
        who = "None"
        if s.chooser is not None:
            chooser = w.ex(s.chooser, self.env)
            self.cost += chooser.cost
            who = f"{w.const(H.chooser)}({chooser.src}, {w.const(s.chooser.span)})"
        after = self.label()
        fn.add(f"S.chooser = {who}")
        fn.add(f"S.pc = {w.const(after)}")
        fn.add(f"S.point = {w.const(point)}")
        fn.add(f"return [({w.const(None)}, ({v}, )) for {v} in {values}]")
        return self.block(after)


def _bound_once(stmts: tuple[ast.Stmt, ...], params: tuple[str, ...] = ()) -> set[str]:
    """The names the statements bind (let, loop, choose, put … as; an effect's parameters)
    once only."""
    seen = dict.fromkeys(params, 1)
    for s in stmts:
        for n in walk(s):
            names = [name for name, _ in n.bindings] if isinstance(n, ast.Let) else \
                [n.var] if isinstance(n, (ast.ForEach, ast.Choose)) else \
                [n.name] if isinstance(n, ast.Put) and n.name else []
            for name in names:
                seen[name] = seen.get(name, 0) + 1
    return {name for name, times in seen.items() if times == 1}


_HELD = ("site", "player", "piece", "num", "bool", "text")


def kept_form(form: F.Form) -> F.Form | None:
    """The form a turn's slot keeps of a value (a site, a player, a piece, a number, a
    truth, a text, or a tuple of one of these), None for any other: the value only, nothing
    the writer reads beside it (a static value, masks or indices of a binding's names)."""
    if form.kind in _HELD:
        return F.Form(form.kind)
    if form.kind == "items" and form.item is not None and form.item.kind in _HELD:
        return F.items(form.size, F.Form(form.item.kind))
    return None


_JUMP = re.compile(r"( *)(S\.)?pc = (k\d+)$")
_LOOP = re.compile(r" *(for|while) ")


def joined(blocks: dict[int, Func], labels: dict[str, int]) -> dict[int, Func]:
    """The machine's blocks with fewer jumps (labels: each label's constant): a jump to a
    block that only jumps on goes where that one goes; a block one jump alone reaches
    (not a point resumed at, not the start) is written in place of that jump, where no
    loop of the block around it would take its `continue`."""
    def target(label: int) -> int:
        seen = set()
        while label not in seen and label != 1:
            seen.add(label)
            lines = blocks[label].lines
            found = _JUMP.fullmatch(lines[0]) if len(lines) == 2 and lines[1] == "continue" \
                else None
            if found is None or found.group(2):
                break
            label = labels[found.group(3)]
        return label
    names = {label: name for name, label in labels.items()}
    for block in blocks.values():  # jumps to blocks that only jump: to where they go
        for i, line in enumerate(block.lines):
            found = _JUMP.fullmatch(line) if "pc = " in line else None
            if found is not None:
                block.lines[i] = line[:found.start(3)] + names[target(labels[found.group(3)])]
    def jumps(lines: list[str]) -> list[tuple[int, int]]:  # (to, line i; -1: resumed at)
        out = []
        for i, line in enumerate(lines):
            found = _JUMP.fullmatch(line) if "pc = " in line else None  # (fewer tried)
            if found is not None:
                out.append((labels[found.group(3)], i if not found.group(2) else -1))
        return out
    found_in = {label: jumps(block.lines) for label, block in blocks.items()}
    while True:
        refs: dict[int, list[tuple[int, int]]] = {1: [(-1, -1)]}  # (the start: resumed at)
        for label in blocks:
            for to, i in found_in[label]:
                refs.setdefault(to, []).append((label, i))
        blocks = {label: block for label, block in blocks.items() if label in refs}
        one = next(((to, *where[0]) for to, where in refs.items() if len(where) == 1
                    and where[0][1] >= 0 and where[0][0] != to
                    and _unlooped(blocks[where[0][0]].lines, where[0][1])), None)
        # (a jump is `pc = k…` then `continue`, where `_unlooped` found no loop around it)
        if one is None:
            return blocks
        to, label, i = one
        lines = blocks[label].lines
        indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
        lines[i:i + 2] = [indent + line for line in blocks.pop(to).lines]
        found_in[label] = jumps(lines)


def _unlooped(lines: list[str], i: int) -> bool:
    """Is line i a jump (`continue` after it) within no `for` or `while` of its block?"""
    depth = len(lines[i]) - len(lines[i].lstrip())
    if i + 1 >= len(lines) or lines[i + 1] != lines[i][:depth] + "continue":
        return False
    for line in reversed(lines[:i]):
        indent = len(line) - len(line.lstrip())
        if indent < depth:
            if _LOOP.match(line):
                return False
            depth = indent
    return True
