"""Rounds of turns: who begins, what happens when a round ends (with chance, with secret
choices), rounds that end on a condition."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

HERE = Path(__file__).parent
N, E, S = 0, 1, 2


@pytest.fixture(params=["interpreted", "compiled"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_first_player_passes_clockwise_each_round(mode: str) -> None:
    state = rulelang.load_game(HERE / "rounds.rule", mode=mode).new_initial_state(seed=5)
    movers = []
    while not state.is_terminal():
        movers.append(state.current_player())
        state.apply_action("work")
    assert movers == [N, E, S, E, S, N, S, N, E]
    assert sum(state.scores()) == 9 + 3  # a point a turn, a bonus a round


def test_round_end_chance_is_seeded(mode: str) -> None:
    game = rulelang.load_game(HERE / "rounds.rule", mode=mode)

    def final(seed: int) -> list[float]:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action("work")
        return state.scores()
    assert final(1) == final(1)
    assert len({tuple(final(s)) for s in range(12)}) > 1


def test_a_round_ends_when_its_condition_holds(mode: str) -> None:
    state = rulelang.load_game(HERE / "rounds_until.rule", mode=mode).new_initial_state(0)
    for who, move in [(N, "stop"), (E, "go"), (S, "stop"), (N, "wait"), (E, "stop")]:
        assert state.current_player() == who
        state.apply_action(move)
    # everybody stopped: the round ends with a secret choice by each player, in seat order
    for who, n in [(N, "1"), (E, "3"), (S, "2")]:
        assert state.current_player() == who
        if who == E:  # North's pick is hidden from East until the reveal
            assert pick_seen(state, E, "North") is None
        state.apply_action(n)
    assert pick_seen(state, S, "East") == 3  # revealed
    assert state.current_player() == E  # the highest pick begins round 2
    for move in ["stop", "stop", "stop"]:
        state.apply_action(move)
    state.apply_action("2")  # North's new pick: secret again, though the old one was shown
    assert pick_seen(state, E, "North") is None and pick_seen(state, N, "North") == 2
    for n in ["2", "1"]:  # East, South: North is the first with the highest pick
        state.apply_action(n)
    assert state.is_terminal()
    assert state.winners() == [N, E] and state.returns() == [0.0, 0.0, -1.0]


def pick_seen(state: rulelang.State, viewer: int, owner: str) -> object:
    obs = state.observation(viewer)
    return next(v["value"] for v in obs["vars"] if v["var"] == "pick" and v["owner"] == owner)
