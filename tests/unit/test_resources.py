"""rulelang/resources.py: in a checkout the standard library and the bundled rulebooks are
the repository's folders; a bundled rulebook is found by its name, never by a path."""
from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang import resources
from rulelang.language import loader

ROOT = Path(__file__).resolve().parents[2]


def test_a_checkout_uses_the_repository_folders() -> None:
    assert resources.stdlib_dir() == ROOT / "stdlib" == loader.STDLIB
    assert resources.bundled_dir() == ROOT / "rulebooks" == rulelang.BUNDLED


def test_a_bundled_rulebook_by_its_name() -> None:
    spline = ROOT / "rulebooks" / "spline.rule"
    assert resources.bundled_rulebook("spline") == spline
    assert resources.bundled_rulebook("spline.rule") == spline
    for not_a_name in ("", ".", "..", "rulebooks/spline", "../rulebooks/spline", "nosuch"):
        assert resources.bundled_rulebook(not_a_name) is None


def test_a_file_as_given_comes_first(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spline").write_text("mine\n")
    assert resources.rulebook_path("spline") == "spline"
    assert resources.rulebook_path("nosuch") == "nosuch"
    assert rulelang.load_game("spline_plus").name == "Spline+"
