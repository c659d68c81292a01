"""Spice and Spaniel (rulebooks/spice.rule, spaniel.rule) against the independent reference
of reference_spice_spaniel.py (this folder): perft, node by node (legal action strings,
terminal flag, winners, player to act) in both engine modes, and seeded random games move for
move. Depth 3 and 4: `python bench/shibumi_more_perft.py --depth 3 spice spaniel`."""
from __future__ import annotations

import random

import pytest
from reference_impl import perft
from reference_spice_spaniel import make
from test_shibumi_more_games import compare_node, engine_perft, load

MODES = ("interpreted", "compiled")
# game -> (depth in the suite, positions at that depth by the reference)
# (the suite walks Spice one level from the start: depth 2 is 1736, depth 3 128540 by the
# reference; late positions below are walked two levels)
PERFT = {
    "spaniel": (2, 240),    # 16 * 15: a black then a white ball, no line possible yet
    "spice": (1, 12),       # 12 free holes around the red pyramid for White's one ball
}
INTERPRETED_LESS = {"spaniel": 1, "spice": 0}
# late positions: a seeded random game played on until this many balls are down, then walked
# two levels (removals, pairs, the 29th ball ending the game, lines of three)
LATE = {"spaniel": (8, (1, 2, 3, 4)), "spice": (25, (1, 2, 3))}
RANDOM_GAMES = {"compiled": 6, "interpreted": 1}


@pytest.mark.parametrize("name", sorted(PERFT))
def test_reference_perft(name: str) -> None:
    depth, expected = PERFT[name]
    assert perft(make(name), depth) == expected


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT))
def test_engine_perft(name: str, mode: str) -> None:
    depth = PERFT[name][0] - (INTERPRETED_LESS[name] if mode == "interpreted" else 0)
    count = engine_perft(load(name, mode).new_initial_state(), make(name), depth, [])
    assert count == perft(make(name), depth)


def late_position(name: str, mode: str, seed: int):
    """A seeded random game (the same in the engine and the reference) up to LATE balls."""
    rng = random.Random(seed)
    state, ref = load(name, mode).new_initial_state(), make(name)
    while not ref.done and sum(x is not None for x in ref.board) < LATE[name][0]:
        text = rng.choice(sorted(ref.legal()))
        state.apply_action(state.string_to_action(text))
        ref.apply(text)
    return state, ref


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(LATE))
def test_engine_perft_late(name: str, mode: str) -> None:
    walked = 0
    for seed in LATE[name][1][: None if mode == "compiled" else 1]:
        state, ref = late_position(name, mode, seed)
        count = engine_perft(state, ref.clone(), 2, [])
        assert count == perft(ref, 2)
        walked += count
    assert walked > 0


def play_random(name: str, mode: str, seed: int):
    rng = random.Random(seed)
    state, ref = load(name, mode).new_initial_state(), make(name)
    path: list[str] = []
    while True:
        actions = compare_node(state, ref, path)
        if ref.done:
            break
        text = rng.choice(sorted(actions))
        state.apply_action(actions[text])
        ref.apply(text)
        path.append(text)
    assert state.history() == path
    return ref, path


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT))
def test_engine_random_games(name: str, mode: str) -> None:
    ends = [play_random(name, mode, seed) for seed in range(RANDOM_GAMES[mode])]
    assert all(ref.done for ref, _ in ends)


def test_random_spice_games_remove_and_place_pairs() -> None:
    """The random games above reach the composed actions the reference must agree on."""
    texts = [t for seed in range(RANDOM_GAMES["compiled"])
             for t in play_random("spice", "compiled", seed)[1]]
    assert any(t.startswith("remove ") and len(t.split()) == 5 for t in texts)
    assert any(t.startswith("place ") and len(t.split()) == 3 for t in texts)
