"""Shibumi rulebooks (Spline, Sponnect, Spline+) against an independent reference.

* `test_reference_*` check the pure-Python reference (tests/reference/shibumi_ref.py) alone;
* `test_engine_perft` walks the game tree through the public API in both engine modes and compare,
  node by node, the legal action strings, terminal flag and winners with the reference;
* `test_engine_random_game` plays seeded random games move for move in both implementations.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from reference.shibumi_ref import ShibumiRef, perft

ROOT = Path(__file__).resolve().parents[1]
MODES = ("interpreted", "compiled")
PERFT_DEPTH = {"spline": 4, "sponnect": 3, "spline_plus": 3}
# The reference evaluator walks less deep in the suite (the compiled one, proven equal to
# it by the conformance corpus and the property tests, walks the full depth); the full depth in
# both modes is `python bench/shibumi_perft.py`.
INTERPRETED_LESS = {"spline": 2, "sponnect": 0, "spline_plus": 1}
RANDOM_GAMES = 15  # per game and mode, each compared node by node with the reference


@functools.cache
def load(name: str, mode: str):
    import rulelang  # imported here so that the reference tests run on their own

    return rulelang.load_game(ROOT / f"rulebooks/{name}.rule", mode=mode)


# -- the reference alone --------------------------------------------------------------------
# (game, depth, positions at that depth): the reference's perft, pinned; the engine's perft
# (test_engine_perft, node by node against the reference) must reach the same figure
REFERENCE_PERFT = [
    ("spline", 1, 16),
    ("spline", 2, 240),
    ("spline", 3, 3360),  # the known Spline figures (also PyPI `shibumi` 0.5.0)
    ("spline", 4, 43680),
    ("sponnect", 1, 13),  # 12 free level-0 sites + pass
    ("sponnect", 2, 156),  # 12*12: a place answered by 11 places + pass, a pass by 12 places
    # 1728 level-0 sequences + 8 where two balls beside a pair of reds free a level-1 site
    ("sponnect", 3, 1736),
    ("spline_plus", 1, 16),
    ("spline_plus", 2, 240),  # Black has no ball to move yet
    ("spline_plus", 3, 6720),  # 16*15*(14 places + 14 moves of White's only ball)
]


# (Spline's depth 4 is not walked alone: test_engine_perft[spline-compiled] walks the reference
# to that depth beside the engine, node by node, and checks the same figure.)
@pytest.mark.parametrize("game, depth, expected",
                         [case for case in REFERENCE_PERFT if case[:2] != ("spline", 4)])
def test_reference_perft(game: str, depth: int, expected: int) -> None:
    assert perft(ShibumiRef(game), depth) == expected


def test_reference_legal_order() -> None:
    s = ShibumiRef("sponnect")
    assert s.legal()[:2] == ["place 0a1", "place 0b1"] and s.legal()[-1] == "pass"
    s = ShibumiRef("spline_plus")
    for a in ("place 0a1", "place 0d4"):
        s.apply(a)
    legal = s.legal()
    assert legal[14] == "move 0a1 0b1" and legal[-1] == "move 0a1 0c4" and len(legal) == 28


# -- engine against reference ---------------------------------------------------------------
def expected_winners(ref: ShibumiRef) -> list[int]:
    w = ref.winner()
    return [] if w is None else [w]


def compare_node(state, ref: ShibumiRef, path: list[str]) -> dict[str, int]:
    """Assert that the engine state matches the reference; return {action string: action}."""
    where = f"after {path or 'the start'}"
    actions = {state.action_to_string(a): a for a in state.legal_actions()}
    got, want = set(actions), set(ref.legal())
    assert got == want, (
        f"legal actions differ {where}: engine-only {sorted(got - want)}, "
        f"reference-only {sorted(want - got)}"
    )
    assert len(actions) == len(state.legal_actions()), f"duplicate action strings {where}"
    assert state.is_terminal() == ref.is_terminal(), f"terminal flag differs {where}"
    if ref.is_terminal():
        assert state.winners() == expected_winners(ref), f"winners differ {where}"
    return actions


def engine_perft(state, ref: ShibumiRef, depth: int, path: list[str]) -> int:
    actions = compare_node(state, ref, path)
    if depth == 0:
        return 1
    total = 0
    for text in sorted(actions):
        child, child_ref = state.clone(), ref.clone()
        child.apply_action(actions[text])
        child_ref.apply(text)
        total += engine_perft(child, child_ref, depth - 1, path + [text])
    return total


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT_DEPTH))
def test_engine_perft(name: str, mode: str) -> None:
    depth = PERFT_DEPTH[name] - (INTERPRETED_LESS[name] if mode == "interpreted" else 0)
    game = load(name, mode)
    count = engine_perft(game.new_initial_state(), ShibumiRef(name), depth, [])
    # the reference's own perft is test_reference_perft's pinned figure
    assert count == {(g, d): n for g, d, n in REFERENCE_PERFT}[(name, depth)]


def test_engine_clone_is_independent() -> None:
    state = load("spline", "interpreted").new_initial_state()
    copy = state.clone()
    copy.apply_action("place 0a1")
    assert state.history() == [] and copy.history() == ["place 0a1"]
    assert "place 0a1" in {state.action_to_string(a) for a in state.legal_actions()}


# -- seeded random games --------------------------------------------------------------------
def play_random(name: str, mode: str, seed: int) -> None:
    rng = random.Random(seed)
    state, ref = load(name, mode).new_initial_state(), ShibumiRef(name)
    path: list[str] = []
    while True:
        actions = compare_node(state, ref, path)
        if ref.is_terminal():
            assert state.current_player() == -4, f"current_player() is not TERMINAL after {path}"
            break
        assert state.current_player() == ref.mover, f"current player differs after {path}"
        text = rng.choice(sorted(actions))
        state.apply_action(actions[text])
        ref.apply(text)
        path.append(text)
    assert state.history() == path
    returns = {None: [0, 0], 0: [1, -1], 1: [-1, 1]}[ref.winner()]
    assert list(state.returns()) == returns, f"returns differ after {path}"


@pytest.mark.parametrize("seed", range(RANDOM_GAMES))
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT_DEPTH))
def test_engine_random_game(name: str, mode: str, seed: int) -> None:
    play_random(name, mode, seed)
