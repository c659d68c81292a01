"""A seeded random game of Muso Sakura checked at every step (tests/games/
test_muso_sakura_games.py plays a sample, bench/muso_sakura_games.py the full count): every
card is in exactly one place, no hand holds more than 5 cards, and the end is reached in the
last round with the 勝景札 the rules give."""
from __future__ import annotations

import random
from typing import Any

from muso_tools import zone

ROUNDS = {"short": 2, "long": 4}
MAX_STEPS = 2000


def check(state: Any, players: int) -> None:
    data = state.ctx.data
    ids = [c.id for pile in data.zones.values() for c in pile]
    assert len(ids) == len(set(ids)) == 56, "a card is lost or doubled"
    assert all(data.loc[c.id] == z for z, pile in data.zones.items() for c in pile)
    hands: dict[int, int] = {}
    for z, pile in data.zones.items():
        if z.name in ("hidden", "open"):
            hands[z.owner] = hands.get(z.owner, 0) + len(pile)
    assert max(hands.values()) <= 5 and len(hands) == players


def play_checked(game: Any, players: int, game_mode: str, seed: int) -> tuple[Any, int]:
    """Play seed's random game (random.Random(seed) over legal_actions) with every check;
    return the final state and the number of actions."""
    rounds = ROUNDS[game_mode]
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    steps = 0
    while not state.is_terminal():
        check(state, players)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        assert steps < MAX_STEPS, f"seed {seed}: no end in sight"
    check(state, players)
    assert state.ctx.data.round == rounds
    assert state.winners() and len(state.returns()) == players
    scenic = [len(zone(state, "scenic", p)) for p in range(players)]
    per_round = [3] * players if game_mode == "short" else \
        [1 + (1 if i < 2 else 0) for i in range(players)]
    assert sum(scenic) <= sum(per_round) * rounds  # the field or deck may run short
    assert all(n >= rounds for n in scenic)  # one from the hand every round
    return state, steps
