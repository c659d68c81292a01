"""What the language server answers, without the protocol: hover texts, completions and the
places a name is declared and used, from a document's text and its last good check. Lines
and columns are 1-based, as in a Span; the server converts them to the protocol's."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelang.editor.symbols import Index, Target, Use, bound_names, resolved
from rulelang.editor.typed import Typed, expressions, shown
from rulelang.editor.workspace import Checked
from rulelang.language import ast
from rulelang.language import types as ty
from rulelang.language.parser import expected_words, keywords
from rulelang.language.program import Program
from rulelang.library import BUILTINS
from rulelang.source import Source, Span

_WORD = re.compile(r"[A-Za-z_]\w*")
_STRING = re.compile(r'"[^"\n]*"')


@dataclass(frozen=True)
class Completion:
    label: str
    kind: str  # keyword, builtin, or a category (def, action, zone, local …)
    detail: str = ""
    doc: str = ""


def word_at(text: str, column: int) -> tuple[str, int] | None:
    """The name under a (1-based) column of a line, and where it starts."""
    for m in _WORD.finditer(text):
        if m.start() < column <= m.end() + 1 and m.start() + 1 <= column:
            return m.group(), m.start() + 1
    return None


def string_at(text: str, column: int) -> str | None:
    for m in _STRING.finditer(text):
        if m.start() < column <= m.end():
            return m.group()[1:-1]
    return None


# ---- hover --------------------------------------------------------------------------------

def builtin_hover(name: str) -> str | None:
    b = BUILTINS.get(name)
    if b is None:
        return None
    call = name if b.lo < 0 else f"{name}(…)"
    out = [f"```\n{call}: {b.sig}\n```", b.doc.replace("\n    ", " ")]
    if b.example:
        out.append(f"Example: `{b.example}`")
    return "\n\n".join(out)


def declaration_hover(target: Target, sources: dict[str, Source]) -> str:
    """A user name: its declaration's line and the comment lines right above it."""
    at = target.at
    assert at is not None
    source = sources.get(at.path)
    if source is None:
        return f"{target.category} `{target.name}`"
    line = source.line(at.line).strip()
    notes: list[str] = []
    n = at.line - 1
    while n >= 1 and source.line(n).lstrip().startswith("#") and target.category != "local":
        notes.insert(0, source.line(n).strip().lstrip("#").strip())
        n -= 1
    where = f"{Path(at.path).name}:{at.line}"
    head = f"({target.category}) {where}\n```\n{line}\n```"
    return head + ("\n\n" + " ".join(notes) if notes else "")


def hover(checked: Checked | None, index: Index | None, path: Path, source: Source,
          line: int, column: int) -> str | None:
    text = source.line(line)
    use = index.at(path, line, column) if index is not None else None
    typed = expression_type(index, path, line, column) if index is not None else None
    shown: str | None = None
    if use is not None and use.target.category == "builtin":
        shown = builtin_hover(use.target.name)
    elif use is not None and use.target.at is not None and index is not None:
        shown = declaration_hover(use.target, index.sources)
    if typed is not None:
        return (shown + "\n\n" if shown else "") + f"`{typed[0]}`: {typed[1]}"
    if shown is not None:
        return shown
    site = string_at(text, column)
    if site is not None and checked is not None and checked.runtime is not None:
        return _site_hover(checked.runtime, site)
    word = word_at(text, column)
    return builtin_hover(word[0]) if word is not None else None


def expression_type(index: Index, path: Path, line: int,
                    column: int) -> tuple[str, str] | None:
    """The expression at a place and its type as the type checker gives it: the innermost
    expression (a called name: its call), or a local where it is bound (a `let`, `choose`,
    `for each`, quantifier, a rule's parameter). None when the checker knows nothing."""
    decl = _decl_at(index.program, path, line, column)
    if decl is None:
        return None
    typed = index.typed()
    typed.decl(decl)
    best: ast.Expr | None = None
    calls: dict[int, ast.Call] = {}  # a called name: its call (`size` in `size(x)`)
    source = index.sources.get(decl.span.path)
    for node in expressions(decl):
        if isinstance(node, ast.Call):
            calls[id(node.func)] = node
        if _covers(node.span, line, column) and (  # (in the declaration's file)
                best is None or _size(node.span) < _size(best.span)) and _written(node, source):
            best = node
    use = index.at(path, line, column)
    local = use is not None and use.target.category == "local"
    if use is not None and local and not (
            isinstance(best, ast.Name) and best.span.column == use.span.column):
        t = typed.local(decl, use.target.name, (use.span.line, use.span.column))
        return _named(typed, decl, use.target.name, t)
    best = calls.get(id(best), best)
    if best is None or isinstance(best, ast.Const):
        return None
    if local and isinstance(best, ast.Name):
        return _named(typed, decl, best.id, typed.of(best))
    found = shown(typed.of(best))
    return None if found is None else (typed.text(best), found)


def _named(typed: Typed, decl: ast.Decl, name: str, t: ty.Type | None) -> tuple[str, str] | None:
    """A local's type; a rule's parameter of no written type is of any type (each call's
    argument is checked against what its body needs of it, if anything)."""
    i = ty.param_index(t) if t is not None else None
    if i is None:
        found = shown(t)
        return None if found is None else (name, found)
    need = typed.needs(decl, i) if isinstance(decl, ast.Def) else None
    return name, "a parameter of any type" + (f", used as {need}" if need else "")


def _decl_at(program: Program, path: Path, line: int, column: int) -> ast.Decl | None:
    """The declaration at a place; a rule written as clauses is one declaration (merged by
    the checker, clauses.py) spanning its first clause: a later clause is found by its
    expressions."""
    modules = [program.loaded.game, *program.loaded.modules.values()]
    for module in modules:
        for decl in module.decls:
            if _holds(decl.span, path, line, column):
                return decl
    for module in modules:
        for decl in module.decls:
            if isinstance(decl, (ast.Def, ast.Effect)) and resolved(decl.span.path) \
                    == path and any(_covers(e.span, line, column)
                                    for e in expressions(decl.body)):
                return decl
    return None


def _written(e: ast.Expr, source: Source | None) -> bool:
    """Whether an expression is written where its span says: not one the checker made (a
    rule written as clauses picks its clause by a comparison spanning the clause)."""
    if source is None:
        return True
    text = source.line(e.span.line)[e.span.column - 1:]
    if isinstance(e, ast.Name):
        return text.startswith(e.id)
    return not re.match(r"(def|effect)\s", text)


def _holds(span: Span, path: Path, line: int, column: int) -> bool:
    return _covers(span, line, column) and resolved(span.path) == path


def _covers(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) <= (span.end_line, span.end_column)


def _size(span: Span) -> tuple[int, int]:
    return (span.end_line - span.line, span.end_column - span.column)


def _site_hover(runtime: Any, name: str) -> str | None:
    board = getattr(runtime, "board", None)
    for site in getattr(board, "sites", ()):
        if site.name == name:
            return f"site `{name}`: coordinates {tuple(site.coords)}"
    return None


# ---- definition ---------------------------------------------------------------------------

def file_named(index: Index | None, path: Path, source: Source, line: int,
               column: int) -> Path | None:
    """The file a `use`, `extends` or data file's name at the cursor names."""
    text = source.line(line)
    m = re.match(r"\s*use\s+(\w+)", text)
    if m is not None and index is not None:
        module = index.program.loaded.modules.get(m.group(1))
        if module is not None:
            return Path(module.source.path).resolve()
    name = string_at(text, column)
    if name is not None and (name.endswith((".yaml", ".yml", ".rule"))):
        candidate = (path.parent / name).resolve()
        if candidate.is_file():
            return candidate
    return None


def definitions(use: Use, index: Index) -> list[Span]:
    """Where a name is defined: its declaration; a piece attribute also where each data file
    that gives it defines it (its first row's key)."""
    target = use.target
    if target.at is None:
        return []
    found = [target.at]
    if target.category == "attribute":
        files = {resolved(target.at.path)}
        for other in index.uses_of(target):
            path = resolved(other.span.path)
            if path.suffix in (".yaml", ".yml") and path not in files:
                files.add(path)
                found.append(other.span)
    return found


def references(target: Target, indexes: list[Index], declaration: bool) -> list[Span]:
    found: dict[tuple[str, int, int], Span] = {}
    for index in indexes:
        for use in index.uses_of(target):
            s = use.span
            if not declaration and target.at is not None and _same_place(s, target.at):
                continue
            found.setdefault((str(resolved(s.path)), s.line, s.column), s)
    return sorted(found.values(), key=lambda s: (str(resolved(s.path)), s.line, s.column))


def _same_place(a: Span, b: Span) -> bool:
    return resolved(a.path) == resolved(b.path) and (a.line, a.column) == (
        b.line, b.column)


def target_at(indexes: list[Index], path: Path, line: int, column: int) -> Use | None:
    for index in indexes:
        use = index.at(path, line, column)
        if use is not None:
            return use
    return None


# ---- completion ---------------------------------------------------------------------------

def completions(index: Index | None, source: Source, line: int, column: int,
                scenario: bool = False) -> list[Completion]:
    """Keywords the grammar takes at the cursor, and names: after `m.` the module's, after
    `do`/`then`/`or` in a `do` the actions, else locals, the rulebook's names and builtins."""
    text = source.line(line)[: column - 1]
    typed = re.search(r"[A-Za-z_]\w*$", text)
    before = text[: typed.start()] if typed else text
    dotted = re.search(r"([A-Za-z_]\w*)\.$", before)
    if dotted is not None:
        return _module_names(index, dotted.group(1))
    start = _declaration_start(source, line)
    prefix = "\n".join([*(source.line(n) for n in range(start, line)), before])
    words, names_ok = expected_words(prefix, scenario)
    out = [Completion(w, "keyword") for w in sorted(words)]
    if not names_ok and words:
        return out
    if scenario:
        return out + [Completion(w, "keyword") for w in sorted(keywords(True) - words)]
    if re.search(r"\b(do|then|or|otherwise)\s+$", before) and re.match(r"\s*(do|then)\b",
                                                                       source.line(line)):
        return out + _actions(index)
    locals_ = bound_names("\n".join(source.line(n) for n in range(start, line + 1)))
    out += [Completion(n, "local") for n in sorted(locals_)]
    out += _names(index)
    out += [Completion(name, "builtin", b.sig, b.doc.split("\n")[0])
            for name, b in sorted(BUILTINS.items())]
    return out


def _declaration_start(source: Source, line: int) -> int:
    """The line where the declaration holding `line` starts (a line in column 1)."""
    n = line
    while n > 1:
        text = source.line(n)
        if text and not text[0].isspace() and not text.startswith("#") and n < line:
            return n
        if n == line and text[:1].strip() and not text.startswith("#"):
            return n
        n -= 1
    return 1


def _names(index: Index | None) -> list[Completion]:
    if index is None:
        return []
    out: dict[str, Completion] = {}
    for use in index.uses:
        t = use.target
        if t.category in ("builtin", "local", "action", "attribute") or t.at is None:
            continue
        if Path(t.at.path).resolve() != Path(index.program.loaded.game.source.path).resolve() \
                and t.category not in ("relation", "region", "lines", "player"):
            continue  # a module's names are reached as module.name
        out.setdefault(t.name, Completion(t.name, t.category, _decl_line(index, t)))
    for name in index.program.loaded.game.uses:
        out.setdefault(name, Completion(name, "module"))
    return sorted(out.values(), key=lambda c: c.label)


def _module_names(index: Index | None, module: str) -> list[Completion]:
    if index is None:
        return []
    loaded = index.program.loaded
    key = loaded.game.uses.get(module)
    target = loaded.modules.get(key) if key is not None else None
    if target is None:
        return []
    out = []
    for d in target.decls:
        name = getattr(d, "name", None)
        if isinstance(name, str) and isinstance(d, (ast.Def, ast.Effect, ast.Geometry,
                                                    ast.Enum, ast.Table)):
            out.append(Completion(name, type(d).__name__.lower(),
                                  target.source.line(d.span.line).strip()))
    return sorted(out, key=lambda c: c.label)


def _actions(index: Index | None) -> list[Completion]:
    if index is None:
        return []
    return [Completion(name, "action") for name in sorted(index.program.actions)]


def _decl_line(index: Index, target: Target) -> str:
    at = target.at
    source = index.sources.get(at.path) if at is not None else None
    return source.line(at.line).strip() if source is not None and at is not None else ""
