"""Names, kinds, arity, options and reachability: Loaded -> Program, or every diagnostic.

Every name in every module is resolved once here; the interpreter and the compiler read the
result from Program.refs (keyed by node identity) and never resolve names themselves.
"""
from __future__ import annotations

import difflib
from typing import TypeVar

from . import ast
from .astwalk import walk
from .builtins import BUILTINS, MAX_PIECES, READS_BOARD, READS_TURN
from .errors import Diagnostic, RulebookError
from .program import Loaded, Module, Program, Ref
from .source import Span

_GameDecl = ast.Piece | ast.Zone | ast.Counter | ast.Var | ast.Option | ast.Action
_ModuleDecl = ast.Def | ast.Effect | ast.Geometry
_D = TypeVar("_D", bound=ast.Decl)
_Named = TypeVar("_Named", bound=_GameDecl)

_GAME_KINDS: dict[type[_GameDecl], str] = {
    ast.Piece: "kind", ast.Zone: "zone", ast.Counter: "counter", ast.Var: "var",
    ast.Option: "option", ast.Action: "action"}
_MODULE_KINDS: dict[type[_ModuleDecl], str] = {
    ast.Def: "def", ast.Effect: "effect", ast.Geometry: "geometry"}
_NOT_CALLABLE = {"option", "player", "zone", "counter", "var", "kind", "region", "lines",
                 "local"}


def _qual(module: str, name: str) -> str:
    return f"{module}.{name}" if module else name


class Checker:
    def __init__(self, loaded: Loaded) -> None:
        self.loaded = loaded
        self.diags: list[Diagnostic] = []
        self.refs: dict[int, Ref] = {}
        self.namespaces: dict[str, dict[str, Ref]] = {}
        self.arity: dict[Ref, tuple[int, int]] = {}
        self.used_actions: set[str] = set()
        self.meant_actions: set[str] = set()  # suggested for a misspelt name in a `do`
        self.uses_repetition = False

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
            ns[use] = ("module", target)
        for d in module.decls:
            self._declare_decl(ns, seen, key, d)
        return ns

    def _declare_decl(self, ns: dict[str, Ref], seen: dict[str, Span], key: str,
                      d: ast.Decl) -> None:
        for cls, cat in _MODULE_KINDS.items():
            if isinstance(d, cls):
                ref = (cat, _qual(key, d.name))
                self.declare(ns, d.name, ref, d.span, seen)
                params = d.params
                if isinstance(d, ast.Def) and params is None:
                    self.arity[ref] = (-1, -1)
                else:
                    self.arity[ref] = (len(params or ()), len(params or ()))
        if isinstance(d, ast.Geometry):
            for item in d.items:
                if isinstance(item, (ast.GeoRelation, ast.GeoAlias)):
                    ns.setdefault(item.name, ("relation", item.name))
                elif isinstance(item, ast.GeoRegion):
                    ns.setdefault(item.name, ("region", item.name))
                elif isinstance(item, ast.GeoLines):
                    ns.setdefault(item.name, ("lines", item.name))
        if key == "":
            for game_cls, cat in _GAME_KINDS.items():
                if isinstance(d, game_cls):
                    self.declare(ns, d.name, (cat, d.name), d.span, seen)

    # ---- resolution
    def lookup(self, name: str, scope: list[set[str]], ns: dict[str, Ref]) -> Ref | None:
        if any(name in s for s in scope):
            return ("local", name)
        if name in ns:
            return ns[name]
        if name in BUILTINS:
            return ("builtin", name)
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
        if call_arity is not None and ref is not None and ref[0] in _NOT_CALLABLE \
                and e.id in BUILTINS:
            ref = ("builtin", e.id)  # an option `size` does not hide the builtin size(x)
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
        self.ck.refs[id(e)] = ref
        if ref[0] == "action":
            self.ck.error("R204", f"'{ref[1]}' is an action, not a value", e.span,
                          f"write \"{ref[1]}\" to compare with last.action")
            return ref
        if ref[0] == "effect" and call_arity is None:
            self.ck.error("R204", f"effect '{_written(e)}' is not a value", e.span,
                          "an effect changes the game: use it as a statement of its own")
            return ref
        if ref == ("builtin", "repeated"):
            self.ck.uses_repetition = True
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
        name = _written(e)
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
        self.ck.refs[id(a)] = ("function", ref[1])
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

    def visit_IfExpr(self, e: ast.IfExpr) -> None:
        for x in (e.cond, e.then, e.orelse):
            self.expr(x)

    def visit_TupleExpr(self, e: ast.TupleExpr) -> None:
        for x in e.items:
            self.expr(x)

    visit_ListExpr = visit_TupleExpr

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

    def visit_Choose(self, s: ast.Choose) -> None:
        self.expr(s.domain)
        self.expr(s.chooser)
        self.bind(s.var)
        self.expr(s.cond)

    def visit_Put(self, s: ast.Put) -> None:
        self.expr(s.piece)
        self.expr(s.source)
        self.expr(s.target)

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
        for name, span in zip(s.actions, s.spans, strict=True):
            ref = self.ns.get(name)
            if ref is None or ref[0] != "action":
                pool = [k for k, v in self.ns.items() if v[0] == "action"]
                close = difflib.get_close_matches(name, pool, n=1)
                self.ck.error("R201", f"unknown action '{name}'", span,
                              f"did you mean '{close[0]}'?" if close else None)
                self.ck.meant_actions.update(close)
            else:
                self.ck.used_actions.add(name)

    def visit_CallStmt(self, s: ast.CallStmt) -> None:
        call = s.call
        ref = self.expr(call.func, call_arity=len(call.args) + len(call.kwargs))
        if ref is not None and ref[0] != "effect":
            self.ck.error("R204", "only an effect can stand alone as a statement", call.span,
                          "declare it with 'effect', or use its value in a rule")
        for a in call.args:
            self.expr(a)

    def visit_Shuffle(self, s: ast.Shuffle) -> None:
        self.expr(s.zone)

    def visit_Reveal(self, s: ast.Reveal) -> None:
        if self.ns.get(s.var, ("", ""))[0] != "var":
            self.ck.error("R201", f"unknown variable '{s.var}'", s.span)

    def visit_Return(self, s: ast.Return) -> None:
        self.expr(s.value)

    def visit_Result(self, s: ast.Result) -> None:
        self.expr(s.value)


def _written(e: ast.Expr) -> str:
    """A name as the rulebook wrote it: `f`, or `module.f`."""
    if isinstance(e, ast.Attr) and isinstance(e.obj, ast.Name):
        return f"{e.obj.id}.{e.name}"
    return e.id if isinstance(e, ast.Name) else "?"


def _n_args(lo: int, hi: int) -> str:
    n = str(lo) if lo == hi else f"{lo} to {hi}"
    return f"{n} argument" + ("" if n == "1" else "s")


def check(loaded: Loaded, library: bool = False) -> Program:
    """Check a game, or (library=True) a module of definitions that is not a game."""
    ck = Checker(loaded)
    for key, module in loaded.modules.items():
        ck.namespaces[key] = ck.module_namespace(key, module)
    ck.namespaces[""] = ck.module_namespace("", loaded.game)
    program = _collect(ck, loaded, library)
    for key, module in [("", loaded.game), *loaded.modules.items()]:
        _walk_module(ck, key, module)
    if not library:
        _check_game(ck, program)
    _check_kept(ck, program)
    program.refs = ck.refs
    program.uses_repetition = ck.uses_repetition
    if ck.diags:
        raise RulebookError(ck.diags, loaded.sources)
    return program


_KEPT = {"memo": 0, "cached": 1}  # builtins that keep a rule's values: its argument's place


def _check_kept(ck: Checker, program: Program) -> None:
    """A rule given to memo or cached must not read what their kept values cannot follow:
    counters, vars, zones, the turn (and, for memo, the pieces on sites) (R211)."""
    loaded = program.loaded
    found: dict[tuple[str, bool], tuple[str, Span] | None] = {}
    for module in [loaded.game, *loaded.modules.values()]:
        for node in walk(module.decls):
            if not isinstance(node, ast.Call):
                continue
            cat, name = ck.refs.get(id(node.func), ("", ""))
            at = _KEPT.get(name) if cat == "builtin" else None
            if at is None or len(node.args) <= at:
                continue
            f = node.args[at]
            ref = ck.refs.get(id(f))
            if ref is None or ref[0] != "function":
                continue
            read = _state_read(ck, program, ref[1], name == "cached", found)
            if read is not None:
                what, where = read
                place = f"line {where.line}" if where.path == f.span.path else \
                    f"{where.path}:{where.line}"
                ck.error("R211", f"{name}: the rule '{_written(f)}' reads {what} ({place}), "
                         "which a kept value would not follow", f.span,
                         "pass what it needs as an argument" + (
                             ", or use cached(sites, …) for the pieces on sites"
                             if name == "memo" else ""))


def _state_read(ck: Checker, program: Program, key: str, board_ok: bool,
                found: dict[tuple[str, bool], tuple[str, Span] | None]
                ) -> tuple[str, Span] | None:
    """The first thing rule `key` (or a rule it calls) reads beyond its arguments: (what,
    where); None if nothing."""
    if (key, board_ok) in found:
        return found[(key, board_ok)]
    found[(key, board_ok)] = None  # a recursive call adds nothing
    result = None
    for node in walk(program.defs[key]):
        cat, name = ck.refs.get(id(node), ("", ""))
        if cat in ("counter", "var", "zone"):
            result = (f"the {cat} '{name}'", node.span)
        elif cat == "builtin" and (name in READS_TURN or (name in READS_BOARD and not board_ok)):
            result = (f"'{name}'", node.span)
        elif cat in ("def", "function") and name in program.defs:
            result = _state_read(ck, program, name, board_ok, found)
        if result is not None:
            break
    found[(key, board_ok)] = result
    return result


def _collect(ck: Checker, loaded: Loaded, library: bool) -> Program:
    decls = loaded.game.decls
    first_game = _first(decls, ast.Game)
    first_players = _first(decls, ast.Players)
    span = Span(loaded.game.source.span_at_end().path, 1, 1, 1, 2)
    game = first_game or ast.Game("untitled", None, span=span)
    players = first_players or ast.Players(("Player1", "Player2"), 2, 2, span=span)
    found: tuple[tuple[ast.Decl | None, str], ...] = (
        (first_game, "game \"Name\""), (first_players, "players A, B"))
    for first, what in found:
        if first is None and not library:
            ck.error("R209", f"the rulebook has no '{what.split()[0]}' line", span,
                     f"add a line such as: {what}")
    p = Program(loaded, game, players, _by_name(decls, ast.Option), _first(decls, ast.Board),
                _by_name(decls, ast.Piece), _by_name(decls, ast.Zone),
                _by_name(decls, ast.Counter), _by_name(decls, ast.Var))
    for key, module in [("", loaded.game), *loaded.modules.items()]:
        for d in module.decls:
            _collect_decl(p, key, d)
    return p


def _first(decls: tuple[ast.Decl, ...], cls: type[_D]) -> _D | None:
    return next((d for d in decls if isinstance(d, cls)), None)


def _by_name(decls: tuple[ast.Decl, ...], cls: type[_Named]) -> dict[str, _Named]:
    return {d.name: d for d in decls if isinstance(d, cls)}


def _collect_decl(p: Program, key: str, d: ast.Decl) -> None:
    if isinstance(d, ast.Def):
        p.defs[_qual(key, d.name)] = d
    elif isinstance(d, ast.Effect):
        p.effects[_qual(key, d.name)] = d
    elif isinstance(d, ast.Geometry):
        p.geometries[_qual(key, d.name)] = d
    elif key == "" and isinstance(d, ast.Action):
        p.actions[d.name] = d
    elif key == "" and isinstance(d, ast.Round):
        p.round = d
    elif key == "" and isinstance(d, ast.Section):
        p.sections[d.kind] = d.body
    elif key == "" and isinstance(d, ast.Score):
        p.scores.append(d)
    elif key == "" and isinstance(d, ast.Picture):
        p.pictures[d.name] = d


def _walk_module(ck: Checker, key: str, module: Module) -> None:
    ns = dict(ck.namespaces[key])
    if key == "":
        ns.update(_player_refs(module))
    for d in module.decls:
        w = Walker(ck, ns, key)
        _walk_decl(w, d)


def _player_refs(module: Module) -> dict[str, Ref]:
    players = next((d for d in module.decls if isinstance(d, ast.Players)), None)
    return {n: ("player", str(i)) for i, n in enumerate(players.names)} if players else {}


def _walk_decl(w: Walker, d: ast.Decl) -> None:
    if isinstance(d, ast.Def):
        w.push(*(d.params or ()))
        if isinstance(d.body, ast.Block):
            w.block(d.body, new_scope=False)
        else:
            w.expr(d.body)
        w.pop()
    elif isinstance(d, ast.Effect):
        w.push(*d.params)
        w.block(d.body, new_scope=False)
        w.pop()
    elif isinstance(d, (ast.Action, ast.Section)):
        w.block(d.body)
    elif isinstance(d, ast.Round):
        w.expr(d.until)
        w.block(d.body)
    elif isinstance(d, ast.Score):
        w.push(d.param)
        w.expr(d.expr)
        w.pop()
    elif isinstance(d, ast.Picture):
        if w.ns.get(d.name, ("", ""))[0] != "kind":
            w.ck.unknown(d.name, d.span, w.scope, {k: v for k, v in w.ns.items()
                                                   if v[0] == "kind"}, "piece kind")
        w.push(d.param)
        w.expr(d.expr)
        w.pop()
    elif isinstance(d, ast.Board):
        w.expr(d.expr)
    elif isinstance(d, ast.Geometry):
        _walk_geometry(w, d)
    elif isinstance(d, (ast.Counter, ast.Var, ast.Piece)):
        _walk_component(w, d)
    elif isinstance(d, ast.Zone):
        for item in d.contents:
            w.expr(item.count)
            if w.ns.get(item.kind, ("", ""))[0] != "kind":
                w.ck.unknown(item.kind, item.span, w.scope, {k: v for k, v in w.ns.items()
                                                             if v[0] == "kind"}, "piece kind")
            elif item.data is not None:
                _check_rows(w.ck, item)


def _check_rows(ck: Checker, item: ast.Content) -> None:
    """Every row of a data file names attributes its piece kind declares."""
    rows = ck.loaded.data.get((item.span.path, item.data or ""))
    if rows is None:
        return  # the loader reported why
    piece = next(d for d in ck.loaded.game.decls
                 if isinstance(d, ast.Piece) and d.name == item.kind)
    known = {name for name, _ in piece.attrs} | {"copies"}
    for n, row in enumerate(rows, start=1):
        extra = sorted(set(row) - known)
        if extra:
            ck.error("R210", f"row {n} of '{item.data}' has '{extra[0]}', which a "
                     f"'{item.kind}' does not have", item.span,
                     f"declare it: piece {item.kind} with {extra[0]} = …")
            return
        copies = row.get("copies", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or \
                not 0 <= copies <= MAX_PIECES:
            ck.error("R210", f"row {n} of '{item.data}': copies must be a whole number from 0 "
                     f"to {MAX_PIECES:,}", item.span)
            return


def _walk_component(w: Walker, d: ast.Decl) -> None:
    if isinstance(d, ast.Counter):
        for e in (d.lo, d.hi, d.init):
            w.expr(e)
    elif isinstance(d, ast.Var):
        w.expr(d.init)
    elif isinstance(d, ast.Piece):
        for _, e in d.attrs:
            w.expr(e)


def _walk_geometry(w: Walker, g: ast.Geometry) -> None:
    w.push(*g.params)
    names: set[str] = set()
    for item in g.items:
        if isinstance(item, ast.GeoSites):
            w.push()
            for gen in item.generators:
                w.expr(gen.domain)
                w.bind(gen.var)
            w.expr(item.cond)
            w.pop()
            coords = item.pattern
        elif isinstance(item, ast.GeoLayer) and len(coords) != 3:
            w.ck.error("R204", f"'layer' titles the layers of a board of three coordinates "
                       f"(layer, row, column); these sites have {len(coords)}", item.span)
        elif isinstance(item, (ast.GeoName, ast.GeoLayer, ast.GeoRelation, ast.GeoRegion)):
            w.push(*(getattr(item, "pattern", None) or coords))
            for e in (getattr(item, "expr", None), getattr(item, "cond", None),
                      getattr(item, "at", None), *getattr(item, "targets", ())):
                w.expr(e)
            w.pop()
        elif isinstance(item, ast.GeoAlias):
            for _, part in item.parts:
                if part not in names:
                    w.ck.error("R201", f"unknown relation '{part}'", item.span,
                               "a relation must be declared before it is used")
        elif isinstance(item, ast.GeoLines):
            w.push(*names)
            w.expr(item.expr)
            w.pop()
        name = getattr(item, "name", None)
        if isinstance(name, str):
            names.add(name)
    w.pop()


def _check_game(ck: Checker, p: Program) -> None:
    span = p.game.span
    if "turn" not in p.sections:
        ck.error("R209", "the rulebook has no 'turn' section", span,
                 "add a 'turn' block saying what a player does")
    if p.board is None and p.game.span is not None and any(True for _ in ()):
        pass
    for name, action in p.actions.items():
        if "turn" in p.sections and name not in ck.used_actions | ck.meant_actions:
            ck.error("R206", f"action '{name}' is never offered", action.span,
                     f"name it in a 'do' line of the turn, e.g. 'do {name}'")
    for opt in p.options.values():
        _check_option_default(ck, opt)
    if p.players.lo < 1 or p.players.hi < p.players.lo:
        ck.error("R205", "impossible player count", p.players.span)


def _check_option_default(ck: Checker, opt: ast.Option) -> None:
    if opt.choices and opt.default not in opt.choices:
        ck.error("R205", f"default '{opt.default}' is not one of the choices of '{opt.name}'",
                 opt.span)
    elif not opt.choices and not opt.lo <= int(opt.default) <= opt.hi:  # type: ignore[call-overload]
        ck.error("R205", f"default {opt.default} is outside {opt.lo}..{opt.hi}", opt.span)
