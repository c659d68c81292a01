"""500 seeded random games for 3, 4 and 5 players in each mode end normally; at every step
every card is in exactly one place, no hand holds more than 5 cards, and the end is reached
with the 勝景札 the rules give."""
from __future__ import annotations

import random

import pytest
from muso_tools import load, zone

GAMES = 500


def check(state, players: int) -> None:
    data = state.ctx.data
    ids = [c.id for pile in data.zones.values() for c in pile]
    assert len(ids) == len(set(ids)) == 56, "a card is lost or doubled"
    assert all(data.loc[c.id] == z for z, pile in data.zones.items() for c in pile)
    hands: dict[int, int] = {}
    for z, pile in data.zones.items():
        if z.name in ("hidden", "open"):
            hands[z.owner] = hands.get(z.owner, 0) + len(pile)
    assert max(hands.values()) <= 5 and len(hands) == players


@pytest.mark.parametrize("game_mode", ["short", "long"])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_games_end_normally_with_every_card_in_one_place(players: int,
                                                                game_mode: str) -> None:
    game = load(players, mode=game_mode)
    rounds = 2 if game_mode == "short" else 4
    for seed in range(GAMES):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        steps = 0
        while not state.is_terminal():
            check(state, players)
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
            assert steps < 2000, f"seed {seed}: no end in sight"
        check(state, players)
        assert state.ctx.data.round == rounds
        assert state.winners() and len(state.returns()) == players
        scenic = [len(zone(state, "scenic", p)) for p in range(players)]
        per_round = [3] * players if game_mode == "short" else \
            [1 + (1 if i < 2 else 0) for i in range(players)]
        assert sum(scenic) <= sum(per_round) * rounds  # the field or deck may run short
        assert all(n >= rounds for n in scenic)  # one from the hand every round
