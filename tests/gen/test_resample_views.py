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


def _looped(state: object, rng: random.Random, limit: int) -> None:
    for _ in range(limit):
        if state.is_terminal():  # type: ignore[attr-defined]
            return
        state.apply_action(rng.choice(state.legal_actions()))  # type: ignore[attr-defined]


@pytest.mark.parametrize("name,options", [("muso_sakura", {"players": 3}),
                                          ("karesansui", {"players": 2}),
                                          ("tatara", {"players": 2})])
def test_a_playout_keeps_the_turns_start_as_the_actions_applied_do(
        name: str, options: dict[str, int]) -> None:
    """play_out copies no turn's start (a search's playout is never resampled): where it
    stops in the middle of the game, the start of the turn it stopped in is made again, and
    the state (and a clone of it taken before) resamples as one the same actions were
    applied to; where it ends the game, the last turn's start is there when asked for."""
    game = rulelang.load_game(name, options, mode="generated")
    assert isinstance(game, GenGame) and game.state_class.keeps_segment
    mid_turn = 0
    for limit in (1, 2, 5, 9, 17, 30, 10_000):
        played, applied = game.new_initial_state(limit), game.new_initial_state(limit)
        played.play_out(random.Random(limit), limit)
        _looped(applied, random.Random(limit), limit)
        assert played.history() == applied.history()
        assert played._defer is None or played.is_terminal()
        copy = played.clone()
        start, truth = played.turn_start_data(), applied.turn_start_data()
        assert (start is None) == (truth is None)
        if start is not None:
            assert canonical(start) == canonical(truth)
        if played.is_terminal():
            assert canonical(played._segment_start().data) \
                == canonical(applied._checkpoint.data)
            continue
        assert canonical(played._checkpoint.data) == canonical(applied._checkpoint.data)
        assert played._trail == applied._trail
        mid_turn += bool(played._trail)
        player = played.current_player()
        for seed in range(2):
            a, b, c = (s.resample(player, seed) for s in (played, applied, copy))
            assert canonical(a.data) == canonical(b.data) == canonical(c.data)
            assert a.observation(player) == b.observation(player)
    assert mid_turn
