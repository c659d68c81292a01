"""Seeded random games of Karesansui end normally, with the invariants of
karesansui_invariants.py checked after every action (in both engine modes).

The issue asks for 300 games per player count: `python bench/karesansui_games.py --duo` plays
that many (and prints the figures; `--mode interpreted` for the other mode); here a seeded
sample (the first seeds, every player count, the duo variant, both modes) keeps the suite fast.
"""
from __future__ import annotations

import pytest
from karesansui_invariants import load, random_game

SAMPLE = {"compiled": 2, "interpreted": 1}


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_invariants_kept(players: int, mode: str) -> None:
    game = load(players, mode)
    for seed in range(SAMPLE[mode]):
        state, steps = random_game(game, seed)
        assert state.is_terminal() and steps > 0
        scores = state.scores()
        assert len(scores) == players and state.winners()
        assert all(s == max(scores) for w in state.winners() for s in [scores[w]])
        for p in range(players):
            assert sum(state.score_breakdown(p).values()) == scores[p]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_duo_variant_games_end(mode: str) -> None:
    game = load(2, mode, "duo")
    for seed in range(SAMPLE[mode]):
        state, _ = random_game(game, seed)
        assert state.is_terminal()


def test_modes_play_the_same_game() -> None:
    for players in (2, 3, 4):
        a, _ = random_game(load(players, "interpreted"), 7, checks=False)
        b, _ = random_game(load(players, "compiled"), 7, checks=False)
        assert a.history() == b.history() and a.scores() == b.scores()
