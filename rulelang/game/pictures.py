"""How the pieces are drawn in observations: each kind's `picture` (lines of text, or a record
of its look: language/looks.py), evaluated per piece, remembered per attribute values where
it reads only its piece."""
from __future__ import annotations

from typing import Any

from rulelang.errors import RuleRuntimeError
from rulelang.game.runtime import Runtime
from rulelang.language.analysis import Analysis
from rulelang.language.looks import look_of
from rulelang.library.semantics import Ctx
from rulelang.model.values import Piece, Record, show
from rulelang.source import Span


def picture_fns(rt: Runtime) -> dict[str, Any]:
    """Per piece kind with a `picture` declaration: (ctx, piece) -> its picture lines, or its
    look (a record: language/looks.py). A picture that reads only its piece (its attributes
    and owner: language.analysis) is remembered per (attribute values, owner): observations
    draw many equal pieces."""
    found: dict[str, Any] = {}
    analysis = Analysis(rt.program)
    for kind, decl in rt.program.pictures.items():
        fn = rt.fn(decl.expr)
        if not analysis.reads_only_its_piece(decl.expr, decl.param):
            found[kind] = lambda c, p, fn=fn, decl=decl: picture_lines(fn(c, {decl.param: p}),
                                                                       decl.span)
            continue
        names = [name for name, _ in rt.program.pieces[kind].attrs]
        found[kind] = _remembered(fn, decl, names, {})
    return found


def by_piece(fn: Any) -> bool:
    """The picture function draws a piece from its kind, owner and attributes alone."""
    return getattr(fn, "by_piece", False) is True


def _remembered(fn: Any, decl: Any, names: list[str], memo: dict[Any, Any]) -> Any:
    def picture(c: Ctx, p: Piece) -> Any:
        data = c.data
        key = (data.owner[p.id], *(data.attrs[n][p.id] for n in names))
        lines = memo.get(key)
        if lines is None:
            lines = memo[key] = picture_lines(fn(c, {decl.param: p}), decl.span)
        return lines
    picture.by_piece = True  # type: ignore[attr-defined]
    return picture


def picture_lines(value: Any, span: Span | None = None) -> list[str] | dict[str, str]:
    """A picture is a text or a tuple of lines; a record is the piece's look (its glyph,
    colour, shape, label), refused at the picture's position when it cannot be drawn."""
    if isinstance(value, Record):
        look, wrong = look_of(value.fields, tuple(value))
        if wrong is not None:
            raise RuleRuntimeError(f"this picture cannot be drawn: {wrong}", span)
        return look
    if isinstance(value, (tuple, list)):
        return [show(v) for v in value]
    return [show(value)]
