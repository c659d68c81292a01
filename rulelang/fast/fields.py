"""Fields and texts in the fast evaluator: `x.name` read from a piece's attribute column, a
record (its place in the fields kept from the last record read there), a site or a player;
and an `if` chain comparing a local with texts or symbols (a rule written as clauses) as one
dict lookup."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError, RuleRuntimeError
from rulelang.language import ast
from rulelang.library.semantics import STEP_BUDGET, Ctx, get_attr
from rulelang.model.values import Piece, Player, Record, Site, show

Fn = Callable[[Ctx, dict[str, Any]], Any]
_NOT_CONST = object()


class FieldCompiler:
    """The part of the Compiler that compiles field reads and text switches (a mixin)."""
    rt: Any
    refs: Any

    def expr(self, node: ast.Expr) -> Fn:
        raise NotImplementedError  # Compiler.expr

    def _ref(self, ref: tuple[str, str], n: ast.Node) -> Fn:
        raise NotImplementedError  # Compiler._ref

    def constant(self, n: ast.Expr) -> tuple[bool, Any]:
        raise NotImplementedError  # Compiler.constant

    def visit_Attr(self, n: ast.Attr) -> Fn:
        ref = self.refs.get(n)
        if ref is not None:
            return self._ref(ref, n)
        if isinstance(n.obj, ast.Name) and self.refs.get(n.obj) == ("builtin", "last"):
            name = n.name

            def last_attr(c: Ctx, e: dict[str, Any]) -> Any:
                try:
                    return c.data.last[name]
                except KeyError:  # the reference's message
                    raise RuleRuntimeError(f"{show(c.data.last)} has no '{name}'",
                                           n.span) from None
            return last_attr
        obj, name, coord = self.expr(n.obj), n.name, self.rt.coord_index
        if name in coord:  # `s.r`: a site's coordinate, read straight from the site
            i = coord[name]
            local_site: str = getattr(obj, "local_name", "")

            def local_coordinate(c: Ctx, e: dict[str, Any]) -> Any:  # `s.r`, s a local
                x = e.get(local_site)
                if type(x) is Site:
                    return x.coords[i]
                return coordinate(c, e)  # anything else, and the missing local

            def coordinate(c: Ctx, e: dict[str, Any]) -> Any:
                x = obj(c, e)
                if type(x) is Site:
                    return x.coords[i]
                try:
                    return get_attr(c, x, name, coord)
                except RulelangError as exc:
                    raise RuleRuntimeError(str(exc), n.span) from None
            return local_coordinate if local_site else coordinate

        piece_attr = name != "kind" and any(
            name == a for decl in self.rt.program.pieces.values() for a, _ in decl.attrs)
        player_attr = name in ("index", "name")  # `p.index`: read straight from a player

        # the fields of the last record read here and where `name` is in them: a record made
        # by the same expression has the same fields tuple, so its field is one identity test
        seen_fields: Any = None
        seen_at = 0

        def general(c: Ctx, x: Any) -> Any:
            nonlocal seen_fields, seen_at
            if type(x) is Record:  # `r.name`: a field of a record
                fields = x.fields
                if name in fields:
                    seen_fields, seen_at = fields, fields.index(name)
                    return tuple.__getitem__(x, seen_at)
            try:
                return get_attr(c, x, name, coord)
            except RulelangError as exc:
                raise RuleRuntimeError(str(exc), n.span) from None

        local = getattr(obj, "local_name", None)
        if piece_attr and local is not None:
            def local_piece_attribute(c: Ctx, e: dict[str, Any]) -> Any:  # `card.name`
                try:
                    x = e[local]
                except KeyError:
                    x = obj(c, e)  # (it reports the missing local)
                t = type(x)
                if t is Record:
                    if x.fields is seen_fields:
                        return x[seen_at]  # (a record's items are a tuple's)
                elif t is Piece:
                    return c.data.attrs[name][x.id]
                return general(c, x)
            local_piece_attribute.piece_column = (local, name)  # type: ignore[attr-defined]
            return local_piece_attribute  # (columns.py reads the column in loops over x)
        if piece_attr:
            def piece_attribute(c: Ctx, e: dict[str, Any]) -> Any:
                x = obj(c, e)
                t = type(x)
                if t is Piece:  # a declared piece attribute: one list read
                    return c.data.attrs[name][x.id]
                if t is Record and x.fields is seen_fields:
                    return x[seen_at]
                return general(c, x)
            return piece_attribute
        if player_attr:
            if name == "index":
                def player_index(c: Ctx, e: dict[str, Any]) -> Any:
                    x = obj(c, e)
                    return x.index if type(x) is Player else general(c, x)
                return player_index

            def player_name(c: Ctx, e: dict[str, Any]) -> Any:
                x = obj(c, e)
                return x.name if type(x) is Player else general(c, x)
            return player_name
        if local is not None:
            def local_field(c: Ctx, e: dict[str, Any]) -> Any:  # `r.cards`
                try:
                    x = e[local]
                except KeyError:
                    x = obj(c, e)
                if type(x) is Record and x.fields is seen_fields:
                    return x[seen_at]
                return general(c, x)
            return local_field

        def field(c: Ctx, e: dict[str, Any]) -> Any:  # `x.card.points`
            x = obj(c, e)
            if type(x) is Record and x.fields is seen_fields:
                return x[seen_at]
            return general(c, x)
        return field


    def _text_switch(self, n: ast.IfExpr, steps: int) -> Fn | None:
        """`a if x == K1 else b if x == K2 else … else z`, x a local and the K texts or
        symbols (a rule written as clauses): the branch found by one dict lookup when x is a
        text, else the chain. The comparisons with a constant cost no step, and reading a
        local once or K times gives the same value (or the same error, at the first)."""
        links: list[tuple[str, ast.Expr]] = []
        node: ast.Expr = n
        subject: str | None = None
        while isinstance(node, ast.IfExpr) and isinstance(node.cond, ast.Compare) and \
                node.cond.op == "==" and isinstance(node.cond.left, ast.Name) and \
                node.cond.left.id == (subject or node.cond.left.id) and \
                self.refs.get(node.cond.left, ("local",))[0] == "local":
            fixed, value = self.constant(node.cond.right)
            if not fixed or type(value) is not str:
                break
            subject = node.cond.left.id
            links.append((value, node.then))
            node = node.orelse
        if len(links) < 3 or subject is None:
            return None
        assert isinstance(n.cond, ast.Compare)
        read = self.expr(n.cond.left)
        if getattr(read, "local_name", None) is None and \
                getattr(read, "const", _NOT_CONST) is _NOT_CONST:
            return None  # (an inlined parameter standing for a dearer expression)
        table: dict[str, Fn] = {}
        for value, then in links:
            if value not in table:  # the first branch of a text, as the chain would
                table[value] = self.expr(then)
        orelse = self.expr(node)
        chain = [(value, table[value]) for value, _ in links]
        span, find = n.span, table.get

        def switch(c: Ctx, e: dict[str, Any]) -> Any:
            if steps:
                c.steps += steps
                if c.steps > STEP_BUDGET:
                    c.tick(span)
            x = read(c, e)
            if type(x) is str:
                return find(x, orelse)(c, e)
            for value, then in chain:  # anything else compared as `==` does
                if x == value:
                    return then(c, e)
            return orelse(c, e)
        return switch

