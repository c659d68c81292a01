"""The texts of a rulebook for its players (`ask "…"`, `else "…"`): a STRING token cut into
plain pieces and `{expr}` parts, each part parsed as an expression where it stands in the
file. Used by the builder (which turns each part's tree into AST); docs/language.md, "Words
for the players"."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from rulelang.errors import Diagnostic
from rulelang.language import ast
from rulelang.language.parser import parse_expr
from rulelang.source import Span

# (the tree of a `{…}`, its line, its first column) -> the expression built from it
Fragment = Callable[[Tree[Token], int, int], Any]


def words(tok: Token, path: str, span: Span, fragment: Fragment
          ) -> tuple[ast.Words, list[Diagnostic]]:
    """The Words of a STRING token, and the mistakes in its braces (R101, positioned)."""
    text, line, col = str(tok)[1:-1], tok.line or 1, (tok.column or 1) + 1
    found: list[Diagnostic] = []
    parts: list[str | ast.Expr] = []
    for piece, at in pieces(text):
        if at is None:
            parts.append(piece)
            continue
        where = Span(path, line, col + at - 1, line, col + at + len(piece) + 1)
        expr = _expression(piece, where, line, col + at, fragment, found)
        parts.append(expr if expr is not None else ast.Const("", span=where))
    bad = stray_brace(text)
    if bad is not None:
        found.append(Diagnostic(
            "R101", "a '{' or '}' without its pair in a text",
            Span(path, line, col + bad, line, col + bad + 1),
            "a value is written {like this}; write {{ or }} for a brace itself"))
    return ast.Words(text, tuple(parts), span=span), found


def _expression(inner: str, where: Span, line: int, col: int, fragment: Fragment,
                found: list[Diagnostic]) -> ast.Expr | None:
    if not inner.strip():
        found.append(Diagnostic("R101", "an empty '{}' in a text", where,
                                "write the value to show between the braces"))
        return None
    try:
        tree = parse_expr(inner)
    except UnexpectedInput:
        found.append(Diagnostic(
            "R101", f"cannot read '{inner.strip()}' as a value", where,
            "between { and } write an expression of the rules, e.g. {money of mover}"))
        return None
    expr = fragment(tree, line, col)
    return expr if isinstance(expr, ast.Expr) else None


def pieces(text: str) -> list[tuple[str, int | None]]:
    """A text's pieces: (plain text, None) and (the inside of `{…}`, its offset in the
    text); `{{` and `}}` stand for braces themselves."""
    out: list[tuple[str, int | None]] = []
    plain, i = "", 0
    while i < len(text):
        two = text[i:i + 2]
        if two in ("{{", "}}"):
            plain, i = plain + two[0], i + 2
        elif text[i] == "{" and "}" in text[i:]:
            end = text.index("}", i)
            if plain:
                out.append((plain, None))
            out.append((text[i + 1:end], i + 1))
            plain, i = "", end + 1
        else:
            plain, i = plain + text[i], i + 1
    if plain:
        out.append((plain, None))
    return out


def stray_brace(text: str) -> int | None:
    """The offset of a brace with no pair (outside `{{`, `}}` and `{…}`), if any."""
    i = 0
    while i < len(text):
        if text[i:i + 2] in ("{{", "}}"):
            i += 2
        elif text[i] == "{" and "}" in text[i:]:
            i = text.index("}", i) + 1
        elif text[i] in "{}":
            return i
        else:
            i += 1
    return None
