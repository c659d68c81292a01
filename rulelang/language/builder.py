"""lark.Tree -> ast.Rulebook: one short method per grammar rule; only this module knows the tree."""
from __future__ import annotations

from typing import Any

from lark import Token, Transformer, Tree, v_args
from lark.exceptions import VisitError
from lark.tree import Meta

from rulelang.errors import Diagnostic, RulebookError, RulelangError
from rulelang.language import ast, texts
from rulelang.source import Source, Span

MAX_PLIES = 100_000_000  # the longest cap `end at most N plies` may give

MAX_INDEXED_ZONES = 1000  # `zone stack[1..N]`: the most zones one declaration makes
_KIND_WORDS = ("site", "piece", "player", "number", "option")


@v_args(meta=True)
class Builder(Transformer[Token, Any]):
    def __init__(self, source: Source) -> None:
        super().__init__()
        self._path = source.path
        self.diagnostics: list[Diagnostic] = []
        self._shift: tuple[int, int] | None = None  # (line, column) of a `{…}` parsed alone

    def _span(self, m: Meta | Token) -> Span:
        if self._shift is not None:  # a fragment of one line, placed where it is written
            line, col = self._shift
            start, end = (m.column, m.end_column) if isinstance(m, Token) or \
                not getattr(m, "empty", True) else (1, 2)
            return Span(self._path, line, col + (start or 1) - 1, line,
                        col + (end or (start or 1) + 1) - 1)
        if isinstance(m, Token):
            return Span(self._path, m.line or 1, m.column or 1,
                        m.end_line or m.line or 1, m.end_column or (m.column or 1) + 1)
        if getattr(m, "empty", True):
            return Span(self._path, 1, 1, 1, 2)
        return Span(self._path, m.line, m.column, m.end_line, m.end_column)

    # ---- module level
    def start(self, m: Meta, c: list[Any]) -> list[Any]:
        return c

    def use(self, m: Meta, c: list[Any]) -> ast.Use:
        return ast.Use(str(c[0]), span=self._span(m))

    def game(self, m: Meta, c: list[Any]) -> ast.Game:
        return ast.Game(_unquote(c[0]), _unquote(c[1]) if len(c) > 1 else None,
                        span=self._span(m))

    def players_named(self, m: Meta, c: list[Any]) -> ast.Players:
        names = tuple(c[0])
        return ast.Players(names, len(names), len(names), span=self._span(m))

    def players_range(self, m: Meta, c: list[Any]) -> ast.Players:
        return ast.Players((), int(c[0]), int(c[1]), span=self._span(m))

    def name_list(self, m: Meta, c: list[Any]) -> list[str]:
        return [str(t) for t in c]

    def option_range(self, m: Meta, c: list[Any]) -> ast.Option:
        return ast.Option(str(c[0]), (), int(c[1]), int(c[2]), int(c[3]), span=self._span(m))

    def option_choice(self, m: Meta, c: list[Any]) -> ast.Option:
        return ast.Option(str(c[0]), tuple(c[1]), 0, 0, str(c[2]), span=self._span(m))

    def board(self, m: Meta, c: list[Any]) -> ast.Board:
        return ast.Board(c[0], span=self._span(m))

    def piece(self, m: Meta, c: list[Any]) -> ast.Piece:
        attrs = tuple((a[0], a[1]) for a in c[1:])
        types = tuple((a[0], a[2]) for a in c[1:] if len(a) == 3)
        return ast.Piece(str(c[0]), attrs, types, span=self._span(m))

    def attr_default(self, m: Meta, c: list[Any]) -> tuple[str, ast.Expr]:
        return (str(c[0]), c[1])

    def attr_typed(self, m: Meta, c: list[Any]) -> tuple[str, ast.Expr, ast.TypeName]:
        """`name: card_name [= ace]`: without a value, none until a data row gives one."""
        value = c[2] if len(c) == 3 else ast.Const(None, span=self._span(m))
        return (str(c[0]), value, c[1])

    def type_ann(self, m: Meta, c: list[Any]) -> ast.TypeName:
        words = (str(c[0]),) + (c[1].words if len(c) == 2 else ())
        return ast.TypeName(words, span=self._span(m))

    def zone(self, m: Meta, c: list[Any]) -> ast.Zone:
        flags = [x for x in c[1:] if isinstance(x, tuple) and x[0] == "flag"]
        contents = tuple(x for x in c[1:] if isinstance(x, ast.Content))
        each = any(f[1] == "each" for f in flags)
        ordered = any(f[1] == "ordered" for f in flags)
        visible = next((f[2] for f in flags if f[1] == "visible"), "everyone")
        indices = next((x[1] for x in c[1:] if isinstance(x, tuple) and x[0] == "index"), None)
        return ast.Zone(str(c[0]), each, ordered, visible, contents, indices,
                        span=self._span(m))

    def zone_index(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        """`[lo..hi]`: from 0 to MAX_INDEXED_ZONES zones, lo <= hi."""
        lo, hi = int(str(c[0])[:12]), int(str(c[1])[:12])
        if not lo <= hi or hi - lo >= MAX_INDEXED_ZONES or len(str(c[1])) > 9:
            self._error("R205", f"indexed zones run from a number up to another, at most "
                        f"{MAX_INDEXED_ZONES} of them", c[0], "e.g. zone stack[1..9]")
            return ("index", (1, 1))
        return ("index", (lo, hi))

    def enum(self, m: Meta, c: list[Any]) -> ast.Enum:
        return ast.Enum(str(c[0]), tuple(str(t) for t in c[1:]),
                        tuple(self._span(t) for t in c[1:]), span=self._span(m))

    def table(self, m: Meta, c: list[Any]) -> ast.Table:
        rows = c[1:]
        return ast.Table(str(c[0]), tuple(k for k, _ in rows), tuple(v for _, v in rows),
                         span=self._span(m))

    def table_row(self, m: Meta, c: list[Any]) -> tuple[Any, Any]:
        return (c[0], c[1])

    def zone_each(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("flag", "each")

    def zone_ordered(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("flag", "ordered")

    def zone_visible(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        word = str(c[0])
        if word not in ("everyone", "owner", "nobody"):
            self._error("R204", f"unknown visibility '{word}'", c[0],
                        "use 'everyone', 'owner' or 'nobody'")
        return ("flag", "visible", word)

    def content(self, m: Meta, c: list[Any]) -> ast.Content:
        return ast.Content(c[0], str(c[1]), None, span=self._span(c[1]))

    def content_data(self, m: Meta, c: list[Any]) -> ast.Content:
        return ast.Content(None, str(c[0]), _unquote(c[1]), span=self._span(m))

    def counter(self, m: Meta, c: list[Any]) -> ast.Counter:
        each = any(x == "each" for x in c[1:])
        rng = next((x for x in c[1:] if isinstance(x, tuple)), (None, None))
        init = next((x for x in c[1:] if isinstance(x, ast.Expr)), None)
        return ast.Counter(str(c[0]), each, rng[0], rng[1], init, span=self._span(m))

    def range(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1])

    def each_player(self, m: Meta, c: list[Any]) -> str:
        return "each"

    def secret(self, m: Meta, c: list[Any]) -> str:
        return "secret"

    def var(self, m: Meta, c: list[Any]) -> ast.Var:
        return ast.Var(str(c[0]), "each" in c[1:-1], "secret" in c[1:-1], c[-1],
                       span=self._span(m))

    # ---- geometry
    def geometry(self, m: Meta, c: list[Any]) -> ast.Geometry:
        params = tuple(c[1]) if isinstance(c[1], list) else ()
        items = tuple(x for x in c[1:] if isinstance(x, ast.Node))
        return ast.Geometry(str(c[0]), params, items, span=self._span(m))

    def geo_sites(self, m: Meta, c: list[Any]) -> ast.GeoSites:
        return ast.GeoSites(tuple(c[0]), tuple(c[1]), c[2] if len(c) > 2 else None,
                            span=self._span(m))

    def geo_name(self, m: Meta, c: list[Any]) -> ast.GeoName:
        return ast.GeoName(c[0], span=self._span(m))

    def geo_layer(self, m: Meta, c: list[Any]) -> ast.GeoLayer:
        return ast.GeoLayer(c[0], c[1] if len(c) > 1 else None, span=self._span(m))

    def geo_draw(self, m: Meta, c: list[Any]) -> ast.GeoDraw:
        return ast.GeoDraw(c[0], c[1] if len(c) > 1 else None, span=self._span(m))

    def geo_relation(self, m: Meta, c: list[Any]) -> ast.GeoRelation:
        return ast.GeoRelation(str(c[0]), tuple(c[1]), tuple(c[2:]), span=self._span(m))

    def geo_alias(self, m: Meta, c: list[Any]) -> ast.GeoAlias:
        return ast.GeoAlias(str(c[0]), tuple(c[1]), span=self._span(m))

    def rel_expr(self, m: Meta, c: list[Any]) -> list[Any]:
        return c

    def rel_name(self, m: Meta, c: list[Any]) -> tuple[bool, str]:
        return (False, str(c[0]))

    def rel_reverse(self, m: Meta, c: list[Any]) -> tuple[bool, str]:
        return (True, str(c[0]))

    def geo_region(self, m: Meta, c: list[Any]) -> ast.GeoRegion:
        return ast.GeoRegion(str(c[0]), tuple(c[1]), c[2], span=self._span(m))

    def geo_lines(self, m: Meta, c: list[Any]) -> ast.GeoLines:
        return ast.GeoLines(str(c[0]), c[1], span=self._span(m))

    def pattern(self, m: Meta, c: list[Any]) -> list[str]:
        return [str(t) for t in c]

    def generators(self, m: Meta, c: list[Any]) -> list[Any]:
        return c

    def generator(self, m: Meta, c: list[Any]) -> ast.Generator:
        return ast.Generator(str(c[0]), c[1], span=self._span(m))

    # ---- rules
    def def_expr(self, m: Meta, c: list[Any]) -> ast.Def:
        params = tuple(n for n, _ in c[1]) if len(c) == 3 else None  # `def f = e`: constant-like
        return ast.Def(str(c[0]), params, c[-1], _types(c), span=self._span(m))

    def def_block(self, m: Meta, c: list[Any]) -> ast.Def:
        params = tuple(n for n, _ in c[1]) if len(c) == 3 else ()
        return ast.Def(str(c[0]), params, c[-1], _types(c), span=self._span(m))

    def effect(self, m: Meta, c: list[Any]) -> ast.Effect:
        params = tuple(n for n, _ in c[1]) if len(c) == 3 else ()
        return ast.Effect(str(c[0]), params, c[-1], _types(c), span=self._span(m))

    def typed_params(self, m: Meta, c: list[Any]) -> list[tuple[str, ast.TypeName | None]]:
        return list(c)

    def typed_param(self, m: Meta, c: list[Any]) -> tuple[str, ast.TypeName | None]:
        return (str(c[0]), c[1] if len(c) == 2 else None)

    def action(self, m: Meta, c: list[Any]) -> ast.Action:
        body = c[1] if len(c) > 1 else ast.Block((), span=self._span(m))  # does nothing
        return ast.Action(str(c[0]), body, span=self._span(m))

    def setup(self, m: Meta, c: list[Any]) -> ast.Section:
        return ast.Section("setup", c[0], span=self._span(m))

    def turn(self, m: Meta, c: list[Any]) -> ast.Section:
        return ast.Section("turn", c[0], span=self._span(m))

    def round(self, m: Meta, c: list[Any]) -> ast.Round:
        return ast.Round(c[0] if len(c) == 2 else None, c[-1], span=self._span(m))

    def end(self, m: Meta, c: list[Any]) -> ast.Section:
        limit = next((x for x in c if isinstance(x, int)), None)
        body = next((x for x in c if isinstance(x, ast.Block)), None)
        if body is None:
            body = ast.Block((), span=self._span(m))
        return ast.Section("end", body, limit, span=self._span(m))

    def end_limit(self, m: Meta, c: list[Any]) -> int:
        """`at most N plies`: N from 1 to MAX_PLIES (a longer cap is no cap)."""
        text = str(c[0])
        if len(text) > 9 or not 1 <= int(text) <= MAX_PLIES:
            self._error("R205", f"a game of at most {text[:12]}{'…' if len(text) > 12 else ''}"
                        " plies is impossible", c[0],
                        f"give a number of plies from 1 to {MAX_PLIES:,}")
            return MAX_PLIES
        return int(text)

    def score(self, m: Meta, c: list[Any]) -> ast.Score:
        return ast.Score(str(c[0]), str(c[1]), c[2], span=self._span(m))

    def picture(self, m: Meta, c: list[Any]) -> ast.Picture:
        return ast.Picture(str(c[0]), str(c[1]), c[2], span=self._span(m))

    def view(self, m: Meta, c: list[Any]) -> ast.View:
        items = [x for x in c if isinstance(x, tuple)]
        return ast.View(tuple(v for k, v in items if k == "goal"),
                        tuple(n for k, v in items if k == "hide" for n in v),
                        tuple(v for k, v in items if k == "show"), span=self._span(m))

    def view_goal(self, m: Meta, c: list[Any]) -> tuple[str, Any]:
        return ("goal", (str(c[0]), c[1], self._span(c[0])))

    def view_hide(self, m: Meta, c: list[Any]) -> tuple[str, Any]:
        return ("hide", tuple((str(t), self._span(t)) for t in c))

    def view_label(self, m: Meta, c: list[Any]) -> tuple[str, Any]:
        return ("show", (str(c[0]), c[1], self._span(c[0])))

    def params(self, m: Meta, c: list[Any]) -> list[str]:
        return [str(t) for t in c]

    def block(self, m: Meta, c: list[Any]) -> ast.Block:
        return ast.Block(tuple(c), span=self._span(m))

    # ---- statements
    def let(self, m: Meta, c: list[Any]) -> ast.Let:
        return ast.Let(tuple(c), span=self._span(m))

    def binding(self, m: Meta, c: list[Any]) -> tuple[str, ast.Expr]:
        return (str(c[0]), c[1])

    def require(self, m: Meta, c: list[Any]) -> ast.Require:
        reason = self._words(c[1]) if len(c) > 1 else None
        return ast.Require(c[0], reason.text if reason else None, reason, span=self._span(m))

    def refusal(self, m: Meta, c: list[Any]) -> tuple[str, ast.Words]:
        return ("else", self._words(c[0]))

    def ask(self, m: Meta, c: list[Any]) -> tuple[str, ast.Words]:
        return ("ask", self._words(c[0]))

    def _words(self, tok: Token) -> ast.Words:
        """A text for the players: its `{expr}` parts parsed, each placed where it stands."""
        def fragment(tree: Tree[Token], line: int, col: int) -> Any:
            sub = Builder(Source(self._path, ""))
            sub._shift = (line, col)
            expr = sub.transform(tree)
            self.diagnostics += sub.diagnostics
            return expr

        words, found = texts.words(tok, self._path, self._span(tok), fragment)
        self.diagnostics += found
        return words

    def choose(self, m: Meta, c: list[Any]) -> ast.Choose:
        optional = any(isinstance(x, Token) and x.type == "OPTIONALLY" for x in c)
        c = [x for x in c if not (isinstance(x, Token) and x.type == "OPTIONALLY")]
        names = [x for x in c if isinstance(x, Token) and x.type == "NAME"]
        rest = [x for x in c if not (isinstance(x, Token) and x.type == "NAME")]
        kind = str(names[0]) if len(names) == 2 else None
        if kind is not None and kind not in _KIND_WORDS:
            self._error("R204", f"unknown kind word '{kind}'", names[0],
                        "write one of " + ", ".join(_KIND_WORDS) + " or nothing")
        said = {x[0]: x[1] for x in rest if isinstance(x, tuple) and x[0] in ("else", "ask")}
        rest = [x for x in rest if not (isinstance(x, tuple) and x[0] in ("else", "ask"))]
        mode, chooser = "mover", None
        if rest and isinstance(rest[-1], tuple):
            mode, chooser = rest.pop()
        cond = rest[1] if len(rest) > 1 else None
        return ast.Choose(kind, str(names[-1]), rest[0], cond, mode, chooser, optional,
                          said.get("else"), said.get("ask"), span=self._span(m))

    def chooser_by(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("by", c[0])

    def chooser_secret(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("secret", c[0])

    def chooser_random(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("random", None)

    def put(self, m: Meta, c: list[Any]) -> ast.Put:
        name = c.pop() if c and isinstance(c[-1], tuple) and c[-1][0] == "as" else None
        return ast.Put(c[0], c[1] if len(c) == 3 else None, c[-1],
                       name[1] if name is not None else None, span=self._span(m))

    def put_as(self, m: Meta, c: list[Any]) -> tuple[str, str]:
        return ("as", str(c[0]))

    def move(self, m: Meta, c: list[Any]) -> ast.Move:
        return ast.Move(c[0], c[1], span=self._span(m))

    def remove(self, m: Meta, c: list[Any]) -> ast.Remove:
        return ast.Remove(c[0], span=self._span(m))

    def set(self, m: Meta, c: list[Any]) -> ast.Set:
        return ast.Set(c[0], c[1], span=self._span(m))

    def increase(self, m: Meta, c: list[Any]) -> ast.Increase:
        return ast.Increase(c[0], c[1], 1, span=self._span(m))

    def decrease(self, m: Meta, c: list[Any]) -> ast.Increase:
        return ast.Increase(c[0], c[1], -1, span=self._span(m))

    def if_stmt(self, m: Meta, c: list[Any]) -> ast.If:
        branches = [(c[0], c[1])] + [x for x in c[2:] if isinstance(x, tuple)]
        orelse = next((x for x in c[2:] if isinstance(x, ast.Block)), None)
        return ast.If(tuple(branches), orelse, span=self._span(m))

    def elif_clause(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return (c[0], c[1])

    def else_if(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        """`else if`: one spelling only, `elif` (R109)."""
        at = self._span(m)
        at = Span(at.path, at.line, at.column, at.line, at.column + len("else if"))
        self.diagnostics.append(Diagnostic("R109", "'else if' is written 'elif'", at,
                                           "one spelling: if … elif … else"))
        return (c[0], c[1])

    def else_clause(self, m: Meta, c: list[Any]) -> ast.Block:
        block: ast.Block = c[0]
        return block

    def for_each(self, m: Meta, c: list[Any]) -> ast.ForEach:
        """`for each x in D where C`: the block for the items of `each x in D where C`."""
        domain = c[1] if len(c) == 3 else ast.Quant("each", str(c[0]), c[1], c[2], None,
                                                     span=self._span(m))
        return ast.ForEach(str(c[0]), domain, c[-1], span=self._span(m))

    def repeat(self, m: Meta, c: list[Any]) -> ast.Repeat:
        return ast.Repeat(c[0], c[1], span=self._span(m))

    def while_stmt(self, m: Meta, c: list[Any]) -> ast.While:
        return ast.While(c[0], c[1], span=self._span(m))

    def do_menu(self, m: Meta, c: list[Any]) -> ast.Do:
        ask = c.pop()[1] if c and isinstance(c[-1], tuple) else None
        return ast.Do(tuple(str(t) for t in c), tuple(self._span(t) for t in c),
                      span=self._span(m), ask=ask)

    def then_stmt(self, m: Meta, c: list[Any]) -> ast.Then:
        return ast.Then(str(c[0]), span=self._span(c[0]))

    def do_otherwise(self, m: Meta, c: list[Any]) -> ast.Do:
        ask = c.pop()[1] if c and isinstance(c[-1], tuple) else None
        names = [t for t in c if t.type != "OTHERWISE"]
        tiers, n = [], 0
        for t in c:
            if t.type == "OTHERWISE":
                tiers.append(n)
                n = 0
            else:
                n += 1
        tiers.append(n)
        return ast.Do(tuple(str(t) for t in names), tuple(self._span(t) for t in names),
                      span=self._span(m), tiers=tuple(tiers), ask=ask)

    def call_stmt(self, m: Meta, c: list[Any]) -> ast.CallStmt:
        args, kwargs = c[1] if len(c) > 1 else ((), ())
        return ast.CallStmt(ast.Call(c[0], args, kwargs, span=self._span(m)), span=self._span(m))

    def call_bare(self, m: Meta, c: list[Any]) -> ast.CallStmt:
        return ast.CallStmt(ast.Call(c[0], (), (), span=self._span(m)), span=self._span(m))

    def dotted(self, m: Meta, c: list[Any]) -> ast.Expr:
        expr: ast.Expr = ast.Name(str(c[0]), span=self._span(c[0]))
        for t in c[1:]:
            expr = ast.Attr(expr, str(t), span=self._span(m))
        return expr

    def shuffle(self, m: Meta, c: list[Any]) -> ast.Shuffle:
        return ast.Shuffle(c[0], span=self._span(m))

    def reveal(self, m: Meta, c: list[Any]) -> ast.Reveal:
        return ast.Reveal(str(c[0]), span=self._span(m))

    def return_stmt(self, m: Meta, c: list[Any]) -> ast.Return:
        return ast.Return(c[0], span=self._span(m))

    def winner(self, m: Meta, c: list[Any]) -> ast.Result:
        return ast.Result("winner", c[0], span=self._span(m))

    def winners(self, m: Meta, c: list[Any]) -> ast.Result:
        return ast.Result("winners", c[0], span=self._span(m))

    def draw(self, m: Meta, c: list[Any]) -> ast.Result:
        return ast.Result("draw", None, span=self._span(m))

    def highest_score(self, m: Meta, c: list[Any]) -> ast.Result:
        return ast.Result("highest score", None, span=self._span(m))

    # ---- expressions
    def quantifier(self, m: Meta, c: list[Any]) -> ast.Quant:
        cond = next((x[1] for x in c[3:] if x[0] == "where"), None)
        body = next((x[1] for x in c[3:] if x[0] == "body"), None)
        return ast.Quant(str(c[0]), str(c[1]), c[2], cond, body, span=self._span(m))

    def quant_where(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("where", c[0])

    def quant_body(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        return ("body", c[0])

    def quant_call(self, m: Meta, c: list[Any]) -> ast.Call:
        args, kwargs = c[1] if len(c) > 1 else ((), ())
        func = ast.Name(str(c[0]), span=self._span(c[0]))
        return ast.Call(func, args, kwargs, span=self._span(m))

    def if_expr(self, m: Meta, c: list[Any]) -> ast.IfExpr:
        return ast.IfExpr(c[1], c[0], c[2], span=self._span(m))

    def or_(self, m: Meta, c: list[Any]) -> ast.BoolOp:
        return ast.BoolOp("or", c[0], c[1], span=self._span(m))

    def and_(self, m: Meta, c: list[Any]) -> ast.BoolOp:
        return ast.BoolOp("and", c[0], c[1], span=self._span(m))

    def not_(self, m: Meta, c: list[Any]) -> ast.Not:
        return ast.Not(c[0], span=self._span(m))

    def compare(self, m: Meta, c: list[Any]) -> ast.Compare:
        op = " ".join(str(c[1]).split())
        return ast.Compare(op, c[0], c[2], span=self._span(m))

    def binop(self, m: Meta, c: list[Any]) -> ast.BinOp:
        return ast.BinOp(str(c[1]), c[0], c[2], span=self._span(m))

    def neg(self, m: Meta, c: list[Any]) -> ast.Neg:
        return ast.Neg(c[0], span=self._span(m))

    def of(self, m: Meta, c: list[Any]) -> ast.Of:
        return ast.Of(c[0], c[1], span=self._span(m))

    def attr(self, m: Meta, c: list[Any]) -> ast.Attr:
        return ast.Attr(c[0], str(c[1]), span=self._span(m))

    def call(self, m: Meta, c: list[Any]) -> ast.Call:
        args, kwargs = c[1] if len(c) > 1 else ((), ())
        return ast.Call(c[0], args, kwargs, span=self._span(m))

    def args(self, m: Meta, c: list[Any]) -> tuple[Any, ...]:
        pos = tuple(x for x in c if not isinstance(x, tuple))
        kws = tuple(x for x in c if isinstance(x, tuple))
        return (pos, kws)

    def kwarg(self, m: Meta, c: list[Any]) -> tuple[str, ast.Expr]:
        return (str(c[0]), c[1])

    def index(self, m: Meta, c: list[Any]) -> ast.Index:
        return ast.Index(c[0], c[1], span=self._span(m))

    def int_(self, m: Meta, c: list[Any]) -> ast.Const:
        return ast.Const(int(c[0]), span=self._span(m))

    def string(self, m: Meta, c: list[Any]) -> ast.Const:
        return ast.Const(_unquote(c[0]), span=self._span(m))

    def name(self, m: Meta, c: list[Any]) -> ast.Name:
        return ast.Name(str(c[0]), span=self._span(m))

    def true(self, m: Meta, c: list[Any]) -> ast.Const:
        return ast.Const(True, span=self._span(m))

    def false(self, m: Meta, c: list[Any]) -> ast.Const:
        return ast.Const(False, span=self._span(m))

    def none(self, m: Meta, c: list[Any]) -> ast.Const:
        return ast.Const(None, span=self._span(m))

    def tuple_(self, m: Meta, c: list[Any]) -> ast.TupleExpr:
        return ast.TupleExpr(tuple(c), span=self._span(m))

    def list_(self, m: Meta, c: list[Any]) -> ast.ListExpr:
        return ast.ListExpr(tuple(c), span=self._span(m))

    def map_(self, m: Meta, c: list[Any]) -> ast.MapExpr:
        return ast.MapExpr(tuple(k for k, _ in c), tuple(v for _, v in c), span=self._span(m))

    def record_(self, m: Meta, c: list[Any]) -> ast.RecordExpr:
        names = [name for name, _ in c]
        for i, (name, _) in enumerate(c):
            if name in names[:i]:
                self._error("R202", f"the record has the field '{name}' twice", name,
                            "each field of a record is named once")
        return ast.RecordExpr(tuple(str(n) for n in names), tuple(v for _, v in c),
                              span=self._span(m))

    def record_field(self, m: Meta, c: list[Any]) -> tuple[Any, Any]:
        return (c[0], c[1])

    def map_item(self, m: Meta, c: list[Any]) -> tuple[Any, Any]:
        return (c[0], c[1])

    def listcomp(self, m: Meta, c: list[Any]) -> ast.ListComp:
        return ast.ListComp(c[0], tuple(c[1]), c[2] if len(c) > 2 else None, span=self._span(m))

    def range_(self, m: Meta, c: list[Any]) -> ast.Range:
        lo = ast.Const(int(c[0]), span=self._span(c[0])) if isinstance(c[0], Token) else c[0]
        return ast.Range(lo, c[1], span=self._span(m))

    def _error(self, code: str, message: str, at: Token, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, self._span(at), help))


def _types(c: list[Any]) -> tuple[ast.TypeName | None, ...]:
    """A rule's written parameter types, () when it writes none."""
    types = tuple(t for _, t in c[1]) if len(c) == 3 else ()
    return types if any(t is not None for t in types) else ()


def _unquote(tok: Token | str) -> str:
    return str(tok)[1:-1]


def build(tree: Tree[Token], source: Source) -> ast.Rulebook:
    builder = Builder(source)
    try:
        decls = builder.transform(tree)
    except VisitError as exc:  # Lark wraps every callback exception
        if isinstance(exc.orig_exc, RulelangError):
            raise exc.orig_exc from None
        raise
    if builder.diagnostics:
        raise RulebookError(builder.diagnostics, {source.path: source})
    return ast.Rulebook(source.path, tuple(decls), span=Span(source.path, 1, 1, 1, 2))
