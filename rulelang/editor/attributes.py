"""Piece attributes for the editor's names: where an attribute is declared (`piece card with
points = 0`), read (`c.points`: an attribute of a piece, by the type checker's types), named
by the view (`show points as "…"`), and given by a data file's rows (`- {points: 3}`, the
columns of the zones that take their pieces from it)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import yaml

from rulelang.editor.typed import Typed, expressions
from rulelang.language import ast
from rulelang.language.program import Program
from rulelang.source import Source, Span

# what other values have (a site's name, a player's name and index, a piece's kind; and a
# site's coordinates, a record's fields): `x.name` is surely a piece's attribute only where x
# is known to be a piece
_SHARED = frozenset({"name", "index", "kind"})


def declared(program: Program) -> dict[str, list[ast.Piece]]:
    """Each attribute's name: the piece kinds that declare it."""
    out: dict[str, list[ast.Piece]] = {}
    for d in program.loaded.game.decls:
        if isinstance(d, ast.Piece):
            for name, _ in d.attrs:
                out.setdefault(name, []).append(d)
    return out


def in_piece(source: Source | None, piece: ast.Piece, name: str) -> Span | None:
    """Where a piece declaration names an attribute (`with points = 0`, `with name: t`)."""
    if source is None:
        return None
    word = re.compile(rf"(?<![\w.]){re.escape(name)}(?=\s*[=:,)]|\s*$)")
    s = piece.span
    for line in range(s.line, s.end_line + 1):
        text = re.sub(r'"[^"\n]*"', lambda m: " " * len(m.group()), source.line(line))
        text = text.split("#", 1)[0]
        start = text.find(" with ") + 6 if line == s.line and " with " in text else 0
        m = word.search(text, start)
        if m is not None:
            return Span(s.path, line, m.start() + 1, line, m.end() + 1)
    return None


def reads(program: Program, typed: Typed,
          names: set[str]) -> Iterator[tuple[str, Span, bool]]:
    """Every `x.attribute` of the program where x is a piece or of a type the checker does
    not know: the attribute's name, where it is, and whether it is surely the attribute
    (False: a site, a player or a record of the program has a field of that name too)."""
    refs = program.refs
    loaded = program.loaded
    every = [(d, list(expressions(d))) for m in [loaded.game, *loaded.modules.values()]
             for d in m.decls]
    # a record's field is read the same way (`item.points`): only where x is a piece
    shared = _SHARED | set(typed.coordinates) | {
        f for _, es in every for r in es if isinstance(r, ast.RecordExpr) for f in r.fields}
    for decl, exprs in every:
        found = [e for e in exprs if isinstance(e, ast.Attr) and e.name in names
                 and refs.get(e) is None]
        if not found:
            continue
        typed.decl(decl)
        for e in found:
            t = typed.of(e.obj)
            if t is None or t.tag not in ("piece", "unknown"):
                continue
            s = e.span
            yield e.name, Span(s.path, s.end_line, s.end_column - len(e.name), s.end_line,
                               s.end_column), t.tag == "piece" or e.name not in shared


def columns(program: Program) -> Iterator[tuple[str, Span]]:
    """The keys of the data files' rows that are attributes of the kind the file gives
    (`copies` is not one): the attribute's name and where the key is written."""
    sources = {Path(p).resolve(): s for p, s in program.loaded.sources.items()}
    kinds = {d.name: {n for n, _ in d.attrs} for d in program.loaded.game.decls
             if isinstance(d, ast.Piece)}
    seen: set[tuple[Path, str]] = set()
    for d in program.loaded.game.decls:
        for item in d.contents if isinstance(d, ast.Zone) else ():
            if item.data is None:
                continue
            path = (Path(item.span.path).resolve().parent / item.data).resolve()
            source = sources.get(path)
            if source is None or (path, item.kind) in seen:
                continue
            seen.add((path, item.kind))
            attrs = kinds.get(item.kind, set())
            for key, span in row_keys(source):
                if key in attrs:
                    yield key, span


def row_keys(source: Source) -> list[tuple[str, Span]]:
    """Every key of a data file's rows and where it is written (without its quotes)."""
    try:
        root = yaml.compose(source.text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError:
        return []  # (the loader said why)
    out: list[tuple[str, Span]] = []
    for row in root.value if isinstance(root, yaml.SequenceNode) else ():
        for key, _ in row.value if isinstance(row, yaml.MappingNode) else ():
            if not isinstance(key, yaml.ScalarNode) or key.start_mark.line != key.end_mark.line:
                continue
            quoted = 1 if key.style in ("'", '"') else 0
            line = key.start_mark.line + 1
            start = key.start_mark.column + 1 + quoted
            end = key.end_mark.column + 1 - quoted
            if source.line(line)[start - 1:end - 1] == key.value:  # (no escapes in it)
                out.append((key.value, Span(source.path, line, start, line, end)))
    return out
