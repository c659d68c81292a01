"""The corpus can fail: with the generator's `+` of two whole numbers written wrong (a
planted bug of the writer: one more than the sum), the arithmetic cases fail in the compiled
mode, and only there."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from conformance.harness import CASES, failures, parse
from rulelang.gen.code import Code
from rulelang.gen.emit import Writer


def _cases() -> list[Any]:
    return [c for c in parse(CASES / "01_arithmetic.cases") if c.line <= 12]


def test_the_arithmetic_cases_hold(tmp_path: Path) -> None:
    assert failures(_cases(), tmp_path) == []


def test_a_planted_divergence_fails_the_corpus(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    right = Writer.x_BinOp

    def wrong(w: Writer, n: Any, env: dict[str, Code]) -> Code:
        code = right(w, n, env)
        return Code(f"({code.src} + 1)", code.form, code.cost) if n.op == "+" else code
    monkeypatch.setattr(Writer, "x_BinOp", wrong)
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")  # (nothing written wrong is kept on disk)
    monkeypatch.setattr(rulelang, "_RUNTIMES", {})  # written anew (runtimes are cached,
    monkeypatch.setattr(rulelang, "_GENERATED", {})  # and so are their modules)
    found = failures(_cases(), tmp_path)
    assert found, "the corpus did not notice a wrong '+'"
    assert all("[compiled]" in f for f in found)
    assert any(f.startswith("01_arithmetic.cases:4 [compiled] '1 + 2': expected 3, got 4")
               for f in found), found
