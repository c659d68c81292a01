"""`rulelang lsp`: the language server over stdio (pygls, the extra rulelang[lsp]).

Diagnostics on open and on change (debounced), for the document and for every open document
whose check read it; hover, completion, go to definition, find references, rename, document
symbols and formatting. The answers come from rulelang/editor/features.py; this module only
speaks the protocol. Nothing a document holds can stop the server: every request answers,
and a fault of rulelang is logged to the editor (window/logMessage, type Error) instead of
ending the server."""
from __future__ import annotations

import asyncio
import re
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from rulelang.editor.collector import Collector
from rulelang.editor.scenario_names import rulebook_of
from rulelang.editor.symbols import Index
from rulelang.editor.workspace import Checked, ScenarioReader, Workspace
from rulelang.errors import Diagnostic, RulelangError
from rulelang.language import ast
from rulelang.language.builder import build
from rulelang.language.cache import cached
from rulelang.language.loader import load_source
from rulelang.language.parser import parse
from rulelang.source import Source, Span

DEBOUNCE = 0.03  # seconds of quiet awaited before checking a burst of changes
BUILD_DELAY = 0.25  # and before the game's board is built (cached: costly only after an edit)
_MAX_WORKSPACE_FILES = 300  # rulebooks read for references and rename
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")
_T = TypeVar("_T")


class RulesServer(LanguageServer):
    def __init__(self, read_scenarios: ScenarioReader | None) -> None:
        super().__init__("rulelang", "0.1.0")
        self.space = Workspace(read_scenarios)
        self.pending: dict[Path, asyncio.TimerHandle] = {}
        self.building: asyncio.TimerHandle | None = None
        self.published: set[Path] = set()
        self.indexes: dict[Path, tuple[Checked, Index]] = {}
        self.others: dict[Path, tuple[float, Index | None]] = {}  # workspace files not open
        self.collector = Collector()  # when garbage is collected (collector.py)

    # ---- checks
    def changed(self, uri: str) -> None:
        """A document's new text. Its check starts at once when none is waiting; a change
        that finds one waiting (a burst: a paste, a rename's edits, changes that came while
        the server was busy) replaces it by one DEBOUNCE seconds after the last change."""
        path = path_of(uri)
        self.space.edit(path, self.workspace.get_text_document(uri).source)
        waiting = self.pending.pop(path, None)
        for old in (waiting, self.building):
            if old is not None:
                old.cancel()
        self.building = None
        loop = asyncio.get_running_loop()
        self.pending[path] = loop.call_later(DEBOUNCE if waiting is not None else 0,
                                             self.guarded, self.check, path)

    def check(self, path: Path) -> None:
        self.pending.pop(path, None)
        docs = self.space.affected(path)
        for doc in docs:
            self.space.check(doc, game=False)
        self.publish(docs)
        self.collector.checked()
        self.building = asyncio.get_running_loop().call_later(
            BUILD_DELAY, self.guarded, self.build_games, docs)

    def build_games(self, docs: list[Path]) -> None:
        """The games' runtimes (their boards), after the checker's diagnostics are out; the
        diagnostics again if that found mistakes; then a garbage collection if due."""
        self.building = None
        if any([self.space.build_game(doc) for doc in docs]):
            self.publish(docs)
        self.collector.quiet()

    def publish(self, checked: list[Path] | None = None) -> None:
        """Every file's diagnostics (an empty list clears a file's): the documents just
        checked, and every file that has or had some."""
        found = self.space.diagnostics()
        for doc, result in self.space.checked.items():
            for d in _summaries(result, self.space.source(doc)):
                found.setdefault(doc, []).append(d)
        for path in sorted(set(found) | self.published | set(checked or ())):
            source = self.space.source(path)
            items = [self.diagnostic(d, source) for d in found.get(path, [])]
            uri = from_fs_path(str(path)) or ""
            version = self.workspace.text_documents[uri].version \
                if uri in self.workspace.text_documents else None
            self.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
                uri=uri, diagnostics=items, version=version))
        self.published = {p for p, ds in found.items() if ds}

    def diagnostic(self, d: Diagnostic, source: Source | None) -> lsp.Diagnostic:
        span = d.span or Span("", 1, 1, 1, 2)
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        return lsp.Diagnostic(range=self.range(span, source), message=message, code=d.code,
                              source="rulelang", severity=lsp.DiagnosticSeverity.Error)

    # ---- positions: the protocol's (0-based, in the client's units) and Span's (1-based)
    def range(self, span: Span, source: Source | None) -> lsp.Range:
        lines = source.text.splitlines(True) if source is not None else []
        codec = self.workspace.position_codec
        start = lsp.Position(span.line - 1, span.column - 1)
        end = lsp.Position(span.end_line - 1, max(span.end_column - 1, 0))
        return codec.range_to_client_units(lines, lsp.Range(start, end))

    def place(self, uri: str, position: lsp.Position) -> tuple[Path, Source, int, int]:
        doc = self.workspace.get_text_document(uri)
        lines = doc.source.splitlines(True)
        pos = self.workspace.position_codec.position_from_client_units(lines, position)
        return path_of(uri), Source(str(path_of(uri)), doc.source), pos.line + 1, pos.character + 1

    def location(self, span: Span) -> lsp.Location:
        path = Path(span.path).resolve()
        source = self.space.source(path)
        if source is None and path.suffix == ".test":  # a scenario file that is not open
            try:
                source = load_source(path)
            except RulelangError:
                source = None
        return lsp.Location(uri=from_fs_path(str(path)) or "", range=self.range(span, source))

    # ---- what the checks know
    def index(self, path: Path) -> tuple[Checked | None, Index | None]:
        """The last good check of this document (or of an open one that reads it)."""
        good = self.space.good.get(path) or next(
            (c for c in self.space.good.values() if path in c.files), None)
        if good is None or good.program is None:
            return None, None
        kept = self.indexes.get(good.path)
        if kept is None or kept[0] is not good:
            kept = self.indexes[good.path] = (good, Index(good.program))
        if path.suffix == ".test" and path in self.space.texts:
            kept[1].scenario(path, self.space.texts[path])
        return good, kept[1]

    def all_indexes(self) -> list[Index]:
        """Every open document's program and every rulebook of the workspace's folders, with
        the scenario files that test them."""
        out = [i for p in list(self.space.good) if (i := self.index(p)[1]) is not None]
        for path in self.workspace_files():
            if path in self.space.texts:
                continue
            stamp = path.stat().st_mtime
            kept = self.others.get(path)
            if kept is None or kept[0] != stamp:
                other = self.space.check_only(path)
                index = Index(other.program) if other.program is not None else None
                kept = self.others[path] = (stamp, index)
            if kept[1] is not None:
                out.append(kept[1])
        games = {Path(i.program.loaded.game.source.path).resolve(): i for i in out}
        tests = {*self.workspace_files("*.test"), *(p for p in self.space.texts
                                                   if p.suffix == ".test")}
        for path in sorted(tests):
            text = self.space.texts.get(path)
            try:
                text = text if text is not None else load_source(path).text
            except RulelangError:  # (too large, not a file: its own check says so)
                continue
            book = rulebook_of(path, text)
            if book is not None and book in games:
                games[book].scenario(path, text)
        return out

    def workspace_files(self, pattern: str = "*.rule") -> list[Path]:
        roots = [Path(to_fs_path(f.uri) or "") for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots = [Path(self.workspace.root_path)]
        found: list[Path] = []
        for root in roots:
            for p in sorted(root.rglob(pattern)):
                if not any(part.startswith(".") for part in p.relative_to(root).parts):
                    found.append(p.resolve())
                if len(found) >= _MAX_WORKSPACE_FILES:
                    return found
        return found

    def guarded(self, work: Callable[..., _T], *args: Any) -> _T | None:
        """Run a handler's work; a fault of rulelang is logged, never fatal."""
        try:
            return work(*args)
        except Exception:  # noqa: BLE001 - a bug: said to the editor, the server goes on
            self.window_log_message(lsp.LogMessageParams(
                type=lsp.MessageType.Error, message="rulelang: internal error\n"
                + traceback.format_exc()))
            return None


def path_of(uri: str) -> Path:
    return Path(to_fs_path(uri) or uri).resolve()


def _summaries(result: Checked, source: Source | None) -> list[Diagnostic]:
    """A document whose check found mistakes in another file (a module it uses, a rulebook it
    extends, a data file) shows each on the line that leads there."""
    out = []
    for file, diags in result.diagnostics.items():
        if file == result.path:
            continue
        anchor = _anchor(result.path, source, file)
        for d in diags:
            line = f":{d.span.line}" if d.span is not None else ""
            out.append(Diagnostic(d.code, f"in {file.name}{line}: {d.message}", anchor, d.help))
    return out


def _anchor(path: Path, source: Source | None, file: Path) -> Span:
    """The line of `path` that names `file` (a use, an extends, a data file, the scenario's
    rulebook), else its first such line, else its first line."""
    first: Span | None = None
    if source is not None:
        pattern = re.compile(r'^\s*(use\s+(\w+)|game\s.*extends\s+"([^"]+)"|rulebook\s+"([^"]+)"'
                             r'|test\s.*of\s+"([^"]+)"|zone\s.*from\s+"([^"]+)")')
        for n, text in enumerate(source.text.splitlines(), 1):
            m = pattern.match(text)
            if m is None:
                continue
            span = Span(str(path), n, 1, n, len(text) + 1)
            first = first or span
            names = [g for g in m.groups()[1:] if g]
            if any(name in (file.stem, file.name) or Path(name).name == file.name
                   for name in names):
                return span
    return first or Span(str(path), 1, 1, 1, 2)


def own_decls(source: Source) -> tuple[ast.Decl, ...]:
    """A document's own declarations (parsed alone, kept by text), () if it does not parse."""
    try:
        decls: tuple[ast.Decl, ...] = cached(
            "rulebook", source.path, source.text, lambda: build(parse(source), source).decls,
            disk=False)
        return decls
    except RulelangError:
        return ()
