"""What the language server knows: the open documents' texts, and for each document checked
(a rulebook, a module, a scenario file) its diagnostics by file, its checked program and the
game it builds. A check reads the open documents' texts, not the disk (loader.texts_of), and
goes through the same stages as `rulelang check`: load, check, and for a game the runtime
with its default options (the board is built then). Parsed files are kept by the loader's
cache, keyed by their text, so a check after an edit parses the edited file only; an edit
re-checks only the documents whose check read the edited file (`affected`)."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import rulelang
from rulelang.errors import Diagnostic, RulebookError, RulelangError, RuleRuntimeError
from rulelang.language import ast
from rulelang.language.checker import check
from rulelang.language.loader import load, texts_of
from rulelang.language.program import Program
from rulelang.source import Source, Span


@dataclass
class Checked:
    """One document's last check."""
    path: Path  # resolved
    diagnostics: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    sources: dict[str, Source] = field(default_factory=dict)  # by the path spans name
    program: Program | None = None  # None when the check failed
    runtime: Any = None  # the game with its default options (a game that checks)

    @property
    def files(self) -> set[Path]:
        """Every file the check read (its own, extended, used and data files)."""
        return {Path(p).resolve() for p in self.sources} | {self.path}


# reads a scenario file: (path) -> an object with `path`, `source` and `rulebook` (the
# scenario reader of rulelang/tools, a layer above, given by the command that starts the
# server); RulebookError for its mistakes
ScenarioReader = Callable[[Path], Any]


class Workspace:
    def __init__(self, read_scenarios: ScenarioReader | None = None) -> None:
        self.read_scenarios = read_scenarios
        self.texts: dict[Path, str] = {}  # the open documents
        self.checked: dict[Path, Checked] = {}
        self.good: dict[Path, Checked] = {}  # the last check that gave a program

    def edit(self, path: Path, text: str) -> None:
        """An open document's text (opened or changed)."""
        self.texts[path.resolve()] = text

    def close(self, path: Path) -> None:
        path = path.resolve()
        self.texts.pop(path, None)
        self.checked.pop(path, None)
        self.good.pop(path, None)

    def affected(self, path: Path) -> list[Path]:
        """The open documents to check again after `path` changed: itself, and those whose
        last check read it (a module they use, a rulebook they extend, a data file)."""
        path = path.resolve()
        found = [path] if path in self.texts and _checkable(path) else []
        found += [p for p, c in self.checked.items() if p != path and path in c.files
                  and p in self.texts]
        return found

    def check(self, path: Path, game: bool = True) -> Checked:
        """Check an open document; game=False leaves the game's runtime (its board) to
        `build_game`, so that the checker's diagnostics can be shown first."""
        path = path.resolve()
        with texts_of(self.texts):
            result = _check_scenario(path, self.read_scenarios) if path.suffix == ".test" \
                else _check_rulebook(path, game)
        self.checked[path] = result
        if result.program is not None:
            self.good[path] = result
        return result

    def build_game(self, path: Path) -> bool:
        """Make the runtime of a checked game (its board, with the default options); True when
        that found mistakes."""
        result = self.checked.get(path.resolve())
        if result is None or result.program is None or result.runtime is not None:
            return False
        failed = _build_game(result)
        if failed and self.good.get(result.path) is result:
            del self.good[result.path]
        return failed

    def check_only(self, path: Path) -> Checked:
        """A rulebook's check that is not kept (a file of the workspace that is not open)."""
        with texts_of(self.texts):
            return _check_rulebook(path.resolve())

    def diagnostics(self) -> dict[Path, list[Diagnostic]]:
        """Every file's diagnostics, from every document's last check (one of each)."""
        out: dict[Path, list[Diagnostic]] = {}
        for result in self.checked.values():
            for file, diags in result.diagnostics.items():
                known = out.setdefault(file, [])
                known.extend(d for d in diags if d not in known)
        return out

    def source(self, path: Path) -> Source | None:
        """A file's text as the last checks read it (or as the editor holds it)."""
        path = path.resolve()
        if path in self.texts:
            return Source(str(path), self.texts[path])
        for result in self.checked.values():
            for name, source in result.sources.items():
                if Path(name).resolve() == path:
                    return source
        return None


def _checkable(path: Path) -> bool:
    return path.suffix in (".rule", ".test")


def _check_rulebook(path: Path, game: bool = True) -> Checked:
    result = Checked(path)
    try:
        loaded = load(path)
        result.sources = dict(loaded.sources)
        empty = rulelang.declares_nothing(loaded)  # (as `rulelang check` says it)
        if empty is not None:
            _add(result, [empty])
            return result
        library = not any(isinstance(d, ast.Game) for d in loaded.game.decls)
        result.program = check(loaded, library=library)
    except RulebookError as err:
        result.sources.update(err.sources)
        _add(result, err.diagnostics)
        return result
    if game:
        _build_game(result)
    return result


def _build_game(result: Checked) -> bool:
    """The runtime with the default options, as `rulelang check` makes it."""
    program = result.program
    if program is None or not any(isinstance(d, ast.Game) for d in program.loaded.game.decls):
        return False
    try:
        options = rulelang.resolve_options(program, {})
        result.runtime = rulelang.compile_rulebook(program, options)
        return False
    except RulebookError as err:
        result.sources.update(err.sources)
        _add(result, err.diagnostics)
    except RuleRuntimeError as err:  # the board or a table cannot be made
        result.sources.update(err.sources)
        _add(result, [err.diagnostic])
    except RulelangError as err:
        _add(result, [Diagnostic("R104", str(err), None)])
    result.program = None
    return True


def _check_scenario(path: Path, read: ScenarioReader | None) -> Checked:
    """A scenario file: its own mistakes, then the rulebook it names (whose mistakes are
    shown where they are, and on the line that names it)."""
    result = Checked(path)
    if read is None:
        return result
    try:
        scenarios = read(path)
    except RulebookError as err:
        result.sources.update(err.sources)
        _add(result, err.diagnostics)
        return result
    result.sources[scenarios.path] = scenarios.source
    book = _check_rulebook(scenarios.rulebook.resolve())
    result.sources.update(book.sources)
    result.diagnostics.update(book.diagnostics)
    result.program, result.runtime = book.program, book.runtime
    return result


def _add(result: Checked, diagnostics: list[Diagnostic]) -> None:
    for d in diagnostics:
        file = Path(d.span.path).resolve() if d.span is not None else result.path
        if d.span is None:  # (a file that cannot be read): shown at the document's start
            d = Diagnostic(d.code, d.message, Span(str(result.path), 1, 1, 1, 2), d.help)
        result.diagnostics.setdefault(file, []).append(d)
