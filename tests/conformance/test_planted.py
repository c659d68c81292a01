"""The corpus can fail: with one operator of the fast evaluator changed (`+` on two whole
numbers, which the compiler takes from NUMBER_OPS and the interpreter does not), the
arithmetic cases fail in the compiled mode, and only there."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from conformance.harness import CASES, failures, parse
from rulelang.library import semantics


def _cases() -> list[Any]:
    return [c for c in parse(CASES / "01_arithmetic.cases") if c.line <= 12]


def test_the_arithmetic_cases_hold(tmp_path: Path) -> None:
    assert failures(_cases(), tmp_path) == []


def test_a_planted_divergence_fails_the_corpus(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(semantics.NUMBER_OPS, "+", lambda a, b: a + b + 1)  # 1 + 2 is 4
    monkeypatch.setattr(rulelang, "_RUNTIMES", {})  # compiled anew (runtimes are cached)
    found = failures(_cases(), tmp_path)
    assert found, "the corpus did not notice a wrong '+'"
    assert all("[compiled]" in f for f in found)
    assert any(f.startswith("01_arithmetic.cases:4 [compiled] '1 + 2': expected 3, got 4")
               for f in found), found
