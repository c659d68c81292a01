"""Observation tensors (game/tensors.py): a fixed shape per game, made from observation(p)
only, so that nothing hidden from p enters p's tensor."""
from __future__ import annotations

import random

import rulelang
from rulelang.game.tensors import observation_tensor, tensors_of


def test_planes_zones_counters_and_mover() -> None:
    game = rulelang.load_game("tic_tac_toe")
    layout = tensors_of(game)
    assert layout.shape == {"board": (1 * 3, 9), "zones": (2, 2), "counters": (0,),
                            "mover": (2,)}  # one kind x (X, O, no owner); 2 supplies
    state = game.new_initial_state()
    state.apply_action("place b2")
    t = observation_tensor(state, 1)
    assert len(t) == layout.size == 3 * 9 + 4 + 2
    board, zones, mover = t[:27], t[27:31], t[31:]
    x_marks = layout.planes[("mark", "X")]
    assert [i for i, v in enumerate(board) if v] == [x_marks * 9 + 4]  # b2: site 4
    assert zones == [4.0, 4.0, 5.0, 5.0]  # supply (X), then (O): its count, its marks seen
    assert mover == [0.0, 1.0]


def test_symbols_of_cards_counted_per_zone() -> None:
    """Muso Sakura: a player's tensor counts the card names of their own hidden hand and of
    the open zones, never of another player's hidden hand."""
    game = rulelang.load_game("muso_sakura")
    state = game.new_initial_state(seed=4)
    layout = tensors_of(game)
    width = layout.shape["zones"][1]
    t = observation_tensor(state, 0)
    start = layout.shape["board"][0] * layout.shape["board"][1]  # (no board: 0)
    zones = t[start: start + layout.shape["zones"][0] * width]
    row = layout.zones[("hidden", "Player1")] * width
    assert zones[row] == 3 and sum(zones[row + 2: row + width]) == 3  # names seen: 3
    other = layout.zones[("hidden", "Player2")] * width
    assert zones[other] == 3 and sum(zones[other + 1: other + width]) == 0


def test_nothing_hidden_enters_a_tensor() -> None:
    """p's tensor is the same in every state p cannot tell apart (resamples), while other
    players' tensors change with what is dealt again."""
    for name in ("karesansui", "muso_sakura"):
        game = rulelang.load_game(name)
        state, rng = game.new_initial_state(seed=2), random.Random(2)
        for _ in range(6):
            state.apply_action(rng.choice(state.legal_actions()))
        p = state.current_player()
        mine = observation_tensor(state, p)
        others = set()
        for seed in range(4):
            again = state.clone().resample(p, seed)
            assert observation_tensor(again, p) == mine
            others.add(tuple(observation_tensor(again, (p + 1) % game.num_players)))
        assert len(others) > 1, name
