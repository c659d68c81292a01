"""docs/language.md: its builtin section is what docs/gen_builtins.py makes of the registry."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_builtin_section_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("gen_builtins", ROOT / "docs/gen_builtins.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = gen.DOC.read_text(encoding="utf-8")
    assert gen.rewrite(text) == text, "run: python docs/gen_builtins.py"
    from rulelang.library import BUILTINS
    assert all(f"`{gen.signature(b)}`" in text for b in BUILTINS.values())
