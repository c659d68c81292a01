"""How long `rulelang lsp` takes to answer hover, definition, references and rename, through
a real client (pytest-lsp's), with the bundled rulebooks' folder as the workspace (its
rulebooks and scenario files read for references and rename; nothing is written).

    python bench/lsp_requests.py [--hovers 200] [RULEBOOK …]

For each rulebook: hovers at every name of its text (at most --hovers, spread evenly), then
definition, references and rename at each of its counters, vars and zones (their declaration
lines); the first references request of the session also checks every rulebook of the
workspace and reads its scenario files, and is shown apart."""
from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import client_capabilities, make_test_lsp_client

ROOT = Path(__file__).resolve().parents[1]
BOOKS = ROOT / "rulebooks"


async def _timed(request) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = await request
    return time.perf_counter() - start, result


async def main(names: list[str], hovers: int) -> None:
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "rulelang", "lsp")
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=BOOKS.as_uri(),
        workspace_folders=[lsp.WorkspaceFolder(uri=BOOKS.as_uri(), name="rulebooks")]))
    print(f"{'rulebook':<14} {'hover ms':>14} {'definition':>11} {'references':>11} "
          f"{'rename':>11}   (median / worst)")
    first = None
    for name in names:
        path = BOOKS / f"{name}.rule"
        text = path.read_text(encoding="utf-8")
        doc = path.as_uri()
        client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
            uri=doc, language_id="rulelang", version=1, text=text)))
        while doc not in client.diagnostics:
            await asyncio.sleep(0.005)
        lines = text.splitlines()
        places = [lsp.Position(n, m.start()) for n, line in enumerate(lines)
                  if not line.lstrip().startswith("#")
                  for m in re.finditer(r"[A-Za-z_]\w*", line.split("#")[0])]
        step = max(1, len(places) // hovers)
        times: dict[str, list[float]] = {"hover": [], "definition": [], "references": [],
                                         "rename": []}
        for pos in places[::step][:hovers]:
            took, _ = await _timed(client.text_document_hover_async(
                lsp.HoverParams(lsp.TextDocumentIdentifier(doc), pos)))
            times["hover"].append(took)
        names_at = [lsp.Position(n, m.start(1)) for n, line in enumerate(lines)
                    if (m := re.match(r"(?:counter|var|zone)\s+(\w+)", line))]
        for pos in names_at:
            ident = lsp.TextDocumentIdentifier(doc)
            took, _ = await _timed(client.text_document_definition_async(
                lsp.DefinitionParams(ident, pos)))
            times["definition"].append(took)
            took, _ = await _timed(client.text_document_references_async(lsp.ReferenceParams(
                text_document=ident, position=pos,
                context=lsp.ReferenceContext(include_declaration=True))))
            if first is None:
                first = took
                continue
            times["references"].append(took)
            took, _ = await _timed(client.text_document_rename_async(lsp.RenameParams(
                text_document=ident, position=pos, new_name="renamed_here")))
            times["rename"].append(took)

        def shown(xs: list[float]) -> str:
            if not xs:
                return "-"
            return f"{statistics.median(xs) * 1000:.1f}/{max(xs) * 1000:.1f}"
        print(f"{name:<14} {shown(times['hover']):>14} {shown(times['definition']):>11} "
              f"{shown(times['references']):>11} {shown(times['rename']):>11}"
              f"   ({len(times['hover'])} hovers, {len(names_at)} names)")
    if first is not None:
        print(f"first references of the session (every workspace rulebook checked, its "
              f"scenario files read): {first * 1000:.0f} ms")
    errors = [m.message for m in client.log_messages if m.type == lsp.MessageType.Error]
    print(f"errors in the server's log: {len(errors)}")
    for e in errors[:3]:
        print(e)
    await client.shutdown_session()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*", default=["karesansui", "muso_sakura", "tatara",
                                                 "spline_plus", "tic_tac_toe"])
    ap.add_argument("--hovers", type=int, default=200)
    args = ap.parse_args()
    asyncio.run(main(args.names, args.hovers))
