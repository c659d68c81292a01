"""The kept structures of one game's flat state, decided from the program before the writer
runs (the writer asks; it never decides a representation by matching shapes):

* a **kept site query** for a constant rule `def q = each s in sites where P(s)` whose
  condition reads the position only at s and at the sites a static relation gives for s
  (`empty(s) and (all b in down(s): occupied(b))`): a sorted list of the site indices
  where P holds and the same as a bitset, brought up to date at the sites a change can
  affect (per changed site, a table made once);
* **owner bits**: per player, the sites whose top piece is theirs as a bitset, for tests
  of a set of sites as bits (`all x in line: owner(x) == p` is one mask test);
* **kept groups** for `group(s, rel)` over a symmetric relation: a union-find whose roots
  hold their group's sites as a bitset; a piece arriving on an empty site joins its
  neighbours' groups, any other change of a site's top owner drops the structure, and the
  next question builds it anew from the board;
* **kept site values** of a rule of one site given to `reach` (a move's cost, where it may
  stop) whose value reads the position only at its site (the pieces there, their
  attributes) and at the sites of static relations of it, and the mover: per player, a list
  by site index of the values asked so far, an entry forgotten when a change can affect it
  (the rule is still asked only where the builtin asks it, so its errors come where the
  reference's do).

Each structure is a few slots of the generated State class (`q0`/`b0`, `u1`/`g1`, `own`),
written by gen/kept.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from rulelang.language import ast
from rulelang.library import BUILTINS
from rulelang.library.registry import Reads

# builtins that read a site's pile, and only that site's (their one argument)
_PILE = frozenset({"empty", "occupied", "owner"})
_STATIC_CATS = frozenset({"player", "option", "kind", "symbol", "enum", "relation", "region",
                          "lines"})
SELF = "self"  # the role of the query's own site
PIECE = "piece of "  # the role of a piece on a site of a role: PIECE + that role


@dataclass
class Query:
    """A kept site query: slots `q<n>` (sorted site indices) and `b<n>` (the same as bits)."""
    key: str
    number: int
    var: str
    cond: ast.Expr
    affected: tuple[tuple[int, ...], ...]  # changed site index -> sites to test again
    test: str = ""  # the condition as written for local `site` (gen/kept.py fills it)
    site: str = ""
    cost: int = 0

    @property
    def slots(self) -> tuple[str, str]:
        return f"q{self.number}", f"b{self.number}"


@dataclass
class Groups:
    """Kept groups over a symmetric relation: slots `u<n>` (the union-find's parents, or
    None when it must be built anew) and `g<n>` (per root, its group's sites as bits)."""
    relation: Any
    number: int

    @property
    def slots(self) -> tuple[str, str]:
        return f"u{self.number}", f"g{self.number}"


@dataclass
class Values:
    """Kept site values of a rule of one site: slot `v<n>`, per player a list by site
    index of its values asked so far (UNASKED where a change may have altered one)."""
    key: str
    number: int
    affected: tuple[tuple[int, ...], ...]  # changed site index -> entries to forget

    @property
    def slot(self) -> str:
        return f"v{self.number}"


@dataclass
class Layout:
    program: Any
    board: Any
    queries: dict[str, Query] = field(default_factory=dict)  # used ones, by def key
    groups: dict[str, Groups] = field(default_factory=dict)  # used ones, by relation name
    owners: bool = False  # owner bits kept (slot `own`: a list by player index)
    occupied: bool = False  # the occupied sites' bits kept (slot `occ`)
    moved_tops: bool = False  # the bits of the sites whose top piece moved (slot `mv`)
    memos: list[str] = field(default_factory=list)  # rules' values kept (turns.memos)
    values: dict[str, Values] = field(default_factory=dict)  # used ones, by def key
    _refused: set[str] = field(default_factory=set)
    _no_values: set[str] = field(default_factory=set)
    _count: int = 0

    @property
    def slots(self) -> tuple[str, ...]:
        out: list[str] = []
        for q in self.queries.values():
            out.extend(q.slots)
        for g in self.groups.values():
            out.extend(g.slots)
        if self.owners:
            out.append("own")
        if self.occupied:
            out.append("occ")
        if self.moved_tops:
            out.append("mv")
        if self.board_codes:
            out.append("bk")
        out.extend(f"m{i}" for i in range(len(self.memos)))
        out.extend(v.slot for v in self.values.values())
        return tuple(out)

    @property
    def kept(self) -> bool:
        return bool(self.queries or self.groups or self.owners or self.occupied
                    or self.moved_tops or self.values or self.board_codes)

    @property
    def board_codes(self) -> bool:
        """Are the board's repetition keys kept, per site (slot `bk`: gen/bits.py)?"""
        return bool(self.program.repetition)

    def owner_bits(self) -> str:
        """The slot of the owner bits (kept from now on)."""
        self.owners = True
        return "own"

    def memo_slot(self, key: str) -> str:
        """The slot of a rule's value kept between a turn's `if` and its `do`."""
        if key not in self.memos:
            self.memos.append(key)
        return f"m{self.memos.index(key)}"

    def occupied_bits(self) -> str:
        """The slot of the occupied sites' bits (kept from now on)."""
        self.occupied = True
        return "occ"

    def moved_bits(self) -> str:
        """The slot of the bits of the sites whose top piece moved since the action began
        (`moved(s)`; kept from now on, cleared with `moved`)."""
        self.moved_tops = True
        return "mv"

    def query(self, key: str) -> Query | None:
        """The kept query for the constant rule `key`, if it can be kept."""
        if key in self.queries:
            return self.queries[key]
        if key in self._refused:
            return None
        made = self._query(key)
        if made is None:
            self._refused.add(key)
        else:
            self.queries[key] = made
        return made

    def inline_query(self, n: ast.Quant) -> Query | None:
        """A kept query for a quantifier over the board's sites written in place (`any s in
        sites: occupied(s) and not supported(s)`, `first s in sites where …`) whose condition
        reads the position only at its site and static relations of it; keyed by its place."""
        cond = _condition(n)
        if cond is None or self.program.refs.get(n.domain) != ("builtin", "sites"):
            return None
        key = "@" + repr(_shape(self.program.refs, cond, n.var))  # (one for equal conditions)
        if key in self.queries:
            return self.queries[key]
        if key in self._refused:
            return None
        roles = _Local(self.program).reads(cond, {n.var: SELF}, 0)
        if roles is None or not _cannot_fail(self.program, cond, 0):
            self._refused.add(key)  # (kept, it would be tested where the rules do not test
            return None             # it: only a condition that cannot fail is kept)
        made = self.queries[key] = Query(key, self._next(), n.var, cond, self._affected(roles))
        return made

    def site_values(self, key: str) -> Values | None:
        """Kept values for the rule `key` of one site, if they can be kept."""
        if key in self.values:
            return self.values[key]
        if key in self._no_values:
            return None
        d = self.program.defs.get(key)
        roles = None
        if d is not None and d.params is not None and len(d.params) == 1 \
                and not isinstance(d.body, ast.Block):
            roles = _Local(self.program, mover=True).reads(d.body, {d.params[0]: SELF}, 0)
        if roles is None:
            self._no_values.add(key)
            return None
        made = self.values[key] = Values(key, self._next(), self._affected(roles))
        return made

    def _affected(self, roles: set[str]) -> tuple[tuple[int, ...], ...]:
        """Per changed site index, the sites whose value reading `roles` it can change."""
        n = len(self.board.sites)
        affected: list[set[int]] = [set() for _ in range(n)]
        for role in roles:
            if role == SELF:
                for i in range(n):
                    affected[i].add(i)
            else:  # read at the sites relation `role` gives for s: s is affected by them
                table = self.board.relations[role].indices
                for s in range(n):
                    for i in table[s]:
                        affected[i].add(s)
        return tuple(tuple(sorted(a)) for a in affected)

    def group(self, relation: Any) -> Groups | None:
        """Kept groups over `relation` (a symmetric one: a group is then a component)."""
        made = self.groups.get(relation.name)
        if made is None:
            table = relation.indices
            if any(i not in table[j] for i, row in enumerate(table) for j in row):
                return None
            made = self.groups[relation.name] = Groups(relation, self._next())
        return made

    def _next(self) -> int:
        self._count += 1
        return self._count - 1

    def _query(self, key: str) -> Query | None:
        d = self.program.defs.get(key)
        if d is None or d.params is not None or not isinstance(d.body, ast.Quant):
            return None
        q = d.body
        if q.kind != "each" or q.cond is None or q.body is not None \
                or self.program.refs.get(q.domain) != ("builtin", "sites"):
            return None
        roles = _Local(self.program).reads(q.cond, {q.var: SELF}, 0)
        if roles is None:
            return None
        return Query(key, self._next(), q.var, q.cond, self._affected(roles))


def _condition(n: ast.Quant) -> ast.Expr | None:
    """The one condition on the items of `any`, `first`, `each` or `count` (None: another
    quantifier, or a value besides the condition)."""
    if n.kind in ("any", "count") and (n.cond is None) != (n.body is None):
        return n.cond if n.cond is not None else n.body
    if n.kind in ("first", "each") and n.body is None:
        return n.cond
    return None


def _shape(refs: Any, e: Any, var: str) -> Any:
    """An expression without its places, its names as they resolve (`var`: the item)."""
    if isinstance(e, ast.Name):
        cat, key = refs.get(e, ("local", e.id))
        return ("item",) if cat == "local" and e.id == var else (str(cat), str(key))
    if isinstance(e, ast.Node):
        return (type(e).__name__, *(_shape(refs, getattr(e, f.name), var)
                                    for f in fields(e) if f.name != "span"))
    if isinstance(e, tuple):
        return tuple(_shape(refs, x, var) for x in e)
    return e


_NEVER_FAIL = frozenset({"empty", "occupied", "owner", "top"})  # of a site (_Local: roles)


def _cannot_fail(program: Any, e: Any, depth: int) -> bool:
    """Can the condition of a query (_Local found it reads sites only) never raise an
    error: pile tests of sites, relations of them, `==`/`!=`, and/or/not, rules and
    quantifiers of the same?"""
    if depth > 8:
        return False
    if isinstance(e, ast.Const):
        return True
    if isinstance(e, ast.Name):
        cat, key = program.refs.get(e, ("local", e.id))
        if cat == "def":
            d = program.defs[key]
            return d.params is None and _cannot_fail(program, d.body, depth + 1)
        return True
    if isinstance(e, ast.Not):
        return _cannot_fail(program, e.operand, depth)
    if isinstance(e, ast.BoolOp) or isinstance(e, ast.Compare) and e.op in ("==", "!="):
        return _cannot_fail(program, e.left, depth) and _cannot_fail(program, e.right, depth)
    if isinstance(e, ast.Quant):
        return e.kind in ("any", "all", "count") and all(
            x is None or _cannot_fail(program, x, depth) for x in (e.domain, e.cond, e.body))
    if isinstance(e, ast.Call) and not e.kwargs:
        cat, key = program.refs.get(e.func, ("", ""))
        args = all(_cannot_fail(program, a, depth) for a in e.args)
        if cat == "builtin":
            return key in _NEVER_FAIL and args
        if cat == "relation":
            return args
        if cat == "def":
            d = program.defs[key]
            return args and not isinstance(d.body, ast.Block) \
                and _cannot_fail(program, d.body, depth + 1)
    return False


class _Local:
    """Whether a condition reads the position only at its site (role SELF) and at the
    sites of static relations of it (role: the relation's name) — their piles, the pieces
    on them (a local of role `PIECE + role`) and those pieces' attributes —: the roles it
    reads, or None when it reads anything else (the turn, a zone, another site; the mover
    unless `mover`: values kept per player)."""

    def __init__(self, program: Any, mover: bool = False) -> None:
        self.program = program
        self.refs = program.refs
        self.mover = mover

    def reads(self, e: ast.Expr, roles: dict[str, str | None], depth: int) -> set[str] | None:
        if depth > 8:
            return None
        method = getattr(self, f"r_{type(e).__name__}", None)
        return None if method is None else method(e, roles, depth)

    def _all(self, es: Any, roles: dict[str, str | None], depth: int) -> set[str] | None:
        out: set[str] = set()
        for e in es:
            if e is None:
                continue
            got = self.reads(e, roles, depth)
            if got is None:
                return None
            out |= got
        return out

    def r_Const(self, e: ast.Const, roles: Any, depth: int) -> set[str]:
        return set()

    def r_Name(self, e: ast.Name, roles: dict[str, str | None], depth: int) -> set[str] | None:
        cat, key = self.refs.get(e, ("local", e.id))
        if cat == "local":
            return set() if e.id in roles else None
        if cat in _STATIC_CATS or (cat, key) == ("builtin", "mover") and self.mover:
            return set()
        if cat == "def":
            d = self.program.defs[key]
            if d.params is not None or isinstance(d.body, ast.Block):
                return None
            got = self.reads(d.body, {}, depth + 1)  # a constant: it may read no site
            return set() if got == set() else None
        return None

    def r_Attr(self, e: ast.Attr, roles: dict[str, str | None], depth: int) -> set[str] | None:
        ref = self.refs.get(e)
        if ref is not None:
            return set() if str(ref[0]) in _STATIC_CATS else None
        role = roles.get(e.obj.id, "") if isinstance(e.obj, ast.Name) else ""
        if role is not None and role.startswith(PIECE):
            return {role[len(PIECE):]}  # an attribute of a piece on that site
        if role != "":
            return set()  # a site's coordinate
        return None

    def r_Call(self, e: ast.Call, roles: dict[str, str | None], depth: int) -> set[str] | None:
        if e.kwargs:
            return None
        cat, key = self.refs.get(e.func, ("", ""))
        if cat == "builtin" and key in _PILE and len(e.args) == 1:
            arg = e.args[0]
            role = roles.get(arg.id) if isinstance(arg, ast.Name) else None
            return None if role is None else {role.removeprefix(PIECE)}
        if cat == "builtin":
            b = BUILTINS[key]
            if b.facts.reads & ~(Reads.GAME) or b.facts.calls:
                return None
            return self._all(e.args, roles, depth)
        if cat == "def":
            d = self.program.defs[key]
            if d.params is None or len(d.params) != len(e.args) \
                    or isinstance(d.body, ast.Block):
                return None
            inner: dict[str, str | None] = {}
            for p, a in zip(d.params, e.args, strict=True):
                if isinstance(a, ast.Name) and a.id in roles:
                    inner[p] = roles[a.id]
                elif self.reads(a, roles, depth) == set():
                    inner[p] = None  # a value that is no site of the query
                else:
                    return None
            return self.reads(d.body, inner, depth + 1)
        return None

    def r_Quant(self, e: ast.Quant, roles: dict[str, str | None], depth: int) -> set[str] | None:
        dom = e.domain
        role: str | None = None
        if isinstance(dom, ast.Call) and len(dom.args) == 1 and not dom.kwargs \
                and isinstance(dom.args[0], ast.Name) and roles.get(dom.args[0].id) == SELF \
                and str(self.refs.get(dom.func, ("", ""))[0]) == "relation":
            role = str(self.refs[dom.func][1])
        elif isinstance(dom, ast.Call) and len(dom.args) == 1 and not dom.kwargs \
                and isinstance(dom.args[0], ast.Name) \
                and self.refs.get(dom.func) == ("builtin", "pieces") \
                and not str(roles.get(dom.args[0].id) or PIECE).startswith(PIECE):
            site = str(roles[dom.args[0].id])  # the pieces on a site of a role
            inner = {**roles, e.var: PIECE + site}
            got = self._all((e.cond, e.body), inner, depth)
            return None if got is None else got | {site}
        elif self.reads(dom, roles, depth) != set():
            return None
        inner = {**roles, e.var: role}
        got = self._all((e.cond, e.body), inner, depth)
        return got

    def _ops(self, parts: Any, roles: dict[str, str | None], depth: int) -> set[str] | None:
        return self._all(parts, roles, depth)

    def r_BinOp(self, e: ast.BinOp, roles: Any, depth: int) -> set[str] | None:
        return self._ops((e.left, e.right), roles, depth)

    def r_Compare(self, e: ast.Compare, roles: Any, depth: int) -> set[str] | None:
        return self._ops((e.left, e.right), roles, depth)

    def r_BoolOp(self, e: ast.BoolOp, roles: Any, depth: int) -> set[str] | None:
        return self._ops((e.left, e.right), roles, depth)

    def r_Not(self, e: ast.Not, roles: Any, depth: int) -> set[str] | None:
        return self.reads(e.operand, roles, depth)

    def r_Neg(self, e: ast.Neg, roles: Any, depth: int) -> set[str] | None:
        return self.reads(e.operand, roles, depth)

    def r_IfExpr(self, e: ast.IfExpr, roles: Any, depth: int) -> set[str] | None:
        return self._ops((e.cond, e.then, e.orelse), roles, depth)
