"""The static side of one game: players, the board, pieces, options and the evaluation of
names. Built once per (rulebook, options); shared by every state of that game, and the
generated module of the game (rulelang/gen) is written from it.

The evaluator is given (rulelang/__init__.py gives the reference's): `make_evaluator(runtime)`
gives each expression's function (`expr(node)`) and the rules' bodies (`def_body(key)`), and
`make_flow(runtime)` the flow of play the engine runs."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import rulelang.limits as limits
from rulelang.errors import RulelangError, RuleRuntimeError
from rulelang.game.repetition import RepetitionKeys
from rulelang.language import ast
from rulelang.language.program import Program, indexed_zone
from rulelang.library import BUILTINS, MAX_PIECES
from rulelang.library.semantics import Ctx, domain_items, make_table, positioned
from rulelang.model.state import GameData
from rulelang.model.topology import Board, BoardBuilder
from rulelang.model.values import Piece, Player, Record, Site, ZoneFamily, ZoneRef, show, zone_ref
from rulelang.reference.interpreter import Interpreter

Fn = Callable[[Ctx, dict[str, Any]], Any]


class Evaluator(Protocol):
    def expr(self, node: ast.Expr) -> Fn: ...
    def def_body(self, key: str) -> list[Fn]: ...  # a one-cell box: the body of a rule


class _Unbuilt:
    """The board while its geometry is being evaluated: anything that reads it (`sites`, a
    relation, a rule about the board) is an error, positioned by the board declaration."""

    def __getattr__(self, name: str) -> Any:
        raise RuleRuntimeError("a geometry cannot use the board it is building (its sites, "
                               "relations or a rule about them)", None)


_UNBUILT = _Unbuilt()
_MAKING = object()  # a table being made


class Runtime(RepetitionKeys):
    def __init__(self, program: Program, options: dict[str, Any],
                 make_evaluator: Callable[[Runtime], Evaluator],
                 make_flow: Callable[[Runtime], Any]) -> None:
        self.program = program
        self.options = options
        self.make_flow = make_flow
        names = program.players.names or tuple(f"Player{i + 1}"
                                                for i in range(options["players"]))
        self.players = tuple(Player(i, n) for i, n in enumerate(names))
        self.coord_index: dict[str, int] = {}
        self._fns: dict[ast.Node, Fn] = {}
        # RuleFunction's, per rule: its parameters and compiled body
        self.rule_calls: dict[str, tuple[tuple[str, ...], list[Fn]]] = {}
        self.interp = Interpreter(self)
        self.evaluator: Any = make_evaluator(self)
        self.piece_attrs = {k: frozenset(a for a, _ in d.attrs)
                            for k, d in program.pieces.items()}  # kind -> its attributes
        self.board: Any = _UNBUILT  # a geometry cannot use the board it is building
        self.board = self._build_board()
        self.tables: dict[str, Any] = {}
        for key in program.tables:  # made once, when the game is made
            self._table(key)
        self.template = self._initial_data()
        changing = _attributes_set(program)  # the other columns are shared by every copy
        self.template.fixed = frozenset(k for k in self.template.attrs if k not in changing)
        self.view = self._view()
        # values of `cached(...)` by the pieces on their sites and of `memo(...)` by their
        # arguments, shared by every state of the game (grids.py): sound only when no rule
        # changes a piece's attribute or owner
        self.content_cache: dict[Any, Any] | None = \
            None if _sets_piece_attributes(program) else {}

    # ---- expressions
    def fn(self, node: ast.Expr) -> Fn:
        """The evaluator's closure for an expression, made once per node."""
        f = self._fns.get(node)
        if f is None:
            f = self._fns[node] = self.evaluator.expr(node)
        return f

    def ref_value(self, ref: tuple[str, str], c: Ctx, e: dict[str, Any], node: ast.Node) -> Any:
        cat, key = ref
        if cat == "local":
            try:
                return e[key]
            except KeyError:
                raise RuleRuntimeError(f"'{key}' has no value here", node.span) from None
        if cat == "builtin":
            return BUILTINS[key].impl(c)
        if cat == "def":
            return self.call(ref, [], c, node)
        if cat == "function":
            return RuleFunction(self, c, key, node)
        member = self.board.member(key) if cat in ("relation", "region", "lines") else None
        if member is not None:
            return member
        return self._component_value(cat, key, c, node)

    def _table(self, key: str) -> Any:
        """A table's value, made on its first use with the reference evaluator."""
        value = self.tables.get(key)
        t = self.program.tables[key]
        if value is _MAKING:
            raise RuleRuntimeError(f"the table '{t.name}' is made from itself", t.span)
        if value is None:
            self.tables[key] = _MAKING
            c, ev = Ctx(self, GameData(0, 0)), self.interp.eval
            try:
                value = make_table(t.name, [ev(k, c, {}) for k in t.keys],
                                   [ev(v, c, {}) for v in t.values], t.span)
            finally:
                del self.tables[key]
            self.tables[key] = value
        return value

    def _component_value(self, cat: str, key: str, c: Ctx, node: ast.Node) -> Any:
        if cat == "symbol":
            return key.rpartition(".")[2]
        if cat == "enum":
            return tuple(self.program.enums[key].symbols)
        if cat == "table":
            return self._table(key)
        if cat == "zones":
            d = self.program.zone_families[key]
            lo, hi = d.indices or (0, -1)
            if d.each:  # `hand[2] of p`: the zone's name, read by `of`
                return ZoneFamily(key, lo, tuple(indexed_zone(key, i)
                                                 for i in range(lo, hi + 1)))
            return ZoneFamily(key, lo, tuple(zone_ref(indexed_zone(key, i), None)
                                             for i in range(lo, hi + 1)))
        if cat == "player":
            return self.players[int(key)]
        if cat == "option":
            return self.options[key]
        if cat == "kind":
            return key
        zone = self.program.zones.get(key)
        if cat == "zone" and zone is not None and not zone.each:
            return zone_ref(key, None)
        if cat == "counter" and not self.program.counters[key].each:
            return c.data.counters[(key, None)]
        if cat == "var" and not self.program.vars[key].each:
            return c.data.vars[(key, None)]
        if cat in ("zone", "counter", "var"):
            raise RuleRuntimeError(f"'{key}' belongs to each player: write '{key} of <player>'",
                                   node.span)
        raise RuleRuntimeError(f"'{key}' is not a value (it is a {cat})", node.span)

    def call(self, ref: tuple[str, str] | None, args: list[Any], c: Ctx, node: ast.Call | Any
             ) -> Any:
        cat, key = ref or ("", "")
        if cat == "builtin":
            return self.call_builtin(key, BUILTINS[key].impl, args, c, node)
        if cat == "def":
            return self.call_def(key, args, c, node)
        if cat == "relation":
            rel = self.board.relations.get(key)
            if rel is None:
                raise RuleRuntimeError(f"the board has no relation '{key}'", node.span)
            if len(args) != 1 or not isinstance(args[0], Site):
                raise RuleRuntimeError(f"relation '{key}' takes one site, not "
                                       f"{', '.join(map(show, args)) or 'nothing'}", node.span)
            return rel.table[args[0].index]
        raise RuleRuntimeError(f"'{key or '?'}' cannot be called here", node.span)

    @staticmethod
    def call_builtin(key: str, impl: Any, args: list[Any], c: Ctx, node: Any) -> Any:
        """A builtin's implementation called, its errors positioned at the call."""
        try:
            return impl(c, *args)
        except RuleRuntimeError as err:  # the innermost position wins (a rule passed as f)
            raise positioned(err, node.span) from None
        except RulelangError as exc:
            raise RuleRuntimeError(str(exc), node.span) from None
        except (TypeError, AttributeError, IndexError, KeyError, ValueError) as exc:
            raise RuleRuntimeError(f"'{key}' cannot take {', '.join(map(show, args))}",
                                   node.span) from exc

    def call_def(self, key: str, args: list[Any], c: Ctx, node: Any) -> Any:
        d = self.program.defs[key]
        c.tick(node.span)
        env = dict(zip(d.params or (), args, strict=True))
        return self.evaluator.def_body(key)[0](c, env)

    # ---- board
    def _build_board(self) -> Board:
        decl = self.program.board
        if decl is None:
            return BoardBuilder().freeze()
        call = decl.expr
        ref = self.program.refs.get(call.func) if isinstance(call, ast.Call) else None
        if not isinstance(call, ast.Call) or ref is None or ref[0] != "geometry":
            raise RuleRuntimeError("'board' needs a geometry, e.g. board square(8, 8)", decl.span)
        c = Ctx(self, GameData(0, 0))
        try:
            args = [self.interp.eval(a, c, {}) for a in call.args]
            return self._geometry(self.program.geometries[ref[1]], args, c)
        except RuleRuntimeError as err:
            if err.diagnostic.span is None:  # _UNBUILT's error, or a limit: at the board line
                raise RuleRuntimeError(err.diagnostic.message, decl.span,
                                       code=err.diagnostic.code) from None
            raise

    def _geometry(self, g: ast.Geometry, args: list[Any], c: Ctx) -> Board:
        if len(args) != len(g.params):
            raise RuleRuntimeError(f"geometry '{g.name}' takes {len(g.params)} arguments",
                                   g.span)
        env = dict(zip(g.params, args, strict=True))
        b = BoardBuilder()
        ev = self.interp.eval
        pattern: tuple[str, ...] = ()
        for item in g.items:
            if isinstance(item, ast.GeoSites):
                pattern = item.pattern
                self.coord_index = {n: i for i, n in enumerate(pattern)}
                for coords in self._generate(item, c, env, g.name):
                    b.add_site(coords, ",".join(map(str, coords)))
            elif isinstance(item, ast.GeoName):
                b.names = [show(ev(item.expr, c, {**env, **dict(zip(pattern, k, strict=True))}))
                           for k in b.coords]
            elif isinstance(item, ast.GeoLayer):
                firsts = {k[0]: k for k in reversed(b.coords)}  # the first site of each layer
                for z, k in sorted(firsts.items()):
                    e = {**env, **dict(zip(pattern, k, strict=True))}
                    b.layers[z] = show(ev(item.expr, c, e))
                    if item.at is not None:
                        b.layer_at[z] = _place(ev(item.at, c, e), item.at)
            elif isinstance(item, ast.GeoDraw):
                for k in b.coords:
                    e = {**env, **dict(zip(pattern, k, strict=True))}
                    row, col = _place(ev(item.at, c, e), item.at, "a site is drawn")
                    shift = 0 if item.offset is None else ev(item.offset, c, e)
                    if not isinstance(shift, int) or isinstance(shift, bool):
                        raise RuleRuntimeError(f"a site's offset is a whole number of half "
                                               f"sites, not {show(shift)}", item.span)
                    b.draw_at[k] = (row, 2 * col + shift)
            elif isinstance(item, ast.GeoRelation):
                b.add_relation(item.name, self._edges(item, c, env))
            elif isinstance(item, ast.GeoAlias):
                for _, part in item.parts:
                    if part not in b.edges:
                        raise RuleRuntimeError(f"relation '{item.name}' joins '{part}', which "
                                               "is not a relation declared above it", item.span)
                b.add_alias(item.name, item.parts)
            elif isinstance(item, ast.GeoRegion):
                b.regions[item.name] = [k for k in b.coords if ev(
                    item.cond, c, {**env, **dict(zip(item.pattern, k, strict=True))})]
            elif isinstance(item, ast.GeoLines):
                lines = ev(item.expr, c, {**env, **b.lines})
                b.lines[item.name] = _line_coords(lines, set(b.coords), item)
        return b.freeze()

    def _generate(self, item: ast.GeoSites, c: Ctx, env: dict[str, Any],
                  name: str) -> list[tuple[int, ...]]:
        out: list[tuple[int, ...]] = []

        seen: set[tuple[Any, ...]] = set()
        tried = [0]  # the places the generators have offered, kept or not

        def gen(i: int, e: dict[str, Any]) -> None:
            if i == len(item.generators):
                if item.cond is None or self.interp.eval(item.cond, c, e):
                    missing = [n for n in item.pattern if n not in e]
                    if missing:
                        raise RuleRuntimeError(f"no generator gives '{missing[0]}' a value: "
                                               "write `for " + missing[0] + " in ...`",
                                               item.span)
                    coords = tuple(e[n] for n in item.pattern)
                    if not all(isinstance(v, int) and not isinstance(v, bool) for v in coords):
                        raise RuleRuntimeError(f"a site's coordinates are whole numbers, not "
                                               f"{show(coords)}", item.span)
                    if coords in seen:
                        raise RuleRuntimeError(f"the site {show(coords)} is made twice",
                                               item.span)
                    if len(out) >= limits.MAX_SITES:  # (reported at the `board` line)
                        raise RuleRuntimeError(f"a board has at most {limits.MAX_SITES:,} "
                                               f"sites: geometry '{name}' makes more", None,
                                               code="R108")
                    seen.add(coords)
                    out.append(coords)
                return
            g = item.generators[i]
            for v in domain_items(c, self.interp.eval(g.domain, c, e), g.domain.span):
                tried[0] += 1
                if tried[0] > limits.MAX_SITE_CANDIDATES:
                    raise RuleRuntimeError(
                        f"a board's geometry may try at most {limits.MAX_SITE_CANDIDATES:,} "
                        f"places for its sites: geometry '{name}' tries more", None,
                        code="R108")
                gen(i + 1, {**e, g.var: v})
        gen(0, dict(env))
        return out

    def _edges(self, item: ast.GeoRelation, c: Ctx, env: dict[str, Any]
               ) -> Callable[[tuple[int, ...]], list[tuple[int, ...]]]:
        def edges(coords: tuple[int, ...]) -> list[tuple[Any, ...]]:
            e = {**env, **dict(zip(item.pattern, coords, strict=True))}
            out = [_coords(self.interp.eval(t, c, e)) for t in item.targets]
            for target in out:  # a target off the board is no edge; it must still be a place
                if not all(isinstance(v, int) and not isinstance(v, bool) for v in target):
                    raise RuleRuntimeError(f"relation '{item.name}' leads from "
                                           f"{show(coords)} to {show(target)}, which is not "
                                           "a site's coordinates", item.span)
            return out
        return edges

    # ---- what players are shown (`view`)
    def _view(self) -> dict[str, Any]:
        """The `view` sections, evaluated once the options are known: goals by player name
        ("everyone" for all), the hidden names, and the titles by name."""
        c = Ctx(self, self.template)
        goals: dict[str, str] = {}
        hidden: list[str] = []
        labels: dict[str, str] = {}
        for v in self.program.views:
            goals.update({name: show(self.interp.eval(e, c, {})) for name, e, _ in v.goals})
            hidden += [z for name, _ in v.hidden for z in self._zone_names(name)]
            labels.update({name: show(self.interp.eval(e, c, {})) for name, e, _ in v.labels})
        return {"goals": goals, "hidden": hidden, "labels": labels}

    def _zone_names(self, name: str) -> list[str]:
        """A name in a view: indexed zones `stack` stand for stack[1] … (their zones)."""
        d = self.program.zone_families.get(name)
        if d is None or d.indices is None:
            return [name]
        return [indexed_zone(name, i) for i in range(d.indices[0], d.indices[1] + 1)]

    # ---- pieces and the initial data
    def _initial_data(self) -> GameData:
        data = GameData(len(self.board.sites), 0)
        c = Ctx(self, data)
        self.pieces: list[Piece] = []
        for zone in self.program.zones.values():
            owners = [p.index for p in self.players] if zone.each else [None]
            for owner in owners:
                ref = zone_ref(zone.name, owner)
                data.zones[ref] = []
                for item in zone.contents:
                    rows = self._rows(item, c)
                    if len(self.pieces) + len(rows) > MAX_PIECES:
                        raise RuleRuntimeError(f"a game may have {MAX_PIECES:,} pieces at "
                                               "most", item.span)
                    for attrs in rows:
                        self._new_piece(data, c, item.kind, owner, ref, attrs)
        for counter in self.program.counters.values():
            self._init_scoped(data.counters, counter, counter.init, c)
        for var in self.program.vars.values():
            self._init_scoped(data.vars, var, var.init, c)
        data.begin_action()  # filling the zones moves no piece
        return data

    def _count(self, expr: ast.Expr, c: Ctx) -> int:
        n = self.interp.eval(expr, c, {})
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RuleRuntimeError(f"a zone holds a number of pieces, not {show(n)}", expr.span)
        return min(n, MAX_PIECES + 1)  # more is refused by _initial_data

    def _rows(self, item: ast.Content, c: Ctx) -> list[dict[str, Any]]:
        """The attributes of each piece a zone starts with: `n kind` gives n times {}; a data
        file gives one entry per row and copy."""
        if item.data is None:
            return [{}] * self._count(item.count, c)  # type: ignore[arg-type]
        rows = self.program.loaded.data[(item.span.path, item.data)]
        out = []
        for row in rows:
            attrs = {k: _value(v) for k, v in row.items() if k != "copies"}
            out.extend([attrs] * row.get("copies", 1))
            if len(out) > MAX_PIECES:  # refused by _initial_data
                break
        return out

    def _new_piece(self, data: GameData, c: Ctx, kind: str, owner: int | None,
                   zone: ZoneRef, given: dict[str, Any]) -> None:
        decl = self.program.pieces[kind]
        attrs = {name: given[name] if name in given else self.interp.eval(e, c, {})
                 for name, e in decl.attrs}
        name = attrs.get("name")
        piece = Piece(len(self.pieces), kind, str(name) if name not in (None, "") else None)
        self.pieces.append(piece)
        data.new_piece(piece, owner, attrs)
        data.to_zone(piece, zone)

    def _init_scoped(self, table: dict[Any, Any], decl: Any, init: ast.Expr | None,
                     c: Ctx) -> None:
        value = self.interp.eval(init, c, {}) if init is not None else 0
        for owner in ([p.index for p in self.players] if decl.each else [None]):
            table[(decl.name, owner)] = value

    def counter_bounds(self, name: str, c: Ctx) -> tuple[int | None, int | None]:
        d = self.program.counters[name]
        lo = self.fn(d.lo)(c, {}) if d.lo is not None else None
        hi = self.fn(d.hi)(c, {}) if d.hi is not None else None
        return lo, hi

    # ---- scores
    def breakdown(self, c: Ctx, player: int, terms: Any = None) -> dict[str, float]:
        """Each score term's points (of the terms named in `terms` only, when given); a term
        whose value is a list of (label, points) pairs or (label: …, points: …) records is
        itemised: one entry `term label` per item (`term` alone, 0, when the list is empty)."""
        who = self.players[player]
        c = Ctx(self, c.data)  # scoring has a step budget of its own, however often asked
        out: dict[str, float] = {}
        for s in self.program.scores:
            if terms is not None and s.name not in terms:
                continue
            value = self.fn(s.expr)(c, {s.param: who})
            if not isinstance(value, (tuple, list)):
                out[s.name] = _points(value, s)
                continue
            if not value:
                out[s.name] = 0
            for item in value:
                label, points = _score_item(item, s)
                key = base = f"{s.name} {label}"
                n = 1
                while key in out:
                    n += 1
                    key = f"{base} #{n}"
                out[key] = points
        return out

    def totals(self, c: Ctx) -> list[float]:
        """Each player's points: the sum of its breakdown, added in the same order (an
        itemised term's points one by one), without writing the breakdown's labels."""
        out: list[float] = []
        for who in self.players:
            c = Ctx(self, c.data)  # (as in breakdown: each player's own step budget)
            total: Any = 0
            for s in self.program.scores:
                value = self.fn(s.expr)(c, {s.param: who})
                if not isinstance(value, (tuple, list)):
                    total += _points(value, s)
                    continue
                for item in value:
                    total += _score_points(item, s)
            out.append(total)
        return out

    def term_points(self, c: Ctx, player: int) -> tuple[Any, dict[str, float]]:
        """A player's points, as the sum of its breakdown (added in the same order), and each
        term's points, as its breakdown's lines summed (from 0.0, in order): what those two
        give, without writing the breakdown's labels."""
        who = self.players[player]
        c = Ctx(self, c.data)  # (as in breakdown: the step budget of its own)
        total: Any = 0
        terms: dict[str, float] = {}
        for s in self.program.scores:
            value = self.fn(s.expr)(c, {s.param: who})
            if not isinstance(value, (tuple, list)):
                total += _points(value, s)
                terms[s.name] = 0.0 + float(value)
                continue
            points = 0.0
            if not value:
                total += 0
            for item in value:
                p = _score_points(item, s)
                total += p
                points += float(p)
            terms[s.name] = points
        return total, terms


def _score_item(item: Any, term: Any) -> tuple[str, Any]:
    if isinstance(item, Record):  # (label: …, points: …), its fields in any order
        if set(item.fields) == {"label", "points"} and _is_points(item.get("points")):
            return show(item.get("label")), item.get("points")
    elif isinstance(item, (tuple, list)) and len(item) == 2 \
            and isinstance(item[1], (int, float)):
        return show(item[0]), item[1]
    raise RuleRuntimeError(f"score {term.name}: a list of scores must hold (label, points) "
                           f"pairs or (label: …, points: …) records, not {show(item)}",
                           term.span)


def _score_points(item: Any, term: Any) -> Any:
    """The points of one item of an itemised term (as _score_item, its label not written)."""
    if type(item) is tuple and len(item) == 2 and isinstance(item[1], (int, float)):
        return item[1]
    return _score_item(item, term)[1]


def _points(value: Any, term: Any) -> Any:
    """A term's value that is not itemised: a number, else a rule error at the term."""
    if _is_points(value):
        return value
    raise RuleRuntimeError(f"score {term.name}: points are a number or a list of (label, "
                           f"points), not {show(value)}", term.span)


def _is_points(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _sets_piece_attributes(program: Program) -> bool:
    """Some `set x.name = …` may change a piece's attribute or owner."""
    return bool(_attributes_set(program))


def _attributes_set(program: Program) -> set[str]:
    """The names of the piece attributes (and `owner`) some `set x.name = …` may change."""
    from rulelang.language.astwalk import walk
    modules = [program.loaded.game, *program.loaded.modules.values()]
    return {n.target.name for m in modules for n in walk(m.decls)
            if isinstance(n, ast.Set) and isinstance(n.target, ast.Attr)
            and n.target not in program.refs}


def _place(value: Any, node: ast.Expr, what: str = "a layer is placed") -> tuple[int, int]:
    """A layer's (or a site's) place in the picture: (row, column), whole numbers from 0."""
    if isinstance(value, tuple) and len(value) == 2 and all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
        return value[0], value[1]
    raise RuleRuntimeError(f"{what} at (row, column), not {show(value)}", node.span)


def _line_coords(lines: Any, sites: set[tuple[Any, ...]], item: ast.GeoLines
                 ) -> list[list[tuple[Any, ...]]]:
    """The lines of a geometry: each a list of sites of the board (checked here, so that a
    line through a place that is no site is a diagnostic when the board is built)."""
    if not isinstance(lines, (tuple, list)):
        raise RuleRuntimeError(f"lines '{item.name}' must be a list of lists of sites, not "
                               f"{show(lines)}", item.span)
    out = []
    for line in lines:
        if not isinstance(line, (tuple, list)):
            raise RuleRuntimeError(f"lines '{item.name}' holds {show(line)}, which is not a "
                                   "list of sites", item.span)
        cells = [_coords(x) for x in line]
        for cell in cells:
            try:
                ok = cell in sites
            except TypeError:  # unhashable: no site
                ok = False
            if not ok:
                raise RuleRuntimeError(f"lines '{item.name}' passes through {show(cell)}, "
                                       "which is not a site of the board", item.span)
        out.append(cells)
    return out


def _coords(value: Any) -> tuple[Any, ...]:
    """Coordinates as written: `(r, c)` is a tuple, `(i)` on a one-coordinate board a number."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _value(v: Any) -> Any:
    """A data file's value as a rule sees it: lists become tuples (immutable)."""
    return tuple(_value(x) for x in v) if isinstance(v, list) else v


class RuleFunction:
    """A rule with parameters passed as a value (to builtins such as reach): calling it
    evaluates the rule in the state where it was named."""

    __slots__ = ("rt", "c", "key", "node")

    def __init__(self, rt: Runtime, c: Ctx, key: str, node: ast.Node) -> None:
        self.rt, self.c, self.key, self.node = rt, c, key, node

    def __call__(self, *args: Any) -> Any:
        rt = self.rt
        found = rt.rule_calls.get(self.key)
        if found is None:  # the rule's parameters and compiled body
            found = rt.rule_calls[self.key] = (tuple(rt.program.defs[self.key].params or ()),
                                               rt.evaluator.def_body(self.key))
        params, body = found
        if len(args) == len(params):  # no generic frame
            c = self.c
            c.tick(self.node.span)
            if len(params) == 1:
                return body[0](c, {params[0]: args[0]})
            return body[0](c, dict(zip(params, args, strict=True)))
        return rt.call_def(self.key, list(args), self.c, self.node)

    def __repr__(self) -> str:
        return f"rule {self.key}"
