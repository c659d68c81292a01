"""The language server's garbage collections (rulelang/editor/collector.py): after a check,
what it dropped is collected and what lives is frozen; an object frozen while alive and
dropped later in a cycle is freed by a collection of everything, while the editor is quiet
or after so many checks without a pause. The automatic collections are off meanwhile, so
only the Collector can free a cycle here. (Its time: bench/lsp_latency.py --long.)"""
from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from rulelang.editor.collector import Collector


class _Node:
    def __init__(self) -> None:
        self.me = self  # a reference cycle: only a garbage collection frees it


@pytest.fixture
def no_automatic_collections() -> Iterator[None]:
    gc.disable()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.enable()


def _frozen(obj: object) -> bool:
    return not any(o is obj for o in gc.get_objects())


def test_a_checks_garbage_is_collected_and_what_lives_is_frozen(
        no_automatic_collections: None) -> None:
    collector = Collector()
    collector.checked()  # the first check: everything collected, then frozen
    kept, dropped = _Node(), _Node()
    alive, dead = weakref.ref(kept), weakref.ref(dropped)
    del dropped
    assert dead() is not None and not _frozen(kept)
    collector.checked()
    assert dead() is None and alive() is kept and _frozen(kept)
    assert collector.full == 1  # the second check walked only what was new


def test_what_died_frozen_is_freed_when_quiet_or_after_so_many_checks(
        no_automatic_collections: None) -> None:
    collector = Collector(quiet=3, anyway=5)
    collector.checked()
    kept = _Node()
    ref = weakref.ref(kept)
    collector.checked()  # frozen alive ...
    del kept  # ... then dropped
    collector.checked()
    collector.quiet()  # quiet, but after 2 checks only: what is new is collected
    assert ref() is not None and collector.full == 1
    collector.checked()
    collector.quiet()  # after 3 checks: everything
    assert ref() is None and collector.full == 2

    kept = _Node()
    ref = weakref.ref(kept)
    collector.checked()
    del kept
    for _ in range(3):  # no pause: 4 checks since everything was collected
        collector.checked()
    assert ref() is not None
    collector.checked()  # the 5th
    assert ref() is None and collector.full == 3
