"""How evaluate's workers start (tools/evidence/playout.py `_context`): forked from a process with
no
other thread (on Linux), else from a fork server; the records are the same either way, and
the same as in one process."""
from __future__ import annotations

import sys
import threading

import pytest

from rulelang.tools.evidence import playout
from rulelang.tools.evidence.evaluate import evaluate
from rulelang.tools.evidence.playout import Setup

linux = pytest.mark.skipif(sys.platform != "linux", reason="fork and forkserver: Linux here")


@linux
def test_workers_are_forked_only_from_a_process_with_one_thread(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(threading, "active_count", lambda: 1)
    assert playout._context().get_start_method() == "fork"
    monkeypatch.setattr(threading, "active_count", lambda: 2)
    assert playout._context().get_start_method() == "forkserver"


@linux
@pytest.mark.parametrize("threads", [1, 2])
def test_the_records_are_the_same_however_workers_start(
        monkeypatch: pytest.MonkeyPatch, threads: int) -> None:
    setup = Setup("connect_four", (), ("random",), 11, 200)
    alone = evaluate(setup, 16, 1)
    monkeypatch.setattr(threading, "active_count", lambda: threads)
    assert evaluate(setup, 16, 2) == alone
