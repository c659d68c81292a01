"""Expressions compiled to closures `fn(ctx, locals)`; the tests prove them equal to the
interpreter. Hot shapes are specialised: builtins that read the board inline their table
access, relation calls index frozen tables, quantifiers run plain loops, calls of rules
bind their parameters without a generic frame."""
from __future__ import annotations

from collections.abc import Callable, Sized
from typing import Any

from rulelang.errors import RulelangError, RuleRuntimeError
from rulelang.fast.calls import CallCompiler
from rulelang.fast.codegen import Generator
from rulelang.fast.fields import FieldCompiler
from rulelang.fast.loops import (
    QUANTS,
    is_var,
    local_names,
    member_loop,
    occupancy_filter,
    site_loop,
    tag,
)
from rulelang.fast.nested import fuse_owner_lines
from rulelang.fast.site_queries import SiteQueries
from rulelang.fast.site_rules import site_rule
from rulelang.language import ast
from rulelang.library import BUILTINS
from rulelang.library.semantics import (
    COMPARES,
    NUMBER_OPS,
    STEP_BUDGET,
    Ctx,
    charge,
    compute,
    count_of,
    domain_items,
    iterate,
    local_of,
    make_map,
    make_range,
    negate,
    no_clause,
    of_value,
    ordered,
    runtime_error,
)
from rulelang.model.values import Player, Record, show

Fn = Callable[[Ctx, dict[str, Any]], Any]


class Compiler(CallCompiler, FieldCompiler, SiteQueries):
    def __init__(self, runtime: Any, generate: bool = False) -> None:
        """generate: the expressions of codegen.NATIVE as generated Python (fast/codegen.py)."""
        self.rt = runtime
        self.refs = runtime.program.refs
        self._defs: dict[str, list[Fn]] = {}
        self._subst: dict[str, Fn] = {}  # parameters of the rule being inlined
        self._inline_depth = 0
        self._pending_steps = 0  # steps of inlined calls for the quantifier compiled next
        self.generator = Generator(self) if generate else None

    def expr(self, node: ast.Expr) -> Fn:
        if self.generator is not None and self.generator.takes(node):
            return self.generator.function(node)
        return self.closure(node)

    def closure(self, node: ast.Expr) -> Fn:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            raise NotImplementedError(type(node).__name__)
        fn: Fn = method(node)
        return fn

    def visit_Const(self, n: ast.Const) -> Fn:
        value = n.value
        return tag(lambda c, e: value, const=value)

    # ---- names
    def visit_Name(self, n: ast.Name) -> Fn:
        ref = self.refs.get(n, ("local", n.id))
        if ref[0] == "local" and n.id in self._subst:
            return self._subst[n.id]
        return self._ref(ref, n)

    def _ref(self, ref: tuple[str, str], n: ast.Node) -> Fn:
        cat, key = ref
        if cat == "local":
            def local(c: Ctx, e: dict[str, Any]) -> Any:
                try:
                    return e[key]
                except KeyError:
                    raise RuleRuntimeError(f"'{key}' has no value here", n.span) from None
            return tag(local, local_name=key)
        if cat == "builtin":
            return self._constant(key)
        if cat == "function":
            rt = self.rt
            kept = site_rule(rt, key, n, self._def_body,  # (site_rules.py)
                             self.site_predicates().site_predicate)
            return kept or (lambda c, e: rt.ref_value(ref, c, e, n))
        if cat == "def":
            inlined = self._inline(key, (), [], n.span)
            return self.per_position(key, inlined if inlined is not None
                                     else self._call_def(key, [], n))
        if cat in ("relation", "region", "lines", "player", "option", "kind", "symbol", "enum",
                   "zones", "table"):  # fixed for the game: read once
            try:
                value = self.rt.ref_value(ref, Ctx(self.rt, None), {}, n)
            except RuleRuntimeError:  # (a table made from itself: reported where it is read)
                return lambda c, e: self.rt.ref_value(ref, c, e, n)
            return tag(lambda c, e: value, const=value)
        program = self.rt.program
        if cat == "zone" and key in program.zones and not program.zones[key].each:
            zone = self.rt.ref_value(ref, Ctx(self.rt, None), {}, n)  # one for the game
            return tag(lambda c, e: zone, const=zone)
        if cat == "counter" and not program.counters[key].each:  # read straight from the data
            counter = (key, None)

            def counter_value(c: Ctx, e: dict[str, Any]) -> Any:
                return c.data.counters[counter]
            return counter_value
        if cat == "var" and not program.vars[key].each:
            var = (key, None)

            def var_value(c: Ctx, e: dict[str, Any]) -> Any:
                return c.data.vars[var]
            return var_value
        return lambda c, e: self.rt.ref_value(ref, c, e, n)

    def _constant(self, key: str) -> Fn:
        players = self.rt.players
        if key == "mover":  # no_locals: reads no local (nested.fuse_owner_lines)
            return tag(lambda c, e: players[c.data.mover], no_locals=True)
        if key == "opponent":
            n = len(players)
            return tag(lambda c, e: players[(c.data.mover + 1) % n], no_locals=True)
        if key == "sites":
            sites = self.rt.board.sites
            return lambda c, e: sites
        impl = BUILTINS[key].impl
        return lambda c, e: impl(c)

    # ---- operators
    def visit_Index(self, n: ast.Index) -> Fn:
        obj, index = self.expr(n.obj), self.expr(n.index)

        def idx(c: Ctx, e: dict[str, Any]) -> Any:
            try:
                return obj(c, e)[index(c, e)]
            except (IndexError, KeyError, TypeError, RuleRuntimeError) as exc:  # (a table's)
                raise runtime_error(exc, n.span, "indexing") from None
        name, (k, i) = getattr(obj, "local_name", None), operand(index)
        if name is None or k is None:
            return idx
        if k == "const":  # `row[2]`: one closure
            def local_const(c: Ctx, e: dict[str, Any]) -> Any:
                try:
                    return e[name][i]
                except Exception:  # noqa: BLE001 - the general path reports it
                    return idx(c, e)
            return local_const

        def local_local(c: Ctx, e: dict[str, Any]) -> Any:  # `rows[r]`
            try:
                return e[name][e[i]]
            except Exception:  # noqa: BLE001
                return idx(c, e)
        return local_local

    def visit_Of(self, n: ast.Of) -> Fn:
        cat, key = self.refs.get(n.left, ("local", ""))
        right = self.expr(n.right)
        if cat in ("kind", "zone"):  # one value per player, made once
            table = [of_value(Ctx(self.rt, None), cat, key, p) for p in self.rt.players]

            def of_player(c: Ctx, e: dict[str, Any]) -> Any:
                p = right(c, e)
                if type(p) is Player:
                    return table[p.index]
                raise RuleRuntimeError(f"'of' needs a player on its right, not {show(p)}",
                                       n.span)
            return of_player

        left = self.expr(n.left) if cat == "local" else None

        def of(c: Ctx, e: dict[str, Any]) -> Any:
            kind, name = local_of(c, left(c, e)) if left is not None else (cat, key)
            try:
                return of_value(c, kind, name, right(c, e))
            except (RulelangError, KeyError) as exc:
                raise RuleRuntimeError(str(exc), n.span) from None
        return of

    def visit_BinOp(self, n: ast.BinOp) -> Fn:
        """Numbers are computed by the C operator straight away; anything else goes through
        BINOPS, which refuses lists and texts too large to make."""
        raw = NUMBER_OPS[n.op]
        left, right = self.expr(n.left), self.expr(n.right)

        def binop(c: Ctx, e: dict[str, Any]) -> Any:  # the general case: semantics.compute
            a, b = left(c, e), right(c, e)
            if type(a) is int and type(b) is int:  # (two whole numbers: no call)
                try:
                    return raw(a, b)
                except (ZeroDivisionError, OverflowError):  # reported by compute
                    pass
            return compute(c, n.op, a, b, n.span)
        (kl, x), (kr, y) = operand(left), operand(right)
        if kl == "const" and kr is None and type(x) is int:  # `2 * count …`
            def const_left(c: Ctx, e: dict[str, Any]) -> Any:
                b = right(c, e)
                if type(b) is int:
                    try:
                        return raw(x, b)
                    except (ZeroDivisionError, OverflowError):  # reported by binop
                        pass
                return binop(c, e)
            return const_left
        if kl == "local" and kr == "const" and type(y) is int:  # `i + 1`
            def local_const(c: Ctx, e: dict[str, Any]) -> Any:
                a = e.get(x)
                if type(a) is int:
                    try:
                        return raw(a, y)
                    except (ZeroDivisionError, OverflowError):  # reported by binop
                        pass
                return binop(c, e)
            return local_const
        if kl == "local" and kr == "local":  # `a + b`
            def local_local(c: Ctx, e: dict[str, Any]) -> Any:
                a, b = e.get(x), e.get(y)
                if type(a) is int and type(b) is int:
                    try:
                        return raw(a, b)
                    except (ZeroDivisionError, OverflowError):  # reported by binop
                        pass
                return binop(c, e)
            return local_local
        return binop

    def constant(self, n: ast.Expr) -> tuple[bool, Any]:
        """(True, value) for an expression whose value never changes in a game."""
        if isinstance(n, ast.Const):
            return True, n.value
        ref = self.refs.get(n)
        if isinstance(n, (ast.Name, ast.Attr)) and ref is not None and ref[0] in (
                "player", "option", "kind", "region", "lines", "relation", "symbol") and not (
                ref[0] == "local" or (isinstance(n, ast.Name) and n.id in self._subst)):
            try:
                return True, self.rt.ref_value(ref, Ctx(self.rt, None), {}, n)
            except RuleRuntimeError:
                return False, None
        return False, None

    def visit_Compare(self, n: ast.Compare) -> Fn:
        left, right = self.expr(n.left), self.expr(n.right)
        if n.op in ("==", "!="):
            fixed, value = self.constant(n.right)
            # (`compare`: what columns.py needs to read x.attr == V in a loop over x)
            if fixed:  # the common `x == "place"`, `p == White`: one closure less
                if n.op == "==":
                    return tag(lambda c, e: left(c, e) == value,
                               compare=("==", left, "const", value))
                return tag(lambda c, e: left(c, e) != value, compare=("!=", left, "const", value))
        span = n.span
        if n.op == "==":
            def equal(c: Ctx, e: dict[str, Any]) -> Any:
                a = left(c, e)
                if type(a) is tuple:  # comparing lists costs their length
                    charge(c, len(a), span)
                return a == right(c, e)
            return tag(equal, compare=("==", left, right, None))
        if n.op == "!=":
            def unequal(c: Ctx, e: dict[str, Any]) -> Any:
                a = left(c, e)
                if type(a) is tuple:
                    charge(c, len(a), span)
                return a != right(c, e)
            return tag(unequal, compare=("!=", left, right, None))
        if n.op in ("in", "not in"):
            negated, span = n.op == "not in", n.span

            def within(c: Ctx, a: Any, b: Any) -> Any:
                if type(b) is tuple:  # looking through a list costs its length
                    charge(c, len(b), span)
                try:
                    return (a in iterate(c, b)) != negated
                except TypeError:
                    raise RuleRuntimeError(f"cannot compare {show(a)} {n.op} {show(b)}",
                                           span) from None
            rows = self._relation_rows(n.right)
            if rows is not None:  # `t in above(b)`: the row of b as a set, same steps
                name, sets = rows

                def member_of_row(c: Ctx, e: dict[str, Any]) -> Any:
                    a = left(c, e)
                    try:
                        found, steps = sets[e[name]]
                        inside = a in found
                    except (KeyError, TypeError):  # (not a site of the board, or unhashable)
                        return within(c, a, right(c, e))
                    charge(c, steps, span)
                    return inside != negated
                return member_of_row

            def member(c: Ctx, e: dict[str, Any]) -> Any:  # (within's body: one call less)
                a, b = left(c, e), right(c, e)
                if type(b) is tuple:  # (charge and iterate, inlined: a tuple is its items)
                    steps = c.steps = c.steps + len(b)
                    if steps > STEP_BUDGET:
                        c.tick(span)
                    return (a in b) != negated  # (no TypeError: a tuple compares by ==)
                try:
                    return (a in iterate(c, b)) != negated
                except TypeError:
                    return within(c, a, b)  # (says what cannot be compared)
            return tag(member, membership=(negated, left, right))  # (fast/membership.py)
        op = COMPARES[n.op]

        def compare(c: Ctx, e: dict[str, Any]) -> Any:
            a, b = left(c, e), right(c, e)
            try:
                return op(a, b)
            except TypeError:  # (sites, players, pieces: ordered by the rules)
                return ordered(a, n.op, b, n.span)
        return compare

    def _relation_rows(self, n: ast.Expr) -> tuple[str, dict[Any, Any]] | None:
        """For `rel(x)` with rel a relation of the board and x a plain local: the local's name
        and, per site, its row as a frozenset with the row's length; else None."""
        if not isinstance(n, ast.Call) or len(n.args) != 1:
            return None
        cat, key = self.refs.get(n.func, ("", ""))
        rel = self.rt.board.relations.get(key) if cat == "relation" else None
        name = self._plain_local(n.args[0])
        if rel is None or name is None:
            return None
        return name, {s: (frozenset(rel.table[s.index]), len(rel.table[s.index]))
                      for s in self.rt.board.sites}

    def visit_BoolOp(self, n: ast.BoolOp) -> Fn:
        # the steps of inlined calls whose body this is: counted here, with no closure more
        steps, self._pending_steps = self._pending_steps, 0
        left, right = self.expr(n.left), self.expr(n.right)
        both = n.op == "and"
        if steps:
            span = n.span

            def counted(c: Ctx, e: dict[str, Any]) -> Any:
                c.steps += steps
                if c.steps > STEP_BUDGET:
                    c.tick(span)
                if both:
                    return not (not left(c, e) or not right(c, e))
                return not (not left(c, e) and not right(c, e))
            return counted
        if both:  # `not` twice: a bool without calling bool()
            return lambda c, e: not (not left(c, e) or not right(c, e))
        return lambda c, e: not (not left(c, e) and not right(c, e))

    def visit_Not(self, n: ast.Not) -> Fn:
        operand = self.expr(n.operand)
        return lambda c, e: not operand(c, e)

    def visit_Neg(self, n: ast.Neg) -> Fn:
        operand, span = self.expr(n.operand), n.span

        def neg(c: Ctx, e: dict[str, Any]) -> Any:
            v = operand(c, e)
            return -v if type(v) is int else negate(v, span)
        return neg

    def visit_NoClause(self, n: ast.NoClause) -> Fn:
        subject, rule, symbols, span = self.expr(n.subject), n.rule, n.symbols, n.span

        def fail(c: Ctx, e: dict[str, Any]) -> Any:
            raise no_clause(rule, symbols, subject(c, e), span)
        return fail

    def visit_IfExpr(self, n: ast.IfExpr) -> Fn:
        # the steps of inlined calls whose body this is: counted here, with no closure more
        steps, self._pending_steps = self._pending_steps, 0
        chosen = self._text_switch(n, steps)
        if chosen is not None:
            return chosen
        cond, then, orelse = self.expr(n.cond), self.expr(n.then), self.expr(n.orelse)
        (fixed_a, a), (fixed_b, b) = self.constant(n.then), self.constant(n.orelse)
        span = n.span
        if steps and fixed_a and fixed_b:
            def counted_fixed(c: Ctx, e: dict[str, Any]) -> Any:
                c.steps += steps
                if c.steps > STEP_BUDGET:
                    c.tick(span)
                return a if cond(c, e) else b
            return counted_fixed
        if steps:
            def counted(c: Ctx, e: dict[str, Any]) -> Any:
                c.steps += steps
                if c.steps > STEP_BUDGET:
                    c.tick(span)
                return then(c, e) if cond(c, e) else orelse(c, e)
            return counted
        if fixed_a and fixed_b:  # `left_edge if p == White else top_edge`
            return lambda c, e: a if cond(c, e) else b
        return lambda c, e: then(c, e) if cond(c, e) else orelse(c, e)

    def visit_TupleExpr(self, n: ast.TupleExpr) -> Fn:
        fixed, value = self._constant_tuple(n)
        if fixed:  # `[("QA", "QB"), ("QC", "QD")]`: made once
            return lambda c, e: value
        items = [self.expr(x) for x in n.items]
        if len(items) == 2:  # `[r, c]`, `(a, b)`: the common pairs, without a loop
            f, g = items
            return lambda c, e: (f(c, e), g(c, e))
        if len(items) == 3:
            f, g, h = items
            return lambda c, e: (f(c, e), g(c, e), h(c, e))
        return lambda c, e: tuple([f(c, e) for f in items])

    def _constant_tuple(self, n: ast.Expr) -> tuple[bool, Any]:
        """(True, value) for a tuple, list or record literal whose items never change in a
        game."""
        if not isinstance(n, (ast.TupleExpr, ast.ListExpr, ast.RecordExpr)):
            return self.constant(n)
        values = []
        for x in n.items:
            fixed, value = self._constant_tuple(x)
            if not fixed:
                return False, None
            values.append(value)
        if isinstance(n, ast.RecordExpr):
            return True, Record(n.fields, tuple(values))
        return True, tuple(values)

    visit_ListExpr = visit_TupleExpr

    def visit_RecordExpr(self, n: ast.RecordExpr) -> Fn:
        fixed, value = self._constant_tuple(n)
        if fixed:  # `(name: "ember", season: spring, card: 3)`: made once
            return lambda c, e: value
        items, fields, make = [self.expr(x) for x in n.items], n.fields, tuple.__new__
        # Record(fields, values) without its __new__'s frame: the tuple made, its fields set
        if len(items) == 2:
            f, g = items

            def pair(c: Ctx, e: dict[str, Any]) -> Any:
                r = make(Record, (f(c, e), g(c, e)))
                r.fields = fields
                return r
            return pair
        if len(items) == 3:
            f, g, h = items

            def triple(c: Ctx, e: dict[str, Any]) -> Any:
                r = make(Record, (f(c, e), g(c, e), h(c, e)))
                r.fields = fields
                return r
            return triple

        def record(c: Ctx, e: dict[str, Any]) -> Any:
            r = make(Record, [f(c, e) for f in items])
            r.fields = fields
            return r
        return record

    def visit_MapExpr(self, n: ast.MapExpr) -> Fn:
        keys, values = [self.expr(x) for x in n.keys], [self.expr(x) for x in n.values]
        span = n.span
        consts = [x for x in n.keys + n.values if isinstance(x, ast.Const)]
        if len(consts) == len(n.keys) + len(n.values):  # built once
            fixed = make_map([x.value for x in consts[:len(n.keys)]],
                             [x.value for x in consts[len(n.keys):]], span)
            return lambda c, e: fixed
        return lambda c, e: make_map([k(c, e) for k in keys], [v(c, e) for v in values], span)

    def visit_ListComp(self, n: ast.ListComp) -> Fn:
        """[item for x in D, y in E where cond]: nested loops over a copy of the locals."""
        saved, bound = self._subst, set[str]()
        gens: list[tuple[str, Fn]] = []
        try:
            for g in n.generators:  # a domain sees the variables of the generators before it
                self._subst = {k: v for k, v in saved.items() if k not in bound}
                gens.append((g.var, self.expr(g.domain)))
                bound.add(g.var)
            self._subst = {k: v for k, v in saved.items() if k not in bound}
            cond = self.expr(n.cond) if n.cond is not None else None
            item = self.expr(n.item)
        finally:
            self._subst = saved
        span, last = n.span, len(gens) - 1

        def loop(c: Ctx, env: dict[str, Any], i: int, out: list[Any]) -> None:
            var, domain = gens[i]
            items = domain_items(c, domain(c, env), span)
            sized = False
            if type(items) is tuple or isinstance(items, Sized):  # (tuples first: an ABC's
                sized = True  # test is slow); all its steps at once: a billion are refused
                c.tick(span, count_of(items))
            for v in items:
                if not sized:
                    c.tick(span)
                env[var] = v
                if i < last:
                    loop(c, env, i + 1, out)
                elif cond is None or cond(c, env):
                    out.append(item(c, env))

        def comp(c: Ctx, e: dict[str, Any]) -> Any:
            out: list[Any] = []
            loop(c, dict(e), 0, out)
            return tuple(out)
        return comp

    def visit_Range(self, n: ast.Range) -> Fn:
        lo, hi = self.expr(n.lo), self.expr(n.hi)
        span = n.span
        return lambda c, e: make_range(lo(c, e), hi(c, e), span)

    def _site_test_quant(self, n: ast.Quant, domain: Fn, body_fn: Fn, extra: int) -> Fn | None:
        """`all|any v in SITES: occupied(v)` / `empty(v)` / `owner(v) == P` (P not using v):
        a loop over site indices reading the board lists, no closure call per site. body_fn
        is the body compiled where v is bound."""
        body, var = n.body, n.var
        test: str | None = None
        other: ast.Expr | None = None
        if isinstance(body, ast.Call) and len(body.args) == 1 and is_var(body.args[0], var):
            test = {("builtin", "occupied"): "occupied", ("builtin", "empty"): "empty"}.get(
                self.refs.get(body.func, ("", "")))
        elif isinstance(body, ast.Compare) and body.op == "==" and isinstance(body.left, ast.Call):
            call = body.left
            if self.refs.get(call.func) == ("builtin", "owner") and len(call.args) == 1 \
                    and is_var(call.args[0], var) and var not in local_names(body.right,
                                                                              self.refs):
                test, other = "owner", body.right
        elif isinstance(body, ast.Compare) and body.op in ("in", "not in") and \
                is_var(body.left, var) and var not in local_names(body.right, self.refs):
            test, other = body.op, body.right
        if test is None:
            return None
        assert body is not None  # a test was found in it
        general = QUANTS[n.kind](domain, var, None, body_fn, n.span, extra)
        if test in ("in", "not in"):
            assert other is not None
            return member_loop(n.kind == "all", test == "in", domain, self.expr(other),
                               general, n.span, extra)
        return site_loop(n.kind == "all", test, domain,
                         self.expr(other) if other is not None else None, general, n.span,
                         extra)

    # ---- quantifiers: plain loops
    def visit_Quant(self, n: ast.Quant) -> Fn:
        # the call of an inlined rule whose body is this quantifier: counted with its items
        extra, self._pending_steps = self._pending_steps, 0
        domain = self.expr(n.domain)
        saved = self._subst
        self._subst = {k: v for k, v in saved.items() if k != n.var}
        try:
            cond = self.expr(n.cond) if n.cond is not None else None
            body = self.expr(n.body) if n.body is not None else None
        finally:
            self._subst = saved
        if n.kind in ("all", "any") and cond is None and body is not None:
            fast = self._site_test_quant(n, domain, body, extra) or fuse_owner_lines(
                n.kind == "any", domain, n.var, body, n.span, extra)
            if fast is not None:
                return fast
        general = QUANTS[n.kind](domain, n.var, cond, body, n.span, extra)
        kept = self.kept_site_quant(n, cond, body, extra, general)  # (site_queries.py)
        if kept is not None:  # a kept value: only what it recomputes costs steps
            return kept
        if n.kind in ("each", "count") and body is None and isinstance(n.cond, ast.Call) \
                and len(n.cond.args) == 1 and is_var(n.cond.args[0], n.var):
            test = self.refs.get(n.cond.func, ("", ""))
            if test in (("builtin", "occupied"), ("builtin", "empty")):
                return occupancy_filter(n.kind == "count", test[1] == "empty", domain, general,
                                        n.span, extra)
        return general


def operand(f: Fn) -> tuple[str | None, Any]:
    """("local", name) for a closure that reads a local, ("const", value) for a constant,
    else (None, None)."""
    name = getattr(f, "local_name", None)
    if name is not None:
        return "local", name
    value = getattr(f, "const", _NOT_CONST)
    return ("const", value) if value is not _NOT_CONST else (None, None)


_NOT_CONST = object()
