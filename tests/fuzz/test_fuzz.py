"""A short run of the mutation fuzzer (tests/fuzz/mutate.py) in the suite: 60 seeded cases,
each loaded, checked and played for a few random plies in each mode (the interpreter, the
closures and the generated code, whose functions are made for every rule) in a worker process
under a time limit. No case may end in a crash, hang or memory error of the classes this
suite covers (checking, building the evaluators' code, playing, observing). The loading
classes (file access, YAML and parse limits, option bounds, board geometry and relation
targets: runner.Outcome.owner == "load") are counted apart, in a test of their own.
`python bench/fuzz.py --cases 2000` is the long run."""
from __future__ import annotations

import pytest

from .runner import Outcome, run, table

CASES = 60


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    return run(list(range(CASES)), limit=5.0, plies=4, quick=True)


def test_no_crash_hang_or_memory_error_while_checking_or_playing(
        outcomes: list[Outcome]) -> None:
    found = [o for o in outcomes if o.owner == "run"]
    assert not found, table(found)


def test_the_cases_reach_every_stage(outcomes: list[Outcome]) -> None:
    """The fuzzer tests something: cases are refused with diagnostics, and others load and
    are played in every mode (worker.GENERATED: the generated code's)."""
    kinds = {o.outcome for o in outcomes}
    assert {"ok", "diagnostic"} <= kinds
    played = [o for o in outcomes if all(
        o.result.get("modes", {}).get(mode, "").startswith("ok")
        for mode in ("compiled", "interpreted", "fuzz-generated"))]
    assert len(played) >= CASES // 5


def test_no_problem_while_loading(outcomes: list[Outcome]) -> None:
    found = [o for o in outcomes if o.owner == "load"]
    assert not found, table(found)
