"""A generated state resampled in the middle of a turn keeps what the procedure finds of
its position once (game/resample.py `_views`: the same for every seed): a search that
resamples one state many times finds it once, and every resample is the one made anew."""
from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical


@pytest.mark.parametrize("name,options", [("muso_sakura", {"players": 3}),
                                          ("karesansui", {"players": 2})])
def test_a_resample_is_the_same_with_the_views_kept(name: str, options: dict[str, int]) -> None:
    game = rulelang.load_game(name, options, mode="generated")
    assert isinstance(game, GenGame) and game.state_class.keeps_segment
    rng, checked = random.Random(3), 0
    for seed in range(2):
        state = game.new_initial_state(seed)
        for _ in range(24):
            if state.is_terminal():
                break
            if state._checkpoint is not None and state._trail:  # (mid-turn)
                player = state.current_player()
                fresh = [state.clone().resample(player, k) for k in range(2)]
                assert state._views is None
                kept = [state.resample(player, k) for k in range(2)]
                assert state._views is not None  # (found by the first, kept on the state)
                for a, b in zip(fresh, kept, strict=True):
                    assert canonical(a.data) == canonical(b.data)
                    assert a.observation(player) == b.observation(player)
                checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 2
