"""The effect statements whose meaning is the same in both evaluators (move, remove, set,
increase, and where a put piece goes): each evaluates the statement's expressions through
its own `value` and changes the data through library/effects.py. Both statement runners
inherit this, so the two cannot disagree on them."""
from __future__ import annotations

from typing import Any

from rulelang.errors import Refusal, RuleRuntimeError
from rulelang.language import ast
from rulelang.language.program import Program
from rulelang.library import effects
from rulelang.library.semantics import Ctx, increased, stored
from rulelang.model.values import Piece, Player, ZoneRef, show


class EffectStatements:
    """A mixin: the class using it sets `rt` (the static game) and `program`, and defines
    `value(expr, c, e)`."""
    rt: Any
    program: Program

    def value(self, node: ast.Expr, c: Ctx, e: dict[str, Any]) -> Any:
        raise NotImplementedError  # the evaluator's

    def effect_Move(self, s: ast.Move, c: Ctx, e: dict[str, Any]) -> None:
        piece = self.value(s.piece, c, e)
        if not isinstance(piece, Piece):
            error = Refusal if piece is None else RuleRuntimeError  # no piece: cannot happen
            raise error(f"'move' needs a piece, not {show(piece)}", s.piece.span)
        self.place(piece, self.value(s.target, c, e), c, s)

    def effect_Remove(self, s: ast.Remove, c: Ctx, e: dict[str, Any]) -> None:
        self.remove_piece(s, self.value(s.piece, c, e), c)

    def remove_piece(self, s: ast.Remove, piece: Any, c: Ctx) -> None:
        if not isinstance(piece, Piece):
            error = Refusal if piece is None else RuleRuntimeError  # no piece: cannot happen
            raise error(f"'remove' needs a piece, not {show(piece)}", s.piece.span)
        c.data.lift(piece)

    def place(self, piece: Piece, target: Any, c: Ctx, s: ast.Stmt) -> None:
        effects.place(c.data, piece, target, s.span)

    def set_value(self, s: ast.Set, c: Ctx, e: dict[str, Any]) -> Any:
        """The value a `set` gives (the fast evaluator's replays take it from a log)."""
        return self.value(s.value, c, e)

    def effect_Set(self, s: ast.Set, c: Ctx, e: dict[str, Any]) -> None:
        if self.program.refs.get(s.target) == ("builtin", "starter"):
            player = self.set_value(s, c, e)
            if not isinstance(player, Player):
                raise RuleRuntimeError(f"a round starts with a player, not {show(player)}",
                                       s.value.span)
            c.data.starter = player.index
            return
        if isinstance(s.target, ast.Attr) and s.target not in self.program.refs:
            self.set_piece_attr(s.target, self.set_value(s, c, e), c, e)
            return
        table, key = self.slot(s.target, c, e)
        value = stored(c, self.set_value(s, c, e), s.value.span)
        if table is c.data.counters:
            if type(value) is not int:  # (the checker ensures it of typed values only)
                raise RuleRuntimeError(f"counter '{key[0]}' holds a whole number, not "
                                       f"{show(value)}", s.value.span)
            value = self.clamp(key, value, c)
        else:
            c.data.revealed.discard(key)  # a new secret value is hidden again
        table[key] = value

    def set_piece_attr(self, t: ast.Attr, value: Any, c: Ctx, e: dict[str, Any]) -> None:
        """`set p.owner = q`, `set p.side = 2`: a piece's changing attributes."""
        piece = self.value(t.obj, c, e)
        decl = self.program.pieces.get(piece.kind) if isinstance(piece, Piece) else None
        effects.set_attribute(c.data, decl.attrs if decl else None, piece, t.name, value,
                              t.span)

    def effect_Increase(self, s: ast.Increase, c: Ctx, e: dict[str, Any]) -> None:
        table, key = self.slot(s.target, c, e)
        new = increased(table[key], s.sign, self.value(s.amount, c, e), s.span)
        table[key] = self.clamp(key, new, c) if table is c.data.counters else new

    def slot(self, t: ast.Expr, c: Ctx, e: dict[str, Any]) -> effects.Slot:
        """The table and key of a counter or var (`points`, `points of p`)."""
        of = isinstance(t, ast.Of)
        cat, name = self.program.refs[t.left if isinstance(t, ast.Of) else t]
        player = self.value(t.right, c, e) if isinstance(t, ast.Of) else None
        return effects.slot(c.data, cat, name, player, of, t.span)

    def clamp(self, key: tuple[Any, ...], value: int, c: Ctx) -> int:
        return effects.clamp(self.rt.counter_bounds(key[0], c), value)

    def effect_Shuffle(self, s: ast.Shuffle, c: Ctx, e: dict[str, Any]) -> None:
        zone = self.value(s.zone, c, e)
        if not isinstance(zone, ZoneRef):
            raise RuleRuntimeError(f"only a zone can be shuffled, not {show(zone)}", s.span)
        c.data.shuffle(zone)

    def effect_Reveal(self, s: ast.Reveal, c: Ctx, e: dict[str, Any]) -> None:
        c.data.reveal(s.var)

    def effect_Return(self, s: ast.Return, c: Ctx, e: dict[str, Any]) -> None:
        raise RuleRuntimeError("'return' belongs in a function (def)", s.span)
