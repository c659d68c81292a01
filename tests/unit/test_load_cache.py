"""Loading twice parses once: the parse cache (memory and the private disk folder), the Lark
grammar cache, and networkx kept out of `import rulelang`."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError
from rulelang.language import cache, loader

ROOT = Path(__file__).resolve().parents[2]

GAME = """use square

game "Cache test"
players X, O
board square.grid(3, 3, 3)
piece mark
zone supply each player: 5 mark

action place
  choose site s in each s in sites where empty(s)
  put mark of mover at s

turn
  do place

end
  when size(each s in sites where empty(s)) == 0
    draw
"""


@pytest.fixture
def private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home-cache"))
    monkeypatch.delenv("RULELANG_NO_CACHE", raising=False)
    monkeypatch.setattr(cache, "_MEMORY", {})
    return tmp_path


def _count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = loader.parse

    def counting(source):  # type: ignore[no-untyped-def]
        parsed.append(source.path)
        return real(source)
    monkeypatch.setattr(loader, "parse", counting)
    return parsed


def test_a_warm_load_parses_nothing(private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = private / "g.rule"
    path.write_text(GAME, encoding="utf-8")
    parsed = _count_parses(monkeypatch)
    rulelang.load_game(path)
    assert len(parsed) == 2  # the rulebook and stdlib/square.rule
    rulelang.load_game(path)
    assert len(parsed) == 2


def test_the_disk_cache_serves_a_new_process(private: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = private / "g.rule"
    path.write_text(GAME, encoding="utf-8")
    rulelang.load_game(path)
    folder = private / "home-cache" / "rulelang"
    assert oct(folder.stat().st_mode & 0o777) == oct(0o700)
    assert len(list(folder.glob("rulebook-*.pickle"))) == 2
    monkeypatch.setattr(cache, "_MEMORY", {})  # as a fresh process sees it
    parsed = _count_parses(monkeypatch)
    assert rulelang.load_game(path).name == "Cache test"
    assert parsed == []


def test_a_changed_file_is_parsed_again(private: Path) -> None:
    path = private / "g.rule"
    path.write_text(GAME, encoding="utf-8")
    rulelang.load_game(path)
    path.write_text(GAME.replace("grid(3, 3, 3)", "grid(3, 3, 3))"), encoding="utf-8")
    with pytest.raises(RulebookError) as err:
        rulelang.load_game(path)
    assert err.value.diagnostics[0].span.line == 5
    path.write_text(GAME.replace("Cache test", "Changed"), encoding="utf-8")
    assert rulelang.load_game(path).name == "Changed"


def test_a_corrupt_cache_file_is_parsed_again(private: Path) -> None:
    path = private / "g.rule"
    path.write_text(GAME, encoding="utf-8")
    rulelang.load_game(path)
    for file in (private / "home-cache" / "rulelang").glob("rulebook-*.pickle"):
        file.write_bytes(b"\x80\x05not a pickle")
    cache._MEMORY.clear()
    assert rulelang.load_game(path).name == "Cache test"


def test_the_disk_cache_stays_small(private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_DISK_FILES", 4)
    for n in range(7):
        cache.cached("data", f"d{n}.yaml", "[]", lambda: [])
    assert 2 <= len(list((private / "home-cache" / "rulelang").glob("*.pickle"))) <= 4


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="POSIX permissions")
def test_a_folder_others_may_write_is_not_used(private: Path) -> None:
    folder = private / "home-cache" / "rulelang"
    folder.mkdir(parents=True)
    folder.chmod(0o777)
    assert cache.cache_folder() is None
    folder.chmod(0o700)
    assert cache.cache_folder() == folder


def test_no_cache_when_turned_off(private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")
    assert cache.cache_folder() is None
    path = private / "g.rule"
    path.write_text(GAME, encoding="utf-8")
    rulelang.load_game(path)
    assert not (private / "home-cache" / "rulelang").exists()


def test_import_does_not_import_networkx() -> None:
    code = ("import sys, rulelang; a = 'networkx' in sys.modules; "
            "g = rulelang.load_game('tic_tac_toe'); b = 'networkx' in sys.modules; "
            "g.runtime.board.graphs; print(a, b, 'networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.split() == ["False", "False", "True"]


def test_graphs_are_the_relations() -> None:
    board = rulelang.load_game("tic_tac_toe").runtime.board
    for name, relation in board.relations.items():
        graph = board.graphs[name]
        for site in board.sites:
            assert sorted(graph.successors(site.coords)) == sorted(
                t.coords for t in relation.table[site.index])
