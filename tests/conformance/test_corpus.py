"""Every case of the conformance corpus (cases/*.cases) holds in both modes: the value,
effect or error written beside it is what the language means (docs/language.md). In mode
compiled each file's cases are one generated rulebook, except where a case sets a piece's
owner (the one construct of the corpus the generator does not take: the reference runs it)."""
from __future__ import annotations

from pathlib import Path

import pytest

from conformance.harness import GENERATED, corpus, failures, parse

FILES = corpus()
NOT_GENERATED = {"16_pieces.cases", "21_put_as.cases"}  # (`set owner(…)`)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_file(path: Path, tmp_path: Path) -> None:
    problems = failures(parse(path), tmp_path)
    assert not problems, "\n".join(problems)
    assert GENERATED[path.name] == (path.name not in NOT_GENERATED)


def test_the_corpus_is_large() -> None:
    assert sum(len(parse(p)) for p in FILES) >= 320
