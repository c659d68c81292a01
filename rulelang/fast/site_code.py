"""The site predicates of fast/codegen.py: the condition of a kept site query (or the body of
a rule kept per site or pair of sites, site_rules.py, or the `where` of a choose of sites,
executor.py) written as a function `def f(c, s0):`
(`def f(c, s0, s1):`) of sites of the board, with real Python locals: `s0` the site, `a0`
the board's stacks (GameData.at), a temporary per value. No closure is called: a condition
with a node not covered here is not generated (Unsupported), and its closure stays. The
steps are charged where the closures charge them (an and/or with the steps of the inlined
calls whose body it is, an inlined rule's call, loops.site_loop's row at once);
incremental.CHECK compares both, value and steps, for every site.

The writer's vocabulary is codegen's (its module docstring): only generator-made names, and
every value (the rows of a relation, the budget, spans) a constant of the table."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulelang.language import ast
from rulelang.library.semantics import STEP_BUDGET
from rulelang.model.values import Player

MAX_DEPTH = 24  # blocks of nesting in one generated function (codegen's too)
# loops and try statements open around a node in one function: CPython refuses more than 20
# statically nested, and a node's own statements may open two (a try's except body)
MAX_BLOCKS = 18


@dataclass(frozen=True, eq=False)
class SitePredicate:
    """What to generate: `def f(c, s0)`, the condition `cond` of a site `var` of the board
    (s0), with real Python locals (see _Writer.predicate); with `second`, `def f(c, s0, s1)`,
    the condition of two sites (a rule of two sites kept per pair: site_rules.py)."""
    cond: ast.Expr
    var: str
    second: str | None = None

    @property
    def span(self) -> Any:
        return self.cond.span


class Unsupported(Exception):
    """A site predicate with a node the predicate writer does not cover."""


class PredicateWriter:
    """Mixed into codegen._Writer, whose pieces of source it uses."""

    refs: Any
    compiler: Any
    inlining = 0  # rules being written in place, one inside the other
    blocks = 0  # loops and try statements open where the next line is written

    def line(self, text: str, depth: int, node: ast.Node | None = None) -> None:
        raise NotImplementedError  # _Writer.line

    def const(self, value: Any) -> str:
        raise NotImplementedError

    def temp(self) -> str:
        raise NotImplementedError

    def mark(self, node: ast.Node, depth: int) -> None:
        raise NotImplementedError

    def charge_steps(self, steps: int, span: Any, depth: int, node: ast.Node) -> None:
        raise NotImplementedError

    def predicate(self, n: ast.Expr, env: dict[str, str], depth: int, pending: int) -> str:
        """Statements computing the bool n at this depth; returns the name holding it."""
        name, kind = self.value(n, env, depth, pending)
        if kind != BOOL:
            raise Unsupported(n)
        return name

    def value(self, n: ast.Expr, env: dict[str, str], depth: int, pending: int
              ) -> tuple[str, str]:
        """Statements computing n at this depth: the name holding its value and its kind
        (BOOL, INT, SITE, PLAYER: a player or none). `pending`: the steps of the inlined
        calls whose body n is (as Compiler._pending_steps)."""
        if isinstance(n, ast.BoolOp):
            self.mark(n, depth)
            self.charge_steps(pending, n.span, depth, n)
            a = self.predicate(n.left, env, depth, 0)
            v = self.temp()
            self.line(f"if {'not ' if n.op == 'and' else ''}{a}:", depth, n)
            self.line(f"{v} = {'False' if n.op == 'and' else 'True'}", depth + 1, n)
            self.line("else:", depth, n)
            b = self.predicate(n.right, env, depth + 1, 0)
            self.line(f"{v} = {b}", depth + 1, n)
            return v, BOOL
        if isinstance(n, ast.Call) and self.refs.get(n.func, ("",))[0] == "def":
            return self.inlined_rule(n, env, depth, pending)
        if isinstance(n, ast.Quant):
            return self.row_loop(n, env, depth, pending)
        self.charge_steps(pending, n.span, depth, n)  # (the call's `counted`, then its body)
        if isinstance(n, ast.Name):
            x = self.site_local(n, env)
            if x is not None:
                return x, SITE
            if self.refs.get(n) in (("builtin", "mover"), ("builtin", "opponent")):
                self.mark(n, depth)  # the closure's player (it reads no local)
                v = self.temp()
                self.line(f"{v} = {self.const(self.compiler.expr(n))}(c, {self.const({})})",
                          depth, n)
                return v, PLAYER
        fixed, known = self.compiler.constant(n)
        if fixed:
            kind = {bool: BOOL, int: INT, Player: PLAYER, type(None): PLAYER}.get(type(known))
            if kind is None:
                raise Unsupported(n)
            return self.const(known), kind
        v = self.temp()
        if isinstance(n, ast.Not):
            a = self.predicate(n.operand, env, depth, 0)
            self.mark(n, depth)
            self.line(f"{v} = not {a}", depth, n)
            return v, BOOL
        if isinstance(n, ast.Attr):
            coord = self.compiler.rt.coord_index
            x = self.site_local(n.obj, env)
            if x is None or self.refs.get(n) is not None or n.name not in coord:
                raise Unsupported(n)
            self.mark(n, depth)
            self.line(f"{v} = {x}.coords[{self.const(coord[n.name])}]", depth, n)
            return v, INT
        if isinstance(n, ast.Call):
            x = self.site_local(n.args[0], env) if len(n.args) == 1 else None
            test = self.refs.get(n.func)
            if x is None or test not in _TESTS:
                raise Unsupported(n)
            self.mark(n, depth)
            if test[1] == "moved":  # the top piece put, moved or removed in this action
                stack = self.temp()
                self.line(f"{stack} = a0[{x}.index]", depth, n)
                self.line(f"{v} = False", depth, n)
                self.line(f"if {stack}:", depth, n)
                self.line(f"{v} = {stack}[{self.const(-1)}].id in c.data.moved", depth + 1, n)
                return v, BOOL
            if test[1] != "owner":
                self.line(f"{v} = {'not ' if test[1] == 'empty' else 'not not '}a0[{x}.index]",
                          depth, n)
                return v, BOOL
            stack, who = self.temp(), self.temp()
            self.line(f"{stack} = a0[{x}.index]", depth, n)
            self.line(f"{v} = None", depth, n)
            self.line(f"if {stack}:", depth, n)
            self.line(f"{who} = c.data.owner[{stack}[{self.const(-1)}].id]", depth + 1, n)
            self.line(f"if {who} is not None:", depth + 1, n)
            self.line(f"{v} = {self.const(tuple(self.compiler.rt.players))}[{who}]",
                      depth + 2, n)
            return v, PLAYER
        if isinstance(n, ast.Compare) and n.op in ("in", "not in"):
            return self.row_member(n, env, depth, v)
        if isinstance(n, ast.Compare) and n.op in _COMPARES:
            a, left = self.value(n.left, env, depth, 0)
            b, right = self.value(n.right, env, depth, 0)
            # the kinds that compare without a charge or an error (never a list: the
            # closures charge a list's length; an order of ints only)
            if left != right and not {left, right} <= {BOOL, INT} or (
                    n.op not in ("==", "!=") and left != INT):
                raise Unsupported(n)
            self.mark(n, depth)
            self.line(f"{v} = {a} {n.op} {b}", depth, n)
            return v, BOOL
        raise Unsupported(n)

    def site_local(self, n: ast.Expr, env: dict[str, str]) -> str | None:
        """The Python local of a local name holding a site, else None."""
        if isinstance(n, ast.Name) and self.refs.get(n, ("local", n.id))[0] == "local":
            return env.get(n.id)
        return None

    def inlined_rule(self, n: ast.Call, env: dict[str, str], depth: int, pending: int
                     ) -> tuple[str, str]:
        """A rule's call, its body written in place (as Compiler._inline: one step, with the
        steps of the calls whose body it is, counted by a body that counts them itself, else
        before the body); its arguments are site locals."""
        d = self.compiler.rt.program.defs[self.refs[n.func][1]]
        params = d.params or ()
        # (the closures inline 8 calls deep, then call: a rule calling itself is theirs)
        if isinstance(d.body, ast.Block) or len(params) != len(n.args) or depth > MAX_DEPTH \
                or self.inlining + self.compiler._inline_depth >= 8:
            raise Unsupported(n)
        inner: dict[str, str] = {}
        for param, arg in zip(params, n.args, strict=True):
            x = self.site_local(arg, env)
            if x is None:
                raise Unsupported(n)
            inner[param] = x
        self.mark(n, depth)
        self.inlining += 1
        try:
            return self.value(d.body, inner, depth, pending + 1)
        finally:
            self.inlining -= 1

    def relation_row(self, n: ast.Expr, env: dict[str, str]) -> tuple[str, Any] | None:
        """For `REL(x)`, REL a relation of the board and x a site local: x's Python local
        and the relation; else None."""
        if not isinstance(n, ast.Call) or len(n.args) != 1:
            return None
        rel = self.refs.get(n.func, ("",))
        x = self.site_local(n.args[0], env)
        relation = self.compiler.rt.board.relations.get(rel[1]) if rel[0] == "relation" else None
        return None if x is None or relation is None else (x, relation)

    def row_member(self, n: ast.Compare, env: dict[str, str], depth: int, v: str
                   ) -> tuple[str, str]:
        """`t in REL(x)` (or `not in`), t and x site locals: the row looked through costs its
        length (as the closures' member_of_row charges it), found in a set of indices."""
        a = self.site_local(n.left, env)
        found = self.relation_row(n.right, env)
        if a is None or found is None:
            raise Unsupported(n)
        x, relation = found
        sets = tuple(frozenset(t.index for t in row) for row in relation.table)
        lengths = tuple(len(row) for row in relation.table)
        self.mark(n, depth)
        self.line(f"{v} = {a}.index {n.op} {self.const(sets)}[{x}.index]", depth, n)
        self.line(f"c.steps += {self.const(lengths)}[{x}.index]", depth, n)
        self.line(f"if c.steps > {self.const(STEP_BUDGET)}:", depth, n)
        self.line(f"c.tick({self.const(n.span)})", depth + 1, n)
        return v, BOOL

    def general_row_loop(self, n: ast.Quant, env: dict[str, str], depth: int, extra: int
                         ) -> tuple[str, str]:
        """`all|any v in REL(x) [where C]: B` and `count v in REL(x) where C` (or `: B`), C
        and B conditions written here with v a site local: the row's length (and `extra`)
        charged at once, then each item's own steps, as loops._q_bool and _q_each do."""
        found = self.relation_row(n.domain, env)
        counting = n.kind == "count" and (n.cond is None) != (n.body is None)
        if found is None or depth + 2 > MAX_DEPTH or self.blocks + 1 > MAX_BLOCKS or not (
                counting or n.kind in ("all", "any") and n.body is not None):
            raise Unsupported(n)
        x, relation = found
        self.mark(n, depth)
        row, v, item = self.temp(), self.temp(), self.temp()
        inner = {**env, n.var: item}
        self.line(f"{row} = {self.const(relation.table)}[{x}.index]", depth, n)
        self.line(f"c.steps += len({row}) + {self.const(extra)}", depth, n)
        self.line(f"if c.steps > {self.const(STEP_BUDGET)}:", depth, n)
        self.line(f"c.tick({self.const(n.span)})", depth + 1, n)
        if counting:
            self.line(f"{v} = {self.const(0)}", depth, n)
            self.line(f"for {item} in {row}:", depth, n)
            self.blocks += 1  # (an Unsupported drops the whole writer)
            test = self.predicate(n.cond or n.body, inner, depth + 1, 0)  # type: ignore[arg-type]
            self.blocks -= 1
            self.line(f"if {test}:", depth + 1, n)
            self.line(f"{v} += {self.const(1)}", depth + 2, n)
            return v, INT
        want_all = n.kind == "all"
        self.line(f"{v} = {want_all}", depth, n)
        self.line(f"for {item} in {row}:", depth, n)
        self.blocks += 1
        if n.cond is not None:
            passed = self.predicate(n.cond, inner, depth + 1, 0)
            self.line(f"if not {passed}:", depth + 1, n)
            self.line("continue", depth + 2, n)
        b = self.predicate(n.body, inner, depth + 1, 0)  # type: ignore[arg-type]
        self.blocks -= 1
        self.line(f"if {'not ' if want_all else ''}{b}:", depth + 1, n)
        self.line(f"{v} = {not want_all}", depth + 2, n)
        self.line("break", depth + 2, n)
        return v, BOOL

    def row_loop(self, n: ast.Quant, env: dict[str, str], depth: int, extra: int
                 ) -> tuple[str, str]:
        """`all|any v in REL(x): occupied(v)` (or empty(v)) and `count v in REL(x) where
        occupied(v)` (or empty(v)), REL a relation of the board: its row's sites read from
        the stacks, its length (and `extra`) charged at once, as loops.site_loop and
        loops.occupancy_filter do."""
        domain = n.domain
        test = n.body if n.kind in ("all", "any") and n.cond is None else \
            n.cond if n.kind == "count" and n.body is None else None
        tested = self.refs.get(test.func) if isinstance(test, ast.Call) else None
        if not isinstance(domain, ast.Call) or len(domain.args) != 1 \
                or not isinstance(test, ast.Call) or len(test.args) != 1 \
                or not (isinstance(test.args[0], ast.Name) and test.args[0].id == n.var) \
                or tested not in (("builtin", "occupied"), ("builtin", "empty")):
            return self.general_row_loop(n, env, depth, extra)
        rel = self.refs.get(domain.func, ("",))
        x = self.site_local(domain.args[0], env)
        relation = self.compiler.rt.board.relations.get(rel[1]) if rel[0] == "relation" else None
        if x is None or relation is None:
            raise Unsupported(n)
        rows = tuple(tuple(t.index for t in row) for row in relation.table)
        self.mark(n, depth)
        row, v, i = self.temp(), self.temp(), self.temp()
        self.line(f"{row} = {self.const(rows)}[{x}.index]", depth, n)
        self.line(f"c.steps += len({row}) + {self.const(extra)}", depth, n)
        self.line(f"if c.steps > {self.const(STEP_BUDGET)}:", depth, n)
        self.line(f"c.tick({self.const(n.span)})", depth + 1, n)
        occupied = tested[1] == "occupied"
        if n.kind == "count":
            self.line(f"{v} = {self.const(0)}", depth, n)
            self.line(f"for {i} in {row}:", depth, n)
            self.line(f"if {'' if occupied else 'not '}a0[{i}]:", depth + 1, n)
            self.line(f"{v} += {self.const(1)}", depth + 2, n)
            return v, INT
        want_all = n.kind == "all"
        # all occupied: stop at an empty one; any occupied: at an occupied one; and so on
        stop_at_occupied = want_all != occupied
        self.line(f"{v} = {want_all}", depth, n)
        self.line(f"for {i} in {row}:", depth, n)
        self.line(f"if {'' if stop_at_occupied else 'not '}a0[{i}]:", depth + 1, n)
        self.line(f"{v} = {not want_all}", depth + 2, n)
        self.line("break", depth + 2, n)
        return v, BOOL


BOOL, INT, SITE, PLAYER = "bool", "int", "site", "player"
_TESTS = (("builtin", "occupied"), ("builtin", "empty"), ("builtin", "owner"),
          ("builtin", "moved"))
_COMPARES = ("==", "!=", "<", "<=", ">", ">=")
