"""rulebooks/spargo.rule against the independent reference of reference_spargo.py (this
folder): perft node by node (legal action strings, terminal flag, winners, player to act) from
the start and from positions with captures, zombies, suicide and superko in reach, in both
engine modes, and seeded random games move for move.

Deeper walks: `python bench/shibumi_more_perft.py --depth 3 spargo` (and `--depth 4`).
"""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
from reference_impl import perft
from reference_spargo import SpargoRef
from test_shibumi_more_games import compare_node, engine_perft  # the shared node walk

ROOT = Path(__file__).resolve().parents[3]
MODES = ("interpreted", "compiled")
RANDOM_GAMES = {"compiled": 4, "interpreted": 1}
PLIES = {"compiled": None, "interpreted": 16}  # the interpreted game: its first 16 plies
# the reference evaluator walks one level less (the compiled one, proven equal to it by the
# conformance corpus, walks the full depth): its menus replay every placement with its captures
DEPTH = {"compiled": 2, "interpreted": 1}
# positions (moves from the start) whose next two plies hold a capture, a zombie, a suicide
# and a superko refusal (the scenarios of rulebooks/spargo.test reach them too)
POSITIONS = {
    "ko": ["place 0b2", "place 0c3", "place 0c4", "place 0b4", "place 0d3"],
    "zombie": ["place 0b2", "place 0c2", "place 0a4", "place 0a3", "place 0a2", "place 0b1",
               "place 0c1", "place 1b1", "place 0a1"],
    "overpass": ["place 0a2", "place 0c1", "place 0b4", "place 0d4", "place 0c2", "place 0a4",
                 "place 0d3", "place 0b3", "place 0d1", "place 0c4", "place 0d2", "place 0c3",
                 "place 0b2", "place 1c1"],
}


@functools.cache
def load(mode: str):
    import rulelang

    return rulelang.load_game(ROOT / "rulebooks/spargo.rule", mode=mode)


def at(mode: str, moves: list[str]):
    state, ref = load(mode).new_initial_state(), SpargoRef()
    for m in moves:
        state.apply_action(m)
        ref.apply(m)
    return state, ref


def test_reference_perft_from_the_start() -> None:
    assert perft(SpargoRef(), 2) == 16 * 15  # nothing can be captured in two balls


@pytest.mark.parametrize("mode", MODES)
def test_engine_perft_from_the_start(mode: str) -> None:
    depth = DEPTH[mode]
    count = engine_perft(load(mode).new_initial_state(), SpargoRef(), depth, [])
    assert count == {1: 16, 2: 16 * 15}[depth]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_engine_perft_from_positions(name: str, mode: str) -> None:
    state, ref = at(mode, POSITIONS[name])
    depth = DEPTH[mode]
    assert engine_perft(state, ref, depth, list(POSITIONS[name])) == perft(ref.clone(), depth)


def test_the_positions_reach_what_they_are_for() -> None:
    """The reference itself: a refused retake (ko), a zombie, an overpass capture."""
    _, ref = at("compiled", POSITIONS["ko"] + ["place 0d4"])
    assert "place 0c4" not in ref.legal() and "place 0c2" in ref.legal()
    _, ref = at("compiled", POSITIONS["zombie"] + ["place 0d1"])
    assert ref.board[2] == 0  # White's 0c1 without freedom stays under Black's 1b1
    _, ref = at("compiled", POSITIONS["overpass"] + ["place 1c3", "place 1c2"])
    assert ref.board[24] is None  # White's 1c3 cut off by the overpass and captured


def play_random(mode: str, seed: int) -> SpargoRef:
    rng = random.Random(seed)
    state, ref = load(mode).new_initial_state(), SpargoRef()
    path: list[str] = []
    while True:
        actions = compare_node(state, ref, path)
        if ref.done or len(path) == PLIES[mode]:
            break
        text = rng.choice(sorted(actions))
        state.apply_action(actions[text])
        ref.apply(text)
        path.append(text)
    assert state.history() == path
    return ref


@pytest.mark.parametrize("mode", MODES)
def test_engine_random_games(mode: str) -> None:
    ends = [play_random(mode, seed) for seed in range(RANDOM_GAMES[mode])]
    if PLIES[mode] is None:
        assert all(ref.done for ref in ends)
