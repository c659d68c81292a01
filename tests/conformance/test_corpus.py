"""Every case of the conformance corpus (cases/*.cases) holds in both evaluators: the value,
effect or error written beside it is what the language means (docs/language.md)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.harness import corpus, failures, parse

FILES = corpus()


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_file(path: Path, tmp_path: Path) -> None:
    problems = failures(parse(path), tmp_path)
    assert not problems, "\n".join(problems)


def test_the_corpus_is_large() -> None:
    assert sum(len(parse(p)) for p in FILES) >= 320
