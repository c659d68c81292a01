"""Incremental site queries: `each s in sites where P(s)` kept up to date from the sites
that changed, instead of testing P on every site after every move.

It applies when P(s) is *local*: it reads the board only at s and at sites reached from s
through relations (base(s), neighbours(s) …), and reads no other changing state (counters,
variables, zones, last). Then a change at site t can only alter P at t and at the sites that
reach t through those relations: a table built once per game from the board. Every change of
the board goes through GameData (put, lift, a piece's owner or attribute), which logs the
changed site. A predicate may also read the mover (`owner(s) == mover`): then one set is
kept per mover.
"""
from __future__ import annotations

from collections.abc import Callable
from itertools import compress
from typing import TYPE_CHECKING, Any

from rulelang.language import ast
from rulelang.language.analysis import (
    builtin_facts,
    fixed,
    needs_only_arguments,
    reads_board_at_its_site,
)
from rulelang.library.registry import Reads
from rulelang.library.semantics import STEP_BUDGET
from rulelang.model.values import Player, Site

if TYPE_CHECKING:
    from rulelang.language.program import Program

Path = tuple[str, ...]  # relations followed from the subject site


class NotLocal(Exception):
    pass


class LocalAnalysis:
    """Collects the relation paths along which a predicate reads the board."""

    def __init__(self, program: Program, free_ok: bool = False) -> None:
        self.program = program
        self.refs = program.refs
        self.reads: set[Path] = set()
        self.per_mover = False
        self.free: set[str] = set()  # the locals it reads besides the subject (free_ok)
        self._free_ok = free_ok
        self._depth = 0

    def run(self, node: ast.Expr, env: dict[str, Path | None]) -> Path | None:
        """Analyse node; return the path of its elements when it is a site collection."""
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            raise NotLocal(type(node).__name__)
        path: Path | None = method(node, env)
        return path

    def visit_Const(self, n: ast.Const, env: dict[str, Any]) -> None:
        return None

    def visit_Name(self, n: ast.Name, env: dict[str, Any]) -> Path | None:
        cat, key = self.refs.get(n, ("local", n.id))
        if cat == "local":
            if n.id not in env:
                if not self._free_ok or self._depth:
                    raise NotLocal(n.id)
                self.free.add(n.id)  # a value (never a site it reads from): part of the key
            return None
        if fixed(cat):
            return None
        if cat == "def":
            return self._def(key, [], env)
        if cat == "builtin":
            facts = builtin_facts(key)
            if needs_only_arguments(facts):
                return None
            if facts.reads & ~(Reads.MOVER | Reads.GAME) == Reads.NOTHING and not facts.calls:
                self.per_mover = True  # `mover`, `opponent`: one set per mover
                return None
        raise NotLocal(key)

    def visit_Attr(self, n: ast.Attr, env: dict[str, Any]) -> Path | None:
        ref = self.refs.get(n)
        if ref is not None:
            if fixed(ref[0]):
                return None
            if ref[0] == "def":
                return self._def(ref[1], [], env)
            raise NotLocal(ref[1])
        if isinstance(n.obj, ast.Name) and n.obj.id in env:
            return None  # coordinates and names of sites never change
        raise NotLocal(n.name)

    def visit_Call(self, n: ast.Call, env: dict[str, Any]) -> Path | None:
        cat, key = self.refs.get(n.func, ("", ""))
        facts = builtin_facts(key) if cat == "builtin" else None
        if facts is not None and reads_board_at_its_site(facts):
            path = self._site_path(n.args[0], env)
            self.reads.add(path)
            self._all(env, *n.args[1:])
            # what it gives is read at that site: `any x in pieces(s): owner(x) == mover`
            # reads the owners of the pieces at s (a change of owner is logged at the site)
            return path
        if cat == "relation":
            return self._site_path(n.args[0], env) + (key,)
        if facts is not None and needs_only_arguments(facts):
            self._all(env, *n.args)
            return None
        if cat == "def":
            return self._def(key, list(n.args), env)
        raise NotLocal(key)

    def _site_path(self, arg: ast.Expr, env: dict[str, Any]) -> Path:
        if isinstance(arg, ast.Name) and env.get(arg.id) is not None:
            path: Path = env[arg.id]
            return path
        raise NotLocal("a site that is not reached from the subject")

    def _def(self, key: str, args: list[ast.Expr], env: dict[str, Any]) -> Path | None:
        d = self.program.defs[key]
        if isinstance(d.body, ast.Block) or self._depth > 20:
            raise NotLocal(key)
        inner: dict[str, Path | None] = {}
        for param, arg in zip(d.params or (), args, strict=True):
            if isinstance(arg, ast.Name) and arg.id in env:
                inner[param] = env[arg.id]
            else:
                self.run(arg, env)
                inner[param] = None
        self._depth += 1
        try:
            return self.run(d.body, inner)
        finally:
            self._depth -= 1

    def visit_Quant(self, n: ast.Quant, env: dict[str, Any]) -> None:
        elem = self.run(n.domain, env)
        inner = {**env, n.var: elem}
        for part in (n.cond, n.body):
            if part is not None:
                self.run(part, inner)
        return None

    def _all(self, env: dict[str, Any], *parts: ast.Expr) -> None:
        for p in parts:
            self.run(p, env)
        return None

    def visit_Compare(self, n: Any, env: dict[str, Any]) -> None:
        return self._all(env, n.left, n.right)

    visit_BoolOp = visit_BinOp = visit_Compare

    def visit_Not(self, n: Any, env: dict[str, Any]) -> None:
        return self._all(env, n.operand)

    visit_Neg = visit_Not

    def visit_NoClause(self, n: Any, env: dict[str, Any]) -> None:
        return self._all(env, n.subject)

    def visit_IfExpr(self, n: ast.IfExpr, env: dict[str, Any]) -> None:
        return self._all(env, n.cond, n.then, n.orelse)

    def visit_TupleExpr(self, n: Any, env: dict[str, Any]) -> None:
        return self._all(env, *n.items)

    visit_ListExpr = visit_RecordExpr = visit_TupleExpr

    def visit_MapExpr(self, n: Any, env: dict[str, Any]) -> None:
        return self._all(env, *n.keys, *n.values)


def local_reads(program: Program, cond: ast.Expr, var: str) -> set[Path] | None:
    """The relation paths along which cond(var) reads the board, or None if not local."""
    found = analyse(program, cond, var)
    return None if found is None else found[0]


def analyse(program: Program, cond: ast.Expr, var: str | tuple[str, ...]
            ) -> tuple[set[Path], bool] | None:
    """(paths read, reads the mover?) for a local predicate; None otherwise. Of several
    subjects (a rule of two sites), the paths are those followed from any of them."""
    found = analyse_free(program, cond, var, free_ok=False)
    return None if found is None else found[:2]


def analyse_free(program: Program, cond: ast.Expr, var: str | tuple[str, ...],
                 free_ok: bool = True) -> tuple[set[Path], bool, set[str]] | None:
    """(paths read, reads the mover?, the other locals it reads) for a predicate that is local
    once those locals are given (`owner(s) == p`); None otherwise."""
    analysis = LocalAnalysis(program, free_ok)
    env: dict[str, Path | None] = {v: () for v in ((var,) if isinstance(var, str) else var)}
    try:
        analysis.run(cond, env)
    except (NotLocal, KeyError, ValueError):
        return None
    return analysis.reads, analysis.per_mover, analysis.free


def dependents(board: Any, paths: set[Path]) -> tuple[tuple[Any, ...], ...]:
    """For each site t: the sites s whose predicate may change when t changes."""
    sites = board.sites
    reverse = {name: _reverse(rel.table, len(sites)) for name, rel in board.relations.items()}
    out = []
    for t in sites:
        found = {t.index}
        for path in paths:
            frontier = {t.index}
            for name in reversed(path):
                frontier = {s for x in frontier for s in reverse[name][x]}
            found |= frontier
        out.append(tuple(sites[i] for i in sorted(found)))
    return tuple(out)


def _reverse(table: tuple[Any, ...], n: int) -> list[list[int]]:
    rev: list[list[int]] = [[] for _ in range(n)]
    for s, targets in enumerate(table):
        for t in targets:
            rev[t.index].append(s)
    return rev


def incremental_filter(qid: Any, sites: tuple[Any, ...], deps: tuple[Any, ...], var: str,
                       cond: Callable[[Any, dict[str, Any]], Any], per_mover: bool = False,
                       free: tuple[Callable[[Any, dict[str, Any]], Any], ...] = (),
                       site_fn: Callable[[Any, Any], bool] | None = None
                       ) -> Callable[[Any, dict[str, Any]], Any]:
    """A closure computing `each var in sites where cond`, updated from the change log. With
    `free` (the readers of the other locals cond reads), one set is kept per their values
    when these are players; for any other value it answers UNKEPT (the caller loops).
    `site_fn`: cond as a generated function of (c, site) (codegen.SitePredicate), used in
    its place when cond reads no other local; with CHECK, each of its values and the steps
    it took are compared with the closure's."""
    if free:
        site_fn = None
    elif site_fn is not None and CHECK:
        site_fn = _checked(var, cond, site_fn)

    def query(c: Any, e: dict[str, Any]) -> Any:
        data = c.data
        if free:
            given = tuple([f(c, e) for f in free])
            for v in given:
                if type(v) is not Player:
                    return UNKEPT
            key: Any = (qid, data.mover, given) if per_mover else (qid, given)
        else:
            key = (qid, data.mover) if per_mover else qid
        entry: tuple[list[bool], int, tuple[Any, ...]] | None = data.cache.get(key)
        changes = data.changes
        n = len(changes)
        if entry is not None and entry[1] == n:
            return entry[2]
        parent = data.parent
        if parent is not None and (entry is None or entry[1] < len(parent.changes)) \
                and parent.mover == data.mover:
            # a scratch copy (a way of acting tried) of data whose value is older or not
            # kept: that is brought up to date first, for the other ways tried from it too
            c.data = parent
            try:
                query(c, e)
            finally:
                c.data = data
            entry = parent.cache.get(key)
        todo: Any
        if entry is None:  # (site i of the board has index i)
            member, todo = [False] * len(sites), sites
        else:
            member = entry[0].copy()
            seen = entry[1]
            todo = deps[changes[seen]] if n - seen == 1 else \
                {s for t in changes[seen:] for s in deps[t]}
        if site_fn is not None:
            for s in todo:
                member[s.index] = site_fn(c, s)
        else:
            old = e.get(var, _MISSING)
            for s in todo:
                e[var] = s
                member[s.index] = not not cond(c, e)
            if old is not _MISSING:
                e[var] = old
        result = tuple(compress(sites, member))
        data.cache[key] = (member, n, result)
        return result
    return query


def static_memo(general: Callable[[Any, dict[str, Any]], Any], var: str,
                free: tuple[Callable[[Any, dict[str, Any]], Any], ...], per_mover: bool,
                restores: bool = True) -> Callable[[Any, dict[str, Any]], Any]:
    """`general`, a quantifier or a choose over the board's sites whose condition reads
    nothing of the position (the sites' coordinates and regions, other locals, the mover:
    `each s in sites where s.b == b`), kept for the game, not per state: its value by the
    values of those locals (`free`, their readers) when these are numbers, texts, truth
    values, none, players or sites, by their types too (1 is not true), and the mover's
    where it reads the mover; for other values it is general's. A kept value costs the steps
    the loop took and leaves `var` as the loop does (its last item, or, for a loop that
    `restores` it, its value given back where it had one); where the steps would run out the
    budget, the loop runs again, so that the error is its own."""
    table: dict[Any, tuple[Any, int, Any]] = {}

    def kept(c: Any, e: dict[str, Any]) -> Any:
        if free:
            given = tuple([f(c, e) for f in free])
            kinds = tuple([type(v) for v in given])
            if not _PLAIN.issuperset(kinds):
                return general(c, e)
            key: Any = (kinds, given, c.data.mover if per_mover else None)
        else:
            key = c.data.mover if per_mover else None
        entry = table.get(key)
        bound = restores and var in e  # (the loop then gives back its value, else its last)
        if entry is not None and c.steps + entry[1] <= STEP_BUDGET and \
                (bound or entry[2] is not _MISSING):
            value, steps, left = entry
            c.steps += steps
            if not bound:
                e[var] = left
            return value
        before = c.steps
        value = general(c, e)
        if type(value) is list:  # (a choose's values: kept as a tuple, which no one changes)
            value = tuple(value)
        if len(table) >= 10_000:
            table.clear()
        table[key] = (value, c.steps - before, _MISSING if bound else e.get(var, _MISSING))
        return value
    return kept


_PLAIN = frozenset({int, float, str, bool, type(None), Player, Site})
CHECK = False  # tests: each value of a generated condition compared with its closure's


def _checked(var: str, cond: Callable[[Any, dict[str, Any]], Any],
             site_fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    return checked((var,), lambda c, e: not not cond(c, e), site_fn)


def checked(params: tuple[str, ...], closure: Callable[[Any, dict[str, Any]], Any],
            fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn(c, *sites), a generated function of sites, made to compute the closure's value
    (of the parameters bound to the sites) first and to require the same value, of the same
    type, in the same steps (CHECK)."""
    def site_value(c: Any, *sites: Any) -> Any:
        before = c.steps
        want = closure(c, dict(zip(params, sites, strict=True)))
        steps, c.steps = c.steps - before, before
        got = fn(c, *sites)
        assert type(got) is type(want) and got == want and c.steps - before == steps, (
            sites, got, want, c.steps - before, steps)
        return got
    return site_value


_MISSING = object()
UNKEPT: Any = object()  # incremental_filter's answer for values it does not keep
