"""GenGame.new_initial_state: a one-decision game without chance in its setup lists its
first menu once; each new state is still its own (nothing shared that play changes) and
holds its seed's generator, as the reference's does."""
from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical


@pytest.mark.parametrize("name", ["tic_tac_toe", "hex", "breakthrough"])
def test_new_states_share_nothing_and_hold_their_seed(name: str) -> None:
    game = rulelang.load_game(name, mode="compiled")
    ref = rulelang.load_game(name, mode="interpreted")
    assert isinstance(game, GenGame)
    first = game.new_initial_state(seed=3)
    second = game.new_initial_state(seed=3)
    assert game._first is not None  # (the first menu kept: the path under test)
    menu = second.legal_actions()
    first.play_out(random.Random(1), 10 ** 6)  # (the first one played to its end)
    third = game.new_initial_state(seed=3)
    for state in (second, third):
        assert state.history() == [] and state.legal_actions() == menu
        assert canonical(state.data) == canonical(ref.new_initial_state(seed=3).data)
    assert canonical(game.new_initial_state(seed=4).data) \
        == canonical(ref.new_initial_state(seed=4).data)
    assert game.new_initial_state(seed=4).rng.state != third.rng.state
    for state in (second, third):  # (each plays the same game on)
        state.play_out(random.Random(1), 10 ** 6)
        assert state.history() == first.history() and state.returns() == first.returns()
