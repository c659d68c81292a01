"""Calls in the fast evaluator: builtins with their table reads inlined, `cached` and `memo`
through kept values, and rules inlined (their parameters bound without a generic frame) or
called through one compiled body."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError, RuleRuntimeError, inlined_at
from rulelang.fast.groups import found_group, kept_group
from rulelang.fast.incremental import analyse
from rulelang.fast.kept import kept, per_state, remembered
from rulelang.fast.loops import (
    INLINE,
    INLINE_LOCAL,
    bound_names,
    is_var,
    local_names,
    reader,
)
from rulelang.language import ast
from rulelang.language.analysis import Analysis, builtin_facts, pieces_only_arrive
from rulelang.language.astwalk import walk
from rulelang.library import BUILTINS
from rulelang.library.registry import Reads
from rulelang.library.semantics import (
    STEP_BUDGET,
    Ctx,
    positioned,
)

Fn = Callable[[Ctx, dict[str, Any]], Any]


class CallCompiler:
    """The part of the Compiler that compiles calls (a mixin: Compiler sets the fields)."""
    rt: Any
    refs: Any
    _defs: dict[str, list[Fn]]
    _subst: dict[str, Fn]
    _inline_depth: int
    _pending_steps: int
    _fresh_count: int
    _only_arrive: bool | None = None  # analysis.pieces_only_arrive, once asked
    _analysis: Analysis | None = None

    def expr(self, node: ast.Expr) -> Fn:
        raise NotImplementedError  # Compiler.expr

    # ---- calls
    def visit_Call(self, n: ast.Call) -> Fn:
        cat, key = self.refs.get(n.func, ("", ""))
        # the steps of inlined calls whose body is this call (not for its arguments)
        pending, self._pending_steps = self._pending_steps, 0
        args = [self.expr(a) for a in n.args]
        if cat == "def":
            self._pending_steps = pending
            inlined = self._inline(key, n.args, args, n.span)
            extra, self._pending_steps = self._pending_steps, 0
            return inlined if inlined is not None else self._call_def(key, args, n, extra)
        assert pending == 0, "only a rule's call takes the steps of the calls around it"
        if cat == "relation":
            rel = self.rt.board.relations.get(key)
            if rel is not None:
                table, arg, rt = rel.table, args[0], self.rt
                # each site of the board -> its row: a site is found by one dict lookup, any
                # other value (a player, a copied site) is not, and goes to the general call
                by_site = {s: table[s.index] for s in self.rt.board.sites}
                name = self._plain_local(n.args[0]) if len(args) == 1 else None
                if name is not None:  # `base(s)`: read the local directly
                    def related(c: Ctx, e: dict[str, Any]) -> Any:
                        try:
                            return by_site[e[name]]
                        except (KeyError, TypeError):  # (the general call says what is wrong)
                            return rt.call((cat, key), [a(c, e) for a in args], c, n)
                    return related

                if len(args) == 1:
                    def related_value(c: Ctx, e: dict[str, Any]) -> Any:
                        x = arg(c, e)
                        try:
                            return by_site[x]
                        except (KeyError, TypeError):
                            return rt.call((cat, key), [x], c, n)
                    return related_value
                return lambda c, e: rt.call((cat, key), [a(c, e) for a in args], c, n)
        if cat == "builtin":
            return self._builtin(key, args, n)
        rt = self.rt
        return lambda c, e: rt.call((cat, key), [a(c, e) for a in args], c, n)

    def _builtin(self, key: str, args: list[Fn], n: ast.Call) -> Fn:
        if key == "cached" and len(args) >= 2:
            return self._cached(args, n)
        if key == "memo" and len(args) >= 1:
            return self._memo(args, n)
        special = INLINE.get(key)
        if special is not None and len(args) == 1:
            rt = self.rt
            arg = args[0]
            name = self._plain_local(n.args[0])
            if name is not None:  # `empty(s)`: no closure call to read s
                def read(c: Ctx, e: dict[str, Any]) -> Any:
                    try:
                        return e[name]
                    except KeyError:
                        return arg(c, e)  # raises the positioned error
                arg = read
                fast = INLINE_LOCAL.get(key)
                if fast is not None:
                    return fast(name, special(arg, rt, lambda c, x: rt.call(
                        ("builtin", key), [x], c, n)))
            return special(arg, rt, lambda c, x: rt.call(("builtin", key), [x], c, n))
        impl, rt = BUILTINS[key].impl, self.rt
        if len(args) == 1:
            a0 = args[0]

            def call1(c: Ctx, e: dict[str, Any]) -> Any:
                try:
                    return impl(c, a0(c, e))
                except RuleRuntimeError as err:  # the innermost position, else the call's
                    raise positioned(err, n.span) from None
                except RulelangError as exc:  # a builtin's own message, positioned here
                    raise RuleRuntimeError(str(exc), n.span) from None
                except RecursionError:  # a rule calling itself: not retried (the engine reports it)
                    raise
                except Exception:  # noqa: BLE001 - reported with the call's position
                    return rt.call(("builtin", key), [a0(c, e)], c, n)
            return call1
        if len(args) == 2:
            a0, a1 = args

            def searched2(c: Ctx, x: Any, y: Any) -> Any:
                try:
                    return impl(c, x, y)
                except RuleRuntimeError as err:  # the innermost position, else the call's
                    raise positioned(err, n.span) from None
                except RulelangError as exc:  # a builtin's own message, positioned here
                    raise RuleRuntimeError(str(exc), n.span) from None
                except RecursionError:  # a rule calling itself: not retried (the engine reports it)
                    raise
                except Exception:  # noqa: BLE001
                    return rt.call(("builtin", key), [x, y], c, n)
            if key == "group" and self._arrivals_only():  # components kept per state
                kept = kept_group(rt, searched2, lazy=n in getattr(self, "_lazy_groups", ()))
                return lambda c, e: kept(c, a0(c, e), a1(c, e))
            if key == "group":  # pieces may leave: components found once per position
                found = found_group(searched2)
                return lambda c, e: found(c, a0(c, e), a1(c, e))

            def call2(c: Ctx, e: dict[str, Any]) -> Any:
                x, y = a0(c, e), a1(c, e)
                try:
                    return impl(c, x, y)
                except RuleRuntimeError as err:  # the innermost position, else the call's
                    raise positioned(err, n.span) from None
                except RulelangError as exc:  # a builtin's own message, positioned here
                    raise RuleRuntimeError(str(exc), n.span) from None
                except RecursionError:  # a rule calling itself: not retried (the engine reports it)
                    raise
                except Exception:  # noqa: BLE001
                    return rt.call(("builtin", key), [x, y], c, n)
            return call2

        def call(c: Ctx, e: dict[str, Any]) -> Any:
            values = [a(c, e) for a in args]
            try:
                return impl(c, *values)
            except RuleRuntimeError as err:  # the innermost position, else the call's
                raise positioned(err, n.span) from None
            except RulelangError as exc:
                raise RuleRuntimeError(str(exc), n.span) from None
            except RecursionError:  # a rule calling itself: not retried (the engine reports it)
                raise
            except Exception:  # noqa: BLE001
                return rt.call(("builtin", key), values, c, n)
        return call

    def _arrivals_only(self) -> bool:
        """On the board pieces only arrive (analysis.pieces_only_arrive), once per game."""
        found = self._only_arrive
        if found is None:
            found = self._only_arrive = pieces_only_arrive(self.rt.program)
        return found

    def _cached(self, args: list[Fn], n: ast.Call) -> Fn:
        """`cached(sites, f, args …)`: the value kept until the sites change (kept.kept)."""
        sites = args[0]
        return self._keeping(n, 1, args, lambda c, e, key, values, run:
                             kept(c, sites(c, e), key, values, run))

    def _memo(self, args: list[Fn], n: ast.Call) -> Fn:
        """`memo(f, args …)`: values remembered by (rule, arguments) (kept.remembered)."""
        return self._keeping(n, 0, args, lambda c, e, key, values, run:
                             remembered(c, key, values, run))

    def _keeping(self, n: ast.Call, at: int, args: list[Fn],
                 keep: Callable[[Ctx, dict[str, Any], Any, tuple[Any, ...], Any], Any]) -> Fn:
        """The call of `cached` or `memo`, whose rule f is argument `at` and whose arguments
        for f follow it: keep(c, e, key, values, run) finds or computes the value. A rule
        named as f is run through its compiled body, with no function value made."""
        f, rest, rt, name = args[at], args[at + 1:], self.rt, self.refs[n.func][1]
        key, run = self._rule_runner(n.args[at], len(rest), n.span)

        def call(c: Ctx, e: dict[str, Any]) -> Any:
            values = tuple([a(c, e) for a in rest])
            try:
                if run is not None:
                    return keep(c, e, key, values, run)
                g = f(c, e)
                return keep(c, e, getattr(g, "key", g), values, lambda c, values: g(*values))
            except RuleRuntimeError as err:  # the innermost position, else the call's
                raise positioned(err, n.span) from None
            except RulelangError as exc:
                raise RuleRuntimeError(str(exc), n.span) from None
            except RecursionError:  # a rule calling itself: not retried (the engine reports it)
                raise
            except Exception:  # noqa: BLE001 - the builtin reports it with its position
                return rt.call(("builtin", name), [a(c, e) for a in args[:at + 1]] + list(values),
                               c, n)
        return call

    def _rule_runner(self, f: ast.Expr, n_args: int, span: Any
                     ) -> tuple[str | None, Callable[[Ctx, tuple[Any, ...]], Any] | None]:
        """For `f` naming a rule of n_args parameters: its key and a runner of its compiled
        body on a tuple of arguments (no function value made); else (None, None)."""
        ref = self.refs.get(f, ("", ""))
        if ref[0] != "function":
            return None, None
        params = self.rt.program.defs[ref[1]].params or ()
        if len(params) != n_args:
            return None, None
        body = self._def_body(ref[1])

        def run(c: Ctx, values: tuple[Any, ...]) -> Any:
            c.tick(span)
            return body[0](c, dict(zip(params, values, strict=True)))
        return ref[1], run

    def _inline(self, key: str, nodes: tuple[ast.Expr, ...], args: list[Fn], span: Any
                ) -> Fn | None:
        """Compile a rule's body in place: no frame, no call. Cheap arguments (names,
        constants) are substituted; the others, and a cheap one whose names the body binds too,
        are evaluated once into fresh local names, as are the body's own `let`s. The call is
        still a step of the budget, as every rule call is."""
        d = self.rt.program.defs[key]
        if self._inline_depth >= 8:
            return None  # the caller calls it, with the steps pending
        incoming, self._pending_steps = self._pending_steps, 0
        steps = 1 + incoming  # this call and the inlined calls whose body it is
        bound = bound_names(d.body)  # a cheap argument the body could capture is evaluated once
        cheap = [self._cheap(a) and not (local_names(a, self.refs) & bound) for a in nodes]
        subst: dict[str, Fn] = {}
        pre: list[tuple[str, Fn]] = []
        for param, arg, ch in zip(d.params or (), args, cheap, strict=True):
            if ch:
                subst[param] = arg
            else:
                fresh = self._fresh()
                pre.append((fresh, arg))
                subst[param] = reader(fresh)
        saved = self._subst
        self._subst = subst
        self._inline_depth += 1
        try:
            if isinstance(d.body, ast.Block):
                run = self._pure_block(d.body, rename=True)
                if not pre:  # the call counted by the block's own closure
                    def block(c: Ctx, e: dict[str, Any]) -> Any:
                        c.steps += steps
                        if c.steps > STEP_BUDGET:
                            c.tick(span)
                        return run(c, e)[1]
                    return block
                body: Fn = lambda c, e: run(c, e)[1]  # noqa: E731
            elif not pre and (isinstance(d.body, (ast.Quant, ast.IfExpr, ast.BoolOp)) or (
                    isinstance(d.body, ast.Call) and
                    self.refs.get(d.body.func, ("",))[0] == "def")):
                # the quantifier, conditional, and/or or rule's call that is the body counts it
                self._pending_steps = steps
                return inlined_at(self.expr(d.body), span)  # (no frame: its call's place kept)
            else:
                body = self.expr(d.body)
        finally:
            self._subst = saved
            self._inline_depth -= 1
        if not pre:
            def counted(c: Ctx, e: dict[str, Any]) -> Any:
                c.steps += steps
                if c.steps > STEP_BUDGET:
                    c.tick(span)
                return body(c, e)
            return counted

        def inlined(c: Ctx, e: dict[str, Any]) -> Any:
            c.steps += steps
            if c.steps > STEP_BUDGET:
                c.tick(span)
            for name, f in pre:
                e[name] = f(c, e)
            return body(c, e)
        return inlined

    def per_position(self, key: str, f: Fn) -> Fn:
        """A rule of no parameters, kept per position (kept.per_state) when that is sound
        and worth it: it reads neither the history nor chance, and it loops (a quantifier)
        or has a builtin call a rule (reach, group …), itself or through the rules it uses.
        Not one that asks what `moved` since the action began (a new action forgets that
        without a new version), nor a site query already kept up to date."""
        if self._analysis is None:
            self._analysis = Analysis(self.rt.program)
            self._worth: dict[str, bool] = {}
        worth = self._worth.get(key)
        if worth is None:
            worth = self._worth[key] = self._worth_keeping(key)
        return per_state(key, f) if worth else f

    def _worth_keeping(self, key: str) -> bool:
        analysis = self._analysis
        assert analysis is not None
        if analysis.rule_reads(key) & (Reads.HISTORY | Reads.RNG) or self._kept_query(key):
            return False
        seen, todo, costly = {key}, [key], False
        while todo:
            rule = todo.pop()
            for n in walk(self.rt.program.defs[rule].body):
                ref = self.refs.get(n.func if isinstance(n, ast.Call) else n, ("", ""))
                if ref == ("builtin", "moved"):
                    return False
                costly = costly or isinstance(n, ast.Quant) or (
                    isinstance(n, ast.Call) and ref[0] == "builtin"
                    and bool(builtin_facts(ref[1]).calls))
            for called in analysis.rules_called(rule):
                if called not in seen:
                    seen.add(called)
                    todo.append(called)
        return costly

    def _kept_query(self, key: str) -> bool:
        """The rule is a query over the sites that the compiled mode keeps up to date from the
        sites that changed (incremental.py): keeping it per position would only add a look."""
        body = self.rt.program.defs[key].body
        if not isinstance(body, ast.Quant) or self.refs.get(body.domain) != ("builtin", "sites"):
            return False
        test = body.cond if body.cond is not None else body.body
        return test is not None and analyse(self.rt.program, test, body.var) is not None

    def _fresh(self) -> str:
        self._fresh_count = getattr(self, "_fresh_count", 0) + 1
        return f"\0{self._fresh_count}"

    def _plain_local(self, a: ast.Expr) -> str | None:
        """The name, when the expression just reads a local: itself, or the local an inlined
        rule's parameter reads (an argument that is a plain local: loops.reader)."""
        if not isinstance(a, ast.Name) or self.refs.get(a, ("local",))[0] != "local":
            return None
        if a.id in self._subst:
            name: str | None = getattr(self._subst[a.id], "local_name", None)
            return name
        return a.id

    def _cheap(self, a: ast.Expr) -> bool:
        if isinstance(a, ast.Const):
            return True
        ref = self.refs.get(a)
        if isinstance(a, ast.Name):
            ref = ref or ("local", a.id)
            return ref[0] != "def" and (ref[0] != "builtin" or builtin_facts(ref[1]).cheap)
        if isinstance(a, ast.Attr):
            return (ref is not None and ref[0] in ("region", "lines", "relation", "player")) \
                or (isinstance(a.obj, ast.Name) and self.refs.get(a.obj) == ("builtin", "last"))
        return False

    def _call_def(self, key: str, args: list[Fn], n: ast.Node, extra: int = 0) -> Fn:
        """A call through the rule's compiled body: one step (and `extra` more for the
        inlined calls whose body this call is)."""
        d = self.rt.program.defs[key]
        steps = 1 + extra
        params: tuple[str, ...] = tuple(d.params or ())
        body = self._def_body(key)
        span = n.span
        if len(params) == 1:
            p0, a0 = params[0], args[0]

            def call1(c: Ctx, e: dict[str, Any]) -> Any:
                c.steps += steps
                if c.steps > STEP_BUDGET:
                    c.tick(span)
                return body[0](c, {p0: a0(c, e)})
            return call1

        def call(c: Ctx, e: dict[str, Any]) -> Any:
            c.steps += steps
            if c.steps > STEP_BUDGET:
                c.tick(span)
            return body[0](c, {p: a(c, e) for p, a in zip(params, args, strict=True)})
        return call

    def def_body(self, key: str) -> list[Fn]:
        """The compiled body of a rule, for calls that do not go through an expression."""
        return self._def_body(key)

    def _def_body(self, key: str) -> list[Fn]:
        """A one-cell box, so that recursive rules compile: filled after the first call."""
        box = self._defs.get(key)
        if box is None:
            box = self._defs[key] = [lambda c, e: None]
            d = self.rt.program.defs[key]
            # its own frame: no caller's parameters, no rule inlined around it
            saved, self._subst = (self._subst, self._inline_depth), {}
            self._inline_depth = 0
            try:
                if isinstance(d.body, ast.Block):
                    run = self._pure_block(d.body)
                    box[0] = lambda c, e: run(c, e)[1]
                else:
                    box[0] = self.expr(d.body)
            finally:
                self._subst, self._inline_depth = saved
        return box

    def _pure_block(self, block: ast.Block, rename: bool = False
                    ) -> Callable[[Ctx, dict[str, Any]], tuple[bool, Any]]:
        """A function body (let / if / return) -> fn returning (returned?, value).
        Inlined (rename=True), its `let`s write fresh names instead of the caller's."""
        steps: list[Callable[[Ctx, dict[str, Any]], tuple[bool, Any] | None]] = []
        scope = dict(self._subst)  # a block's lets end with the block
        self._find_lazy_groups(block.stmts)
        for s in block.stmts:
            steps.append(self._pure_step(s, rename))
        last = block.stmts[-1] if block.stmts else None
        if isinstance(last, ast.Return) and all(isinstance(s, ast.Let) for s in block.stmts[:-1]):
            ret = self.expr(last.value)  # the common shape: lets, then return
            self._subst = scope
            lets = steps[:-1]

            def lets_then_return(c: Ctx, e: dict[str, Any]) -> tuple[bool, Any]:
                for let in lets:
                    let(c, e)
                return (True, ret(c, e))
            return lets_then_return
        self._subst = scope

        def run(c: Ctx, e: dict[str, Any]) -> tuple[bool, Any]:
            for step in steps:
                out = step(c, e)
                if out is not None:
                    return out
            return (False, None)
        return run

    def _find_lazy_groups(self, stmts: tuple[ast.Stmt, ...]) -> None:
        """`let g = group(s, rel)` whose every later use is the domain of `any|all x in g:
        x in R` (loops.member_loop): that group call gives a groups.KeptGroup, answered from
        its bitset, with no tuple made (connection.joins). Not with generated code."""
        if getattr(self, "generator", None) is not None:
            return
        lazy: set[ast.Node] = self.__dict__.setdefault("_lazy_groups", set())
        for i, s in enumerate(stmts):
            if not isinstance(s, ast.Let):
                continue
            for j, (name, value) in enumerate(s.bindings):
                if isinstance(value, ast.Call) and len(value.args) == 2 and \
                        self.refs.get(value.func) == ("builtin", "group") and \
                        self._only_member_domains(name, (s.bindings[j + 1:], stmts[i + 1:])):
                    lazy.add(value)

    def _only_member_domains(self, name: str, later: Any) -> bool:
        uses = [n for n in walk(later) if isinstance(n, ast.Name) and n.id == name]
        domains = {id(q.domain) for q in walk(later) if isinstance(q, ast.Quant)
                   and q.kind in ("any", "all") and q.cond is None
                   and isinstance(q.body, ast.Compare) and q.body.op in ("in", "not in")
                   and is_var(q.body.left, q.var)
                   and q.var not in local_names(q.body.right, self.refs)}
        rebound = name in bound_names(later) or any(b == name for b, _ in later[0]) or any(
            isinstance(n, ast.Let) and any(b == name for b, _ in n.bindings)
            for n in walk(later))
        return bool(uses) and not rebound and all(
            id(u) in domains and self.refs.get(u, ("local",))[0] == "local" for u in uses)

    def _pure_step(self, s: ast.Stmt, rename: bool
                   ) -> Callable[[Ctx, dict[str, Any]], tuple[bool, Any] | None]:
        if isinstance(s, ast.Let):
            pairs = []
            for name, value in s.bindings:
                f = self.expr(value)
                if rename:
                    fresh = self._fresh()
                    self._subst[name] = reader(fresh)
                    name = fresh
                pairs.append((name, f))

            def let(c: Ctx, e: dict[str, Any]) -> None:
                for name, f in pairs:
                    e[name] = f(c, e)
            return let
        if isinstance(s, ast.Return):
            result = self.expr(s.value)
            return lambda c, e: (True, result(c, e))
        if isinstance(s, ast.If):
            branches = [(self.expr(cond), self._pure_block(body, rename))
                        for cond, body in s.branches]
            orelse = self._pure_block(s.orelse, rename) if s.orelse is not None else None

            def if_(c: Ctx, e: dict[str, Any]) -> tuple[bool, Any] | None:
                for cond, body in branches:
                    if cond(c, e):
                        out = body(c, e)
                        return out if out[0] else None
                if orelse is not None:
                    out = orelse(c, e)
                    return out if out[0] else None
                return None
            return if_
        span = s.span

        def bad(c: Ctx, e: dict[str, Any]) -> None:
            raise RuleRuntimeError("a function may only use let, if and return", span)
        return bad
