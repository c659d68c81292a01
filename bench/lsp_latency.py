"""How long `rulelang lsp` takes to answer an edit with diagnostics, through a real client
(pytest-lsp's, over stdio), wall time from the didChange sent to the document's
publishDiagnostics received (a change that comes alone is checked at once; a burst waits
for server.DEBOUNCE seconds of quiet):

* per bundled rulebook, warm: the rulebook open, then N edits (a line appended, then a
  mistake, alternately: each needs a parse of the file and a check), median and worst;
* a used module broken: shibumi.rule edited (a name misspelt), time until spline.rule, which
  uses it, shows the mistake.

Beside the wall times (which a loaded machine stretches), the CPU time of the same edits'
checks in this process (a Workspace with the same documents open, each edit re-checking what
the server re-checks before it publishes): the part of the latency that is rulelang's work,
steady from one run to the next. The rest is the protocol and the machine's other work.

    python bench/lsp_latency.py [--edits N] [names...]
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import client_capabilities, make_test_lsp_client

from rulelang.editor.workspace import Workspace

ROOT = Path(__file__).resolve().parents[1]


async def _edit(client, doc: str, text: str, version: int, wait_for: str | None = None
                ) -> float:
    target = wait_for or doc
    client.diagnostics.pop(target, None)
    start = time.perf_counter()
    client.text_document_did_change(lsp.DidChangeTextDocumentParams(
        lsp.VersionedTextDocumentIdentifier(uri=doc, version=version),
        [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
    await _published(client, target, 30)
    return time.perf_counter() - start


async def _published(client, doc: str, seconds: float) -> None:
    """Wait for the document's diagnostics, looking every millisecond (not for the next
    notification: the client may store a notification's diagnostics after it wakes who
    waits for it, and a wait for the next one then hangs when no other follows)."""
    deadline = time.perf_counter() + seconds
    while doc not in client.diagnostics:
        if time.perf_counter() > deadline:
            raise TimeoutError(f"no diagnostics for {doc} within {seconds} s")
        await asyncio.sleep(0.001)


async def _open(client, path: Path) -> str:
    doc = path.resolve().as_uri()
    client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(
        uri=doc, language_id="rulelang", version=1, text=path.read_text(encoding="utf-8"))))
    await _published(client, doc, 60)
    return doc


def _edited(text: str, k: int) -> str:
    """A line appended, then a mistake, alternately: each needs a parse of the file and a
    check."""
    return text + f"\n# edit {k}\n" if k % 2 == 0 else text + "\ndef oops = nowhere\n"


def _check_cpu(space: Workspace, path: Path, text: str, edits: int) -> float:
    """The median CPU time of the checks the server makes for each edit before it publishes
    (the document and every open one whose check read it; the board is built later)."""
    space.edit(path, text)
    space.check(path)  # (opened: checked, its board built)
    times = []
    for k in range(edits):
        space.edit(path, _edited(text, k))
        start = time.process_time()
        for doc in space.affected(path):
            space.check(doc, game=False)
        times.append(time.process_time() - start)
    space.edit(path, text)
    for doc in space.affected(path):
        space.check(doc)
    return statistics.median(times)


async def main(names: list[str], edits: int) -> None:
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "rulelang", "lsp")
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    books = [ROOT / "rulebooks" / f"{n}.rule" for n in names] if names else sorted(
        (ROOT / "rulebooks").glob("*.rule"))
    print(f"{'rulebook':<22} {'lines':>5} {'median ms':>10} {'worst ms':>9} {'cpu ms':>7}")
    worst_all = 0.0
    space = Workspace()  # the same documents open, in this process: the checks' CPU time
    for path in books:
        text = path.read_text(encoding="utf-8")
        doc = await _open(client, path)
        times = []
        for k in range(edits):
            times.append(await _edit(client, doc, _edited(text, k), k + 2))
        await _edit(client, doc, text, edits + 2)
        worst_all = max(worst_all, max(times))
        cpu = _check_cpu(space, path, text, edits)
        print(f"{path.stem:<22} {text.count(chr(10)):>5} {statistics.median(times) * 1000:>10.1f}"
              f" {max(times) * 1000:>9.1f} {cpu * 1000:>7.1f}")
    print(f"worst of all: {worst_all * 1000:.1f} ms")
    await client.shutdown_session()
    client = make_test_lsp_client()  # a new server: spline.rule and shibumi.rule alone open
    await client.start_io(sys.executable, "-m", "rulelang", "lsp")
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    spline = await _open(client, ROOT / "rulebooks" / "spline.rule")
    module = ROOT / "stdlib" / "shibumi.rule"
    mod_doc = await _open(client, module)
    text = module.read_text(encoding="utf-8")
    broken = text.replace("def playable", "def playabel", 1)
    await _edit(client, mod_doc, text + "\n", 2, wait_for=spline)  # (warm)
    took = await _edit(client, mod_doc, broken, 3, wait_for=spline)
    shown = [d.message for d in client.diagnostics[spline]]
    print(f"shibumi.rule broken -> spline.rule shows it after {took * 1000:.1f} ms: {shown[:1]}")
    await _edit(client, mod_doc, text, 4)
    await client.shutdown_session()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--edits", type=int, default=10)
    args = ap.parse_args()
    asyncio.run(main(args.names, args.edits))
