"""A turn of several decisions as a resumable state machine: `turn<m>(S, pc)` runs the turn
section from point `pc` (0: its start) to its next decision, whose menu it returns (the
point to resume at and the `do` it came from kept in `S.pc` and `S.point`), or to its end
(None). Its statements are cut into blocks at each `do` and each `if`, the blocks numbered
and run by a loop over `pc`, so a clone is a copy of the state (no replay of the turn). A
result statement in the turn ends the game at once (rt.TurnOver)."""
from __future__ import annotations

from typing import Any

import rulelang.gen.rt as rt
from rulelang.gen.code import Func, Unsupported
from rulelang.language import ast

END = 0  # the block that ends the turn; the turn starts at block 1


def write(gw: Any, mover: int) -> int:
    """Write `turn<mover>`; the most steps its statements take besides the menus."""
    return _Turn(gw, mover).write()


class _Turn:
    def __init__(self, gw: Any, mover: int) -> None:
        self.gw, self.w, self.mover = gw, gw.w, mover
        self.blocks: list[tuple[int, Func]] = []
        self.labels = 1
        self.cost = 0

    def write(self) -> int:
        w = self.w
        self.run(self.gw.turn.stmts, self.block(1), END)
        end = self.block(END)
        end.add("return None")
        fn = Func(f"def turn{self.mover}(S, pc):")
        fn.add("while True:")
        for label, block in self.blocks:
            fn.add(f"    if pc == {w.const(label)}:")
            fn.lines.extend("            " + line for line in block.lines)
        self.w.funcs.append((f"turn{self.mover}", self.gw.turn.span, "turn", fn))
        return self.cost

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

    def run(self, stmts: tuple[ast.Stmt, ...], fn: Func, then: int) -> None:
        """Write stmts from the block fn on, then go to block `then`."""
        w = self.w
        for s in stmts:
            if isinstance(s, ast.Do):
                after = self.label()
                fn.add(f"menu = menu{self.mover}_{self.gw.dos.index(s)}(S)")
                fn.add("if menu:")  # a decision: the turn goes on from `after` once taken
                fn.add(f"    S.pc = {w.const(after)}")
                fn.add(f"    S.point = {w.const(self.gw.dos.index(s))}")
                fn.add("    return menu")
                self.jump(fn, after)  # (nobody can take it: the turn goes on without)
                fn = self.block(after)
            elif isinstance(s, ast.If):
                after = self.label()
                for cond, body in s.branches:
                    c = w.ex(cond, {})
                    self.cost += c.cost
                    branch = self.label()
                    fn.add(f"if {c.src}:")
                    fn.add(f"    pc = {w.const(branch)}")
                    fn.add("    continue")
                    self.run(body.stmts, self.block(branch), after)
                if s.orelse is not None:
                    branch = self.label()
                    self.jump(fn, branch)
                    self.run(s.orelse.stmts, self.block(branch), after)
                else:
                    self.jump(fn, after)
                fn = self.block(after)
            elif isinstance(s, ast.Result):
                result, cost = self.gw.result(s, {}, fn)
                self.cost += cost
                fn.add(f"raise {w.const(rt.TurnOver)}({result})")
                fn = self.block(self.label())  # (nothing after it runs)
            elif isinstance(s, (ast.Set, ast.Increase)):
                self.cost += self.gw.effect(s, {}, fn)
            else:
                raise Unsupported(f"the statement '{type(s).__name__}' in a turn of several "
                                  "decisions", s.span)
        self.jump(fn, then)

