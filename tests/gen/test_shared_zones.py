"""A generated state's copies share its zones' lists until one of them changes a zone, which
then copies that zone's list first (gen/rt.py own_zone): whatever a copy does — its
actions, a playout, a menu's tries, a resample's deal — the state it was copied from keeps
its zones, and the other way round (a deal's in-place changes too: GameData.own_zones)."""
from __future__ import annotations

import random
from typing import Any

import pytest

import rulelang
from rulelang.game.resample import deal_again
from rulelang.gen import GenGame

GAMES = [("karesansui", {"players": 2}), ("muso_sakura", {"players": 3}),
         ("tatara", {"players": 2}), ("tic_tac_toe", None), ("spyramid", None),
         ("sponnect", None)]


def _zones(state: Any) -> dict[Any, tuple[Any, ...]]:
    return {zone: tuple(pile) for zone, pile in state.zones.items()}


def _on(state: Any, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name,options", GAMES, ids=[g for g, _ in GAMES])
def test_a_copy_and_its_original_keep_their_own_zones(name: str, options: Any) -> None:
    game = rulelang.load_game(name, options, mode="generated")
    assert isinstance(game, GenGame)
    rng, changed = random.Random(5), 0
    for seed in range(2):
        state = game.new_initial_state(seed)
        while not state.is_terminal() and state.turn < 30:
            before = _zones(state)
            copy = state.clone()
            _on(copy, rng, 4)  # the copy goes on: the original keeps its zones
            copy.play_out(random.Random(seed), 30)
            changed += _zones(copy) != before
            assert _zones(state) == before
            copy = state.clone()
            kept = _zones(copy)
            _on(state, rng, 2)  # the original goes on: the copy keeps its zones
            assert _zones(copy) == kept
            if game.state_class.keeps_segment and not state.is_terminal():
                mine = _zones(state)
                dealt = state.resample(state.current_player(), seed)
                assert _zones(state) == mine  # (a deal changes the copy's zones only)
                _on(dealt, rng, 3)
                assert _zones(state) == mine
                other = state.clone()  # (a deal on a copy's own data: check --simulate's)
                deal_again(other.live_data, game.runtime.program, 0, random.Random(seed))
                assert _zones(state) == mine
    assert changed > 3  # (the copies did change zones)


def test_a_copy_of_a_copy_changes_neither() -> None:
    game = rulelang.load_game("karesansui", {"players": 2}, mode="generated")
    rng = random.Random(2)
    first = game.new_initial_state(3)
    _on(first, rng, 5)
    second = first.clone()
    third = second.clone()
    shots = [_zones(s) for s in (first, second, third)]
    _on(third, rng, 12)
    _on(second, rng, 6)
    assert _zones(first) == shots[0]
    first.play_out(random.Random(1), 40)
    assert _zones(first) != shots[0] and _zones(second) != shots[1]
    assert _zones(third) != shots[2]
