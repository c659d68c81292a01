"""The language server's requests and notifications, one handler each (server.py holds the
state). Each handler's work runs through `server.guarded`: a fault is logged, and the
request answers with nothing."""
from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcInvalidParams
from pygls.uris import from_fs_path

from rulelang.editor import features
from rulelang.editor.formatter import format_text, is_scenario
from rulelang.editor.server import RulesServer, own_decls, path_of
from rulelang.editor.symbols import outline
from rulelang.editor.workspace import ScenarioReader
from rulelang.errors import RulelangError
from rulelang.language.parser import keywords
from rulelang.limits import load_yaml
from rulelang.source import Source, Span

_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*\Z")
_KINDS = {
    "keyword": lsp.CompletionItemKind.Keyword, "builtin": lsp.CompletionItemKind.Function,
    "def": lsp.CompletionItemKind.Function, "effect": lsp.CompletionItemKind.Method,
    "action": lsp.CompletionItemKind.Event, "local": lsp.CompletionItemKind.Variable,
    "var": lsp.CompletionItemKind.Variable, "counter": lsp.CompletionItemKind.Variable,
    "enum": lsp.CompletionItemKind.Enum, "symbol": lsp.CompletionItemKind.EnumMember,
    "module": lsp.CompletionItemKind.Module, "kind": lsp.CompletionItemKind.Class,
    "zone": lsp.CompletionItemKind.Field, "zones": lsp.CompletionItemKind.Field,
    "option": lsp.CompletionItemKind.Property, "player": lsp.CompletionItemKind.Constant,
    "table": lsp.CompletionItemKind.Struct, "relation": lsp.CompletionItemKind.Interface,
}
_SYMBOLS = {
    "section": lsp.SymbolKind.Namespace, "action": lsp.SymbolKind.Event,
    "score": lsp.SymbolKind.Number, "def": lsp.SymbolKind.Function,
    "effect": lsp.SymbolKind.Method, "piece": lsp.SymbolKind.Class,
    "zone": lsp.SymbolKind.Field, "counter": lsp.SymbolKind.Variable,
    "var": lsp.SymbolKind.Variable, "enum": lsp.SymbolKind.Enum,
    "option": lsp.SymbolKind.Property, "table": lsp.SymbolKind.Struct,
    "geometry": lsp.SymbolKind.Object, "module": lsp.SymbolKind.Module,
    "scenario": lsp.SymbolKind.Namespace,
}


def make_server(read_scenarios: ScenarioReader | None = None) -> RulesServer:
    server = RulesServer(read_scenarios)
    register(server)
    return server


def serve(read_scenarios: ScenarioReader | None = None) -> None:
    """Serve one editor over stdin and stdout until it says exit."""
    make_server(read_scenarios).start_io()


def register(server: RulesServer) -> None:
    """Every feature's handler (about 50 lines: one short closure per feature, each handing
    its work to a function below through `guarded`)."""
    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RulesServer, params: lsp.DidOpenTextDocumentParams) -> None:
        ls.guarded(ls.changed, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RulesServer, params: lsp.DidChangeTextDocumentParams) -> None:
        ls.guarded(ls.changed, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RulesServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.guarded(ls.changed, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RulesServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.space.close(path_of(params.text_document.uri))
        ls.guarded(ls.publish)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
        return ls.guarded(_hover, ls, params)

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location] | None:
        return ls.guarded(_definition, ls, params)

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    def references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location] | None:
        return ls.guarded(_references, ls, params)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    def rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
        if not _NAME.match(params.new_name) or params.new_name in keywords():
            raise JsonRpcInvalidParams(f"'{params.new_name}' is not a name (a word of letters, "
                                       "digits and _, not a keyword)")
        refused = ls.guarded(_data_key_refused, ls, params)
        if refused:
            raise JsonRpcInvalidParams(refused)
        return ls.guarded(_rename, ls, params)

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: RulesServer,
                   params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit] | None:
        return ls.guarded(_formatting, ls, params)

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(ls: RulesServer,
                params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol] | None:
        return ls.guarded(_symbols, ls, params)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION,
                    lsp.CompletionOptions(trigger_characters=["."]))
    def completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList | None:
        return ls.guarded(_completion, ls, params)


def _hover(ls: RulesServer, params: lsp.HoverParams) -> lsp.Hover | None:
    path, source, line, column = ls.place(params.text_document.uri, params.position)
    checked, index = ls.index(path)
    text = features.hover(checked, index, path, source, line, column)
    if text is None:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))


def _definition(ls: RulesServer, params: lsp.DefinitionParams) -> list[lsp.Location]:
    path, source, line, column = ls.place(params.text_document.uri, params.position)
    _, index = ls.index(path)
    use = index.at(path, line, column) if index is not None else None
    if use is not None and index is not None and use.target.at is not None:
        return [ls.location(s) for s in features.definitions(use, index)]
    file = features.file_named(index, path, source, line, column)
    if file is not None:
        return [lsp.Location(uri=from_fs_path(str(file)) or "",
                             range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)))]
    return []


def _references(ls: RulesServer, params: lsp.ReferenceParams) -> list[lsp.Location]:
    path, _, line, column = ls.place(params.text_document.uri, params.position)
    indexes = ls.all_indexes()
    use = features.target_at(indexes, path, line, column)
    if use is None or use.target.category == "builtin":
        return []
    spans = features.references(use.target, indexes, params.context.include_declaration)
    return [ls.location(s) for s in spans]


def _data_key_refused(ls: RulesServer, params: lsp.RenameParams) -> str | None:
    """Why a piece attribute cannot take a new name: data files' rows would read it as no
    name (a YAML key `true`, `null`, `on` …, or `copies`), or a read of it may be a record's
    field of the same name (`x.points`, x of no known type): renaming that is the
    designer's call."""
    path, _, line, column = ls.place(params.text_document.uri, params.position)
    own = ls.index(path)[1]
    use = own.at(path, line, column) if own is not None else None
    if use is None or use.target.category != "attribute":
        return None
    indexes = ls.all_indexes()
    new, name = params.new_name, use.target.name
    if new == "copies" or not isinstance(load_yaml(new, 1), str):
        return f"'{new}' cannot name a piece attribute: a data file's row would read it as " \
            + ("the number of copies" if new == "copies" else "no name")
    unsure = next((u.span for i in indexes for u in i.uses_of(use.target) if not u.sure), None)
    if unsure is not None:
        return (f"'{name}' is not renamed: at {Path(unsure.path).name}:{unsure.line} "
                f"'.{name}' may read a piece's attribute or the field of a record (its type "
                "is not known); write the type of what it reads (def f(c: card)), or rename "
                "by hand")
    return None


def _rename(ls: RulesServer, params: lsp.RenameParams) -> lsp.WorkspaceEdit | None:
    path, _, line, column = ls.place(params.text_document.uri, params.position)
    indexes = ls.all_indexes()
    use = features.target_at(indexes, path, line, column)
    if use is None or use.target.category in ("builtin", "module"):
        return None
    changes: dict[str, list[lsp.TextEdit]] = {}
    for span in features.references(use.target, indexes, True):
        where = ls.location(span)
        changes.setdefault(where.uri, []).append(lsp.TextEdit(where.range, params.new_name))
    return lsp.WorkspaceEdit(changes=changes)


def _formatting(ls: RulesServer, params: lsp.DocumentFormattingParams) -> list[lsp.TextEdit]:
    path, source, _, _ = ls.place(params.text_document.uri, lsp.Position(0, 0))
    try:
        new = format_text(source.text, str(path))
    except RulelangError:  # it does not parse: the diagnostics say why
        return []
    if new == source.text:
        return []
    lines = source.text.splitlines()
    end = lsp.Position(len(lines), 0)
    return [lsp.TextEdit(lsp.Range(lsp.Position(0, 0), end), new)]


def _symbols(ls: RulesServer, params: lsp.DocumentSymbolParams) -> list[lsp.DocumentSymbol]:
    path, source, _, _ = ls.place(params.text_document.uri, lsp.Position(0, 0))
    if is_scenario(str(path)):
        found = [("scenario", m.group(1), Span(str(path), n, 1, n, len(text) + 1))
                 for n, text in enumerate(source.text.splitlines(), 1)
                 if (m := re.match(r'scenario\s+"([^"]*)"', text))]
    else:
        found = outline(own_decls(Source(str(path), source.text)), str(path))
    out = []
    for what, name, span in found:
        whole = ls.range(span, source)
        head = ls.range(Span(span.path, span.line, span.column, span.line,
                             len(source.line(span.line)) + 1), source)
        out.append(lsp.DocumentSymbol(name=name, detail=what, range=whole, selection_range=head,
                                      kind=_SYMBOLS.get(what, lsp.SymbolKind.Key)))
    return out


def _completion(ls: RulesServer, params: lsp.CompletionParams) -> lsp.CompletionList:
    path, source, line, column = ls.place(params.text_document.uri, params.position)
    _, index = ls.index(path)
    items = [lsp.CompletionItem(label=c.label, kind=_KINDS.get(c.kind, lsp.CompletionItemKind.Text),
                                detail=c.detail or c.kind, documentation=c.doc or None)
             for c in features.completions(index, source, line, column, is_scenario(str(path)))]
    return lsp.CompletionList(is_incomplete=False, items=items)
