"""Seeded random games for 3, 4 and 5 players in each game mode (short, long) end normally;
at every step every card is in exactly one place, no hand holds more than 5 cards, and the end
is reached with the 勝景札 the rules give (tests/games/muso_check.py).

The test plays a sample (the first SAMPLE seeds of each player count and mode); the full
count (500 games each) is `python bench/muso_sakura_games.py`, which prints the figures.
"""
from __future__ import annotations

import pytest
from muso_check import play_checked
from muso_tools import load

SAMPLE = 20


@pytest.mark.parametrize("game_mode", ["short", "long"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_normally_with_every_card_in_one_place(players: int,
                                                                game_mode: str) -> None:
    game = load(players, mode=game_mode)
    for seed in range(SAMPLE):
        state, steps = play_checked(game, players, game_mode, seed)
        assert state.is_terminal() and steps > 0
