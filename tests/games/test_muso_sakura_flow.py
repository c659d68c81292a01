"""Muso Sakura setup and turns, from the seed's "ゲームの準備", "手番での行動" and "局の終了".
Both modes."""
from __future__ import annotations

from collections import Counter

import pytest
from muso_tools import arrange, every_card, legal, load, names, zone

MODES = ["interpreted", "compiled"]
HAND = (["Hazakura", "Ochiba", "Outou"], ["Kareki"])


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
def test_wander_draws_hidden_visit_takes_a_field_card_open(mode: str) -> None:
    state = arrange(load(3, mode).new_initial_state(seed=1), [HAND] * 3,
                    field=("Someiyoshino", "Kanzakura", "Someiyoshino"), deck=("Yaezakura",))
    assert legal(state) == ["wander", "visit Someiyoshino", "visit Kanzakura"]
    state.apply_action("visit Someiyoshino")
    assert names(state, "open", 0) == ["Kareki", "Someiyoshino"]
    assert names(state, "field") == ["Kanzakura", "Someiyoshino"]
    assert set(legal(state)) == {"close", "tea Hazakura", "tea Ochiba", "tea Outou",
                                 *(f"party {o} {h}" for o in ("Kareki", "Someiyoshino")
                                   for h in ("Hazakura", "Ochiba", "Outou"))}
    state.apply_action("tea Ochiba")  # 茶事: a hidden card to the field
    assert names(state, "hidden", 0) == ["Hazakura", "Outou"]
    assert names(state, "field") == ["Kanzakura", "Someiyoshino", "Ochiba"]
    assert state.current_player() == 1
    state.apply_action("wander")
    assert names(state, "hidden", 1) == ["Hazakura", "Ochiba", "Outou", "Yaezakura"]
    state.apply_action("party Kareki Hazakura")  # 茶会: an open card out, a hidden card shown
    assert names(state, "open", 1) == ["Hazakura"]
    assert names(state, "hidden", 1) == ["Ochiba", "Outou", "Yaezakura"]
    assert names(state, "field")[-1] == "Kareki"


@pytest.mark.parametrize("mode", MODES)
def test_close_takes_the_lowest_curtain_and_draws_its_number_of_cards(mode: str) -> None:
    deck = tuple(["Hazakura"] * 5 + ["Ochiba"] * 4)
    state = arrange(load(3, mode).new_initial_state(seed=1), [HAND] * 3, deck=deck)
    for p, drawn in ((0, 1), (1, 2), (2, 3)):
        before = len(names(state, "field"))
        state.apply_action("wander")
        state.apply_action("close")
        assert state.ctx.data.vars[("curtain", p)] == p + 1
        assert len(names(state, "field")) == before + drawn
    assert names(state, "field") == ["Ochiba", "Ochiba", "Hazakura", "Hazakura", "Hazakura",
                                     "Hazakura"]


@pytest.mark.parametrize("mode", MODES)
def test_close_stops_drawing_when_the_deck_runs_out(mode: str) -> None:
    state = arrange(load(3, mode).new_initial_state(seed=1), [HAND] * 3,
                    deck=("Kanzakura", "Kanzakura", "Yaezakura"))
    state.apply_action("wander")
    state.apply_action("close")  # 幕引き札 1: Outou
    state.apply_action("wander")  # the last card
    state.apply_action("close")  # 幕引き札 2: nothing left to draw
    assert names(state, "field") == ["Kanzakura"] and names(state, "deck") == []
    assert legal(state) == ["visit Kanzakura"]


@pytest.mark.parametrize("mode", MODES)
def test_a_closed_player_only_muses_a_deck_card_to_the_field(mode: str) -> None:
    state = arrange(load(3, mode).new_initial_state(seed=1), [HAND] * 3,
                    deck=("Kanzakura", "Yaezakura", "Yaezakura", "Kareki"))
    state.apply_action("wander")  # Kareki
    state.apply_action("close")   # 幕引き札 1: Yaezakura to the field
    state.apply_action("wander")  # P1: Yaezakura
    state.apply_action("tea Hazakura")
    state.apply_action("wander")  # P2: Kanzakura; the deck is now empty
    state.apply_action("tea Ochiba")
    assert state.current_player() == 0 and legal(state) == ["muse"]
    state.apply_action("muse")  # nothing left to draw: nothing happens
    assert names(state, "field") == ["Yaezakura", "Hazakura", "Ochiba"]
    assert legal(state) == ["visit Yaezakura", "visit Hazakura", "visit Ochiba"]  # no wander


@pytest.mark.parametrize("mode", MODES)
def test_all_five_cards_open_forces_close(mode: str) -> None:
    state = arrange(load(3, mode).new_initial_state(seed=1), [([], ["Hazakura"] * 4)] + [HAND] * 2,
                    field=("Ochiba",))
    state.apply_action("visit Ochiba")
    assert legal(state) == ["close"]


@pytest.mark.parametrize("mode", MODES)
def test_players_x_2_field_cards_set_the_end_flag_and_force_close(mode: str) -> None:
    # 3 players: the flag at 6 field cards. P0's 茶事 makes the sixth; P1 must close after
    # step 1, and so must P2, even after the field shrank by P2's 探訪 [ASSUMED C-03].
    field = ("Ochiba",) * 5
    state = arrange(load(3, mode).new_initial_state(seed=1), [HAND] * 3, field=field,
                    deck=("Yaezakura",) * 4)
    state.apply_action("wander")
    assert "tea Hazakura" in legal(state)
    state.apply_action("tea Hazakura")
    state.apply_action("visit Ochiba")
    assert legal(state) == ["close"]
    state.apply_action("close")
    state.apply_action("visit Ochiba")
    assert legal(state) == ["close"]


@pytest.mark.parametrize("mode", MODES)
def test_five_players_the_fifth_to_close_gets_no_curtain(mode: str) -> None:
    hand = (["Hazakura", "Ochiba"], ["Musouzakura"])
    state = arrange(load(5, mode).new_initial_state(seed=1), [hand] * 5,
                    deck=("Ochiba",) * 3 + ("Kanzakura",) * 3 + ("Jugatsuzakura",) * 4)
    for _ in range(5):
        state.apply_action("wander" if "wander" in legal(state) else legal(state)[0])
        state.apply_action("close")
    curtains = [state.ctx.data.vars[("curtain", p)] for p in range(5)]
    assert curtains == [1, 2, 3, 4, 0]
    # 4 drawn and 1 + 2 + 3 + 4 to the field would need 14 cards: the deck of 10 runs out
    # (the fifth takes a field card instead: 6 left on the field)
    assert len(names(state, "field")) == 5 and names(state, "deck") == []
    assert state.ctx.data.round == 1 and legal(state)[0].startswith("(")  # the roles


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
