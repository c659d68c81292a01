"""How long `rulelang lsp` takes to answer an edit with diagnostics, through a real client
(pytest-lsp's, over stdio), wall time from the didChange sent to the document's
publishDiagnostics received (a change that comes alone is checked at once; a burst waits
for server.DEBOUNCE seconds of quiet):

* per bundled rulebook, warm: the rulebook open, then N edits (a line appended, then a
  mistake, alternately: each needs a parse of the file and a check), median and worst;
* a used module broken: shibumi.rule edited (a name misspelt), time until spline.rule, which
  uses it, shows the mistake;
* --long N: N edits of one rulebook (karesansui, the largest, unless named) without a pause,
  each a new text as typing makes them (--repeat: two of the texts above again and again, so
  that the loader's caches of parsed text stay as they are): median, 99th percentile and
  worst, the edits over 100 ms and the slowest (a garbage collection that walks everything
  the server keeps shows there), and the server's memory (VmRSS, VmHWM) after 100 edits,
  every 1000 and at the end; then the same checks in this process, collected as the server collects
  (rulelang/editor/collector.py): the CPU time of Python's garbage collections, the objects
  frozen and not, and this process's memory (the loader keeps up to 4096 parsed
  declarations of edited texts: one more for each typed edit here).

Beside the wall times (which a loaded machine stretches), the CPU time of the same edits'
checks in this process (a Workspace with the same documents open, each edit re-checking what
the server re-checks before it publishes): the part of the latency that is rulelang's work,
steady from one run to the next. The rest is the protocol and the machine's other work.

    python bench/lsp_latency.py [--edits N] [names...]
    python bench/lsp_latency.py --long 2000 [--repeat] [name]
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import client_capabilities, make_test_lsp_client

from rulelang.editor.collector import Collector
from rulelang.editor.workspace import Workspace
from rulelang.language import loader

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


async def _started():
    client = make_test_lsp_client()
    await client.start_io(sys.executable, "-m", "rulelang", "lsp")
    await client.initialize_session(lsp.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=ROOT.as_uri()))
    return client


def _memory(client) -> str:
    """The server process's resident memory now and at its highest (Linux: /proc)."""
    try:
        status = Path(f"/proc/{client._server.pid}/status").read_text()
    except OSError:
        return "(memory not known here)"
    fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
    return " ".join(f"{k} {int(fields[k].split()[0]) / 1024:.1f} MB" for k in ("VmRSS", "VmHWM"))


def _typed(text: str, k: int, repeat: bool = False) -> str:
    """The k-th edit of a long run: a new text each time (a line appended, or a mistake), or
    with `repeat` two texts again and again."""
    if repeat:
        return _edited(text, k % 2)
    return text + (f"\n# edit {k}\n" if k % 2 == 0 else f"\ndef oops{k} = nowhere\n")


async def long_run(name: str, edits: int, repeat: bool) -> None:
    client = await _started()
    path = ROOT / "rulebooks" / f"{name}.rule"
    text = path.read_text(encoding="utf-8")
    doc = await _open(client, path)
    times: list[float] = []
    memory: list[str] = []
    for k in range(edits):
        times.append(await _edit(client, doc, _typed(text, k, repeat), k + 2))
        if k + 1 in (100, edits) or (k + 1) % 1000 == 0:
            memory.append(f"{k + 1}: {_memory(client)}")
    ms = sorted(t * 1000 for t in times)
    slow = [(k + 1, round(t * 1000)) for k, t in enumerate(times) if t > 0.1]
    top = sorted(range(edits), key=lambda k: -times[k])[:5]
    print(f"{name}: {edits} edits without a pause: median {statistics.median(ms):.1f} ms, "
          f"99th percentile {ms[int(len(ms) * 0.99) - 1]:.1f} ms, worst {ms[-1]:.1f} ms")
    print(f"edits over 100 ms: {len(slow)} {slow[:20]}; the slowest (edit, ms):"
          f" {[(k + 1, round(times[k] * 1000)) for k in top]}")
    print("server memory after so many edits:", "; ".join(memory))
    await client.shutdown_session()
    _collections(path, text, edits, repeat)


def _collections(path: Path, text: str, edits: int, repeat: bool) -> None:
    """The long run's checks in this process, collected as the server collects: the CPU time
    of every garbage collection after the document is open (gc.callbacks)."""
    spans: list[tuple[int, float]] = []
    started = [0.0]

    def timed(phase: str, info: dict) -> None:
        if phase == "start":
            started[0] = time.process_time()
        else:
            spans.append((info["generation"], time.process_time() - started[0]))

    space, collector = Workspace(), Collector()
    space.edit(path, text)
    space.check(path)
    collector.checked()
    gc.callbacks.append(timed)
    try:
        for k in range(edits):
            space.edit(path, _typed(text, k, repeat))
            space.check(path, game=False)
            collector.checked()
            if k + 1 == min(100, edits):
                early = _rss()
    finally:
        gc.callbacks.remove(timed)
    every = [t * 1000 for _, t in spans]
    full = [t * 1000 for g, t in spans if g == 2] or [0.0]
    print(f"in this process, the same checks: {len(every)} collections, {sum(every):.0f} ms CPU,"
          f" worst {max(every):.1f} ms; {len(full)} of generation 2: {sum(full):.0f} ms, worst"
          f" {max(full):.1f} ms; {collector.full} of everything (unfrozen)")
    print(f"objects frozen {gc.get_freeze_count()}, not {len(gc.get_objects())}; parsed"
          f" declarations kept {len(loader._PIECES)}; VmRSS after 100 edits {early},"
          f" after {edits} {_rss()}")


def _rss() -> str:
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return "(not known here)"
    return f"{int(status.split('VmRSS:')[1].split()[0]) / 1024:.1f} MB"


async def main(names: list[str], edits: int) -> None:
    client = await _started()
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
    client = await _started()  # a new server: spline.rule and shibumi.rule alone open
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
    ap.add_argument("--long", type=int, metavar="N", help="N edits of one rulebook, no pause")
    ap.add_argument("--repeat", action="store_true",
                    help="--long with two texts again and again (the parse caches stay put)")
    args = ap.parse_args()
    if args.long:
        asyncio.run(long_run(args.names[0] if args.names else "karesansui", args.long,
                             args.repeat))
    else:
        asyncio.run(main(args.names, args.edits))
