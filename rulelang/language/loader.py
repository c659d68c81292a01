"""Reading rulebooks: `use` of stdlib or sibling modules, `extends` of a parent rulebook.

File access happens only here, only for the main file, the stdlib folder and files next to
the file that names them. Cycles are reported with the chain that closes them.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from rulelang.errors import Diagnostic, RulebookError
from rulelang.language import ast
from rulelang.language.builder import build
from rulelang.language.cache import cached
from rulelang.language.parser import parse
from rulelang.language.program import Loaded, Module
from rulelang.resources import stdlib_dir
from rulelang.source import Source, Span

STDLIB = stdlib_dir()
EXTENSION = ".rule"


def load_source(path: str | Path) -> Source:
    p = Path(path)
    try:
        return Source(str(path), p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise RulebookError([Diagnostic("R104", f"cannot read '{path}': {reason.lower()}",
                                        None)]) from None


class _Loader:
    def __init__(self) -> None:
        self.sources: dict[str, Source] = {}
        self.modules: dict[str, Module] = {}
        self.diagnostics: list[Diagnostic] = []
        self.own_paths: set[Path] = set()  # the rulebook and the rulebooks it extends

    def parse_file(self, source: Source) -> tuple[ast.Decl, ...] | None:
        self.sources[source.path] = source
        try:
            decls: tuple[ast.Decl, ...] = cached(
                "rulebook", source.path, source.text, lambda: build(parse(source), source).decls)
            return decls
        except RulebookError as err:
            self.diagnostics.extend(err.diagnostics)
            return None

    def load_game(self, path: str | Path) -> Module:
        self.own_paths.add(Path(path).resolve())
        source = load_source(path)
        decls = self.parse_file(source) or ()
        decls = self._extend(decls, source, [str(Path(path).resolve())])
        module = Module("", source, decls)
        self._load_uses(module, Path(path).parent, [])
        return module

    def _extend(self, decls: tuple[ast.Decl, ...], source: Source,
                chain: list[str]) -> tuple[ast.Decl, ...]:
        game = next((d for d in decls if isinstance(d, ast.Game)), None)
        if game is None or game.extends is None:
            return decls
        parent_path = Path(source.path).parent / game.extends
        key = str(parent_path.resolve())
        if key in chain:
            self._error("R208", f"'{game.extends}' extends itself through a cycle", game.span)
            return decls
        if not parent_path.is_file():
            self._error("R207", f"cannot find the rulebook '{game.extends}' to extend",
                        game.span, f"looked for {parent_path}")
            return decls
        self.own_paths.add(parent_path.resolve())
        parent = load_source(parent_path)
        parent_decls = self._extend(self.parse_file(parent) or (), parent, chain + [key])
        return merge(parent_decls, decls)

    def _load_uses(self, module: Module, folder: Path, chain: list[str]) -> None:
        for decl in module.decls:
            if isinstance(decl, ast.Use):
                module.uses[decl.module] = self._load_module(decl, folder, chain)

    def _load_module(self, use: ast.Use, folder: Path, chain: list[str]) -> str:
        name = use.module
        if name in chain:
            cycle = " -> ".join(chain[chain.index(name):] + [name])
            self._error("R208", f"modules use each other in a cycle: {cycle}", use.span)
            return name
        if name in self.modules:
            return name
        path = _find_module(name, folder, self.own_paths)
        if path is None:
            self._error("R207", f"unknown module '{name}'", use.span,
                        f"no {name}{EXTENSION} next to the rulebook or in the standard library")
            return name
        source = Source(_display_path(path), path.read_text(encoding="utf-8"))
        module = Module(name, source, self.parse_file(source) or ())
        self.modules[name] = module
        self._load_uses(module, path.parent, chain + [name])
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
        folder = Path(item.span.path).parent.resolve()
        path = (folder / str(item.data)).resolve()
        if not path.is_relative_to(folder):
            self._error("R105", f"data file '{item.data}' is outside the rulebook's folder",
                        item.span, "keep data files beside the rulebook or below it")
            return None
        try:
            source = Source(_display_path(path), path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror.lower() if isinstance(exc, OSError) and exc.strerror else str(exc)
            self._error("R105", f"cannot read data file '{item.data}': {reason}", item.span)
            return None
        self.sources[source.path] = source  # in the hash: records see data changes
        return self._rows(source, item)

    def _rows(self, source: Source, item: ast.Content) -> list[dict[str, Any]] | None:
        try:
            rows = copy.deepcopy(cached("data", source.path, source.text,
                                        lambda: yaml.safe_load(source.text)))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else 1
            self._error("R106", f"data file '{item.data}' is not valid YAML",
                        Span(source.path, line, 1, line, 2))
            return None
        if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
            self._error("R106", f"data file '{item.data}' must be a list of rows "
                        "(mappings of attribute: value)", item.span)
            return None
        return [{str(k): v for k, v in r.items()} for r in rows]

    def _error(self, code: str, message: str, span: Span | None, help: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(code, message, span, help))


def _find_module(name: str, folder: Path, skip: set[Path]) -> Path | None:
    """A sibling file first, then the standard library; never the rulebook itself (a game
    named like a library module still gets the library module)."""
    for base in (folder, STDLIB):
        candidate = base / f"{name}{EXTENSION}"
        if candidate.is_file() and candidate.resolve() not in skip:
            return candidate
    return None


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
    """The child's declarations replace the parent's of the same kind and name."""
    replaced = {_key(d) for d in child if _key(d) is not None}
    kept = [d for d in parent if _key(d) is None or _key(d) not in replaced]
    uses = {d.module for d in kept if isinstance(d, ast.Use)}
    return tuple(kept) + tuple(d for d in child
                               if not (isinstance(d, ast.Use) and d.module in uses))


def load(path: str | Path) -> Loaded:
    loader = _Loader()
    game = loader.load_game(path)
    data = loader.load_data(game)
    if loader.diagnostics:
        raise RulebookError(loader.diagnostics, loader.sources)
    return Loaded(game, loader.modules, loader.sources, data)
