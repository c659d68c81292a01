"""`rulelang lsp` through a real client (pytest-lsp: the server runs as `python -m rulelang
lsp` in a subprocess and is spoken to over stdio): open, change, hover, completion,
definition, references, rename, formatting and symbols, on a game that uses a module of its
own, a stdlib module and a data file (whose columns are its pieces' attributes)."""
from __future__ import annotations

import asyncio
import random
import re
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types as lsp
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

import rulelang

pytestmark = pytest.mark.asyncio(loop_scope="module")

ROOT = Path(__file__).resolve().parent / "project"
HELPERS = """# Helpers of the test game.
# Whether a site holds nothing.
def free(s) = empty(s)
def double(x) = x * 2
"""
GAME = """use square
use helpers

game "Test"
players White, Black
board square.grid(3, 3, 3)
piece mark
piece card with board: number = 0
zone supply each player: 5 mark
zone box: card from "cards.yaml"
counter placed each player = 0

# Place a mark on a free site.
action place
  choose site s in sites where helpers.free(s) else "s: {s} is taken ({placed of mover} placed)"
  put mark of mover at s
  increase placed of mover by helpers.double(1)

turn
  do place

end
  when size(each s in sites where helpers.free(s)) == 0
    draw

# What a card is worth.
def worth(c: card) = c.board + 1

view
  hide supply
  show placed as "marks placed"
"""
CARDS = "- {board: 1}\n- {board: 2}\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    where = tmp_path_factory.mktemp("project")
    (where / "helpers.rule").write_text(HELPERS)
    (where / "game.rule").write_text(GAME)
    (where / "cards.yaml").write_text(CARDS)
    shutil.copy(ROOT.parents[2] / "rulebooks" / "tic_tac_toe.rule", where / "other.rule")
    return where


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(
    server_command=[sys.executable, "-m", "rulelang", "lsp"]))
async def client(lsp_client: LanguageClient, folder: Path):  # type: ignore[no-untyped-def]
    versions: dict[str, int | None] = {}  # the document version each publish is for
    features = lsp_client.protocol.fm.features
    keep = features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def published(params: lsp.PublishDiagnosticsParams) -> None:
        keep(params)
        versions[params.uri] = params.version

    features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = published

    lsp_client.versions = versions  # type: ignore[attr-defined]
    await lsp_client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=folder.as_uri(),
        workspace_folders=[lsp.WorkspaceFolder(uri=folder.as_uri(), name="project")]))
    yield
    await lsp_client.shutdown_session()


def uri(folder: Path, name: str) -> str:
    return (folder / name).as_uri()


async def opened(client: LanguageClient, folder: Path, name: str, text: str | None = None
                 ) -> str:
    """Open a document and wait for its check: a rulebook's or a scenario's own diagnostics
    (not a notification left over from the test before); for a data file, the next one."""
    doc = uri(folder, name)
    client.diagnostics.pop(doc, None)
    versions = client.versions  # type: ignore[attr-defined]
    versions.pop(doc, None)
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=doc, language_id="rulelang", version=1,
        text=text if text is not None else (folder / name).read_text())))
    if name.endswith((".rule", ".test")):
        await until(client, lambda: doc in client.diagnostics and versions.get(doc) == 1)
    else:
        await client.wait_for_notification(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return doc


async def change(client: LanguageClient, doc: str, text: str, version: int) -> None:
    """Send the new text and wait for the document's diagnostics of that version."""
    client.diagnostics.pop(doc, None)
    versions = client.versions  # type: ignore[attr-defined]
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=doc, version=version),
        [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    await until(client, lambda: doc in client.diagnostics and versions.get(doc) == version)


async def until(client: LanguageClient, holds: Callable[[], bool]) -> None:
    """Wait for the notifications that make `holds` true (each file is published in turn):
    looked at every 10 ms, for at most 60 s in all (a loaded machine)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not holds():
        assert loop.time() < deadline, "no diagnostics that make it hold within 60 s"
        await asyncio.sleep(0.01)


def where(doc: str, position: lsp.Position) -> dict[str, object]:
    return {"text_document": lsp.TextDocumentIdentifier(doc), "position": position}


def at(text: str, needle: str, offset: int = 0) -> lsp.Position:
    """The position of the first `needle` in text (plus offset characters)."""
    before = text[: text.index(needle) + offset]
    return lsp.Position(before.count("\n"), len(before.rpartition("\n")[2]))


async def test_diagnostics_are_the_checkers_and_follow_changes(
        client: LanguageClient, folder: Path) -> None:
    doc = await opened(client, folder, "game.rule")
    assert not client.diagnostics[doc]
    broken = GAME.replace("do place", "do plaec")
    await change(client, doc, broken, 2)
    [d] = client.diagnostics[doc]
    assert (d.code, d.severity) == ("R201", lsp.DiagnosticSeverity.Error)
    assert d.message == "unknown action 'plaec'\nhelp: did you mean 'place'?"
    assert d.range == lsp.Range(at(broken, "plaec"), at(broken, "plaec", 5))
    await change(client, doc, GAME, 3)
    assert not client.diagnostics[doc]
    assert not [m for m in client.log_messages if m.type == lsp.MessageType.Error]


async def test_a_burst_of_changes_is_checked_as_its_last_text(
        client: LanguageClient, folder: Path) -> None:
    """Changes sent together (the first is checked at once, those that find a check waiting
    are gathered): the diagnostics end as the last text's, for its version."""
    doc = await opened(client, folder, "game.rule")
    texts = [GAME.replace("do place", f"do plac{k}") for k in range(4)] + [
        GAME.replace("do place", "do pl")]
    for version, text in enumerate(texts, start=2):
        client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=doc, version=version),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    await until(client, lambda: client.versions.get(doc) == 6)  # type: ignore[attr-defined]
    messages = [d.message for d in client.diagnostics[doc]]
    assert "unknown action 'pl'" in [m.split("\n")[0] for m in messages], messages
    assert not any(re.search(r"plac\d", m) for m in messages), messages
    await change(client, doc, GAME, 7)
    assert not client.diagnostics[doc]


async def test_a_broken_module_shows_in_the_file_that_uses_it(
        client: LanguageClient, folder: Path) -> None:
    game = await opened(client, folder, "game.rule")
    helpers = await opened(client, folder, "helpers.rule")
    broken = HELPERS.replace("empty(s)", "emty(s)")
    await change(client, helpers, broken, 2)
    await until(client, lambda: bool(client.diagnostics[game] and client.diagnostics[helpers]))
    [own] = client.diagnostics[helpers]
    assert own.code == "R201" and own.range.start == at(broken, "emty")
    shown = client.diagnostics[game]
    assert shown and all(d.range.start.line == 1 for d in shown)  # the `use helpers` line
    assert shown[0].message.startswith("in helpers.rule:3: unknown name 'emty'")
    await change(client, helpers, HELPERS, 3)
    await until(client, lambda: not client.diagnostics[helpers] and not client.diagnostics[game])


async def test_a_data_files_mistake_is_shown_in_the_data_file(
        client: LanguageClient, folder: Path) -> None:
    game = await opened(client, folder, "game.rule")
    cards = await opened(client, folder, "cards.yaml")
    await change(client, cards, "- {board: 1}\n- [oops\n", 2)
    await until(client, lambda: bool(client.diagnostics.get(game)
                                     and client.diagnostics.get(cards)))
    [d] = client.diagnostics[cards]
    assert d.code == "R106" and "not valid YAML" in d.message
    assert client.diagnostics[game][0].range.start.line == 9  # the zone that names it
    await change(client, cards, CARDS, 3)
    await until(client, lambda: not client.diagnostics[game] and not client.diagnostics[cards])


async def test_hover(client: LanguageClient, folder: Path) -> None:
    doc = await opened(client, folder, "game.rule")
    builtin = await client.text_document_hover_async(lsp.HoverParams(
        **where(doc, at(GAME, "size("))))
    assert builtin is not None
    assert "size(…)" in str(builtin.contents) and "Example:" in str(builtin.contents)
    rule = await client.text_document_hover_async(lsp.HoverParams(
        **where(doc, at(GAME, "helpers.free", 9))))
    assert rule is not None
    text = str(rule.contents)
    assert "def free(s) = empty(s)" in text and "Whether a site holds nothing." in text
    compare = await client.text_document_hover_async(lsp.HoverParams(
        **where(doc, at(GAME, ") == 0", 2))))
    assert compare is not None and "a truth value" in str(compare.contents)
    count = await client.text_document_hover_async(lsp.HoverParams(
        **where(doc, at(GAME, "size(each", 1))))
    assert count is not None and "`size(each s in sites where helpers.fr…`: a number" \
        in str(count.contents) and "Example:" in str(count.contents)
    action = await client.text_document_hover_async(lsp.HoverParams(
        **where(doc, at(GAME, "do place", 4))))
    assert action is not None and "Place a mark on a free site." in str(action.contents)


async def test_completion(client: LanguageClient, folder: Path) -> None:
    text = GAME.replace("  do place\n", "  do place\n  \n")
    doc = await opened(client, folder, "game.rule", text)
    here = at(text, "  do place\n  \n", len("  do place\n  "))
    found = await client.text_document_completion_async(lsp.CompletionParams(
        **where(doc, here)))
    assert found is not None
    labels = {i.label: i for i in (found.items if isinstance(found, lsp.CompletionList)
                                   else found)}
    assert {"choose", "put", "let", "if"} <= labels.keys() and "piece" not in labels
    assert {"placed", "supply", "mark", "White", "helpers", "size"} <= labels.keys()
    assert labels["size"].detail and "->" in labels["size"].detail
    dotted = GAME.replace("helpers.free(s)", "helpers.", 1)
    await change(client, doc, dotted, 7)
    found = await client.text_document_completion_async(lsp.CompletionParams(
        **where(doc, at(dotted, "helpers.", 8))))
    assert found is not None
    items = found.items if isinstance(found, lsp.CompletionList) else found
    assert {i.label for i in items} == {"free", "double"}
    await change(client, doc, GAME, 8)


async def test_definition_and_references_across_files(client: LanguageClient,
                                                     folder: Path) -> None:
    doc = await opened(client, folder, "game.rule")
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        **where(doc, at(GAME, "helpers.double", 9))))
    assert isinstance(found, list) and len(found) == 1
    assert found[0].uri == uri(folder, "helpers.rule")
    assert found[0].range.start == at(HELPERS, "double")
    data = await client.text_document_definition_async(lsp.DefinitionParams(
        **where(doc, at(GAME, "cards.yaml", 2))))
    assert isinstance(data, list) and data[0].uri == uri(folder, "cards.yaml")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(doc), position=at(GAME, "helpers.free", 9),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None
    places = sorted((r.uri.rsplit("/", 1)[1], r.range.start.line) for r in refs)
    assert places == [("game.rule", 14), ("game.rule", 22), ("helpers.rule", 2)]


async def test_rename_across_files(client: LanguageClient, folder: Path) -> None:
    doc = await opened(client, folder, "game.rule")
    edit = await client.text_document_rename_async(lsp.RenameParams(
        **where(doc, at(GAME, "helpers.free", 9)), new_name="vacant"))
    assert edit is not None and edit.changes is not None
    lines = {name.rsplit("/", 1)[1]: sorted(e.range.start.line for e in edits)
             for name, edits in edit.changes.items()}
    assert lines == {"game.rule": [14, 22], "helpers.rule": [2]}
    assert all(e.new_text == "vacant" for es in edit.changes.values() for e in es)
    renamed = _apply(GAME, edit.changes[doc])
    assert renamed.count("helpers.vacant(s)") == 2 and "helpers.free" not in renamed
    local = await client.text_document_rename_async(lsp.RenameParams(
        **where(doc, at(GAME, "site s", 5)), new_name="where_to"))
    assert local is not None and local.changes is not None
    # in the text for the players, the `{s}` that names it, not the word s
    assert "choose site where_to in sites where helpers.free(where_to) else " \
        '"s: {where_to} is taken ({placed of mover} placed)"' in _apply(GAME, local.changes[doc])
    counter = await client.text_document_rename_async(lsp.RenameParams(
        **where(doc, at(GAME, "placed of mover} placed")), new_name="laid"))
    assert counter is not None and counter.changes is not None
    renamed = _apply(GAME, counter.changes[doc])
    assert renamed == GAME.replace("placed of", "laid of").replace(
        "counter placed", "counter laid").replace("show placed", "show laid")


async def test_hover_shows_the_type_checkers_types(client: LanguageClient,
                                                   folder: Path) -> None:
    """Locals where they are bound and where they are read (in a text's `{…}` too), a
    parameter, an attribute read, a call: their types as the type checker gives them."""
    doc = await opened(client, folder, "game.rule")

    async def hover(text: str, needle: str, offset: int = 0, name: str = "game.rule") -> str:
        found = await client.text_document_hover_async(lsp.HoverParams(
            **where(uri(folder, name), at(text, needle, offset))))
        return "" if found is None else str(found.contents)

    assert "`s`: a site" in await hover(GAME, "site s", 5)  # bound by the choose
    assert "`s`: a site" in await hover(GAME, "{s}", 1)  # read in the `else` text
    assert "a site" not in await hover(GAME, '"s: {', 1)  # a word of the text
    assert "`placed of mover`: a number" in await hover(GAME, "placed of mover}", 7)
    assert "`c`: a 'card' piece" in await hover(GAME, "worth(c", 6)  # a typed parameter
    assert "`c.board`: a number" in await hover(GAME, "c.board", 3)
    assert "`helpers.free(s)`: a truth value" in await hover(GAME, "free(s)")  # a call
    # in a module: a parameter of no written type, and what its rule's body needs of it
    await opened(client, folder, "helpers.rule")
    assert "`s`: a parameter of any type, used as a site" in await hover(
        HELPERS, "free(s)", 5, "helpers.rule")
    assert "`s`: a parameter of any type, used as a site" in await hover(
        HELPERS, "empty(s)", 6, "helpers.rule")
    assert doc


async def test_definition_references_and_rename_reach_the_data_files_columns(
        client: LanguageClient, folder: Path) -> None:
    """A piece attribute that a data file's rows give: defined by the piece declaration and
    by the data file's column; its references and its rename include every row's key."""
    doc = await opened(client, folder, "game.rule")
    cards = uri(folder, "cards.yaml")
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        **where(doc, at(GAME, "c.board", 2))))
    assert isinstance(found, list)
    assert [(f.uri, f.range.start) for f in found] == [
        (doc, at(GAME, "board: number")), (cards, at(CARDS, "board"))]
    places = [(doc, at(GAME, "board: number")), (doc, at(GAME, "c.board", 2)),
              (cards, at(CARDS, "board")), (cards, lsp.Position(1, 3))]
    for here in ((doc, at(GAME, "c.board", 2)), (cards, lsp.Position(1, 4))):  # from either
        refs = await client.text_document_references_async(lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(here[0]), position=here[1],
            context=lsp.ReferenceContext(include_declaration=True)))
        assert refs is not None
        assert sorted((r.uri, r.range.start.line, r.range.start.character) for r in refs) \
            == sorted((u, p.line, p.character) for u, p in places)
    edit = await client.text_document_rename_async(lsp.RenameParams(
        **where(doc, at(GAME, "c.board", 2)), new_name="value"))
    assert edit is not None and edit.changes is not None
    assert _apply(CARDS, edit.changes[cards]) == CARDS.replace("board", "value")
    assert _apply(GAME, edit.changes[doc]) == GAME.replace(
        "with board", "with value").replace("c.board", "c.value")
    with pytest.raises(Exception, match="no name"):  # a YAML key `yes:` reads as true
        await client.text_document_rename_async(lsp.RenameParams(
            **where(doc, at(GAME, "c.board", 2)), new_name="yes"))
    # `x.board` where x may be a piece or a record with a field `board`: refused, said where
    both = GAME + "def pair(x) = x.board\ndef sizes = (board: 3, side: 1)\n"
    await change(client, doc, both, 2)
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(doc), position=at(both, "c.board", 2),
        context=lsp.ReferenceContext(include_declaration=True)))
    assert refs is not None and at(both, "x.board", 2) in [r.range.start for r in refs]
    line = both[:both.index("x.board")].count("\n") + 1
    with pytest.raises(Exception, match=f"at game.rule:{line} '.board' may read"):
        await client.text_document_rename_async(lsp.RenameParams(
            **where(doc, at(both, "c.board", 2)), new_name="value"))
    await change(client, doc, GAME, 3)


def _apply(text: str, edits: list[lsp.TextEdit]) -> str:
    lines = text.splitlines(True)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character),
                    reverse=True):
        line = lines[e.range.start.line]
        lines[e.range.start.line] = line[:e.range.start.character] + e.new_text \
            + line[e.range.end.character:]
    return "".join(lines)


async def test_formatting_and_symbols(client: LanguageClient, folder: Path) -> None:
    messy = GAME.replace("players White, Black", "players White,Black").replace(
        "helpers.double(1)", "helpers.double( 1 )")
    doc = await opened(client, folder, "game.rule", messy)
    edits = await client.text_document_formatting_async(lsp.DocumentFormattingParams(
        text_document=lsp.TextDocumentIdentifier(doc),
        options=lsp.FormattingOptions(tab_size=2, insert_spaces=True)))
    assert edits is not None and len(edits) == 1 and edits[0].new_text == GAME
    outline = await client.text_document_document_symbol_async(lsp.DocumentSymbolParams(
        text_document=lsp.TextDocumentIdentifier(doc)))
    assert outline is not None
    names = [(s.detail, s.name) for s in outline if isinstance(s, lsp.DocumentSymbol)]
    assert ("action", "place") in names and ("section", "turn") in names
    assert ("section", "end") in names and ("zone", "box") in names
    await change(client, doc, GAME, 9)


async def test_a_scenario_file_gets_diagnostics_and_its_sites_coordinates(
        client: LanguageClient, folder: Path) -> None:
    text = 'rulebook "game.rule"\n\nscenario "start"\n  expect\n    at "b3" empty\n'
    (folder / "game.test").write_text(text)
    doc = await opened(client, folder, "game.test")
    assert not client.diagnostics[doc]
    site = await client.text_document_hover_async(lsp.HoverParams(
        **where(doc, at(text, '"b3"', 1))))
    assert site is not None and "coordinates (2, 1)" in str(site.contents)
    await change(client, doc, text.replace("expect", "expec"), 2)
    [d] = client.diagnostics[doc]
    assert d.code.startswith("R10") and d.range.start.line == 3


SCENARIO = """rulebook "game.rule"

scenario "placed marks of White"
  given
    White mark at "a1"
    counter placed of White: 1
  expect counter placed of White: 1
"""


async def test_references_and_rename_reach_the_scenario_files(
        client: LanguageClient, folder: Path) -> None:
    """A counter and a piece kind named by a scenario file (open or not): found there,
    renamed there (never a word of its texts), and the scenario's name leads to them."""
    (folder / "named.test").write_text(SCENARIO)
    doc = await opened(client, folder, "game.rule")
    named = uri(folder, "named.test")
    refs = await client.text_document_references_async(lsp.ReferenceParams(
        text_document=lsp.TextDocumentIdentifier(doc), position=at(GAME, "mark of", 1),
        context=lsp.ReferenceContext(include_declaration=False)))
    assert refs is not None and (named, at(SCENARIO, "mark at")) in [
        (r.uri, r.range.start) for r in refs]
    edit = await client.text_document_rename_async(lsp.RenameParams(
        **where(doc, at(GAME, "placed of")), new_name="laid"))
    assert edit is not None and edit.changes is not None
    assert _apply(SCENARIO, edit.changes[named]) == SCENARIO.replace(
        "counter placed", "counter laid")
    test = await opened(client, folder, "named.test")
    found = await client.text_document_definition_async(lsp.DefinitionParams(
        **where(test, at(SCENARIO, "placed of", 2))))
    assert isinstance(found, list) and [(f.uri, f.range.start) for f in found] == [
        (doc, at(GAME, "placed each"))]


def mutants(text: str, rng: random.Random, n: int) -> list[str]:
    """Half-typed versions of a rulebook: a token deleted, a number changed, two names
    swapped, a declaration repeated, the text cut short."""
    words = re.findall(r"[A-Za-z_]\w*|\d+|\S", text)
    out = []
    for k in range(n):
        how = k % 5
        if how == 0:
            w = rng.choice(words)
            i = text.find(w, rng.randrange(len(text)))
            out.append(text[:i] + text[i + len(w):] if i >= 0 else text[:-5])
        elif how == 1:
            out.append(re.sub(r"\d+", lambda m: str(rng.choice([0, 1, 99, 10 ** 30])), text,
                              count=rng.randint(1, 3)))
        elif how == 2:
            a, b = rng.sample(sorted(set(re.findall(r"[a-z_]{3,}", text))), 2)
            out.append(text.replace(a, "\0").replace(b, a).replace("\0", b))
        elif how == 3:
            lines = text.splitlines(True)
            i = rng.randrange(len(lines))
            out.append("".join(lines[:i] + [lines[i]] + lines[i:]))
        else:
            out.append(text[: rng.randrange(len(text))])
    return out


async def test_half_typed_rulebooks_give_the_checkers_diagnostics_and_no_error(
        client: LanguageClient, folder: Path) -> None:
    """Each mutant, fed as an edit, gets exactly the diagnostics `rulelang check` gives."""
    rng = random.Random(7)
    book = (ROOT.parents[2] / "rulebooks" / "spline_plus.rule").read_text()
    doc = await opened(client, folder, "spline_plus.rule", book)
    alone = folder / "alone"
    alone.mkdir()
    wrong = 0
    for version, text in enumerate(mutants(book, rng, 15), start=2):
        await change(client, doc, text, version)
        got = {(d.code, d.range.start.line + 1, d.range.start.character + 1)
               for d in client.diagnostics[doc] if not d.message.startswith("in ")}
        (alone / "spline_plus.rule").write_text(text)
        expected = set()
        try:
            rulelang.check_file(alone / "spline_plus.rule")  # as `rulelang check` does
        except rulelang.RulelangError as err:
            for d in getattr(err, "diagnostics", [getattr(err, "diagnostic", None)]):
                if d is not None and d.span is not None and d.span.path.endswith(
                        "alone/spline_plus.rule"):
                    expected.add((d.code, d.span.line, d.span.column))
        assert got == expected, text
        wrong += bool(expected)
    assert wrong >= 3
    assert not [m.message for m in client.log_messages if m.type == lsp.MessageType.Error]


def checked(*paths: Path) -> list[rulelang.Diagnostic]:
    """Every diagnostic `rulelang check` gives these files (each checked as the command does)."""
    found = []
    for path in paths:
        try:
            rulelang.check_file(path)
        except rulelang.RulebookError as err:
            found.extend(err.diagnostics)
    return found


def shown(d: rulelang.Diagnostic, lines: list[str]) -> tuple[object, ...]:
    """A diagnostic as the server publishes it: its message with the help line, its range in
    UTF-16 units (the client's default)."""
    def units(line: int, column: int) -> int:
        return len(lines[line - 1][:column - 1].encode("utf-16-le")) // 2
    s = d.span
    assert s is not None
    return (d.code, d.message + (f"\nhelp: {d.help}" if d.help else ""), s.line - 1,
            units(s.line, s.column), s.end_line - 1, units(s.end_line, s.end_column))


def published(client: LanguageClient, doc: str) -> set[tuple[object, ...]]:
    return {(d.code, d.message, d.range.start.line, d.range.start.character,
             d.range.end.line, d.range.end.character) for d in client.diagnostics[doc]}


@pytest.mark.parametrize(("game", "module", "wrong", "right"), [
    # a module's mistake (in the module, and in the game that uses it), a name it lost
    ("karesansui", "karesansui_garden", "def moss_points(p) = memo(moss_of, tile_grid(p))",
     "def moss_point(p) = memo(moss_of, tile_grd(p) + true)"),
    ("tatara", "tatara_terms", "enum wood_use: money, material",
     "enum wood_use: money, materials"),
], ids=["karesansui", "tatara"])
async def test_after_an_edit_each_file_shows_what_rulelang_check_says(
        client: LanguageClient, folder: Path, game: str, module: str, wrong: str,
        right: str) -> None:
    """A bundled game and the module it uses, both open; the module edited: each file's
    diagnostics are exactly those `rulelang check` gives for it (code, message, help line and
    range), whichever of the two checks found them, and the game shows the module's on the
    line that uses it."""
    here = folder / game
    here.mkdir()
    for path in (ROOT.parents[2] / "rulebooks").glob(f"{game.split('_')[0]}*"):
        shutil.copy(path, here / path.name)
    book = await opened(client, here, f"{game}.rule")
    mod = await opened(client, here, f"{module}.rule")
    text = (here / f"{module}.rule").read_text()
    assert wrong in text
    edited = text.replace(wrong, right, 1)
    (here / f"{module}.rule").write_text(edited)  # for `rulelang check`
    await change(client, mod, edited, 2)
    await until(client, lambda: client.versions.get(book) == 1  # type: ignore[attr-defined]
                and bool(client.diagnostics.get(book)))
    expected = checked(here / f"{module}.rule", here / f"{game}.rule")
    assert {Path(d.span.path).name for d in expected if d.span is not None} >= {f"{game}.rule"}
    for name in (module, game):
        lines = (here / f"{name}.rule").read_text().splitlines()
        own = {shown(d, lines) for d in expected
               if d.span is not None
               and Path(d.span.path).resolve() == (here / f"{name}.rule").resolve()}
        got = published(client, uri(here, f"{name}.rule"))
        assert {g for g in got if not str(g[1]).startswith("in ")} == own, name
    others = {f"in {module}.rule:{d.span.line}: {d.message}" for d in checked(
        here / f"{game}.rule") if d.span is not None and module in d.span.path}
    assert {str(g[1]).split("\nhelp: ")[0] for g in published(client, book)
            if str(g[1]).startswith("in ")} == others
    await change(client, mod, text, 3)
    await until(client, lambda: not client.diagnostics[mod] and not client.diagnostics[book])
