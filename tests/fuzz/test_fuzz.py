"""A short run of the mutation fuzzer (tests/fuzz/mutate.py) in the suite: 60 seeded cases,
each loaded, checked and played for a few random plies in each mode (the interpreter, and
the module the game generator writes where it takes the case) in a worker process
under a time limit. No case may end in a crash, hang or memory error of the classes this
suite covers (checking, generating the game's module, playing, observing). The loading
classes (file access, YAML and parse limits, option bounds, board geometry and relation
targets: runner.Outcome.owner == "load") are counted apart, in a test of their own.
`python bench/fuzz.py --cases 2000` is the long run."""
from __future__ import annotations

import random

import pytest

from rulelang.errors import Refusal

from .mutate import shape_cases
from .runner import Outcome, _modes_differ, run, run_cases, table
from .worker import ResampleBroken, _resamples

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
    are played in both modes, generated code among them."""
    kinds = {o.outcome for o in outcomes}
    assert {"ok", "diagnostic"} <= kinds
    played = [o for o in outcomes if all(
        o.result.get("modes", {}).get(mode, "").startswith("ok")
        for mode in ("compiled", "interpreted"))]
    assert len(played) >= CASES // 5
    assert sum(o.result.get("generated", False) for o in played) >= CASES // 10, \
        [o.result.get("generated") for o in played]


def test_the_modes_play_alike(outcomes: list[Outcome]) -> None:
    """Each case played in both modes shows the same at every ply (the mover, the options,
    the observations, the whole state: worker._playout's digest) or meets the same error."""
    differ = [o for o in outcomes if _modes_differ(o.result.get("modes", {}))]
    assert not differ, [(o.case.seed, o.result["modes"]) for o in differ]


def test_no_problem_while_loading(outcomes: list[Outcome]) -> None:
    found = [o for o in outcomes if o.owner == "load"]
    assert not found, table(found)


def test_the_shapes_that_once_hung_or_overflowed_are_diagnostics_or_play() -> None:
    """A geometry over a billion places that keeps none, more sites than a board may hold,
    an option of a billion values, a chain of 200 rules (issue 50): each case ends in a
    diagnostic or plays, within its limit, in a worker whose memory is capped."""
    found = run_cases(shape_cases(), limit=5.0, plies=2)
    assert not [o for o in found if o.owner != "-"], table(found)
    by = {o.case.mutation: o for o in found}
    for board in ("board square.grid(1000000000, 0, 0)", "board square.grid(200, 200, 0)",
                  "square's sites where r < 0, over a billion rows"):
        assert by[board].result.get("codes") == ["R108"], table(found)
    assert by["chain of 200 rules"].result.get("codes") == ["R108"]
    assert by["chain of 100 rules"].outcome == "ok"
    assert all(by[f"option {o}"].outcome == "ok" for o in
               ("3..100000000 = 8", "3..1000000000 = 8", "0..1000000000 = 1000000000"))


class _Game:
    num_players = 1


class _Dealt:
    """A state of one option, `place`, which a resample's copy refuses and the game itself
    refuses too where `refused` says so."""

    game = _Game()

    def __init__(self, refused: bool) -> None:
        self.refused = refused

    def resample(self, player: int, seed: int) -> _Dealt:
        return _Dealt(True)

    def clone(self) -> _Dealt:
        return _Dealt(self.refused)

    def is_terminal(self) -> bool:
        return False

    def legal_actions(self) -> list[int]:
        return [0]

    def action_to_string(self, action: int | str) -> str:
        return "place"

    def apply_action(self, action: int | str) -> None:
        if self.refused:
            raise Refusal("'move' needs a piece, not none", None)


def test_a_resamples_refused_option_is_a_crash_unless_the_game_refuses_it_too() -> None:
    """A resample's option refused when the game itself takes it is a broken resample (its
    menu made from other cards than its own); refused in the game itself too, it is the
    rulebook's own (a mutated rule offering what its effects cannot do)."""
    with pytest.raises(ResampleBroken, match="option 'place'"):
        _resamples(_Dealt(False), random.Random(1))
    _resamples(_Dealt(True), random.Random(1))
