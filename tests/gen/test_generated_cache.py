"""Generated modules kept in the private cache folder (gen/cache.py): a game loaded again by
a new process (here: with every in-memory cache emptied, so its program and runtime are new
objects) reads its module from the folder instead of writing it, and plays as the reference
does; the runtime's own objects in the module's constants are the new runtime's."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
import rulelang.gen.cache as cache
from rulelang.gen import GenGame, actions
from rulelang.language import ast
from rulelang.language import cache as parse_cache
from rulelang.model.values import Player, Site

from .test_generated_equal import TAKEN, _same


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process: no program, runtime, parsed file or generated class in memory."""
    for module, table in ((rulelang, "_PROGRAMS"), (rulelang, "_RUNTIMES"),
                          (rulelang, "_GENERATED"), (parse_cache, "_MEMORY")):
        monkeypatch.setattr(module, table, {})


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("RULELANG_NO_CACHE", raising=False)
    return tmp_path / "rulelang"


def _writes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    written: list[int] = []
    original = actions.GameWriter.write

    def counted(self: Any) -> Any:
        written.append(1)
        return original(self)
    monkeypatch.setattr(actions.GameWriter, "write", counted)
    return written


@pytest.mark.parametrize(("name", "options"), TAKEN[::2], ids=lambda x: str(x))
def test_a_module_read_from_the_folder_plays_as_the_reference(
        name: str, options: dict[str, int], folder: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch)
    first = rulelang.load_game(name, options, mode="generated")
    assert isinstance(first, GenGame)
    assert list(folder.glob("generated-*.pickle"))
    _forget(monkeypatch)
    written = _writes(monkeypatch)
    gen = rulelang.load_game(name, options, mode="generated")
    assert isinstance(gen, GenGame) and not written  # (read, not written)
    assert gen.runtime is not first.runtime
    assert gen.runtime.program is not first.runtime.program
    assert gen.state_class.generated.source == first.state_class.generated.source
    kept, before = cache._Objects(gen.runtime), cache._Objects(first.runtime)
    made = gen.state_class.generated
    nodes = [*made.dos, *(c for c, _ in made.chooses)]
    for value in [*made.constants.values(), *nodes]:
        old = before.numbers.get(id(value))
        assert old is None or old[0] == "single", f"{value!r} is the first runtime's"
        if isinstance(value, (ast.Node, Site, Player)):  # the new program's, board's
            assert id(value) in kept.numbers, f"{value!r} is a copy"
    ref = rulelang.load_game(name, options, mode="interpreted")
    g, r = gen.new_initial_state(1), ref.new_initial_state(1)
    rng, ply = random.Random(1), 0
    while True:
        _same(g, r, f"{name} ply {ply}")
        if r.is_terminal() or ply > 300:
            break
        action = rng.randrange(len(r.legal_actions()))
        g.apply_action(action)
        r.apply_action(action)
        ply += 1


def test_nodes_are_found_again_in_order(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The program's nodes are numbered in the same order in every load of a game (what a
    module's node constants are found again by): the same kinds at the same positions."""
    first = cache._Objects(rulelang.load_game("karesansui", mode="interpreted").runtime)
    _forget(monkeypatch)
    again = cache._Objects(rulelang.load_game("karesansui", mode="interpreted").runtime)
    assert len(first.nodes) == len(again.nodes) > 1000
    for a, b in zip(first.nodes, again.nodes, strict=True):
        assert a is not b and type(a) is type(b) and a.span == b.span


def test_a_stale_or_broken_entry_is_written_anew(folder: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _forget(monkeypatch)
    rulelang.load_game("hex", {"size": 5})
    for entry in folder.glob("generated-*.pickle"):
        entry.write_bytes(entry.read_bytes()[:100])  # (truncated)
    _forget(monkeypatch)
    written = _writes(monkeypatch)
    game = rulelang.load_game("hex", {"size": 5})
    assert isinstance(game, GenGame) and written
    state = game.new_initial_state(0)
    state.apply_action("place c3")
    assert state.history() == ["place c3"]


def test_a_constant_of_an_unknown_kind_keeps_the_module_out(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A rulelang object the cache cannot find again (here: a site of another runtime) is
    never copied into the folder: the module is written at each load instead."""
    _forget(monkeypatch)
    other = rulelang.load_game("hex", {"size": 5}).runtime.board.sites[0]
    runtime = rulelang.load_game("hex", {"size": 6}, mode="interpreted").runtime
    generated, _ = rulelang.gen.write(runtime)
    generated.constants["k_other"] = other
    before = set(folder.glob("generated-*.pickle"))
    cache.keep(runtime, generated)
    assert set(folder.glob("generated-*.pickle")) == before


def test_no_cache_means_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")
    _forget(monkeypatch)
    rulelang.load_game("tic_tac_toe")
    assert not list(tmp_path.rglob("generated-*"))
