"""The type checker's statements and declarations (expressions: typecheck.py): what a `choose`
chooses from, what a `put` puts and where, who wins (R230 … R235). `check_types` is run by the
checker after name resolution, over every module."""
from __future__ import annotations

from typing import Any

import rulelang.limits as limits
from rulelang.language import ast, clauses_types, constructs_types, looks, written_types
from rulelang.language import types as ty
from rulelang.language.astwalk import nodes
from rulelang.language.program import Program
from rulelang.language.resolver import Checker
from rulelang.language.typecheck import Env, ExprTypes
from rulelang.language.types import Type

_PLACES = frozenset({"site", "zone"})
_PIECE = frozenset({"piece"})
_NUMBER = frozenset({"number"})
_PLAYER = frozenset({"player"})
_WORD_TAGS = {"site": "site", "player": "player", "piece": "piece", "number": "number"}


def check_types(ck: Checker, program: Program, library: bool) -> None:
    """Type every expression of every module; the errors go to the checker's diagnostics."""
    tc = StatementTypes(ck, program, library)
    tc.def_keys = {id(d): key for key, d in program.defs.items()}
    order, calls = rules_callees_first(program, ck.refs, tc)
    too_deep(ck, program, order, calls)
    loaded = program.loaded
    for module in [loaded.game, *loaded.modules.values()]:
        for d in module.decls:
            tc.decl(d)
    tc.check_board()


def rules_callees_first(program: Program, refs: Any,
                        tc: Any = None) -> tuple[list[str], dict[str, list[str]]]:
    """Every rule's key, each after the rules its body names (but in a cycle), and those
    names: a walk of the calls between rules without recursion. With `tc`, each rule's type
    is computed as the walk leaves it, the rules the walk is inside counted as being
    computed (a recursive rule's UNKNOWN): never deeper than one rule, however long a chain
    `def a0 = a1`, `def a1 = a2` … or a cycle of rules is."""
    calls = {key: _named(program, refs, d.body) for key, d in program.defs.items()}
    order: list[str] = []
    seen: set[str] = set()
    for root in calls:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(calls[root]))]
        while stack:
            key, callees = stack[-1]
            callee = next(callees, None)
            if callee is None:
                stack.pop()
                order.append(key)
                if tc is not None:
                    inside = {k for k, _ in stack} - tc.busy
                    tc.busy |= inside
                    tc.result(key)
                    tc.busy -= inside
            elif callee not in seen:
                seen.add(callee)
                stack.append((callee, iter(calls[callee])))
    return order, calls


def _named(program: Program, refs: Any, body: Any) -> list[str]:
    """The rules a rule's body names, and those the keys and values of the tables it names
    name (a table's type is its keys' and values' types)."""
    out: list[str] = []
    for node in nodes(body, ast.Node):
        ref = refs.get(node)
        if ref is not None and ref[0] == "def" and ref[1] in program.defs:
            out.append(ref[1])
        elif ref is not None and ref[0] == "table" and ref[1] in program.tables:
            table = program.tables[ref[1]]
            out.extend(r[1] for v in table.keys + table.values for n in nodes(v, ast.Node)
                       if (r := refs.get(n)) is not None and r[0] == "def"
                       and r[1] in program.defs)
    return out


def too_deep(ck: Checker, program: Program, order: list[str],
             calls: dict[str, list[str]]) -> None:
    """R108 at a rule whose calls nest more than MAX_RULE_DEPTH rules deep (a recursive
    call, bounded when the game runs, is not counted): the evaluators call one rule inside
    another, and Python's stack is not endless."""
    depth: dict[str, int] = {}
    deepest: dict[str, str | None] = {}
    for key in order:  # (callees first: a callee in a cycle with key has no depth yet)
        below = max(calls[key], key=lambda k: depth.get(k, 0), default=None)
        depth[key] = 1 + (depth.get(below, 0) if below is not None else 0)
        deepest[key] = below
        if depth[key] == limits.MAX_RULE_DEPTH + 1:
            chain = [key]
            while (nxt := deepest.get(chain[-1])) is not None and len(chain) < 4:
                chain.append(nxt)
            d = program.defs[key]
            ck.error("R108", f"'{d.name}' calls rules nested {depth[key]} deep (at most "
                     f"{limits.MAX_RULE_DEPTH}): " + " -> ".join(
                         f"'{program.defs[k].name}'" for k in chain) + " -> …", d.span,
                     "write the chain shorter: each rule called inside another takes a "
                     "level of the evaluator's stack")


class StatementTypes(ExprTypes):
    def_keys: dict[int, str]  # a def's key by its node's identity

    # ---- declarations
    def decl(self, d: ast.Decl) -> None:
        if isinstance(d, ast.Def):
            key = self.def_keys.get(id(d))
            if key is not None:
                self.result(key)  # its type and needs, computed quietly (once)
            self.def_type(d)  # its mistakes, reported
        elif isinstance(d, ast.Effect):
            self.block(d.body, self.params_env(d, False))
        elif isinstance(d, (ast.Action, ast.Section)):
            self.block(d.body, {})
        elif isinstance(d, ast.Round):
            self.expr(d.until, {})
            self.block(d.body, {})
        elif isinstance(d, ast.Score):
            self.expr(d.expr, {d.param: ty.PLAYER})
        elif isinstance(d, ast.Picture):
            self.picture(d)
        elif isinstance(d, ast.Board):
            self.expr(d.expr, {})
        elif isinstance(d, ast.Geometry):
            self.geometry(d)
        elif isinstance(d, ast.Counter):
            for e in (d.lo, d.hi, d.init):
                self.expect(e, {}, _NUMBER, f"the counter '{d.name}'",
                            "a counter holds a whole number")
        elif isinstance(d, ast.Var):
            self.expr(d.init, {})
        elif isinstance(d, ast.Piece):
            declared = self.p.attr_types.get(d.name, {})
            for name, e in d.attrs:
                t = self.expr(e, {})
                want = declared.get(name)
                if want is not None and not written_types.compatible(t, want):
                    self.mismatch(e, t, str(want), f"the attribute '{name}' of a '{d.name}'")
        elif isinstance(d, ast.Table):
            constructs_types.table_decl(self, d)
        elif isinstance(d, ast.Zone):
            for item in d.contents:
                self.expect(item.count, {}, _NUMBER, f"the zone '{d.name}'",
                            "a zone starts with a number of pieces of a kind: '16 ball'")

    def picture(self, d: ast.Picture) -> None:
        """A picture's lines, or a record of its look whose written texts can be drawn
        (R239: a field no picture has, a colour or shape it does not know)."""
        env = {d.param: ty.piece(d.name)}
        if not isinstance(d.expr, ast.RecordExpr):
            self.expr(d.expr, env)
            return
        for name, item in zip(d.expr.fields, d.expr.items, strict=True):
            self.expr(item, env)
            field = looks.field_name(name)
            if field not in looks.FIELDS:
                self.error("R239", f"a picture has no field '{name}'", item.span,
                           f"a picture's fields: {', '.join(looks.FIELDS)}")
                continue
            for text in _written_texts(item):
                wrong = looks.wrong_value(field, text.value)
                if wrong is not None:
                    self.error("R239", wrong, text.span)

    def geometry(self, g: ast.Geometry) -> None:
        env: Env = {p: ty.UNKNOWN for p in g.params}
        coords: tuple[str, ...] = ()
        for item in g.items:
            if isinstance(item, ast.GeoSites):
                inner = dict(env)
                for gen in item.generators:
                    inner[gen.var] = ty.element(self.domain(gen.domain, inner, "'sites'"))
                self.expr(item.cond, inner)
                coords = item.pattern
            elif isinstance(item, (ast.GeoName, ast.GeoLayer, ast.GeoRelation, ast.GeoRegion,
                                   ast.GeoLines)):
                inner = dict(env)
                inner.update(dict.fromkeys(getattr(item, "pattern", None) or coords,
                                           ty.NUMBER))
                for e in (getattr(item, "expr", None), getattr(item, "cond", None),
                          getattr(item, "at", None), *getattr(item, "targets", ())):
                    self.expr(e, inner)

    # ---- statements
    def block(self, b: ast.Block | None, env: Env) -> None:
        if b is None:
            return
        env = dict(env)
        for s in b.stmts:
            method = getattr(self, f"s_{type(s).__name__}", None)
            if method is not None:
                method(s, env)

    def s_Let(self, s: ast.Let, env: Env) -> None:
        for name, value in s.bindings:
            env[name] = self.expr(value, env)

    def s_Require(self, s: ast.Require, env: Env) -> None:
        self.expr(s.cond, env)
        self.words(s.reason, env)

    def s_Do(self, s: ast.Do, env: Env) -> None:
        self.words(s.ask, env)

    def words(self, w: ast.Words | None, env: Env) -> None:
        """The `{…}` of a text: each a value of any type (shown as the players see it)."""
        for part in w.parts if w is not None else ():
            if isinstance(part, ast.Expr):
                self.expr(part, env)

    def s_Choose(self, s: ast.Choose, env: Env) -> None:
        d = self.domain(s.domain, env, "'choose'", s.kind)
        item = ty.element(d)
        want = _WORD_TAGS.get(s.kind or "")
        if want is not None and ty.known(item) and not ty.fits(item, frozenset({want})):
            self.error("R230", f"'choose {s.kind}': expected a set of {want}s, found {d}",
                       s.domain.span, f"'{self.text(s.domain)}' holds {ty.plural(item)}; "
                       f"write 'choose {s.var} in …' or choose among {want}s")
        if s.chooser is not None:
            self.expect(s.chooser, env, _PLAYER, "'by'", "a decision is made by a player")
        self.words(s.ask, env)
        env[s.var] = item
        self.p.choice_types[s] = item
        self.expr(s.cond, env)
        self.words(s.reason, env)

    def s_Put(self, s: ast.Put, env: Env) -> None:
        t = self.expr(s.piece, env)
        if s.source is not None:
            self.expect(s.source, env, frozenset({"zone"}), "'put … from'",
                        "a piece is taken from a zone: 'put ball from reds at s'")
            if ty.known(t) and t.tag not in ty.TEXTUAL and t.tag != "piece":
                self.mismatch(s.piece, t, "a piece kind", "'put … from'")
        elif t.tag in ty.TEXTUAL:
            self.bare_kind(s, t)
        elif not ty.fits(t, frozenset({"piece", "source"})):
            self.mismatch(s.piece, t, "a piece", "'put'",
                          "put a piece, a kind of a player ('ball of mover') or a kind from "
                          "a zone ('ball from reds')")
        self.expect(s.target, env, _PLACES, "'put … at'", "a piece goes to a site or a zone")
        if s.name is not None:  # `put … as t`: the piece put
            kind = t.name if t.tag in ("kind", "source", "piece") else ""
            env[s.name] = ty.piece(kind)

    def bare_kind(self, s: ast.Put, t: Type) -> None:
        """`put stone at s`: a kind is not a piece (R232)."""
        word = t.name if t.tag == "kind" else self.text(s.piece)
        zone = "supply" if "supply" in self.p.zones else next(
            (z.name for z in self.p.zones.values() if any(c.kind == word for c in z.contents)),
            "ZONE")
        each = self.p.zones.get(zone)
        take = f"'{word} of mover'" if zone == "supply" and each is not None and each.each \
            else f"'{word} from {zone}" + (" of mover'" if each is not None and each.each
                                           else "'")
        self.error("R232", f"'put' needs a piece, found {t}", s.piece.span,
                   f"'{self.text(s.piece)}' names a kind of piece, not one piece: say where "
                   f"it comes from, e.g. {take}")

    def s_Move(self, s: ast.Move, env: Env) -> None:
        t = self.expr(s.piece, env)
        if not ty.fits(t, _PIECE):
            self.mismatch(s.piece, t, "a piece", "'move'",
                          "'move' moves one piece: top(s), a chosen piece, first c in zone …"
                          if t.tag != "source" else
                          "'move' moves a piece that exists; to take one from a zone, 'put'")
        self.expect(s.target, env, _PLACES, "'move … to'", "a piece goes to a site or a zone")

    def s_Remove(self, s: ast.Remove, env: Env) -> None:
        self.expect(s.piece, env, _PIECE, "'remove'")

    def s_Set(self, s: ast.Set, env: Env) -> None:
        value = self.expr(s.value, env)
        ref = self.refs.get(s.target)
        if ref == ("builtin", "starter"):
            if not ty.fits(value, _PLAYER):
                self.mismatch(s.value, value, "a player", "'set starter'",
                              "a round begins with a player")
            return
        if isinstance(s.target, ast.Attr) and ref is None:
            obj = self.expect(s.target.obj, env, _PIECE, "'set ….attribute'",
                              "only a piece's attributes (and owner) can be set")
            kinds = self.p.attr_types.get(obj.name, {}) if obj.tag == "piece" else {}
            want = kinds.get(s.target.name) or self.attr_types.get(s.target.name)
            if want is not None and not written_types.compatible(value, want):
                self.mismatch(s.value, value, str(want), f"the attribute '{s.target.name}'")
            return
        if self.target(s.target, env) == "counter" and not ty.fits(value, _NUMBER):
            self.mismatch(s.value, value, "a number", "a counter",
                          "a counter holds a whole number; use a var for other values")

    def target(self, t: ast.Expr, env: Env) -> str:
        """The category of a counter or var target (`x`, `x of p`), type-checked."""
        if isinstance(t, ast.Of):
            self.t_Of(t, env)
            ref = self.refs.get(t.left)
        else:
            ref = self.refs.get(t)
            if ref is not None and ref[0] in ("counter", "var"):
                self.shared(t, ref[0], ref[1])
        return ref[0] if ref is not None else ""

    def s_Increase(self, s: ast.Increase, env: Env) -> None:
        self.target(s.target, env)
        self.expect(s.amount, env, _NUMBER, "'increase'" if s.sign > 0 else "'decrease'")

    def s_If(self, s: ast.If, env: Env) -> None:
        for cond, body in s.branches:
            self.expr(cond, env)
            self.block(body, env)
        self.block(s.orelse, env)

    def s_ForEach(self, s: ast.ForEach, env: Env) -> None:
        inner = dict(env)
        inner[s.var] = ty.element(self.domain(s.domain, env, "'for each'"))
        self.block(s.body, inner)

    def s_Repeat(self, s: ast.Repeat, env: Env) -> None:
        self.expect(s.count, env, _NUMBER, "'repeat'", "'repeat n times' needs a number")
        self.block(s.body, env)

    def s_While(self, s: ast.While, env: Env) -> None:
        self.expr(s.cond, env)
        self.block(s.body, env)

    def s_CallStmt(self, s: ast.CallStmt, env: Env) -> None:
        args = [self.expr(a, env) for a in s.call.args]
        cat, key = self.refs.get(s.call.func, ("", ""))
        if cat == "effect":
            self.written_args(s.call, key, args)
            clauses_types.selector_argument(self, s.call, self.p.effects.get(key), key, args)

    def s_Shuffle(self, s: ast.Shuffle, env: Env) -> None:
        self.expect(s.zone, env, frozenset({"zone"}), "'shuffle'", "only a zone is shuffled")

    def s_Return(self, s: ast.Return, env: Env) -> None:
        self.expr(s.value, env)

    def s_Result(self, s: ast.Result, env: Env) -> None:
        if s.value is None:
            return
        t = self.expr(s.value, env)
        if s.kind == "winner" and not ty.fits(t, _PLAYER):
            self.error("R235", f"a winner must be a player, found {t}", s.value.span,
                       self._winner_help(s.value, t))
        elif s.kind == "winners":
            item = ty.element(t) if t.tag in ty.COLLECTIONS else t
            if not ty.fits(t, ty.COLLECTIONS) or not ty.fits(item, _PLAYER):
                self.error("R235", f"winners must be a set of players, found {t}",
                           s.value.span, "e.g. 'winners each p in players where …'")

    def _winner_help(self, e: ast.Expr, t: Type) -> str:
        if isinstance(e, ast.Const) and isinstance(e.value, str) \
                and e.value in self.p.players.names:
            return f"write the player's name without quotes: 'winner {e.value}'"
        names = ", ".join(self.p.players.names) or "Player1 …"
        return f"'{self.text(e)}' is {t}; a player is mover, opponent, a name ({names}) or " \
               "owner(…)"


def _written_texts(e: ast.Expr) -> list[ast.Const]:
    """The texts written as the possible values of an expression: a text, or the branches of
    `a if c else b` (a computed value is judged as the game runs)."""
    if isinstance(e, ast.Const) and isinstance(e.value, str):
        return [e]
    if isinstance(e, ast.IfExpr):
        return _written_texts(e.then) + _written_texts(e.orelse)
    return []
