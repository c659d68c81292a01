"""The writer: a checked program and its runtime -> the Python source of one module for
the game, with its constants table and line map.

Every identifier in the source is the writer's own (`S` the state, `a3` a parameter, `v7`
a local, `k12` a constant, `r4` a rule's function); every literal, name and span is a value
of the constants table (the module's globals, with empty `__builtins__`); comments carry
only the writer's numbers. No text of a rulebook reaches the source.

Values are the reference's values (sites, players, pieces are the runtime's objects), so an
operator means what it means to the reference; where the writer knows a value's form
(gen/forms.py) it reads the flat state directly (`S.at[s.index]`), and elsewhere it calls
the reference's own helpers. A construct it does not cover raises Unsupported at its span:
the game then runs on the reference evaluator, whole (gen/__init__.py).
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import rulelang.gen.calls as calls
import rulelang.gen.comprehensions as comprehensions
import rulelang.gen.facts as facts
import rulelang.gen.forms as F
import rulelang.gen.helpers as H
import rulelang.gen.lower as lower
import rulelang.gen.operators as operators
from rulelang.errors import RulelangError
from rulelang.gen.bits import relation_masks, site_mask
from rulelang.gen.code import Code, Func, NotMasked, Unsupported, noting_call
from rulelang.gen.forms import Form
from rulelang.gen.layout import Layout
from rulelang.gen.lower import Junction, Negation
from rulelang.gen.rt import SiteValues, View, ticked
from rulelang.gen.rt import charged as rt_charged
from rulelang.language import ast
from rulelang.language.astwalk import nodes
from rulelang.library.semantics import STEP_BUDGET, local_of, make_map, make_range, of_value
from rulelang.model.values import zone_ref
from rulelang.source import CalledSpan, Span, with_calls

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|k\d+\[S\.mover\]|S\.last\[k\d+\]|S\.(mover|turn)")
_INLINE_CHARS = 240  # a rule's body longer than this stays a function of its own


class Writer:
    def __init__(self, runtime: Any, layout: Layout | None = None,
                 counting: bool = False, one_kind: bool = True, spare: int = 0) -> None:
        self.rt = runtime
        # zones of one kind (gen/facts.py), those the code relies on, can a put fill a zone?
        self.one_kind = facts.one_kind_zones(runtime) if one_kind else {}
        self.kinds_used: dict[Any, str] = {}
        self.fills_zones = False
        # steps counted as they run (loops charged at their heads): a Code's cost is then
        # what it takes besides its own loops
        self.counting = counting
        # and a loop that takes at most `spare` steps, all told, charges none: what it takes
        # joins what encloses it (a loop's item, or the bound of what an action leaves
        # uncharged: gen/__init__.py _write), where the writer's sizes are bounds (below)
        self.spare = spare if counting else 0
        self.step2 = False  # has it written what compiled mode's step 2 added?
        # does the game hide anything (its states then keep where each piece came from)?
        self.hides = facts.hides(runtime.program)
        self.layout = layout if layout is not None else Layout(runtime.program, runtime.board)
        # kept query -> the local naming its site, and its condition over that local
        self.tests: dict[str, tuple[str, Code]] = {}
        # a rule's value kept in a slot of the state, read there at these names (turns.memos)
        self.memo: dict[int, Code] = {}
        self.kept_parts: dict[int, Code] = {}  # a loop's test's parts asked once (invariant)
        # the rules whose site values are kept, as written for each mover (kept_now checks)
        self.value_rules: dict[str, dict[int, str]] = {}
        self.mover: int | None = None  # the mover the function being written is for
        self.program = runtime.program
        self.refs = runtime.program.refs
        self.board = runtime.board
        self.n_sites = len(runtime.board.sites)
        self.n_pieces = len(runtime.template.loc)  # (on distinct sites: this many at most)
        # the items a loop over a value of unknown form may go through: any number (a list
        # made as the game runs), so the game's steps are counted as they run (where every
        # loop charges its own items: the board's sites, as a cost of one item)
        self.n_unknown = self.n_sites if counting and not self.spare else STEP_BUDGET
        # the pieces of a pile (a site's, a zone's): all the game's at most, or, where loops
        # spare their charges, a number only known as the game runs (each item charged)
        self.n_pile = STEP_BUDGET if self.spare else self.n_pieces
        self.constants: dict[str, Any] = {}
        self._by_value: dict[Any, str] = {}
        self.funcs: list[tuple[str, Span | None, str, Func]] = []
        self._rules: dict[Any, tuple[str, Form, int]] = {}
        self._calling: set[str] = set()
        self._n = 0
        self.calls: list[Span] = []  # of the rules written in place now (callchain.py)
        self.out_of_place: str | None = None  # (a rule's next call: not in place)
        self.call_sites: dict[str, list[Span]] = {}  # the calls of each rule's function

    # ---- names and constants
    def fresh(self, prefix: str) -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def const(self, value: Any) -> str:
        value = with_calls(value, self.calls) if type(value) is Span else value
        try:  # (a CalledSpan by its calls too: it hashes as its position alone)
            key: Any = (CalledSpan, value.plain(), value.calls) \
                if type(value) is CalledSpan else (type(value), value)
            hash(key)
        except TypeError:
            key = ("id", id(value))
        name = self._by_value.get(key)
        if name is None:
            name = self._by_value[key] = f"k{len(self.constants)}"
            self.constants[name] = value
        return name

    def owner_players(self) -> str:
        """The constant giving each piece's owner as a player (or none), by piece id: owners
        are fixed in a generated game."""
        return self.const(tuple(None if o is None else self.rt.players[o]
                                for o in self.rt.template.owner))

    def static(self, value: Any) -> Code:
        form = F.of_constant(value, self.board, len(self.rt.players), self.rt.template.zones)
        if form.kind == "items" and form.item == F.SITE and len(set(value)) == len(value):
            form = replace(form, bits=self.const(site_mask(value)), distinct=True)  # (masks)
        return Code(self.const(value), form, 0)

    # ---- expressions
    def ex(self, node: ast.Expr, env: dict[str, Code]) -> Code:
        """The expression as a value of the reference (a tuple of sites, not a kept list)."""
        return self.plain(self.raw(node, env))

    def plain(self, code: Code) -> Code:
        """A value of a kept form as the reference's value: a kept query's list or a
        group's bits as the tuple of sites, a site-or-none as a value of unknown form."""
        kind = code.form.kind
        if kind == "sitelist":
            return Code(f"tuple(map({self.const(self.board.sites.__getitem__)}, {code.src}))",
                        replace(F.items(self.n_sites, F.SITE), distinct=True), code.cost)
        if kind == "bits":
            return Code(comprehensions.bit_sites(self, code.src), replace(
                F.items(self.n_sites, F.SITE), distinct=True), code.cost)
        if kind == "maybe":
            return Code(code.src, F.ANY, code.cost)
        if kind == "linemask":
            raise NotMasked
        return code

    def raw(self, node: ast.Expr, env: dict[str, Code]) -> Code:
        """The expression, possibly of a kept form (sitelist, bits, maybe: gen/forms.py)."""
        kept = self.kept_parts.get(id(node))
        if kept is not None:  # (a loop's part asked once: gen/invariant.py)
            return kept
        method: Callable[[Any, dict[str, Code]], Code] | None = \
            getattr(self, f"x_{type(node).__name__}", None)
        if method is None:
            raise Unsupported(f"the expression '{type(node).__name__}'", node.span)
        return method(node, env)

    def x_Const(self, n: ast.Const, env: dict[str, Code]) -> Code:
        return self.static(n.value)

    def x_Name(self, n: ast.Name, env: dict[str, Code]) -> Code:
        cat, key = self.refs.get(n, ("local", n.id))
        return self.ref(str(cat), key, n, env)

    def ref(self, cat: str, key: str, n: ast.Node, env: dict[str, Code]) -> Code:
        if cat == "local":
            if key not in env:
                raise Unsupported(f"'{key}' without a value", n.span)
            return env[key]
        if cat == "builtin":
            return calls.builtin_constant(self, key, n)
        if cat == "def":
            return self.call_rule(key, [], n)
        if cat in ("relation", "region", "lines"):
            member = self.board.member(key)
            if member is None:
                raise Unsupported(f"the board has no '{key}'", n.span)
            return self.static(member)
        if cat in ("player", "option", "kind", "symbol", "enum", "table", "zones"):  # (made once)
            self.step2 = self.step2 or cat == "table"
            return self.static(self.rt._component_value(cat, key, None, n))
        if cat == "function":  # a rule passed as a value: a function of the state S
            return self.rule_value(key, n, ())
        if cat in ("var", "counter", "zone"):
            return self.owned(cat, key, None, n)
        raise Unsupported(f"a {cat} as a value", n.span)

    def rule_value(self, key: str, n: ast.Node, given: tuple[Form, ...],
                   by_site: bool = False) -> Code:
        """A rule passed as a value: a function of the state S; its parameters of the
        forms `given` where the builtin it goes to calls it with those (else unknown);
        with the mover's kept values of it where the builtin reads them (`by_site`) and
        the layout keeps them."""
        params = self.program.defs[key].params or ()
        names = [self.fresh("a") for _ in params]
        forms = given if len(given) == len(params) else (F.ANY,) * len(params)
        args = [Code(a, f, 0) for a, f in zip(names, forms, strict=True)]
        call = self.call_rule(key, args, n)
        if lower.loops(call):  # (written in place: a function of its own, its loops as such)
            self.out_of_place = key
            call = self.call_rule(key, args, n)
        body = call.src
        if self.counting:  # each call charged as it is made
            body = f"{self.const(ticked)}(S, {self.const(1 + call.cost)}, " \
                   f"{self.const(n.span)}) or {call.src}"
        named = f"*, {self.fresh('a')}={self.const(H.RuleName(key))}"  # (messages' name)
        rule = f"(lambda {', '.join([*names, named])}: {body})"
        mover = self.mover
        values = self.layout.site_values(key) if by_site and mover is not None else None
        if values is not None and mover is not None:
            self.value_rules.setdefault(key, {}).setdefault(mover, rule)
            rule = f"{self.const(SiteValues)}({rule}, S.{values.slot}[{self.const(self.mover)}])"
        return Code(rule, F.ANY, call.cost)

    @functools.cached_property
    def record_fields(self) -> dict[str, tuple[str, ...] | None]:
        """Field name -> the fields of the records the rules make that have it (None: more
        than one set of fields has it); a record made by generated code holds the one
        constant of its fields (Writer.const by value), so `r.fields is` that constant
        tells a record of those fields."""
        found: dict[str, tuple[str, ...] | None] = {}
        loaded = self.program.loaded
        for module in (loaded.game, *loaded.modules.values()):
            for node in nodes(module.decls, ast.RecordExpr):  # (kept: each writing asks)
                for name in node.fields:
                    known = found.setdefault(name, node.fields)
                    if known != node.fields:
                        found[name] = None
        return found

    @functools.cached_property
    def _of_names(self) -> dict[tuple[str, int], Any]:
        """`x of p` for each piece kind's and zone's name x and player p, as the reference
        means it (semantics.local_of, of_value), found once."""
        view, out = View(None, self.rt), {}  # type: ignore[arg-type]  # (no state read)
        for name in (*self.program.zones, *self.program.pieces):
            cat, key = local_of(view, name)  # type: ignore[arg-type]
            for player in self.rt.players:
                out[(name, player.index)] = of_value(view, cat, key, player)  # type: ignore[arg-type]
        return out

    def owned(self, cat: str, key: str, who: Code | None, n: ast.Node) -> Code:
        """A shared zone, var or counter, or a known player's (`points of p`)."""
        if who is not None and not (who.form.kind == "player" and who.form.known):
            raise Unsupported(f"a {cat} of a player not known when written", n.span)
        owner = None if who is None else who.form.static.index
        if cat == "zone":
            zone = zone_ref(key, owner)
            if zone not in self.rt.template.zones:
                raise Unsupported("a zone the game does not have", n.span)
            return self.static(zone)
        table = "counters" if cat == "counter" else "vars"
        if (key, owner) not in getattr(self.rt.template, table):
            raise Unsupported(f"a {cat} the game does not have", n.span)
        return Code(f"S.{table}[{self.const((key, owner))}]", self._held(table, key), 0)

    def _held(self, table: str, key: str) -> Form:
        """The form of a var's or counter's value: a counter holds a whole number once it
        starts as one (every set of it is checked); anything else, any value."""
        whole = table == "counters" and all(type(v) is int for (k, _), v in
                                            self.rt.template.counters.items() if k == key)
        return F.NUM if whole else F.ANY

    def x_Of(self, n: ast.Of, env: dict[str, Code]) -> Code:
        cat, key = self.refs.get(n.left, ("local", ""))
        if cat == "local":  # a local holding a kind's or a zone's name: `species of p`
            name, who = self.ex(n.left, env), self.ex(n.right, env)
            meaning = f"{self.const(H.of_local)}(S, {name.src}, {who.src}, " \
                f"{self.const(n.span)})"
            if who.form.kind == "player" and operators.SIMPLE.match(name.src) \
                    and operators.SIMPLE.match(who.src):  # (found in a table of the names)
                meaning = f"({self.const(self._of_names)}.get(({name.src}, " \
                    f"{who.src}.index)) or {meaning})"
            return Code(meaning, F.ANY, name.cost + who.cost + 1)
        if str(cat) not in ("var", "counter", "zone", "kind"):
            raise Unsupported("this 'of'", n.span)
        who = self.ex(n.right, env)
        if cat != "kind" and who.form.kind == "player" and who.form.known:
            return self.owned(str(cat), str(key), who, n)
        zones = tuple(zone_ref(str(key), i) for i in range(len(self.rt.players)))
        if cat == "zone" and who.form.kind == "player" \
                and all(z in self.rt.template.zones for z in zones):  # (each player's)
            return Code(f"{self.const(zones)}[{who.src}.index]", F.ZONE, who.cost + 1)
        table = {"var": "vars", "counter": "counters"}.get(str(cat))
        if table and who.form.kind == "player" and (key, 0) in getattr(self.rt.template, table):
            # a player's var or counter, the player found as the game runs: read in place
            return Code(f"S.{table}[({self.const(key)}, {who.src}.index)]",
                        self._held(table, str(key)), who.cost + 1)
        # a player known only as the game runs: the reference's meaning (semantics.of_value)
        self.step2 = True
        return Code(f"{self.const(H.of_value)}(S, {self.const(str(cat))}, {self.const(key)}, "
                    f"{who.src}, {self.const(n.span)})", F.ANY, who.cost + 1)

    def x_Attr(self, n: ast.Attr, env: dict[str, Code]) -> Code:
        ref = self.refs.get(n)
        if ref is not None:
            return self.ref(str(ref[0]), ref[1], n, env)
        obj = self.ex(n.obj, env)
        if obj.form.kind == "last" and n.name == "site":  # set by placing on sites only
            return Code(f"S.last[{self.const(n.name)}]", F.MAYBE_SITE, obj.cost)
        if obj.form.kind == "last" and n.name in ("piece", "action", "player"):  # (or none)
            return Code(f"S.last[{self.const(n.name)}]", F.ATOM, obj.cost)
        if obj.form.kind == "record" and n.name in obj.form.fields:  # (a tuple's item)
            return Code(f"{obj.src}[{self.const(obj.form.fields.index(n.name))}]", F.ANY,
                        obj.cost)
        if obj.form.kind == "player" and n.name in ("name", "index"):
            if obj.form.known:  # (a player known when written: the mover, a seat)
                return self.static(getattr(obj.form.static, n.name))
            return Code(f"{obj.src}.{n.name}", F.below(len(self.rt.players))
                        if n.name == "index" else F.TEXT, obj.cost)
        if obj.form.kind == "site" and n.name in self.rt.coord_index:
            return Code(f"{obj.src}.coords[{self.const(self.rt.coord_index[n.name])}]",
                        F.NUM, obj.cost)
        if obj.form.kind == "piece" and n.name == "kind":
            return Code(f"{obj.src}.kind", F.TEXT, obj.cost)
        if obj.form.kind == "piece" and n.name in self.rt.template.attrs:  # its column
            return Code(f"S.attrs[{self.const(n.name)}][{obj.src}.id]", F.ANY, obj.cost)
        return operators.attribute(self, obj, n.name, n.span)

    def x_Call(self, n: ast.Call, env: dict[str, Code]) -> Code:
        if n.kwargs:
            raise Unsupported("named arguments", n.span)
        ref = self.refs.get(n.func)
        cat, key = (str(ref[0]), ref[1]) if ref is not None else ("", "")
        if cat == "def":
            return self.call_rule(key, [self.raw(a, env) for a in n.args], n)
        if cat == "builtin":  # (a rule it calls: its parameters of the forms it gives)
            given = calls.PASSES.get(key, {})
            return self.call_builtin(key, [
                self.rule_value(self.refs[a][1], a, given[i], (key, i) in calls.BY_SITE)
                if i in given and self.refs.get(a, ("",))[0] == "function"
                else self.raw(a, env) for i, a in enumerate(n.args)], n)
        if cat == "relation":
            [arg] = [self.ex(a, env) for a in n.args] if len(n.args) == 1 else [None]
            rel = self.board.relations.get(key)
            if arg is None or rel is None:
                raise Unsupported("this relation call", n.span)
            longest = max((len(r) for r in rel.table), default=0)
            if arg.form.kind == "site":
                return Code(f"{self.const(rel.table)}[{arg.src}.index]",
                            Form("items", longest, F.SITE,
                                 indices=f"{self.const(rel.indices)}[{arg.src}.index]",
                                 bits=f"{self.const(relation_masks(rel))}[{arg.src}.index]"),
                            arg.cost)
            return Code(f"{self.const(H.relation)}({self.const(rel)}, {arg.src}, "
                        f"{self.const(n.span)})", F.items(longest, F.SITE), arg.cost)
        return calls.not_callable(self, key, [self.ex(a, env) for a in n.args], n)

    def call_builtin(self, key: str, args: list[Code], n: ast.Call) -> Code:
        return calls.builtin(self, key, args, n)

    def x_BinOp(self, n: ast.BinOp, env: dict[str, Code]) -> Code:
        return operators.binop(self, n, env)

    def x_Compare(self, n: ast.Compare, env: dict[str, Code]) -> Code:
        return operators.compare(self, n, env)

    def x_NoClause(self, n: ast.NoClause, env: dict[str, Code]) -> Code:
        """The end of a rule written as clauses, reached by a value none is for: R301."""
        subject = self.ex(n.subject, env)
        return Code(f"{self.const(H.no_clause)}({self.const(n.rule)}, {self.const(n.symbols)}, "
                    f"{subject.src}, {self.const(n.span)})", F.ANY, subject.cost)

    def x_BoolOp(self, n: ast.BoolOp, env: dict[str, Code]) -> Code:
        a, b = self.ex(n.left, env), self.ex(n.right, env)
        left = a.src if a.form.kind == "bool" else f"bool({a.src})"
        right = b.src if b.form.kind == "bool" else f"bool({b.src})"
        return Code(f"({left} {n.op} {right})", F.BOOL, a.cost + b.cost, Junction(n.op, a, b))

    def x_Not(self, n: ast.Not, env: dict[str, Code]) -> Code:
        a = self.ex(n.operand, env)
        return Code(f"(not {a.src})", F.BOOL, a.cost, Negation(a))

    def x_Neg(self, n: ast.Neg, env: dict[str, Code]) -> Code:
        a = self.ex(n.operand, env)
        if a.form.known and type(a.form.static) is int:
            return self.static(-a.form.static)
        return Code(f"{self.const(H.negate)}({a.src}, {self.const(n.span)})",
                    F.NUM if a.form.kind == "num" else F.ANY, a.cost)

    def x_IfExpr(self, n: ast.IfExpr, env: dict[str, Code]) -> Code:
        return operators.if_expr(self, n, env)

    def x_Index(self, n: ast.Index, env: dict[str, Code]) -> Code:
        return operators.index(self, n, env)

    def x_MapExpr(self, n: ast.MapExpr, env: dict[str, Code]) -> Code:
        keys = [self.ex(k, env) for k in n.keys]
        values = [self.ex(v, env) for v in n.values]
        if all(c.form.known for c in keys + values):  # made once, when written
            try:
                value = make_map([c.form.static for c in keys],
                                 [c.form.static for c in values], n.span)
                return Code(self.const(value), Form("any", static=value), 0)
            except RulelangError:
                pass  # (its error is met where the game runs into it)
        return Code(f"{self.const(make_map)}([{', '.join(c.src for c in keys)}], "
                    f"[{', '.join(c.src for c in values)}], {self.const(n.span)})", F.ANY,
                    sum(c.cost for c in keys + values))

    def x_Range(self, n: ast.Range, env: dict[str, Code]) -> Code:
        lo, hi = self.ex(n.lo, env), self.ex(n.hi, env)
        if not (lo.form.known and hi.form.known and type(lo.form.static) is int
                and type(hi.form.static) is int) or hi.form.static - lo.form.static \
                >= STEP_BUDGET:  # ends known as the game runs (or past the budget): any
            self.step2 = True  # length, so steps are counted (its loops charge as they run)
            return Code(f"{self.const(make_range)}({lo.src}, {hi.src}, {self.const(n.span)})",
                        F.items(STEP_BUDGET, F.NUM),
                        lo.cost + hi.cost + (0 if self.counting else STEP_BUDGET))
        return self.static(range(lo.form.static, hi.form.static + 1))

    def x_TupleExpr(self, n: ast.TupleExpr, env: dict[str, Code]) -> Code:
        parts = [self.ex(x, env) for x in n.items]
        src = "(" + "".join(p.src + ", " for p in parts) + ")"
        kinds = {(p.form.kind, p.form.fields) for p in parts}  # (records: the same fields)
        item = parts[0].form if len(kinds) == 1 and parts else F.ANY
        return Code(src, F.items(len(parts), F.an_item(item)),
                    sum(p.cost for p in parts))

    x_ListExpr = x_TupleExpr

    def x_RecordExpr(self, n: ast.RecordExpr, env: dict[str, Code]) -> Code:
        self.step2 = True
        return comprehensions.record(self, n, env)

    def x_ListComp(self, n: ast.ListComp, env: dict[str, Code]) -> Code:
        self.step2 = True
        return comprehensions.list_comp(self, n, env)

    def x_Quant(self, n: ast.Quant, env: dict[str, Code]) -> Code:
        dom = self.raw(n.domain, env)
        if dom.form.bits is not None:  # sites also as bits: `occupied` of each as a mask
            occupied = comprehensions.occupied(self, n, dom.form.bits, dom.cost, env)
            if occupied is not None:
                return occupied
        q = self.layout.inline_query(n) if not self.counting else None
        if q is not None:  # a kept query of the board's sites (layout.inline_query)
            return comprehensions.of_query(self, n.kind, self.kept_query(q.key))
        masked = comprehensions.masked(self, n, dom, env) \
            if dom.form.kind in ("bits", "linemask") else None
        if masked is not None:
            return masked
        if dom.form.kind == "linemask":
            raise NotMasked
        masks = dom.form.masks
        if masks is None and dom.form.kind == "lines" and dom.form.known:  # (a line set's)
            masks = self.const(tuple(site_mask(line) for line in dom.form.static.lines))
        if masks is not None and dom.form.item is not None \
                and dom.form.item.kind == "items" and dom.form.item.item == F.SITE:
            owners = self.layout.owners
            try:  # each line read only as bits: the loop goes over the lines' masks
                return comprehensions.quant(self, n, env, dom, masks, dom.form.size,
                                            F.linemask(dom.form.item.size))
            except NotMasked:
                self.layout.owners = owners  # (the owner bits kept only where read)

        owned = comprehensions.owned_sites(self, n, dom, env)
        if owned is not None:  # (the sites of a player's owner bits)
            return owned
        if dom.form.kind == "sitelist":  # the sites of a kept query's indices, in order
            src, size, item = (f"map({self.const(self.board.sites.__getitem__)}, {dom.src})",
                               dom.form.size, F.SITE)
        else:
            dom = calls.zone_pile(self, self.plain(dom), copy=False)
            if dom.form.kind == "items" or (dom.form.kind == "lines" and dom.form.known):
                src, size, item = dom.src, dom.form.size, dom.form.item or F.ANY
                if dom.form.kind == "lines":
                    src = f"{src}.lines"
            else:
                src, size, item = (f"{self.const(H.items)}(S, {dom.src}, "
                                   f"{self.const(n.span)})",
                                   F.unknown_items(dom.form, self.n_unknown), F.ANY)
        loop = comprehensions.quant(self, n, env, dom, src, size, F.an_item(item))
        return comprehensions.by_coordinate(self, n, dom, env, loop)

    def charges(self, cost: int) -> bool:
        """Does a loop that takes at most `cost` steps, all told, charge its items?"""
        return self.counting and cost > self.spare

    def charged(self, src: str, each: int, span: Any) -> str:
        """A loop's items, charged `each` steps apiece as the loop starts."""
        return f"{self.const(rt_charged)}(S, {src}, {self.const(each)}, {self.const(span)})"

    # ---- rules: one function per rule and per form of its arguments
    @noting_call
    def call_rule(self, key: str, args: list[Code], n: ast.Node) -> Code:
        d = self.program.defs[key]
        params = tuple(d.params or ())
        if len(params) != len(args):
            raise Unsupported("a rule called with other arguments", n.span)
        if not args and id(n) in self.memo:
            return self.memo[id(n)]
        if not args and self.layout.query(key) is not None:
            return self.kept_query(key)
        for i, a in enumerate(args):  # a site or none: one call for each
            if a.form.kind == "maybe":
                site = self.call_rule(key, [*args[:i], Code(a.src, F.SITE, 0), *args[i + 1:]], n)
                none = self.call_rule(key, [*args[:i], self.static(None), *args[i + 1:]], n)
                form = site.form if site.form == none.form else F.ANY
                return Code(f"({site.src} if {a.src} is not None else {none.src})", form,
                            a.cost + max(site.cost, none.cost))
        args = [a if a.form.kind in ("sitelist", "bits", "linemask") else self.plain(a)
                for a in args]
        inline = self._inline(key, d, params, args)
        if inline is not None:
            return inline
        if key in self._calling:  # (a call from within itself)
            return calls.recursive(self, key, d, params, args, n)
        shape = (self.mover, *(a.src if a.form.known else a.form for a in args))
        made = self._rules.get((key, shape))
        if made is None:
            made = self._rules[(key, shape)] = self._write_rule(key, d, params, args)
        name, form, cost = made
        self.call_sites.setdefault(name, []).append(with_calls(n.span, self.calls[:-1]))
        passed = [a.src for a in args if not a.form.known]
        return Code(f"{name}({', '.join(['S', *passed])})", form, 1 + cost
                    + sum(a.cost for a in args))

    def _inline(self, key: str, d: ast.Def, params: tuple[str, ...],
                args: list[Code]) -> Code | None:
        """A rule whose body is one expression, called with names or constants: its body in
        place of the call (each name stands for a value computed once), if short."""
        if key == self.out_of_place:
            self.out_of_place = None
            return None
        if isinstance(d.body, ast.Block) or key in self._calling \
                or not all(a.form.known or _NAME.fullmatch(a.src) for a in args):
            return None
        env = {p: Code(a.src, a.form, 0) for p, a in zip(params, args, strict=True)}
        self._calling.add(key)
        try:
            body = self.raw(d.body, env)
        finally:
            self._calling.discard(key)
        if len(body.src) > _INLINE_CHARS:
            return None
        if body.form.kind == "maybe":
            body = self.plain(body)
        return Code(body.src, body.form, 1 + body.cost + sum(a.cost for a in args), body.shape)

    def kept_query(self, key: str) -> Code:
        """A kept query's list; its condition written once for the structure's upkeep."""
        q = self.layout.queries[key]
        if key not in self.tests:
            site = self.fresh("v")
            self.tests[key] = (site, self.ex(q.cond, {q.var: Code(site, F.SITE, 0)}))
        test = self.tests[key][1]
        return Code(f"S.{q.slots[0]}", F.sitelist(self.n_sites), self.n_sites * (1 + test.cost))

    def group_function(self, groups: Any) -> str:
        """The name of the function giving a site's kept group as bits (gen/kept.py)."""
        return f"group{groups.number}"

    def _write_rule(self, key: str, d: ast.Def, params: tuple[str, ...], args: list[Code],
                    name: str | None = None, at: Span | None = None) -> tuple[str, Form, int]:
        name = name or self.fresh("r")
        env: dict[str, Code] = {}
        formal = ["S"]
        for p, a in zip(params, args, strict=True):
            if a.form.known:
                env[p] = Code(a.src, a.form, 0)
            else:
                local = self.fresh("a")
                formal.append(local)
                env[p] = Code(local, a.form, 0)
        fn = Func(f"def {name}({', '.join(formal)}):  # rule {self._n}")
        self._calling.add(key)
        outer, self.calls = self.calls, []  # (written once for every call: no call in it)
        try:
            if isinstance(d.body, ast.Block):
                form, cost = lower.block(self, d.body, env, fn)
                fn.add("return None")
            else:
                body = self.raw(d.body, env)  # (a kept query's list, a group's bits stay)
                if body.form.kind == "maybe":
                    body = self.plain(body)
                lower.returning(self, body, fn)
                form, cost = body.form, body.cost
        finally:
            self._calling.discard(key)
            self.calls = outer
        self.funcs.append((name, at or d.span, "rule", fn))
        return name, form, cost
