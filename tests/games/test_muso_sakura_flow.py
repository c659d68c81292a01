"""Muso Sakura setup and turns, from the seed's "ゲームの準備", "手番での行動" and "局の終了".
The positions and outcomes of single turns are scenarios in rulebooks/muso_sakura.test; these
check every card's place over a whole setup or round (a sum the scenario language has no check
for). Both modes."""
from __future__ import annotations

from collections import Counter

import pytest
from muso_tools import every_card, legal, load, names, zone

MODES = ["interpreted", "compiled"]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players, game_mode, added", [(3, "short", 3), (5, "short", 3),
                                                       (4, "long", 2)])
def test_setup_deals_3_hidden_and_1_open_from_48_cards_and_the_added_musouzakura(
        mode: str, players: int, game_mode: str, added: int) -> None:
    state = load(players, mode, mode=game_mode).new_initial_state(seed=5)
    assert sorted(every_card(state).values()) == [1] * 56
    for p in range(players):
        assert (len(zone(state, "hidden", p)), len(zone(state, "open", p))) == (3, 1)
    assert len(zone(state, "deck")) == 48 + added - 4 * players
    assert names(state, "reserve") == ["Musouzakura"] * (8 - added)
    in_play = Counter(names(state, "deck") + names(state, "field") + sum(
        (names(state, z, p) for z in ("hidden", "open") for p in range(players)), []))
    assert in_play["Musouzakura"] == added and in_play["Hazakura"] == 8
    assert state.current_player() == 0  # [ASSUMED C-10]
    assert set(legal(state)) == {"wander"}  # the field is empty


@pytest.mark.parametrize("mode", MODES)
def test_the_next_round_collects_the_cards_adds_musouzakura_and_the_curtain_1_starts(
        mode: str) -> None:
    import random
    state = load(4, mode).new_initial_state(seed=3)
    rng = random.Random(3)
    while not legal(state)[0].startswith("("):  # play round 1 up to the roles
        state.apply_action(rng.choice(state.legal_actions()))
    first = next(p for p in range(4) if state.ctx.data.vars[("curtain", p)] == 1)
    while state.ctx.data.round == 1:
        state.apply_action(rng.choice(state.legal_actions()))
    data = state.ctx.data
    scenic = sum(len(zone(state, "scenic", p)) for p in range(4))
    assert scenic == 4 * 2 + 4  # ② 2 each, ③ 1 each
    assert len(names(state, "reserve")) == 8 - 3 - 3
    assert all(len(zone(state, "hidden", p)) == 3 and len(zone(state, "open", p)) == 1
               for p in range(4))
    assert len(zone(state, "deck")) == 56 - 2 - scenic - 16
    assert names(state, "field") == []
    assert data.starter == data.mover == first == state.current_player()
    assert all(data.vars[("curtain", p)] == 0 and not data.vars[("closed", p)]
               for p in range(4))
    assert sorted(every_card(state).values()) == [1] * 56
