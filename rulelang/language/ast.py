"""The rulebook AST: frozen dataclasses only, each with the Span it came from.

Class names are the CamelCase twins of grammar rules. Equality ignores positions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.source import Span


@dataclass(frozen=True, slots=True, eq=False)
class Node:
    span: Span = field(repr=False, kw_only=True)


# ---- expressions -------------------------------------------------------------
class Expr(Node):
    __slots__ = ()


@dataclass(frozen=True, slots=True, eq=False)
class Const(Expr):
    value: object  # int, str, bool or None


@dataclass(frozen=True, slots=True, eq=False)
class Name(Expr):
    id: str


@dataclass(frozen=True, slots=True, eq=False)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True, eq=False)
class Call(Expr):
    func: Expr
    args: tuple[Expr, ...]
    kwargs: tuple[tuple[str, Expr], ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Of(Expr):
    """`left of right`: the thing named left that belongs to player right."""
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class BinOp(Expr):
    op: str  # + - * // %
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Compare(Expr):
    op: str  # == != < <= > >= in not in
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class BoolOp(Expr):
    op: str  # and | or
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Neg(Expr):
    operand: Expr


@dataclass(frozen=True, slots=True, eq=False)
class IfExpr(Expr):
    cond: Expr
    then: Expr
    orelse: Expr


@dataclass(frozen=True, slots=True, eq=False)
class TupleExpr(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class ListExpr(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class RecordExpr(Expr):
    """A record with named fields `(name: x, season: s)`: field names and values in order."""
    fields: tuple[str, ...]
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class MapExpr(Expr):
    """A map literal `{key: value, …}`: keys and values in source order."""
    keys: tuple[Expr, ...]
    values: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Generator(Node):
    var: str
    domain: Expr


@dataclass(frozen=True, slots=True, eq=False)
class ListComp(Expr):
    item: Expr
    generators: tuple[Generator, ...]
    cond: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class Range(Expr):
    """`lo..hi`, both ends included."""
    lo: Expr
    hi: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Quant(Expr):
    """`all|any|count|first|max|min|sum|each var in domain [where cond] [: body]`."""
    kind: str
    var: str
    domain: Expr
    cond: Expr | None
    body: Expr | None


# ---- statements --------------------------------------------------------------
class Stmt(Node):
    __slots__ = ()


@dataclass(frozen=True, slots=True, eq=False)
class Block(Node):
    stmts: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Let(Stmt):
    bindings: tuple[tuple[str, Expr], ...]


@dataclass(frozen=True, slots=True, eq=False)
class Words(Node):
    """A text a player reads (a question, why a move is refused), as written: `text` without
    its quotes; `parts` its pieces, the `{expr}` ones parsed. Presentation only: the rules
    never read it, and astwalk.walk does not go into it."""
    text: str
    parts: tuple[str | Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Require(Stmt):
    cond: Expr
    message: str | None  # the `else` text as written (`reason` holds it parsed)
    reason: Words | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Choose(Stmt):
    kind: str | None  # the optional kind word: site, piece, player, number, option
    var: str
    domain: Expr
    cond: Expr | None
    mode: str  # "mover" | "by" | "secret" | "random"
    chooser: Expr | None
    optional: bool = False  # `optionally choose`: no value (none) is offered too
    reason: Words | None = None  # `else "…"`: why a value it does not offer is refused
    ask: Words | None = None  # `ask "…"`: the question put to the player


@dataclass(frozen=True, slots=True, eq=False)
class Put(Stmt):
    piece: Expr
    source: Expr | None  # `from zone`
    target: Expr
    name: str | None = None  # `put … as t`: the local that holds the piece put


@dataclass(frozen=True, slots=True, eq=False)
class Move(Stmt):
    piece: Expr
    target: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Remove(Stmt):
    piece: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Set(Stmt):
    target: Expr
    value: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Increase(Stmt):
    target: Expr
    amount: Expr
    sign: int  # +1 increase, -1 decrease


@dataclass(frozen=True, slots=True, eq=False)
class If(Stmt):
    branches: tuple[tuple[Expr, Block], ...]
    orelse: Block | None


@dataclass(frozen=True, slots=True, eq=False)
class ForEach(Stmt):
    var: str
    domain: Expr
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class Repeat(Stmt):
    count: Expr
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class While(Stmt):
    cond: Expr
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class Then(Stmt):
    """The last statement of an action: the action goes on as the named one, in one option."""
    action: str


@dataclass(frozen=True, slots=True, eq=False)
class Do(Stmt):
    """One decision of the mover among the named actions. `tiers` (for `do a otherwise b`)
    splits `actions` into groups by their sizes: a group is offered only when the groups
    before it have no way of acting; () is one group of all."""
    actions: tuple[str, ...]
    spans: tuple[Span, ...] = ()
    tiers: tuple[int, ...] = ()
    ask: Words | None = None  # `ask "…"`: the question put to the player

    def groups(self) -> tuple[tuple[str, ...], ...]:
        """The actions by group, in the order they are tried."""
        if not self.tiers:
            return (self.actions,)
        out, at = [], 0
        for n in self.tiers:
            out.append(self.actions[at:at + n])
            at += n
        return tuple(out)


@dataclass(frozen=True, slots=True, eq=False)
class CallStmt(Stmt):
    call: Call


@dataclass(frozen=True, slots=True, eq=False)
class Shuffle(Stmt):
    zone: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Reveal(Stmt):
    var: str


@dataclass(frozen=True, slots=True, eq=False)
class Return(Stmt):
    value: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Result(Stmt):
    """winner X | winners X | draw | highest score wins: ends the game."""
    kind: str
    value: Expr | None


# ---- geometry ----------------------------------------------------------------
@dataclass(frozen=True, slots=True, eq=False)
class GeoSites(Node):
    pattern: tuple[str, ...]
    generators: tuple[Generator, ...]
    cond: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class GeoName(Node):
    expr: Expr


@dataclass(frozen=True, slots=True, eq=False)
class GeoLayer(Node):
    """`layer expr [at place]`: the title of the sites sharing a first coordinate (their
    grid), and where that grid lies in the picture, (row, column) of grids; both from the
    coordinates of the first of those sites."""
    expr: Expr
    at: Expr | None = None


@dataclass(frozen=True, slots=True, eq=False)
class GeoDraw(Node):
    """`draw at (row, column) [offset k]`: where a site is drawn in its grid, row 0 at the top,
    column 0 at the left, shifted k half sites to the right (a hexagonal row); from the
    site's coordinates."""
    at: Expr
    offset: Expr | None = None


@dataclass(frozen=True, slots=True, eq=False)
class GeoRelation(Node):
    name: str
    pattern: tuple[str, ...]
    targets: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class GeoAlias(Node):
    name: str
    parts: tuple[tuple[bool, str], ...]  # (reversed?, relation name)


@dataclass(frozen=True, slots=True, eq=False)
class GeoRegion(Node):
    name: str
    pattern: tuple[str, ...]
    cond: Expr


@dataclass(frozen=True, slots=True, eq=False)
class GeoLines(Node):
    name: str
    expr: Expr


# ---- declarations --------------------------------------------------------------
class Decl(Node):
    __slots__ = ()


@dataclass(frozen=True, slots=True, eq=False)
class Use(Decl):
    module: str


@dataclass(frozen=True, slots=True, eq=False)
class Game(Decl):
    name: str
    extends: str | None


@dataclass(frozen=True, slots=True, eq=False)
class Players(Decl):
    names: tuple[str, ...]  # empty when given as a range
    lo: int
    hi: int


@dataclass(frozen=True, slots=True, eq=False)
class Option(Decl):
    name: str
    choices: tuple[str, ...]  # empty for a numeric range
    lo: int
    hi: int
    default: object


@dataclass(frozen=True, slots=True, eq=False)
class Board(Decl):
    expr: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Piece(Decl):
    name: str
    attrs: tuple[tuple[str, Expr], ...]
    types: tuple[tuple[str, TypeName], ...] = ()  # `with name: card_name`: declared types


@dataclass(frozen=True, slots=True, eq=False)
class TypeName(Node):
    """A type written out: `site`, `list of site`, an enumeration's or a piece kind's name."""
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Content(Node):
    """What a zone starts with: `count kind`, or `kind from "file.yaml"` (a piece per row)."""
    count: Expr | None
    kind: str
    data: str | None


@dataclass(frozen=True, slots=True, eq=False)
class Zone(Decl):
    name: str
    each: bool
    ordered: bool
    visible: str  # everyone | owner | nobody
    contents: tuple[Content, ...]
    indices: tuple[int, int] | None = None  # `zone stack[1..9]`: one zone per index


@dataclass(frozen=True, slots=True, eq=False)
class Enum(Decl):
    """`enum answer: accept, decline`: a set of symbols; each symbol is a name of its own,
    whose value is its name (shown as written)."""
    name: str
    symbols: tuple[str, ...]
    spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class Table(Decl):
    """`table points: "oak" -> 3, …`: a named map from fixed keys to fixed values, evaluated
    once when the game is made."""
    name: str
    keys: tuple[Expr, ...]
    values: tuple[Expr, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Counter(Decl):
    name: str
    each: bool
    lo: Expr | None
    hi: Expr | None
    init: Expr | None


@dataclass(frozen=True, slots=True, eq=False)
class Var(Decl):
    name: str
    each: bool
    secret: bool
    init: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Def(Decl):
    name: str
    params: tuple[str, ...] | None  # None: a constant (no parentheses)
    body: Expr | Block
    types: tuple[TypeName | None, ...] = ()  # `def free(s: site)`: () when none is written


@dataclass(frozen=True, slots=True, eq=False)
class Effect(Decl):
    name: str
    params: tuple[str, ...]
    body: Block
    types: tuple[TypeName | None, ...] = ()  # `effect drop(s: site)`: () when none is written


@dataclass(frozen=True, slots=True, eq=False)
class Action(Decl):
    name: str
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class Section(Decl):
    """setup, turn or end: a named block of statements; `end at most N plies` gives the
    longest game as `limit`."""
    kind: str
    body: Block
    limit: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class Round(Decl):
    """What happens when a round of turns ends: after every player has had one turn since
    the round began, or as soon as `until` holds after a turn."""
    until: Expr | None
    body: Block


@dataclass(frozen=True, slots=True, eq=False)
class Score(Decl):
    name: str
    param: str
    expr: Expr


@dataclass(frozen=True, slots=True, eq=False)
class View(Decl):
    """`view` and its items: what players are shown and how. goals: (player name or
    "everyone", text expression, where the name is); hidden: (name, where) of vars, counters
    and zones kept off the screen; labels: (name, title expression, where)."""
    goals: tuple[tuple[str, Expr, Span], ...] = ()
    hidden: tuple[tuple[str, Span], ...] = ()
    labels: tuple[tuple[str, Expr, Span], ...] = ()


@dataclass(frozen=True, slots=True, eq=False)
class Picture(Decl):
    """`picture card(x) = expr`: how a piece of kind `name` is drawn (a text, or a tuple of
    lines), for the terminal pictures of observations."""
    name: str
    param: str
    expr: Expr


@dataclass(frozen=True, slots=True, eq=False)
class Geometry(Decl):
    name: str
    params: tuple[str, ...]
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True, eq=False)
class Rulebook(Node):
    path: str
    decls: tuple[Decl, ...]


@dataclass(frozen=True, slots=True, eq=False)
class NoClause(Expr):
    """Never written: the end of a rule written as clauses selected by a symbol
    (language/clauses.py), reached by a value that none of its clauses is for. Evaluating it
    is a runtime error (R301) that names the value and the clauses' symbols."""
    subject: Expr
    rule: str
    symbols: tuple[str, ...]
    enum: str = ""  # the enumeration of the symbols (its name in the rule's module)
