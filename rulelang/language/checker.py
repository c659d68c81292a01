"""Names, kinds, arity, options and reachability: Loaded -> Program, or every diagnostic.

Every name in every module is resolved once here; the interpreter and the compiler read the
result from Program.refs (keyed by node identity) and never resolve names themselves.
"""
from __future__ import annotations

from typing import TypeVar

import rulelang.limits as limits
from rulelang.errors import RulebookError
from rulelang.language import ast, clauses, constructs, written_types
from rulelang.language.analysis import KEPT_BY_CACHED, KEPT_BY_MEMO, Analysis
from rulelang.language.astwalk import nodes
from rulelang.language.decisions import DecisionAnalysis
from rulelang.language.program import Category, Loaded, Module, Program, Ref
from rulelang.language.resolver import Checker, GameDecl, Walker, category, qual, written
from rulelang.language.typestmt import check_types
from rulelang.library import MAX_PIECES
from rulelang.source import Span

_D = TypeVar("_D", bound=ast.Decl)
_Named = TypeVar("_Named", bound=GameDecl)




def check(loaded: Loaded, library: bool = False) -> Program:
    """Check a game, or (library=True) a module of definitions that is not a game."""
    ck = Checker(loaded)
    for module in [loaded.game, *loaded.modules.values()]:  # rules written as clauses
        module.decls, found = clauses.merge(module.decls, loaded.sources)
        ck.diags.extend(found)
    for key, module in loaded.modules.items():
        ck.namespaces[key] = ck.module_namespace(key, module)
    ck.namespaces[""] = ck.module_namespace("", loaded.game)
    program = ck.program = _collect(ck, loaded, library)
    written_types.collect(ck, program)
    for key, module in [("", loaded.game), *loaded.modules.items()]:
        _walk_module(ck, key, module)
    check_types(ck, program, library)
    constructs.check_tables(ck, program)
    constructs.check_initial_values(ck, program)
    if not library:
        _check_game(ck, program)
    _check_kept(ck, program)
    program.refs = ck.refs
    program.uses_repetition = ck.uses_repetition
    program.repetition = frozenset(ck.repetition)
    if ck.diags:
        raise RulebookError(ck.diags, loaded.sources)
    return program


_KEPT = {"memo": 0, "cached": 1}  # builtins that keep a rule's values: its argument's place


def _check_kept(ck: Checker, program: Program) -> None:
    """A rule given to memo or cached must not read what their kept values cannot follow:
    counters, vars, zones, the turn (and, for memo, the pieces on sites) (R211)."""
    loaded = program.loaded
    analysis = Analysis(program, ck.refs)
    for module in [loaded.game, *loaded.modules.values()]:
        for node in (n for d in module.decls for n in nodes(d, ast.Call)):
            cat, name = ck.refs.get(node.func, ("", ""))
            at = _KEPT.get(name) if cat == "builtin" else None
            if at is None or len(node.args) <= at:
                continue
            f = node.args[at]
            ref = ck.refs.get(f)
            if ref is None or ref[0] != "function":
                continue
            read = analysis.first_read(ref[1], KEPT_BY_CACHED if name == "cached"
                                       else KEPT_BY_MEMO)
            if read is not None:
                where = read.span
                place = f"line {where.line}" if where.path == f.span.path else \
                    f"{where.path}:{where.line}"
                ck.error("R211", f"{name}: the rule '{written(f)}' reads {read.what} ({place}), "
                         "which a kept value would not follow", f.span,
                         "pass what it needs as an argument" + (
                             ", or use cached(sites, …) for the pieces on sites"
                             if name == "memo" else ""))


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
            constructs.collect(ck, p, key, d)
    constructs.options_of_enums(ck, p)
    return p


def _first(decls: tuple[ast.Decl, ...], cls: type[_D]) -> _D | None:
    return next((d for d in decls if isinstance(d, cls)), None)


def _by_name(decls: tuple[ast.Decl, ...], cls: type[_Named]) -> dict[str, _Named]:
    return {d.name: d for d in decls if isinstance(d, cls)}


def _collect_decl(p: Program, key: str, d: ast.Decl) -> None:
    if isinstance(d, ast.Def):
        p.defs[qual(key, d.name)] = d
    elif isinstance(d, ast.Effect):
        p.effects[qual(key, d.name)] = d
    elif isinstance(d, ast.Geometry):
        p.geometries[qual(key, d.name)] = d
    elif key == "" and isinstance(d, ast.Action):
        p.actions[d.name] = d
    elif key == "" and isinstance(d, ast.Round):
        p.round = d
    elif key == "" and isinstance(d, ast.Section):
        p.sections[d.kind] = d.body
        if d.kind == "end":
            p.max_plies = d.limit
    elif key == "" and isinstance(d, ast.Score):
        p.scores.append(d)
    elif key == "" and isinstance(d, ast.Picture):
        p.pictures[d.name] = d
    elif key == "" and isinstance(d, ast.View):
        p.views.append(d)


def _walk_module(ck: Checker, key: str, module: Module) -> None:
    ns = dict(ck.namespaces[key])
    if key == "":
        players = _player_refs(module)
        for name in sorted(players.keys() & ns.keys()):
            span = next(d.span for d in module.decls if isinstance(d, ast.Players))
            ck.error("R202", f"'{name}' is defined twice: it names a player and a "
                     f"{ns[name][0]}", span, "a player's name is a name of the game: give "
                     "one of them another")
        ns.update(players)
    for d in module.decls:
        w = Walker(ck, ns, key)
        _walk_decl(w, d)


def _player_refs(module: Module) -> dict[str, Ref]:
    players = next((d for d in module.decls if isinstance(d, ast.Players)), None)
    return {n: Ref(Category.PLAYER, str(i)) for i, n in enumerate(players.names)} \
        if players else {}


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
        if category(w.ns, d.name) != Category.KIND:
            w.ck.unknown(d.name, d.span, w.scope, {k: v for k, v in w.ns.items()
                                                   if v[0] == "kind"}, "piece kind")
        w.push(d.param)
        w.expr(d.expr)
        w.pop()
    elif isinstance(d, ast.View):
        _walk_view(w, d)
    elif isinstance(d, ast.Board):
        w.expr(d.expr)
    elif isinstance(d, ast.Table):
        for e in d.keys + d.values:
            w.expr(e)
    elif isinstance(d, ast.Geometry):
        _walk_geometry(w, d)
    elif isinstance(d, (ast.Counter, ast.Var, ast.Piece)):
        _walk_component(w, d)
    elif isinstance(d, ast.Zone):
        for item in d.contents:
            w.expr(item.count)
            if category(w.ns, item.kind) != Category.KIND:
                w.ck.unknown(item.kind, item.span, w.scope, {k: v for k, v in w.ns.items()
                                                             if v[0] == "kind"}, "piece kind")
            elif item.data is not None:
                _check_rows(w.ck, item)


def _walk_view(w: Walker, d: ast.View) -> None:
    """A goal names a player (or `everyone`); hide and show name vars, counters or zones."""
    players = {n for n, r in w.ns.items() if r[0] == Category.PLAYER.value} | {"everyone"}
    shown = {n for n, r in w.ns.items() if r[0] in ("var", "counter", "zone", "zones")} | {
        a for d in w.ck.loaded.game.decls if isinstance(d, ast.Piece) for a, _ in d.attrs}
    for name, text, span in d.goals:
        if name not in players:
            w.ck.error("R201", f"a goal is a player's: '{name}' is not a player", span,
                       f"one of {', '.join(sorted(players))}")
        w.expr(text)
    for _, text, _ in d.labels:
        w.expr(text)
    for name, span in [*d.hidden, *((n, s) for n, _, s in d.labels)]:
        if name not in shown:
            w.ck.error("R201", f"'{name}' is not a var, counter, zone or piece attribute",
                       span, "hide and show name the game's vars, counters, zones and the "
                       "attributes of its pieces")


def _check_rows(ck: Checker, item: ast.Content) -> None:
    """Every row of a data file names attributes its piece kind declares."""
    rows = ck.loaded.data.get((item.span.path, item.data or ""))
    if rows is None:
        return  # the loader reported why
    piece = next(d for d in ck.loaded.game.decls
                 if isinstance(d, ast.Piece) and d.name == item.kind)
    known = {name for name, _ in piece.attrs} | {"copies"}
    declared = ck.program.attr_types.get(item.kind, {})
    bad = 0
    for n, row in enumerate(rows, start=1):
        extra = sorted(set(row) - known)
        if extra:
            ck.error("R210", f"row {n} of '{item.data}' has '{extra[0]}', which a "
                     f"'{item.kind}' does not have", item.span,
                     f"declare it: piece {item.kind} with {extra[0]} = …")
            return
        for name, t in declared.items():
            problem = written_types.data_problem(row[name], t, ck.program.enums) \
                if name in row and row[name] is not None else None
            if problem is not None and bad < 5:  # the first few, all at once
                bad += 1
                ck.error("R210", f"row {n} of '{item.data}': {name} "
                         f"{written_types.show(row[name])} {problem}", item.span,
                         f"'{name}' of a '{item.kind}' is {t}")
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
    coords: tuple[str, ...] = ()
    for item in g.items:
        if not coords and not isinstance(item, ast.GeoSites):
            w.ck.error("R209", f"the geometry '{g.name}' uses its sites before its "
                       "'sites' line", item.span,
                       "write its 'sites …' line first: the lines after it read its coordinates")
            break
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
        elif isinstance(item, (ast.GeoName, ast.GeoLayer, ast.GeoDraw, ast.GeoRelation,
                               ast.GeoRegion)):
            w.push(*(getattr(item, "pattern", None) or coords))
            for e in (getattr(item, "expr", None), getattr(item, "cond", None),
                      getattr(item, "at", None), getattr(item, "offset", None),
                      *getattr(item, "targets", ())):
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
    if not g.items:
        w.ck.error("R209", f"the geometry '{g.name}' has no 'sites' line", g.span,
                   "add a line such as 'sites (r, c) for r in 0..rows-1, c in 0..cols-1'")
    w.pop()


def _check_end_decides_nothing(ck: Checker, p: Program) -> None:
    """The end is checked after every action: it may state results, never ask (R204)."""
    end = p.sections.get("end")
    if end is None:
        return
    p.refs = ck.refs
    try:
        found = _first_decision(DecisionAnalysis(p), end)
    except KeyError:  # a call of an unknown effect: reported already (R201)
        return
    if found is not None:
        ck.error("R204", "the end is checked after every action: it cannot ask a player to "
                 "decide", found.span, "decide in the turn, an action or an effect; the end "
                 "reads the game and states its results")


def _first_decision(da: DecisionAnalysis, block: ast.Block) -> ast.Node | None:
    """The first statement of block that asks for a decision (the innermost one written
    there: a `do`, a `choose`, or the call of an effect or action that decides)."""
    for s in block.stmts:
        if not da.decides(s):
            continue
        inner = [b for _, b in getattr(s, "branches", ())]
        inner += [b for b in (getattr(s, "orelse", None), getattr(s, "body", None))
                  if isinstance(b, ast.Block) and not isinstance(s, ast.CallStmt)]
        for b in inner:
            found = _first_decision(da, b)
            if found is not None:
                return found
        return s
    return None


def _check_game(ck: Checker, p: Program) -> None:
    span = p.game.span
    if "turn" not in p.sections:
        ck.error("R209", "the rulebook has no 'turn' section", span,
                 "add a 'turn' block saying what a player does")
    for name, action in p.actions.items():
        if "turn" in p.sections and name not in ck.used_actions | ck.meant_actions:
            ck.error("R206", f"action '{name}' is never offered", action.span,
                     f"name it in a 'do' line of the turn, e.g. 'do {name}'")
    _check_then(ck, p)
    _check_end_decides_nothing(ck, p)
    for opt in p.options.values():
        _check_option_default(ck, opt, p.option_enums.get(opt.name))
    if p.players.lo < 1 or p.players.hi < p.players.lo:
        ck.error("R205", "impossible player count", p.players.span)
    elif p.players.hi > limits.MAX_PLAYERS:
        ck.error("R205", f"a game has at most {limits.MAX_PLAYERS} players", p.players.span)


def _check_then(ck: Checker, p: Program) -> None:
    """`then NAME` is the last statement of an action, and no action goes on as itself."""
    last = {a.body.stmts[-1] for a in p.actions.values() if a.body.stmts}
    blocks = [*p.sections.values(), *p.effects.values(), *p.actions.values()]
    for n in (n for b in blocks for n in nodes(b, ast.Then)):
        if isinstance(n, ast.Then) and n not in last:
            ck.error("R204", "'then' can only be the last statement of an action", n.span,
                     "write it as the action's last line: the action goes on as another")
    order = {name: k for k, name in enumerate(p.actions)}
    for name, action in p.actions.items():
        seen, at = [name], action
        while at.body.stmts and isinstance(then := at.body.stmts[-1], ast.Then) and \
                then.action in p.actions:
            if then.action in seen:
                # once per cycle: at the `then` of its first action in the rulebook
                if then.action == name and order[name] == min(order[x] for x in seen):
                    first = action.body.stmts[-1]
                    ck.error("R208", "actions going on as each other without end: "
                             + " then ".join([*seen, name]), first.span)
                break
            seen.append(then.action)
            at = p.actions[then.action]


def _short(n: int) -> str:
    text = str(n)
    return text if len(text) <= 24 else f"{text[:12]}…({len(text)} digits)"


def _check_option_default(ck: Checker, opt: ast.Option, enum: str | None = None) -> None:
    bound = limits.MAX_OPTION_BOUND
    if not opt.choices and not -bound <= opt.lo <= opt.hi <= bound:
        ck.error("R205", f"an option's range lies within -{bound:,}..{bound:,} and runs "
                 f"upwards (here {_short(opt.lo)}..{_short(opt.hi)})", opt.span)
    elif opt.choices and opt.default not in opt.choices:
        ck.error("R205", f"default '{opt.default}' is not one of the choices of '{opt.name}'",
                 opt.span, f"the enumeration '{enum}' has " + ", ".join(opt.choices)
                 if enum else None)
    elif not opt.choices and not opt.lo <= int(opt.default) <= opt.hi:  # type: ignore[call-overload]
        ck.error("R205", f"default {opt.default} is outside {opt.lo}..{opt.hi}", opt.span)
