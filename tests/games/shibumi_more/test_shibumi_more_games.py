"""The further Shibumi rulebooks (rulebooks/spava, splice, spodd, spaiji, spire, splade, spao)
against the independent reference of reference_impl.py (this folder): perft, node by node
(legal action strings, terminal flag, winners) in both engine modes, and seeded random games
move for move.

The suite walks depth 3 in compiled mode for the small games and 2 for the big ones (PERFT), the
reference evaluator one level less; depth 3 and 4 are `python bench/shibumi_more_perft.py
--depth 3 NAME` (or `--depth 4`), against the same reference.
"""
from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest
from reference_impl import MoreRef, perft

ROOT = Path(__file__).resolve().parents[3]
MODES = ("interpreted", "compiled")
# game -> (depth in the suite, positions at that depth by the reference, pinned). The suite
# walks the big games two levels; `python bench/shibumi_more_perft.py --depth 3 NAME` walks
# three (and four for the small ones) against the same reference.
PERFT = {
    "spava": (3, 3360),     # 16 * 15 * 14: no run of 3 is possible in three balls of two colours
    "splice": (2, 960),     # 32 * 30: each free hole, own or red (depth 3: 26880)
    "spodd": (2, 1200),     # 40 = 20 touching pairs of free holes, two colourings (depth 3: 27232)
    "spaiji": (2, 1792),    # 48 = 24 touching pairs of holes, two colourings (depth 3: 51648)
    "spire": (2, 720),      # 16 own + 16 red; after a red, own places only (depth 3: 16800)
    "splade": (3, 3360),    # 16 * 15 * 14: three players, one hole each
    "spao": (3, 3360),
}
# the reference evaluator walks fewer levels where a game is slow (the compiled one, proven equal
# to it by the conformance corpus, walks the full depth)
INTERPRETED_LESS = {"spava": 1, "splice": 1, "spodd": 1, "spaiji": 1, "spire": 1,
                    "splade": 1, "spao": 1}
RANDOM_GAMES = {"compiled": 30, "interpreted": 4}


@functools.cache
def load(name: str, mode: str):
    import rulelang

    return rulelang.load_game(ROOT / f"rulebooks/{name}.rule", mode=mode)


def compare_node(state, ref: MoreRef, path: list[str]) -> dict[str, int]:
    where = f"after {path or 'the start'}"
    actions = {state.action_to_string(a): a for a in state.legal_actions()}
    got, want = set(actions), set(ref.legal())
    assert got == want, (f"legal actions differ {where}: engine-only {sorted(got - want)}, "
                         f"reference-only {sorted(want - got)}")
    assert len(actions) == len(state.legal_actions()), f"duplicate action strings {where}"
    assert state.is_terminal() == ref.done, f"terminal flag differs {where}"
    if ref.done:
        assert state.winners() == ref.winners, f"winners differ {where}"
    else:
        assert state.current_player() == ref.mover, f"player to act differs {where}"
    return actions


def engine_perft(state, ref: MoreRef, depth: int, path: list[str]) -> int:
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


@pytest.mark.parametrize("name", sorted(PERFT))
def test_reference_perft(name: str) -> None:
    depth, expected = PERFT[name]
    assert perft(MoreRef(name), depth) == expected


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT))
def test_engine_perft(name: str, mode: str) -> None:
    depth = PERFT[name][0] - (INTERPRETED_LESS[name] if mode == "interpreted" else 0)
    count = engine_perft(load(name, mode).new_initial_state(), MoreRef(name), depth, [])
    assert count == perft(MoreRef(name), depth)


def play_random(name: str, mode: str, seed: int, new_ref: Any = MoreRef) -> Any:
    """A seeded random game played by the engine and a reference (`new_ref(name)`) side by
    side, every node compared; the reference at the end."""
    rng = random.Random(seed)
    state, ref = load(name, mode).new_initial_state(), new_ref(name)
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
    return ref


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT))
def test_engine_random_games(name: str, mode: str) -> None:
    ends = [play_random(name, mode, seed) for seed in range(RANDOM_GAMES[mode])]
    assert all(ref.done for ref in ends)
