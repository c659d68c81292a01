"""The type checker: after name resolution, every expression of every module gets a type
(rulelang/language/types.py) and what is certainly wrong whatever the game's course is
reported (R204, R230 … R238; docs/language.md, "Types"). A rule's result type is inferred
from its body, its parameters being of any type; what cannot be decided is UNKNOWN and never
reported. Statements are checked by typestmt.py, which extends this class."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.language import ast, clauses_types, constructs_types, written_types
from rulelang.language import types as ty
from rulelang.language.program import Program, Ref
from rulelang.language.resolver import Checker, written
from rulelang.language.types import Type
from rulelang.library import BUILTINS
from rulelang.source import Span

Env = dict[str, Type]
_NO_ATTRS = frozenset({"number", "text", "kind", "option", "bool", "list", "tuple", "zone",
                       "source", "relation", "region", "lines", "rule", "board", "symbol",
                       "zones"})
_INDEXED = ty.SEQUENCES | ty.TEXTUAL | {"map"}
_SIGS: dict[str, ty.Signature] = {}


def signature(name: str) -> ty.Signature:
    sig = _SIGS.get(name)
    if sig is None:
        sig = _SIGS[name] = ty.parse_signature(BUILTINS[name].sig)
    return sig


class ExprTypes:
    """The types of expressions; errors go to the Checker unless `quiet` (a rule's result
    type computed ahead of its own turn is computed quietly: its errors are reported once,
    when its declaration is checked)."""

    def __init__(self, ck: Checker, program: Program, library: bool) -> None:
        self.ck, self.p, self.refs, self.library = ck, program, ck.refs, library
        self.quiet = 0
        self.reported: set[tuple[str, Span | None]] = set()
        self.results: dict[str, Type] = {}  # a rule's result type (its key: module.name)
        self.busy: set[str] = set()
        # what a rule's body needs of its parameters: index -> (tags, where, its span)
        self.needs: dict[str, dict[int, tuple[frozenset[str], str, Span]]] = {}
        self.collect: dict[int, tuple[frozenset[str], str, Span]] | None = None
        self.maybe = 0  # > 0: in a part of a rule's body that may not be evaluated
        self.coords = list(dict.fromkeys(n for g in program.geometries.values()
                                         for item in g.items if isinstance(item, ast.GeoSites)
                                         for n in item.pattern))
        self.attrs = {n for d in program.pieces.values() for n, _ in d.attrs}
        self.attr_types = written_types.attr_types(program)
        # the written types of a rule's parameters, by the rule's node (`def free(s: site)`)
        self.written: dict[int, tuple[Type | None, ...]] = {
            id(d): program.param_types[k] for rules in (program.defs, program.effects)
            for k, d in rules.items() if k in program.param_types}
        self.board_uses: list[tuple[str, str, Span]] = []
        self.board_members = self._board_members()
        self.dispatch: dict[type, Callable[[Any, Env], Type]] = {}

    # ---- reporting
    def error(self, code: str, msg: str, span: Span | None, help: str | None = None) -> None:
        if self.quiet or (code, span) in self.reported:
            return
        self.reported.add((code, span))
        self.ck.error(code, msg, span, help)

    def text(self, e: ast.Node) -> str:
        """The expression as written (its first line)."""
        s = e.span
        src = self.ck.loaded.sources.get(s.path)
        if src is None:
            return "?"
        line = src.line(s.line)
        end = s.end_column if s.end_line == s.line else len(line) + 1
        out = line[s.column - 1:end - 1].strip()
        return out if len(out) <= 40 else out[:37] + "…"

    def mismatch(self, e: ast.Expr, t: Type, want: str, what: str,
                 help: str | None = None) -> None:
        self.error("R230", f"{what}: expected {want}, found {t}", e.span,
                   help or f"'{self.text(e)}' is {t}")

    def expect(self, e: ast.Expr | None, env: Env, tags: frozenset[str], what: str,
               help: str | None = None) -> Type:
        """The type of e, reported (R230) when it cannot be one of tags."""
        if e is None:
            return ty.UNKNOWN
        t = self.expr(e, env)
        self.need(t, tags, what, e)
        if not ty.fits(t, tags):
            self.mismatch(e, t, ty.expected(tags), what, help)
        return t

    def need(self, t: Type, tags: frozenset[str], what: str, e: ast.Node) -> None:
        """The rule being analysed uses its parameter (of type t) where tags are needed, in a
        part of its body that is always evaluated: a call must give it such a value."""
        i = ty.param_index(t)
        if i is not None and self.collect is not None and not self.maybe \
                and "any" not in tags:
            self.collect.setdefault(i, (tags, what, e.span))

    def call_needs(self, e: ast.Call, key: str, args: list[Type]) -> None:
        """A rule's arguments against what its body needs of its parameters (R230)."""
        d = self.p.defs.get(key)
        for i, (a, t) in enumerate(zip(e.args, args, strict=False)):
            need = self.needs.get(key, {}).get(i)
            if need is None or d is None or not d.params:
                continue
            tags, what, where = need
            self.need(t, tags, what, a)
            if not ty.fits(t, tags):
                place = f"line {where.line}" if where.path == e.span.path else \
                    f"{where.path}:{where.line}"
                self.error("R230", f"{written(e.func)}(…), argument {i + 1}: expected "
                           f"{ty.expected(tags)}, found {t}", a.span,
                           f"'{self.text(a)}' is {t}; '{written(e.func)}' uses its "
                           f"'{d.params[i]}' in {what} ({place})")

    def domain(self, e: ast.Expr, env: Env, what: str, word: str | None = None) -> Type:
        """A collection to go over (R231); its type."""
        t = self.expr(e, env)
        self.need(t, ty.COLLECTIONS, what, e)
        if ty.fits(t, ty.COLLECTIONS):
            return t
        items = {"site": "a set of sites", "player": "a set of players",
                 "piece": "a set of pieces", "number": "a set of numbers"}.get(word or "")
        want = items or "a collection"
        example = {"site": "'sites' or a region", "player": "'players' or 'others'",
                   "piece": "a zone or pieces(s)", "number": "a range such as 1..6"}.get(
            word or "", "a list, a range (1..6), a region, a zone, 'sites' or 'players'")
        self.error("R231", f"{what}: expected {want}, found {t}", e.span,
                   f"'{self.text(e)}' is {t}; a {word + ' ' if items and word else ''}domain is "
                   f"{want if items else 'a collection'} such as {example}")
        return ty.UNKNOWN

    # ---- expressions
    def expr(self, e: ast.Expr | None, env: Env) -> Type:
        if e is None:
            return ty.UNKNOWN
        cls = type(e)
        method = self.dispatch.get(cls)
        if method is None:
            method = self.dispatch[cls] = getattr(self, f"t_{cls.__name__}", _unknown)
        return method(e, env)

    def t_Const(self, e: ast.Const, env: Env) -> Type:
        v = e.value
        if isinstance(v, bool):
            return ty.BOOL
        if isinstance(v, int):
            return ty.NUMBER
        if isinstance(v, str):
            return ty.TEXT
        return ty.NONE

    def t_Name(self, e: ast.Name, env: Env) -> Type:
        ref = self.refs.get(e)
        return ty.UNKNOWN if ref is None else self.ref_type(e, ref, env)

    def t_Attr(self, e: ast.Attr, env: Env) -> Type:
        ref = self.refs.get(e)
        if ref is not None:
            return self.ref_type(e, ref, env)
        obj = self.expr(e.obj, env)
        return self.attribute(e, obj)

    def ref_type(self, e: ast.Expr, ref: Ref, env: Env, bare: bool = True) -> Type:
        """The value a resolved name stands for (bare: not the left of an `of`)."""
        cat, key = ref
        if cat == "local":
            return env.get(key, ty.UNKNOWN)
        if cat == "builtin":
            b = BUILTINS[key]
            return ty.parse_type(signature(key).result) if b.lo < 0 else ty.UNKNOWN
        if cat == "def":
            return self.result(key) if self.ck.arity.get(ref, (0, 0))[0] < 0 else ty.UNKNOWN
        if cat == "function":
            return ty.RULE
        if cat in ("relation", "region", "lines"):
            self.board_uses.append((key, cat, e.span))
            return Type(cat)
        if cat == "kind":
            return ty.kind(key)
        if cat == "player":
            return ty.PLAYER
        if cat == "option":
            opt = self.p.options.get(key)
            if key in self.p.option_enums:
                return ty.symbol(self.p.option_enums[key])
            return ty.option(key) if opt is not None and opt.choices else ty.NUMBER
        if cat in ("symbol", "enum", "table", "zones"):
            return constructs_types.ref_type(self, cat, key)
        if cat in ("zone", "counter", "var"):
            if bare and self.shared(e, cat, key):
                return ty.UNKNOWN
            return ty.zone(key) if cat == "zone" else ty.NUMBER if cat == "counter" \
                else ty.UNKNOWN
        return ty.UNKNOWN

    def shared(self, e: ast.Expr, cat: str, key: str) -> bool:
        """A zone, counter or var of each player named without `of` (R204)."""
        decl = self.component(cat, key)
        if decl is not None and decl.each:
            self.error("R204", f"'{key}' belongs to each player: write '{key} of <player>'",
                       e.span, f"e.g. '{key} of mover'")
            return True
        return False

    def component(self, cat: str, key: str) -> ast.Zone | ast.Counter | ast.Var | None:
        if cat == "zone":
            return self.p.zones.get(key)
        return self.p.counters.get(key) if cat == "counter" else self.p.vars.get(key)

    def attribute(self, e: ast.Attr, obj: Type) -> Type:
        name, tag = e.name, obj.tag
        if tag == "site":
            if name in self.coords:
                return ty.NUMBER
            if name == "name":
                return ty.TEXT
            coords = ", ".join(self.coords) or "none"
            return self._no_attr(e, obj, f"a site has its name and its coordinates ({coords})")
        if tag == "player":
            if name in ("name", "index"):
                return ty.TEXT if name == "name" else ty.NUMBER
            return self._no_attr(e, obj, "a player has a name and an index (from 0)")
        if tag == "piece":
            if name == "kind":
                return ty.TEXT
            if name in self.attrs:
                kinds = self.p.attr_types.get(obj.name, {}) if obj.name else {}
                return kinds.get(name) or self.attr_types.get(name, ty.UNKNOWN)
            hint = "its owner is owner(x)" if name == "owner" else \
                "declare it on a kind: piece card with " + name + " = …"
            return self._no_attr(e, obj, f"no piece kind has an attribute '{name}'; {hint}")
        if tag == "record":
            if name in obj.fields:
                return obj.args[obj.fields.index(name)]
            return self._no_attr(e, obj, "it has " + ", ".join(obj.fields))
        if tag in _NO_ATTRS:
            return self._no_attr(e, obj, None)
        return ty.UNKNOWN

    def _no_attr(self, e: ast.Attr, obj: Type, help: str | None) -> Type:
        self.error("R238", f"{obj} has no '{e.name}'", e.span,
                   help or f"'{self.text(e.obj)}' is {obj}")
        return ty.UNKNOWN

    def t_Call(self, e: ast.Call, env: Env) -> Type:
        ref = self.refs.get(e.func)
        args = [self.expr(a, env) for a in e.args]
        for _, a in e.kwargs:
            self.expr(a, env)
        if ref is None:
            if not isinstance(e.func, (ast.Name, ast.Attr)):
                self.expr(e.func, env)
            return ty.UNKNOWN
        cat, key = ref
        if cat == "builtin":
            return self.builtin_call(e, key, args)
        if cat == "def":
            out = self.result(key)
            self.call_needs(e, key, args)
            self.written_args(e, key, args)
            clauses_types.selector_argument(self, e, self.p.defs.get(key), key, args)
            return out
        if cat == "relation":
            self.board_uses.append((key, cat, e.func.span))
            if args:
                self.need(args[0], frozenset({"site"}), f"the relation '{written(e.func)}'",
                          e.args[0])
            if args and not ty.fits(args[0], frozenset({"site"})):
                self.mismatch(e.args[0], args[0], "a site", f"the relation '{written(e.func)}'")
            return ty.list_of(ty.SITE)
        if cat == "geometry":
            return ty.BOARD
        if cat == "local":
            t = env.get(key, ty.UNKNOWN)
            if ty.known(t) and t.tag != "rule":
                self.error("R230", f"'{key}' is called: expected a rule, found {t}",
                           e.func.span, f"'{key}' is {t}, which cannot be called")
        return ty.UNKNOWN

    def builtin_call(self, e: ast.Call, name: str, args: list[Type]) -> Type:
        sig = signature(name)
        for i, (a, t) in enumerate(zip(e.args, args, strict=True)):
            tags = sig.params[i] if i < len(sig.params) else sig.rest
            if tags is not None:
                self.need(t, tags, f"{name}(…)", a)
            if tags is not None and not ty.fits(t, tags):
                self.mismatch(a, t, ty.expected(tags), f"{name}(…), argument {i + 1}")
        if name in ("max", "min"):
            if len(args) == 1:
                return ty.element(args[0]) if args[0].tag in ty.COLLECTIONS else \
                    ty.plain(args[0])
            return ty.join_all(args)
        item = ty.element(args[sig.generic]) if sig.generic is not None and \
            sig.generic < len(args) else ty.UNKNOWN
        return ty.parse_type(sig.result, item)

    def t_Index(self, e: ast.Index, env: Env) -> Type:
        obj, i = self.expr(e.obj, env), self.expr(e.index, env)
        if not ty.known(obj):
            return ty.UNKNOWN
        if obj.tag == "zones" or (obj.tag == "map" and obj.name):
            return constructs_types.index(self, e, obj, i)
        if obj.tag not in _INDEXED:
            self.error("R230", f"indexing: expected a list, a tuple, a map or a text, found "
                       f"{obj}", e.span, f"'{self.text(e.obj)}' is {obj}, which has no items "
                       "to pick by position")
            return ty.UNKNOWN
        if obj.tag == "map":
            return obj.args[1]
        if not ty.fits(i, frozenset({"number"})):
            self.mismatch(e.index, i, "a number (a position from 0)", "indexing")
        if obj.tag == "tuple" and isinstance(e.index, ast.Const) \
                and type(e.index.value) is int and 0 <= e.index.value < len(obj.args):
            return obj.args[e.index.value]
        return ty.element(obj)

    def t_Of(self, e: ast.Of, env: Env) -> Type:
        self.expect(e.right, env, frozenset({"player"}), "'of'",
                    "'of' reads what belongs to a player: 'hand of mover'")
        ref = self.refs.get(e.left)
        if ref is None:
            return constructs_types.of_index(self, e, env)
        cat, key = ref
        if cat == "kind":
            self.supply(e, key)
            return ty.source(key)
        if cat in ("zone", "counter", "var"):
            decl = self.component(cat, key)
            if decl is not None and not decl.each:
                self.error("R204", f"'{key}' is shared, not one per player: write '{key}' "
                           "without 'of'", e.span, f"or declare it '{cat} {key} each player'")
            return ty.zone(key) if cat == "zone" else ty.NUMBER if cat == "counter" \
                else ty.UNKNOWN
        if cat == "local":
            left = env.get(key, ty.UNKNOWN)
            if ty.known(left) and left.tag not in ty.TEXTUAL:
                self.mismatch(e.left, left, "a piece kind or a zone's name", "'of'")
        return ty.UNKNOWN

    def supply(self, e: ast.Of, kind: str) -> None:
        """`stone of mover` takes a stone from the player's zone `supply` (R233)."""
        z = self.p.zones.get("supply")
        if z is not None and z.each:
            return
        holders = [d.name for d in self.p.zones.values()
                   if d.each and any(c.kind == kind for c in d.contents)]
        who = self.text(e.right)
        if holders:
            help = f"say where it comes from: '{kind} from {holders[0]} of {who}'"
        else:
            help = f"declare 'zone supply each player: …', or write '{kind} from ZONE'"
        what = "there is no zone 'supply'" if z is None else "'supply' is not one per player"
        self.error("R233", f"'{self.text(e)}' is a {kind} from the zone 'supply' of "
                   f"{who}, but {what}", e.span, help)

    def t_BinOp(self, e: ast.BinOp, env: Env) -> Type:
        a, b = self.expr(e.left, env), self.expr(e.right, env)
        if e.op in ("-", "//", "%"):
            for x, t in ((e.left, a), (e.right, b)):
                self.need(t, frozenset({"number"}), f"'{e.op}'", x)
        out = ty.arith(e.op, a, b)
        if out is None:
            both = f"{a} {e.op} {b}"
            self.error("R230", f"'{e.op}' cannot combine {a} and {b}", e.span,
                       _ARITH_HELP.get(e.op, "") or f"'{self.text(e)}' is {both}")
            return ty.UNKNOWN
        return out

    def t_Compare(self, e: ast.Compare, env: Env) -> Type:
        a = self.expr(e.left, env)
        if e.op in ("in", "not in"):
            self.domain(e.right, env, f"'{e.op}'")
            return ty.BOOL
        b = self.expr(e.right, env)
        if e.op in ("==", "!="):
            self.choice(e.left, a, e.right)
            self.choice(e.right, b, e.left)
            constructs_types.compare(self, e, a, b)
        elif ty.known(a) and ty.known(b) and not ty.comparable(a, b):
            self.error("R230", f"'{e.op}' cannot compare {a} with {b}", e.span,
                       "order compares two numbers, two texts or two lists")
        return ty.BOOL

    def choice(self, e: ast.Expr, t: Type, other: ast.Expr) -> None:
        """`variant == "dou"`: a text that no choice of the option is (R236)."""
        if t.tag != "option" or not isinstance(other, ast.Const) \
                or not isinstance(other.value, str):
            return
        opt = self.p.options.get(t.name)
        if opt is not None and other.value not in opt.choices:
            self.error("R236", f"\"{other.value}\" is not a value of the option "
                       f"'{t.name}'", other.span, "its values are " + ", ".join(opt.choices))

    def t_BoolOp(self, e: ast.BoolOp, env: Env) -> Type:
        self.expr(e.left, env)
        self.maybe += 1
        self.expr(e.right, env)
        self.maybe -= 1
        return ty.BOOL

    def t_Not(self, e: ast.Not, env: Env) -> Type:
        self.expr(e.operand, env)
        return ty.BOOL

    def t_Neg(self, e: ast.Neg, env: Env) -> Type:
        self.expect(e.operand, env, frozenset({"number"}), "'-'")
        return ty.NUMBER

    def t_NoClause(self, e: ast.NoClause, env: Env) -> Type:
        self.expr(e.subject, env)
        return ty.NONE  # never a value: it stops the game

    def t_IfExpr(self, e: ast.IfExpr, env: Env) -> Type:
        self.expr(e.cond, env)
        self.maybe += 1
        out = ty.join(self.expr(e.then, env), self.expr(e.orelse, env))
        self.maybe -= 1
        return out

    def t_TupleExpr(self, e: ast.TupleExpr, env: Env) -> Type:
        return ty.tuple_of(tuple(self.expr(x, env) for x in e.items))

    def t_RecordExpr(self, e: ast.RecordExpr, env: Env) -> Type:
        return ty.Type("record", tuple(self.expr(x, env) for x in e.items), fields=e.fields)

    def t_ListExpr(self, e: ast.ListExpr, env: Env) -> Type:
        return ty.list_of(ty.join_all([self.expr(x, env) for x in e.items]))

    def t_MapExpr(self, e: ast.MapExpr, env: Env) -> Type:
        keys = [self.expr(k, env) for k in e.keys]
        return ty.map_of(ty.join_all(keys), ty.join_all([self.expr(v, env) for v in e.values]))

    def t_ListComp(self, e: ast.ListComp, env: Env) -> Type:
        inner = dict(env)
        for k, g in enumerate(e.generators):
            self.maybe += k > 0
            inner[g.var] = ty.element(self.domain(g.domain, inner, "'for'"))
        self.maybe += 1  # the condition and the item: only for items
        self.expr(e.cond, inner)
        item = self.expr(e.item, inner)
        self.maybe -= len(e.generators)
        return ty.list_of(item)

    def t_Range(self, e: ast.Range, env: Env) -> Type:
        for x in (e.lo, e.hi):
            self.expect(x, env, frozenset({"number"}), "a range",
                        "a range goes from a whole number to a whole number: 1..6")
        return ty.list_of(ty.NUMBER)

    def t_Quant(self, e: ast.Quant, env: Env) -> Type:
        d = self.domain(e.domain, env, f"'{e.kind}'")
        item = ty.element(d)
        inner = dict(env)
        inner[e.var] = item
        self.maybe += 1
        self.expr(e.cond, inner)
        body = self.expr(e.body, inner) if e.body is not None else None
        self.maybe -= 1
        value = item if body is None else body
        if e.kind in ("all", "any"):
            return ty.BOOL
        if e.kind == "count":
            return ty.NUMBER
        if e.kind == "sum":
            if ty.known(value) and value.tag not in ("number", "bool"):
                self.error("R230", f"'sum' adds up numbers, found {value}",
                           (e.body or e.domain).span)
            return ty.NUMBER
        if e.kind in ("first", "max", "min"):
            return value if e.kind == "first" else ty.join(value, ty.NUMBER) \
                if value.tag != "number" else value
        if e.kind == "best":
            return item
        return ty.list_of(item if e.kind == "sorted" else value)

    # ---- rules
    def result(self, key: str) -> Type:
        """A rule's result type, its parameters being of any type (UNKNOWN while it is
        being computed: a recursive rule), and what its body needs of them (self.needs)."""
        if key in self.results:
            return self.results[key]
        d = self.p.defs.get(key)
        if d is None or key in self.busy:
            return ty.UNKNOWN
        self.busy.add(key)
        self.quiet += 1
        saved = self.collect, self.maybe
        self.collect, self.maybe = {}, 0
        try:
            t = ty.plain(self.def_type(d))
            self.needs[key] = self.collect
        finally:
            self.collect, self.maybe = saved
            self.quiet -= 1
            self.busy.discard(key)
        self.results[key] = t
        return t

    def params_env(self, d: ast.Def | ast.Effect, marks: bool) -> Env:
        return written_types.params_env(self, d, marks)

    def written_args(self, e: ast.Call, key: str, args: list[Type]) -> None:
        written_types.check_args(self, e, key, args)

    def def_type(self, d: ast.Def) -> Type:
        env = self.params_env(d, True)
        if isinstance(d.body, ast.Block):
            returns: list[Type] = []
            self.pure_block(d.body, env, returns)
            return ty.join_all(returns)
        return self.expr(d.body, env)

    def pure_block(self, b: ast.Block, env: Env, returns: list[Type]) -> None:
        env = dict(env)
        depth = self.maybe
        for s in b.stmts:
            if isinstance(s, ast.Let):
                for name, value in s.bindings:
                    env[name] = self.expr(value, env)
            elif isinstance(s, ast.Return):
                returns.append(self.expr(s.value, env))
            elif isinstance(s, ast.If):
                for k, (cond, body) in enumerate(s.branches):
                    self.maybe += k > 0
                    self.expr(cond, env)
                    self.maybe += 1
                    self.pure_block(body, env, returns)
                    self.maybe -= 1
                self.maybe += 1
                if s.orelse is not None:
                    self.pure_block(s.orelse, env, returns)  # and after it: maybe returned
        self.maybe = depth

    # ---- the board
    def _board_members(self) -> set[str] | None:
        """The relations, regions and lines of the board's geometry (None: not known)."""
        b = self.p.board
        call = b.expr if b is not None else None
        ref = self.refs.get(call.func) if isinstance(call, ast.Call) else None
        g = self.p.geometries.get(ref[1]) if ref is not None and ref[0] == "geometry" else None
        if g is None:
            return None
        return {item.name for item in g.items if isinstance(item, (
            ast.GeoRelation, ast.GeoAlias, ast.GeoRegion, ast.GeoLines))}

    def check_board(self) -> None:
        """A relation, region or line set of no board (R234): there is no `board` line, or
        it is not of the board's geometry."""
        if self.library or not self.board_uses:
            return
        game = self.ck.loaded.game.source.path
        seen: set[str] = set()
        if self.p.board is None:
            own = [u for u in self.board_uses if u[2].path == game]
            for name, cat, span in own or self.board_uses[:1]:
                if name not in seen:
                    seen.add(name)
                    self.error("R234", f"the rulebook has no 'board' line, so '{name}' "
                               f"({_MEMBER[cat]} of a board) has no value", span,
                               "add a line such as 'board square.grid(3, 3, 3)'")
            return
        members = self.board_members
        if members is None:
            return
        for name, cat, span in self.board_uses:
            if name not in members and name not in seen:
                seen.add(name)
                self.error("R234", f"the board has no {_MEMBER[cat].split()[-1]} '{name}'", span,
                           f"'{name}' belongs to another geometry than the board's "
                           f"('{self.text(self.p.board.expr)}')" if self.p.board else None)


def _unknown(e: ast.Expr, env: Env) -> Type:
    return ty.UNKNOWN


_MEMBER = {"relation": "a relation", "region": "a region", "lines": "a line set"}
_ARITH_HELP = {
    "-": "'-', '*', '//' and '%' work on numbers; '+' also joins two texts or two lists",
    "+": "'+' adds two numbers, or joins two texts or two lists",
}



