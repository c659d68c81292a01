"""The code generator (fast/codegen.py) against the closures: every case of the conformance
corpus holds with the generated functions and with the closures alone (whichever of the two
the mode "compiled" is not, test_corpus.py runs the other), and random expressions give the
same outcome with both."""
from __future__ import annotations

from pathlib import Path

import pytest
from codegen_tools import OTHER, both_fast_modes  # noqa: F401 - a fixture
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.harness import Case, corpus, failures, outcomes, parse
from conformance.test_generated import _outcome, number
from rulelang.fast import codegen

FILES = corpus()
_HERE = Path(__file__)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_corpus_file_in_the_other_fast_mode(path: Path, tmp_path: Path,
                                            both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    with codegen.watching() as sources:
        problems = failures(parse(path), tmp_path, modes=(OTHER,))
    assert not problems, "\n".join(problems)
    assert (OTHER == "generated") == bool(sources)  # the mode tested is the one named


@settings(derandomize=True, max_examples=4, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(st.lists(number((), 4), min_size=16, max_size=16))
def test_generated_code_and_closures_agree_on_random_expressions(
        tmp_path_factory: pytest.TempPathFactory, both_fast_modes: tuple[str, str],  # noqa: F811
        exprs: list[str]) -> None:
    folder = Path(tmp_path_factory.mktemp("gen"))
    cases = [Case(_HERE, 0, "expr", x, ("value", None, None)) for x in exprs]
    closures = outcomes(cases, "closures", folder)
    generated = outcomes(cases, "generated", folder)  # (runtimes cached by rulebook text)
    for x, a, b in zip(exprs, closures, generated, strict=True):
        assert a[0] in ("value", "error"), f"{x}: closures: {_outcome(*a)}"
        assert _outcome(*a) == _outcome(*b), \
            f"{x}: closures {_outcome(*a)}, generated {_outcome(*b)}"
