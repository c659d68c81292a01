"""Engine properties over seeded random playouts, for every bundled rulebook and both modes.

Hypothesis draws the moves (so a failure shrinks to a short game); it is derandomized, so
every run tries the same games.
"""
from __future__ import annotations

import functools
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.tools.records.record import record_game, replay, write_record

ROOT = Path(__file__).resolve().parents[2]
# games only, not the modules they use: a `game "…"` line, read from the text so that
# collection parses no rulebook (test_the_rulebooks_are_the_bundled_games checks the list)
_GAME_LINE = re.compile(r'^game "', re.M)
RULEBOOKS = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rule")
                   if _GAME_LINE.search(p.read_text(encoding="utf-8")))
MODES = ("interpreted", "compiled")
MAX_MOVES = 120  # longer random games are cut here (spline_plus can loop a long time)
# Games whose moves cost several times a typical game's (each move lifts and drops balls, or
# searches groups) are walked that many times less deep, so that each game costs the suite
# about the same; their own tests go deep instead (tests/games/shibumi_more and
# tests/test_shibumi_perft: perft against independent references in both modes, random games
# node by node; hex against OpenSpiel; Tatara's and Karesansui's game checkers).
SHALLOWER = {"spyramid": 4, "spargo": 4, "spice": 3, "spought": 3, "spline_plus": 2,
             "spaiji": 3, "spodd": 2, "spire": 2, "hex": 3, "tatara": 2, "karesansui": 2}


def depth(name: str, moves: int = MAX_MOVES) -> int:
    """How many moves a property walks in this game (at most `moves`)."""
    return moves // SHALLOWER.get(name, 1)

SEEDED = settings(derandomize=True, max_examples=6, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def load(name: str, mode: str) -> Any:
    return rulelang.load_game(ROOT / "rulebooks" / f"{name}.rule", mode=mode)


def seeds() -> st.SearchStrategy[int]:
    return st.integers(0, 2**16)


def play(data: st.DataObject, state: Any, moves: int) -> Any:
    """Up to `moves` random legal actions (drawn by hypothesis) applied to `state`."""
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(data.draw(st.sampled_from(state.legal_actions()), label="action"))
    return state


def view(state: Any) -> dict[str, Any]:
    """Everything the API shows of a state."""
    n = state.game.num_players
    legal = state.legal_actions()
    return {"player": state.current_player(), "terminal": state.is_terminal(),
            "legal": [state.action_to_string(a) for a in legal], "history": state.history(),
            "returns": state.returns(), "winners": state.winners(),
            "observations": [state.observation(p) for p in range(n)]}


def test_the_rulebooks_are_the_bundled_games() -> None:
    """RULEBOOKS is every bundled rulebook that is not a library module (rulelang.is_library)."""
    assert RULEBOOKS == sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rule")
                               if not rulelang.is_library(p))


game_and_mode = pytest.mark.parametrize(("name", "mode"),
                                        [(n, m) for n in RULEBOOKS for m in MODES])


def every_legal_action_applies(name: str, mode: str, data: st.DataObject, seed: int,
                               moves: int) -> None:
    state = play(data, load(name, mode).new_initial_state(seed), depth(name, moves))
    for action in state.legal_actions():
        child = state.clone()
        label = child.action_to_string(action)
        child.apply_action(action)
        assert child.history() == [*state.history(), label]
        assert child.is_terminal() or child.legal_actions(), "a live state offers no action"


def clone_is_equal_and_independent(name: str, mode: str, data: st.DataObject, seed: int,
                                   moves: int) -> None:
    state = play(data, load(name, mode).new_initial_state(seed), depth(name, moves))
    before = view(state)
    twin = state.clone()
    assert view(twin) == before
    legal = state.legal_actions()
    if len(legal) < 2:
        return
    mine, theirs = data.draw(st.lists(st.sampled_from(legal), min_size=2, max_size=2,
                                      unique=True), label="two actions")
    twin.apply_action(theirs)
    assert view(state) == before, "acting on the clone changed the original"
    state.apply_action(mine)
    assert twin.history()[-1] == before["legal"][theirs]
    assert state.history()[-1] == before["legal"][mine]
    play(data, twin, depth(name))  # the clone plays on by itself
    assert state.history()[-1] == before["legal"][mine]


def actions_and_terminal_states_are_consistent(name: str, mode: str, data: st.DataObject,
                                               seed: int) -> None:
    state = load(name, mode).new_initial_state(seed)
    n = state.game.num_players
    for _ in range(depth(name)):
        legal = state.legal_actions()
        assert legal == sorted(set(legal))
        if state.is_terminal():
            break
        assert legal and 0 <= state.current_player() < n
        labels = [state.action_to_string(a) for a in legal]
        assert len(set(labels)) == len(labels), "two legal actions print the same"
        assert [state.string_to_action(t) for t in labels] == legal
        assert state.returns() == [0.0] * n
        state.apply_action(data.draw(st.sampled_from(legal), label="action"))
    if state.is_terminal():
        assert state.legal_actions() == []
        assert state.current_player() == rulelang.TERMINAL
        _assert_result(state, n)


def _assert_result(state: Any, n: int) -> None:
    winners, returns = state.winners(), state.returns()
    assert all(0 <= w < n for w in winners)
    if n == 2:
        assert sum(returns) == 0, "a two-player game is zero-sum"
    assert [r > 0 or (r == 0 and len(winners) > 1) for r in returns] == \
        [i in winners for i in range(n)]


# ---- each property in both modes: the reference evaluator on fewer examples (the one below,
# test_interpreter_and_compiler_agree, compares the two modes on SEEDED's full count)
REFERENCE = settings(SEEDED, max_examples=2)
each_game = pytest.mark.parametrize("name", RULEBOOKS)


@each_game
@SEEDED
@given(data=st.data(), seed=seeds(), moves=st.integers(0, 60))
def test_every_legal_action_applies(name: str, data: st.DataObject, seed: int,
                                    moves: int) -> None:
    every_legal_action_applies(name, "compiled", data, seed, moves)


@each_game
@REFERENCE
@given(data=st.data(), seed=seeds(), moves=st.integers(0, 60))
def test_every_legal_action_applies_reference(name: str, data: st.DataObject, seed: int,
                                              moves: int) -> None:
    every_legal_action_applies(name, "interpreted", data, seed, moves)


@each_game
@SEEDED
@given(data=st.data(), seed=seeds(), moves=st.integers(0, 60))
def test_clone_is_equal_and_independent(name: str, data: st.DataObject, seed: int,
                                        moves: int) -> None:
    clone_is_equal_and_independent(name, "compiled", data, seed, moves)


@each_game
@REFERENCE
@given(data=st.data(), seed=seeds(), moves=st.integers(0, 60))
def test_clone_is_equal_and_independent_reference(name: str, data: st.DataObject, seed: int,
                                                  moves: int) -> None:
    clone_is_equal_and_independent(name, "interpreted", data, seed, moves)


@each_game
@SEEDED
@given(data=st.data(), seed=seeds())
def test_actions_and_terminal_states_are_consistent(name: str, data: st.DataObject,
                                                    seed: int) -> None:
    actions_and_terminal_states_are_consistent(name, "compiled", data, seed)


@each_game
@REFERENCE
@given(data=st.data(), seed=seeds())
def test_actions_and_terminal_states_are_consistent_reference(name: str, data: st.DataObject,
                                                              seed: int) -> None:
    actions_and_terminal_states_are_consistent(name, "interpreted", data, seed)


@pytest.mark.parametrize("name", RULEBOOKS)
@settings(SEEDED, max_examples=3)  # per game: the conformance corpus, perft and
# tests/property/test_random_rulebooks.py do the rest
@given(data=st.data(), seed=seeds())
def test_interpreter_and_compiler_agree(name: str, data: st.DataObject, seed: int) -> None:
    spec = load(name, "interpreted").new_initial_state(seed)
    fast = load(name, "compiled").new_initial_state(seed)
    for _ in range(depth(name)):
        assert view(fast) == view(spec)
        if spec.is_terminal():
            break
        label = spec.action_to_string(data.draw(st.sampled_from(spec.legal_actions())))
        spec.apply_action(label)
        fast.apply_action(label)
    assert view(fast) == view(spec)


@game_and_mode
@settings(SEEDED, max_examples=2)  # the record format is the same for every game
@given(data=st.data(), seed=seeds(), moves=st.integers(0, MAX_MOVES))
def test_record_round_trips(name: str, mode: str, data: st.DataObject, seed: int,
                            moves: int) -> None:
    game = load(name, mode)
    state = play(data, game.new_initial_state(seed), depth(name, moves))
    record = record_game(game, state, seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.yaml"
        write_record(path, record)
        done = replay(path, mode=mode)
    assert done.record == record
    assert done.state.history() == state.history()
    assert done.state.is_terminal() == state.is_terminal()
    assert (done.state.winners(), done.state.scores()) == (state.winners(), state.scores())
