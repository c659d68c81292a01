"""The pictures in docs/images/ are the ones docs/make_images.py draws now."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_doc_images_are_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("make_images", ROOT / "docs" / "make_images.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for file, text in module.images().items():
        stored = (ROOT / "docs" / "images" / file).read_text(encoding="utf-8")
        assert stored == text, f"docs/images/{file} is stale: run python docs/make_images.py"
    for doc in ("README.md", "docs/tools.md"):
        assert "docs/images/" in (ROOT / doc).read_text(encoding="utf-8") or \
            "images/" in (ROOT / doc).read_text(encoding="utf-8")
