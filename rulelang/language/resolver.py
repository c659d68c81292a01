"""Name resolution and arity: the walk over every expression and statement of a module that
resolves each name to its declaration (Program.refs) and reports unknown names, wrong
arities and misplaced uses (R2xx). The Checker holds the namespaces; checker.py drives
the walk declaration by declaration."""
from __future__ import annotations

import difflib
from typing import Any

from rulelang.errors import Diagnostic
from rulelang.language import ast
from rulelang.language.program import Category, Loaded, Module, Ref
from rulelang.library import BUILTINS
from rulelang.source import Span

GameDecl = ast.Piece | ast.Zone | ast.Counter | ast.Var | ast.Option | ast.Action
_ModuleDecl = ast.Def | ast.Effect | ast.Geometry
_GAME_KINDS: dict[type[GameDecl], str] = {
    ast.Piece: "kind", ast.Zone: "zone", ast.Counter: "counter", ast.Var: "var",
    ast.Option: "option"}
_MODULE_KINDS: dict[type[_ModuleDecl], str] = {
    ast.Def: "def", ast.Effect: "effect", ast.Geometry: "geometry"}


def qual(module: str, name: str) -> str:
    return f"{module}.{name}" if module else name


class Checker:
    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.diags: list[Diagnostic] = []
        self.refs: dict[ast.Node, Ref] = {}
        self.namespaces: dict[str, dict[str, Ref]] = {}
        self.arity: dict[Ref, tuple[int, int]] = {}
        # actions have a namespace of their own: only `do` and `then` name them, so a
        # symbol, a rule or a var may share an action's name
        self.actions: dict[str, Ref] = {}
        self._action_spans: dict[str, Span] = {}
        self.used_actions: set[str] = set()
        self.meant_actions: set[str] = set()  # suggested for a misspelt name in a `do`
        self.uses_repetition = False
        self.repetition: set[str] = set()  # which of `repeated`, `repeated_board` it uses
        self.program: Any = None  # the program being checked, once its names are collected

    def error(self, code: str, msg: str, span: Span | None, help: str | None = None) -> None:
        self.diags.append(Diagnostic(code, msg, span, help))

    # ---- namespaces
    def declare(self, ns: dict[str, Ref], name: str, ref: Ref, span: Span,
                seen: dict[str, Span]) -> None:
        if name in seen:
            prev = seen[name]
            self.error("R202", f"'{name}' is defined twice", span,
                       f"first defined at {prev.path}:{prev.line}:{prev.column}")
            return
        seen[name] = span
        ns[name] = ref

    def module_namespace(self, key: str, module: Module) -> dict[str, Ref]:
        ns: dict[str, Ref] = {}
        seen: dict[str, Span] = {}
        for use, target in module.uses.items():
            ns[use] = Ref(Category.MODULE, target)
        for d in module.decls:
            self._declare_decl(ns, seen, key, d)
        return ns

    def _declare_decl(self, ns: dict[str, Ref], seen: dict[str, Span], key: str,
                      d: ast.Decl) -> None:
        for cls, cat in _MODULE_KINDS.items():
            if isinstance(d, cls):
                ref = Ref(Category(cat), qual(key, d.name))
                self.declare(ns, d.name, ref, d.span, seen)
                params = d.params
                if isinstance(d, ast.Def) and params is None:
                    self.arity[ref] = (-1, -1)
                else:
                    self.arity[ref] = (len(params or ()), len(params or ()))
        if isinstance(d, ast.Geometry):
            for item in d.items:
                if isinstance(item, (ast.GeoRelation, ast.GeoAlias)):
                    ns.setdefault(item.name, Ref(Category.RELATION, item.name))
                elif isinstance(item, ast.GeoRegion):
                    ns.setdefault(item.name, Ref(Category.REGION, item.name))
                elif isinstance(item, ast.GeoLines):
                    ns.setdefault(item.name, Ref(Category.LINES, item.name))
        if isinstance(d, ast.Enum):
            self.declare(ns, d.name, Ref(Category.ENUM, qual(key, d.name)), d.span, seen)
            for sym, span in zip(d.symbols, d.spans or (d.span,) * len(d.symbols),
                                 strict=True):
                self.declare(ns, sym, Ref(Category.SYMBOL, qual(key, sym)), span, seen)
        elif isinstance(d, ast.Table):
            self.declare(ns, d.name, Ref(Category.TABLE, qual(key, d.name)), d.span, seen)
        if key == "" and isinstance(d, ast.Action):
            self.declare(self.actions, d.name, Ref(Category.ACTION, d.name), d.span,
                         self._action_spans)
        if key == "":
            for game_cls, cat in _GAME_KINDS.items():
                if isinstance(d, game_cls):
                    cat = "zones" if isinstance(d, ast.Zone) and d.indices else cat
                    self.declare(ns, d.name, Ref(Category(cat), d.name), d.span, seen)

    # ---- resolution
    def lookup(self, name: str, scope: list[set[str]], ns: dict[str, Ref]) -> Ref | None:
        if any(name in s for s in scope):
            return Ref(Category.LOCAL, name)
        if name in ns:
            return ns[name]
        if name in BUILTINS:
            return Ref(Category.BUILTIN, name)
        return None

    def unknown(self, name: str, span: Span, scope: list[set[str]], ns: dict[str, Ref],
                what: str = "name") -> None:
        pool = set().union(*scope) | set(ns) | set(BUILTINS)
        close = difflib.get_close_matches(name, sorted(pool), n=1)
        self.error("R201", f"unknown {what} '{name}'", span,
                   f"did you mean '{close[0]}'?" if close else None)


class Walker:
    """Resolves the names of one module's rules, checking arity and kinds on the way."""

    def __init__(self, ck: Checker, ns: dict[str, Ref], module: str) -> None:
        self.ck, self.ns, self.module = ck, ns, module
        self.scope: list[set[str]] = [set()]

    def bind(self, *names: str) -> None:
        self.scope[-1].update(names)

    def push(self, *names: str) -> None:
        self.scope.append(set(names))

    def pop(self) -> None:
        self.scope.pop()

    # ---- expressions
    def expr(self, e: ast.Expr | None, call_arity: int | None = None) -> Ref | None:
        if e is None:
            return None
        method = getattr(self, f"visit_{type(e).__name__}", None)
        if method is None:
            raise NotImplementedError(type(e).__name__)
        ref: Ref | None = method(e, call_arity) if isinstance(e, (ast.Name, ast.Attr)) \
            else method(e)
        return ref

    def visit_Const(self, e: ast.Const) -> None:
        return None

    def visit_Name(self, e: ast.Name, call_arity: int | None) -> Ref | None:
        ref = self.ck.lookup(e.id, self.scope, self.ns)
        if call_arity is not None and ref is not None and not Category(ref[0]).callable \
                and e.id in BUILTINS:
            ref = Ref(Category.BUILTIN, e.id)  # an option `size` does not hide the builtin size(x)
        if ref is None and e.id in self.ck.actions:
            self.ck.error("R204", f"'{e.id}' is an action, not a value", e.span,
                          f"write \"{e.id}\" to compare with last.action")
            return None
        if ref is None:
            self.ck.unknown(e.id, e.span, self.scope, self.ns)
            return None
        return self._use(e, ref, call_arity)

    def visit_Attr(self, e: ast.Attr, call_arity: int | None) -> Ref | None:
        if isinstance(e.obj, ast.Name) \
                and (obj := self.ck.lookup(e.obj.id, self.scope, self.ns)) \
                and obj[0] == "module":
            target = obj[1]
            ns = self.ck.namespaces.get(target, {})
            ref = ns.get(e.name)
            if ref is None or ref[0] == "module":
                close = difflib.get_close_matches(e.name, sorted(ns), n=1)
                self.ck.error("R201", f"module '{e.obj.id}' has no '{e.name}'", e.span,
                              f"did you mean '{close[0]}'?" if close else None)
                return None
            return self._use(e, ref, call_arity)
        self.expr(e.obj)
        return None

    def _use(self, e: ast.Expr, ref: Ref, call_arity: int | None) -> Ref:
        self.ck.refs[e] = ref
        if ref[0] == "effect" and call_arity is None:
            self.ck.error("R204", f"effect '{written(e)}' is not a value", e.span,
                          "an effect changes the game: use it as a statement of its own")
            return ref
        if ref in (("builtin", "repeated"), ("builtin", "repeated_board")):
            self.ck.uses_repetition = True
            self.ck.repetition.add(ref[1])
        self._check_arity(e, ref, call_arity)
        return ref

    def _check_arity(self, e: ast.Expr, ref: Ref, call_arity: int | None) -> None:
        if ref[0] == "builtin":
            b = BUILTINS[ref[1]]
            lo, hi = b.lo, b.hi
        elif ref in self.ck.arity:
            lo, hi = self.ck.arity[ref]
        elif ref[0] == "relation":
            lo, hi = (1, 1) if call_arity is not None else (-1, -1)
        else:
            lo = hi = -1
        name = written(e)
        if call_arity is None and lo >= 0 and ref[0] != "relation":
            self.ck.error("R203", f"'{name}' needs {_n_args(lo, hi)}", e.span,
                          f"call it as {name}(…)")
        elif call_arity is not None and lo < 0 and ref[0] not in ("local",):
            self.ck.error("R203", f"'{name}' takes no arguments", e.span,
                          f"write {name} without parentheses")
        elif call_arity is not None and lo >= 0 and not lo <= call_arity <= hi:
            self.ck.error("R203", f"'{name}' takes {_n_args(lo, hi)}, got {call_arity}", e.span)

    def visit_Call(self, e: ast.Call) -> None:
        if e.kwargs:
            self.ck.error("R203", f"named argument '{e.kwargs[0][0]}' is not accepted here",
                          e.kwargs[0][1].span, "pass the arguments in order")
        if isinstance(e.func, (ast.Name, ast.Attr)):
            self.expr(e.func, call_arity=len(e.args) + len(e.kwargs))
        else:
            self.expr(e.func)
        for a in e.args:
            if not self._function_argument(a):
                self.expr(a)
        for _, a in e.kwargs:
            self.expr(a)

    def _function_argument(self, a: ast.Expr) -> bool:
        """A rule with parameters named as an argument is passed as a function:
        `reach(s, orthogonal, 3, step_cost, can_stop)`."""
        if not isinstance(a, (ast.Name, ast.Attr)):
            return False
        if isinstance(a, ast.Name):
            ref = self.ck.lookup(a.id, self.scope, self.ns)
        else:
            outer = self.ck.lookup(a.obj.id, self.scope, self.ns) \
                if isinstance(a.obj, ast.Name) else None
            ref = self.ck.namespaces.get(outer[1], {}).get(a.name) \
                if outer is not None and outer[0] == "module" else None
        if ref is None or ref[0] != "def" or self.ck.arity.get(ref, (-1, -1))[0] < 1:
            return False
        self.ck.refs[a] = Ref(Category.FUNCTION, ref[1])
        return True

    def visit_Index(self, e: ast.Index) -> None:
        self.expr(e.obj)
        self.expr(e.index)

    def visit_Of(self, e: ast.Of) -> None:
        ref = self.expr(e.left)
        if ref is not None and ref[0] not in ("kind", "zone", "counter", "var", "local"):
            self.ck.error("R204", "'of' needs a kind, zone, counter or variable on its left",
                          e.left.span)
        self.expr(e.right)

    def visit_BinOp(self, e: ast.BinOp) -> None:
        self.expr(e.left)
        self.expr(e.right)

    visit_Compare = visit_BoolOp = visit_BinOp

    def visit_Not(self, e: ast.Not) -> None:
        self.expr(e.operand)

    visit_Neg = visit_Not

    def visit_NoClause(self, e: ast.NoClause) -> None:
        self.expr(e.subject)

    def visit_IfExpr(self, e: ast.IfExpr) -> None:
        for x in (e.cond, e.then, e.orelse):
            self.expr(x)

    def visit_TupleExpr(self, e: ast.TupleExpr) -> None:
        for x in e.items:
            self.expr(x)

    visit_ListExpr = visit_RecordExpr = visit_TupleExpr

    def visit_MapExpr(self, e: ast.MapExpr) -> None:
        for x in e.keys + e.values:
            self.expr(x)

    def visit_ListComp(self, e: ast.ListComp) -> None:
        self.push()
        for g in e.generators:
            self.expr(g.domain)
            self.bind(g.var)
        self.expr(e.cond)
        self.expr(e.item)
        self.pop()

    def visit_Range(self, e: ast.Range) -> None:
        self.expr(e.lo)
        self.expr(e.hi)

    def visit_Quant(self, e: ast.Quant) -> None:
        self.expr(e.domain)
        self.push(e.var)
        self.expr(e.cond)
        self.expr(e.body)
        self.pop()

    # ---- statements
    def block(self, b: ast.Block | None, new_scope: bool = True) -> None:
        if b is None:
            return
        if new_scope:
            self.push()
        for s in b.stmts:
            method = getattr(self, f"visit_{type(s).__name__}", None)
            if method is None:
                raise NotImplementedError(type(s).__name__)
            method(s)
        if new_scope:
            self.pop()

    def visit_Let(self, s: ast.Let) -> None:
        for name, value in s.bindings:
            self.expr(value)
            self.bind(name)

    def visit_Require(self, s: ast.Require) -> None:
        self.expr(s.cond)
        self.words(s.reason)

    def visit_Choose(self, s: ast.Choose) -> None:
        self.expr(s.domain)
        self.expr(s.chooser)
        self.words(s.ask)  # asked before the value is chosen
        self.bind(s.var)
        self.expr(s.cond)
        self.words(s.reason)  # says why a value of s.var is refused

    def words(self, w: ast.Words | None) -> None:
        """The `{…}` of a text for the players: names resolved as in the rules there."""
        for part in w.parts if w is not None else ():
            if isinstance(part, ast.Expr):
                self.expr(part)

    def visit_Put(self, s: ast.Put) -> None:
        self.expr(s.piece)
        self.expr(s.source)
        self.expr(s.target)
        if s.name is not None:
            self.bind(s.name)

    def visit_Move(self, s: ast.Move) -> None:
        self.expr(s.piece)
        self.expr(s.target)

    def visit_Remove(self, s: ast.Remove) -> None:
        self.expr(s.piece)

    def visit_Set(self, s: ast.Set) -> None:
        self._target(s.target, pieces_too=True)
        self.expr(s.value)

    def visit_Increase(self, s: ast.Increase) -> None:
        self._target(s.target, pieces_too=False)
        self.expr(s.amount)

    def _target(self, t: ast.Expr, pieces_too: bool) -> None:
        """A counter or variable (`x`, `x of p`); for `set`, also a piece's `p.attr`."""
        ref = self.expr(t.left if isinstance(t, ast.Of) else t)
        if isinstance(t, ast.Of):
            self.expr(t.right)
        what = "a counter, a variable or a piece's attribute" if pieces_too else \
            "a counter or a variable"
        if isinstance(t, ast.Attr) and ref is None:
            if not pieces_too:
                self.ck.error("R204", f"only {what} can be changed", t.span)
        elif ref is None and not isinstance(t.left if isinstance(t, ast.Of) else t, ast.Name):
            self.ck.error("R204", f"only {what} can be changed", t.span)  # `none of p`
        elif ref == ("builtin", "starter") and pieces_too:
            pass  # `set starter = p`: who begins the next round
        elif ref is not None and ref[0] not in ("counter", "var"):
            self.ck.error("R204", f"only {what} can be changed", t.span)

    def visit_If(self, s: ast.If) -> None:
        for cond, body in s.branches:
            self.expr(cond)
            self.block(body)
        self.block(s.orelse)

    def visit_ForEach(self, s: ast.ForEach) -> None:
        self.expr(s.domain)
        self.push(s.var)
        self.block(s.body, new_scope=False)
        self.pop()

    def visit_Repeat(self, s: ast.Repeat) -> None:
        self.expr(s.count)
        self.block(s.body)

    def visit_While(self, s: ast.While) -> None:
        self.expr(s.cond)
        self.block(s.body)

    def visit_Do(self, s: ast.Do) -> None:
        self.words(s.ask)
        for name, span in zip(s.actions, s.spans, strict=True):
            if name not in self.ck.actions:
                close = difflib.get_close_matches(name, sorted(self.ck.actions), n=1)
                self.ck.error("R201", f"unknown action '{name}'", span,
                              f"did you mean '{close[0]}'?" if close else None)
                self.ck.meant_actions.update(close)
            else:
                self.ck.used_actions.add(name)

    def visit_Then(self, s: ast.Then) -> None:
        self.visit_Do(ast.Do((s.action,), (s.span,), span=s.span))

    def visit_CallStmt(self, s: ast.CallStmt) -> None:
        call = s.call
        before = len(self.ck.diags)
        ref = self.expr(call.func, call_arity=len(call.args) + len(call.kwargs))
        if ref is None and len(self.ck.diags) == before:  # `mover.settle`: no name at all
            self.ck.error("R204", f"'{written(call.func)}' is not an effect: only an effect "
                          "can stand alone as a statement", call.span,
                          "call an effect declared with 'effect' (a module's: 'module.name')")
        elif ref is not None and ref[0] != "effect":
            self.ck.error("R204", "only an effect can stand alone as a statement", call.span,
                          "declare it with 'effect', or use its value in a rule")
        for a in call.args:
            self.expr(a)

    def visit_Shuffle(self, s: ast.Shuffle) -> None:
        self.expr(s.zone)

    def visit_Reveal(self, s: ast.Reveal) -> None:
        if category(self.ns, s.var) != Category.VAR:
            self.ck.error("R201", f"unknown variable '{s.var}'", s.span)

    def visit_Return(self, s: ast.Return) -> None:
        self.expr(s.value)

    def visit_Result(self, s: ast.Result) -> None:
        self.expr(s.value)


def written(e: ast.Expr) -> str:
    """A name as the rulebook wrote it: `f`, or `module.f`."""
    if isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name):
        return f"{e.obj.id}.{e.name}"
    return e.id if isinstance(e, ast.Name) else "?"


def _n_args(lo: int, hi: int) -> str:
    n = str(lo) if lo == hi else f"{lo} to {hi}"
    return f"{n} argument" + ("" if n == "1" else "s")


def category(ns: dict[str, Ref], name: str) -> Category | None:
    """The category a name resolves to in a namespace, or None."""
    ref = ns.get(name)
    return None if ref is None else ref.category
