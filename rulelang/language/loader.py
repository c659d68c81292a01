"""Reading rulebooks: `use` of stdlib or sibling modules, `extends` of a parent rulebook.

File access happens only here, through rulelang.limits.read_checked: the main file, then only
files inside the main file's folder tree, the standard library and the bundled rulebooks,
each name checked (relative, no '..', no NUL, not over-long) before anything is opened and
each file checked (a regular file, not too large) before it is read. Cycles are reported with
the chain that closes them.
"""
from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

import rulelang.limits as limits
from rulelang.errors import Diagnostic, RulebookError
from rulelang.language import ast
from rulelang.language.builder import build
from rulelang.language.cache import cached
from rulelang.language.parser import parse
from rulelang.language.program import Loaded, Module
from rulelang.limits import Refused, check_name, read_checked, shown
from rulelang.resources import bundled_dir, stdlib_dir
from rulelang.source import Source, Span

STDLIB = stdlib_dir()
BUNDLED = bundled_dir()
EXTENSION = ".rule"


_OVERLAY: dict[Path, str] = {}  # resolved path -> text: an editor's open documents


@contextlib.contextmanager
def texts_of(texts: Mapping[Path, str]) -> Iterator[None]:
    """Within it, a file of these (resolved) paths is read as the text given, not from disk:
    the language server checks what the editor shows, saved or not. Every other check of a
    file (its place, its name, its size) is made as for a file on disk."""
    _OVERLAY.update(texts)
    try:
        yield
    finally:
        _OVERLAY.clear()


def _read(path: Path, max_bytes: int, roots: tuple[Path, ...] | None = None) -> str:
    text = _OVERLAY.get(path.resolve()) if _OVERLAY else None
    if text is None:
        return read_checked(path, max_bytes, roots)
    if roots is not None and not limits.inside(path, roots):
        raise Refused("it lies outside the rulebook's folder")
    if len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise Refused(f"it is larger than {max_bytes:,} bytes")
    return text


def edited(source_path: str, text: str) -> bool:
    """The text is an editor's (not kept in the disk cache: it changes at each keystroke)."""
    return bool(_OVERLAY) and _OVERLAY.get(Path(source_path).resolve()) == text


_PIECES: dict[tuple[str, int, str], tuple[ast.Decl, ...]] = {}
_MAX_PIECES = 4096


def parse_pieces(source: Source) -> tuple[ast.Decl, ...] | None:
    """An edited file parsed one top-level declaration at a time, each kept by its text and
    first line: an edit inside a declaration parses that declaration only. None when a piece
    does not parse (the whole file is parsed then, for the syntax errors `rulelang check`
    gives)."""
    lines = source.text.splitlines()
    starts = [n for n, t in enumerate(lines) if t[:1].strip() and t[0] != "#"] or [0]
    starts[0] = 0
    decls: list[ast.Decl] = []
    for start, end in zip(starts, [*starts[1:], len(lines)], strict=True):
        text = "\n" * start + "\n".join(lines[start:end]) + "\n"
        key = (source.path, start, text)
        piece = _PIECES.get(key)
        if piece is None:
            part = Source(source.path, text)
            try:
                piece = build(parse(part), part).decls
            except RulebookError:
                return None
            if len(_PIECES) >= _MAX_PIECES:
                _PIECES.pop(next(iter(_PIECES)))
            _PIECES[key] = piece
        decls.extend(piece)
    return tuple(decls)


def load_source(path: str | Path) -> Source:
    """The file the user named (trusted as a place, not as text: size and kind checked)."""
    try:
        return Source(str(path), _read(Path(path), limits.MAX_RULEBOOK_BYTES))
    except Refused as exc:
        raise RulebookError([Diagnostic("R104", f"cannot read '{shown(str(path))}': {exc}",
                                        None)]) from None


class _Loader:
    def __init__(self) -> None:
        self.sources: dict[str, Source] = {}
        self.modules: dict[str, Module] = {}
        self.diagnostics: list[Diagnostic] = []
        self.own_paths: set[Path] = set()  # the rulebook and the rulebooks it extends
        self.roots: tuple[Path, ...] = (STDLIB.resolve(), BUNDLED.resolve())
        self.folders: dict[str, Path] = {}  # a source's path -> its real folder

    def read(self, path: Path, max_bytes: int = limits.MAX_RULEBOOK_BYTES) -> Source:
        """A file a rulebook names, inside the places it may read (else Refused)."""
        source = Source(_display_path(path), _read(path, max_bytes, self.roots))
        self.folders[source.path] = path.resolve().parent
        return source

    def folder(self, source_path: str) -> Path:
        return self.folders.get(source_path) or Path(source_path).resolve().parent

    def parse_file(self, source: Source) -> tuple[ast.Decl, ...] | None:
        self.sources[source.path] = source
        if edited(source.path, source.text):
            pieces = parse_pieces(source)
            if pieces is not None:
                return pieces
        try:
            decls: tuple[ast.Decl, ...] = cached(
                "rulebook", source.path, source.text, lambda: build(parse(source), source).decls,
                disk=not edited(source.path, source.text))
            return decls
        except RulebookError as err:
            self.diagnostics.extend(err.diagnostics)
            return None

    def load_game(self, path: str | Path) -> Module:
        self.own_paths.add(Path(path).resolve())
        self.roots = (Path(path).resolve().parent, *self.roots)
        source = load_source(path)
        self.folders[source.path] = Path(path).resolve().parent
        decls = self.parse_file(source) or ()
        decls = self._extend(decls, source, [str(Path(path).resolve())])
        module = Module("", source, decls)
        self._load_uses(module, self.folder(source.path), [])
        return module

    def _extend(self, decls: tuple[ast.Decl, ...], source: Source,
                chain: list[str]) -> tuple[ast.Decl, ...]:
        game = next((d for d in decls if isinstance(d, ast.Game)), None)
        if game is None or game.extends is None:
            return decls
        try:
            check_name(game.extends, (EXTENSION,))
        except Refused as exc:
            self._error("R207", f"cannot extend '{shown(game.extends)}': {exc}", game.span)
            return decls
        parent_path = self._parent(game.extends, source.path)
        key = str(parent_path.resolve())
        if key in chain:
            self._error("R208", f"'{game.extends}' extends itself through a cycle", game.span)
            return decls
        if not parent_path.exists():
            self._error("R207", f"cannot find the rulebook '{game.extends}' to extend",
                        game.span, f"looked for {_display_path(parent_path)}")
            return decls
        try:
            parent = self.read(parent_path)
        except Refused as exc:
            self._error("R207", f"cannot extend '{shown(game.extends)}': {exc}", game.span)
            return decls
        self.own_paths.add(parent_path.resolve())
        parent_decls = self._extend(self.parse_file(parent) or (), parent, chain + [key])
        return merge(parent_decls, decls)

    def _parent(self, name: str, source_path: str) -> Path:
        """The rulebook `extends` names: beside the file that names it, else the bundled
        rulebook of that name (`extends "NAME.rule"` from any folder)."""
        beside = self.folder(source_path) / name
        bundled = BUNDLED / name
        if not beside.exists() and "/" not in name and bundled.is_file():
            return bundled
        return beside

    def _load_uses(self, module: Module, folder: Path, chain: list[str]) -> None:
        for decl in module.decls:
            if isinstance(decl, ast.Use):  # beside the file that says it (an extended one's)
                where = self.folders.get(decl.span.path, folder)
                module.uses[decl.module] = self._load_module(decl, where, chain)

    def _load_module(self, use: ast.Use, folder: Path, chain: list[str]) -> str:
        name = use.module
        if name in chain:
            cycle = " -> ".join(chain[chain.index(name):] + [name])
            self._error("R208", f"modules use each other in a cycle: {cycle}", use.span)
            return name
        if name in self.modules:
            return name
        try:
            check_name(f"{name}{EXTENSION}")
            path = _find_module(name, folder, self.own_paths)
        except Refused as exc:
            self._error("R207", f"cannot use module '{shown(name)}': {exc}", use.span)
            return name
        if path is None:
            self._error("R207", f"unknown module '{name}'", use.span,
                        f"no {name}{EXTENSION} next to the rulebook or in the standard library")
            return name
        try:
            source = self.read(path)
        except Refused as exc:
            self._error("R207", f"cannot use module '{shown(name)}': {exc}", use.span)
            return name
        module = Module(name, source, self.parse_file(source) or ())
        self.modules[name] = module
        self._load_uses(module, self.folder(source.path), chain + [name])
        return name

    def load_data(self, game: Module) -> dict[tuple[str, str], list[dict[str, Any]]]:
        """The data files that zones name (`card from "cards.yaml"`): YAML lists of rows,
        read only from the declaring file's folder or below it."""
        data: dict[tuple[str, str], list[dict[str, Any]]] = {}
        for decl in game.decls:
            for item in getattr(decl, "contents", ()) if isinstance(decl, ast.Zone) else ():
                if item.data is not None:
                    rows = self._data_file(item)
                    if rows is not None:
                        data[(item.span.path, item.data)] = rows
        return data

    def _data_file(self, item: ast.Content) -> list[dict[str, Any]] | None:
        name = str(item.data)
        try:
            check_name(name, limits.DATA_SUFFIXES)
            path = self.folder(item.span.path) / name
            if not path.exists() and not path.is_symlink():
                raise Refused("no such file")
            source = self.read(path, limits.MAX_DATA_BYTES)
        except Refused as exc:
            self._error("R105", f"cannot read data file '{shown(name)}': {exc}", item.span,
                        "keep data files beside the rulebook or below it")
            return None
        self.sources[source.path] = source  # in the hash: records see data changes
        return self._rows(source, item)

    def _rows(self, source: Source, item: ast.Content) -> list[dict[str, Any]] | None:
        try:
            rows = copy.deepcopy(cached("data", source.path, source.text, lambda: limits.load_yaml(
                source.text, limits.MAX_DATA_VALUES)))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else 1
            self._error("R106", f"data file '{item.data}' is not valid YAML",
                        Span(source.path, line, 1, line, 2))
            return None
        except Refused as exc:
            line = exc.line or 1
            self._error("R106", f"data file '{item.data}' is refused: {exc}",
                        Span(source.path, line, 1, line, 2))
            return None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            self._error("R106", f"data file '{item.data}' must be a list of rows "
                        "(mappings of attribute: value)", item.span)
            return None
        if len(rows) > limits.MAX_DATA_ROWS:
            self._error("R106", f"data file '{item.data}' has {len(rows):,} rows (at most "
                        f"{limits.MAX_DATA_ROWS:,})", item.span)
            return None
        for number, row in enumerate(rows):
            problem = _row_problem(row)
            if problem is not None:
                line = _row_line(source.text, number)
                self._error("R106", f"data file '{item.data}', row {number + 1}: {problem}",
                            Span(source.path, line, 1, line, 2))
                return None
        return [{str(k): v for k, v in r.items()} for r in rows]

    def _error(self, code: str, message: str, span: Span | None, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, help))


def _find_module(name: str, folder: Path, skip: set[Path]) -> Path | None:
    """A sibling file first, then the standard library; never the rulebook itself (a game
    named like a library module still gets the library module)."""
    for base in (folder, STDLIB):
        candidate = base / f"{name}{EXTENSION}"
        if candidate.exists() and candidate.resolve() not in skip:
            return candidate
    return None


def _row_problem(row: dict[Any, Any]) -> str | None:
    """Why a data row cannot give a piece its attributes (None: it can). Attributes are
    compared and kept in sets, so a mapping (unhashable) is refused here."""
    for key, value in row.items():
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            return "an attribute's name must be a word"
        if key != "copies" and not _plain(value):  # copies: checked with the piece kind
            return (f"attribute '{shown(str(key))}' must be a text, a number, true/false or "
                    "a list of them (not a mapping)")
    return None


def _plain(value: Any) -> bool:
    """A value a piece's attribute can hold: a scalar or a list of plain values (iteratively,
    so that a deep list cannot recurse; load_yaml already bounds the depth)."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, list):
            todo.extend(v)
        elif v is not None and not isinstance(v, (str, int, float, bool)):
            return False
    return True


def _row_line(text: str, number: int) -> int:
    """The line where row `number` (0-based) of a data file starts."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    node = yaml.compose(text, Loader=loader)
    if isinstance(node, yaml.SequenceNode) and number < len(node.value):
        return int(node.value[number].start_mark.line) + 1
    return 1


def _display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _key(decl: ast.Decl) -> tuple[str, str] | None:
    """Declarations a variant replaces by name; the rest accumulate."""
    if isinstance(decl, ast.Section):
        return ("section", decl.kind)
    if isinstance(decl, ast.Round):
        return ("section", "round")
    if isinstance(decl, (ast.Game, ast.Players, ast.Board)):
        return (type(decl).__name__, "")
    name = getattr(decl, "name", None)
    return (type(decl).__name__, name) if isinstance(name, str) else None


def merge(parent: tuple[ast.Decl, ...], child: tuple[ast.Decl, ...]) -> tuple[ast.Decl, ...]:
    """The child's declarations replace the parent's of the same kind and name; but a rule
    the child writes only as clauses of symbols (docs/language.md, "Rules written as
    clauses") replaces the parent's clauses of those symbols only, in their place (a new
    symbol's clause goes before the parent's catch-all), and keeps the others."""
    symbols = {s for d in (*parent, *child) if isinstance(d, ast.Enum) for s in d.symbols}
    child_rules: dict[tuple[str, str] | None, list[ast.Decl]] = {}
    for d in child:
        if isinstance(d, (ast.Def, ast.Effect)):
            child_rules.setdefault(_key(d), []).append(d)
    in_parent = {_key(d) for d in parent}
    by_clause = {key: {_symbol(d, symbols): d for d in rules}
                 for key, rules in child_rules.items()
                 if key in in_parent and all(_symbol(d, symbols) for d in rules)
                 and len({_symbol(d, symbols) for d in rules}) == len(rules)}  # (else R262)
    replaced = {_key(d) for d in child if _key(d) is not None} - set(by_clause)
    kept: list[ast.Decl] = []
    for d in parent:
        key = _key(d)
        if key is not None and key in replaced:
            continue
        clauses = by_clause.get(key)
        if clauses is not None:
            symbol = _symbol(d, symbols)
            if symbol in clauses:  # the child's clause of this symbol, in its place
                kept.append(clauses.pop(symbol))
                continue
            if symbol is None:  # the parent's catch-all (or plain rule) stays last
                kept.extend(clauses.values())
                clauses.clear()
        kept.append(d)
    placed = {id(d) for d in kept}
    uses = {d.module for d in kept if isinstance(d, ast.Use)}
    return tuple(kept) + tuple(d for d in child if id(d) not in placed
                               and not (isinstance(d, ast.Use) and d.module in uses))


def _symbol(decl: ast.Decl, symbols: set[str]) -> str | None:
    """The symbol a rule's clause is for (its first parameter), or None."""
    params = getattr(decl, "params", ())
    return params[0] if params and params[0] in symbols else None


def load(path: str | Path) -> Loaded:
    loader = _Loader()
    game = loader.load_game(path)
    data = loader.load_data(game)
    if loader.diagnostics:
        raise RulebookError(loader.diagnostics, loader.sources)
    return Loaded(game, loader.modules, loader.sources, data)


def read_rules_text(path: Path) -> str:
    """The rules of a game in words (a Markdown file found by resources.rules_path), for
    `rules` at the play prompt; read like every file, through limits.read_checked."""
    try:
        return limits.read_checked(path, limits.MAX_RULEBOOK_BYTES)
    except limits.Refused as exc:
        return f"(the rules cannot be read: {exc})"
