"""Muso Sakura round-end scoring, from the rules text (seed "終了時の処理" and "カードの細則").
Each expected figure is worked out by hand in the comment above it. Both modes."""
from __future__ import annotations

import pytest
from muso_tools import at_round_end, choose_roles, load, names, sheet

MODES = ["interpreted", "compiled"]
FILLER = (["Yaezakura", "Kobukuzakura", "Jugatsuzakura", "Kanzakura"], ["Outou"])


def round_end(mode: str, hands: list, roles: list, **kw: object) -> object:
    state = at_round_end(load(len(hands), mode, **kw.pop("options", {})).new_initial_state(seed=1),
                         hands, **kw)
    choose_roles(state, roles)
    return state


@pytest.mark.parametrize("mode", MODES)
def test_someiyoshino_wilts_with_hazakura_ochiba_or_kareki_in_its_own_hand(mode: str) -> None:
    # P0's fifth card is 落葉: 染井吉野 0. P1's hand holds none of the three: 8.
    # P2's fifth card is 枯れ木: 0. Role 染井吉野 八重桜 子福桜 桜桃: seasons spring, spring or
    # summer, spring, summer: no season bonus; 桜桃 3 + 1; names all different.
    role = ["Someiyoshino", "Yaezakura", "Kobukuzakura", "Outou"]
    hands = [(role[:3] + [fifth], role[3:]) for fifth in ("Ochiba", "Yaezakura", "Kareki")]
    state = round_end(mode, hands, [role, role, role])
    assert sheet(state, 0, "r1")["Someiyoshino"] == 0
    assert sheet(state, 1, "r1") == {"Someiyoshino": 8, "Yaezakura": 5, "Kobukuzakura": 5,
                                     "Outou": 4, "seasons": 0, "names": 0, "top role": 5}
    assert sheet(state, 2, "r1")["Someiyoshino"] == 0


@pytest.mark.parametrize("mode", MODES)
def test_yaezakura_as_summer_completes_four_seasons_and_kobukuzakura_is_then_7(mode: str) -> None:
    # 八重桜 as summer, 子福桜 spring, 落葉 autumn, 寒桜 winter: one of each season, +10;
    # 子福桜 7; 5 + 7 + 3 + 5 + 10 = 30. (The filler roles score 34: no top-role bonus.)
    role = ["Yaezakura", "Kobukuzakura", "Ochiba", "Kanzakura"]
    state = round_end(mode, [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER],
                      [role, FILLER[0], FILLER[0]])
    assert sheet(state, 0, "r1") == {"Yaezakura in summer": 5, "Kobukuzakura": 7, "Ochiba": 3,
                                     "Kanzakura": 5, "seasons": 10, "names": 0}


@pytest.mark.parametrize("mode", MODES)
def test_jugatsuzakura_is_7_only_with_every_season(mode: str) -> None:
    # P0: 十月桜 autumn, 染井吉野 spring, 桜桃 summer, 寒桜 winter: four seasons, 十月桜 7
    # (no 葉桜/落葉/枯れ木 in the hand: 染井吉野 8): 7 + 8 + 4 + 5 + 10 = 34.
    # P1: 十月桜 with 子福桜, 八重桜, 寒桜: seasons autumn, spring, spring/summer, winter: with
    # 八重桜 in summer all four: 十月桜 7 and 子福桜 7: 7 + 7 + 5 + 5 + 10 = 34.
    # P2 (filler: 八重桜 子福桜 十月桜 寒桜): the same four seasons: 5 + 7 + 7 + 5 + 10 = 34.
    r0 = ["Jugatsuzakura", "Someiyoshino", "Outou", "Kanzakura"]
    r1 = ["Jugatsuzakura", "Kobukuzakura", "Yaezakura", "Kanzakura"]
    hands = [(r0[:3] + ["Yaezakura"], r0[3:]), (r1[:3] + ["Outou"], r1[3:]), FILLER]
    state = round_end(mode, hands, [r0, r1, FILLER[0]])
    assert sheet(state, 0, "r1")["Jugatsuzakura"] == 7
    assert sum(v for k, v in sheet(state, 0, "r1").items() if k != "top role") == 34
    assert sheet(state, 1, "r1")["Jugatsuzakura"] == sheet(state, 1, "r1")["Kobukuzakura"] == 7


@pytest.mark.parametrize("mode", MODES)
def test_ochiba_as_winter_and_kanzakura_counts_kuruizaki_and_kareki(mode: str) -> None:
    # 落葉 as winter: all four winter, +10. 寒桜 5 + 1 (狂い咲き) + 1 (枯れ木) = 7;
    # 狂い咲き 6 in a normal round; 枯れ木 0: 3 + 7 + 6 + 0 + 10 = 26.
    role = ["Ochiba", "Kanzakura", "Kuruizaki", "Kareki"]
    state = round_end(mode, [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER],
                      [role, FILLER[0], FILLER[0]])
    assert sheet(state, 0, "r1") == {"Ochiba in winter": 3, "Kanzakura": 7, "Kuruizaki": 6,
                                     "Kareki": 0, "seasons": 10, "names": 0}


@pytest.mark.parametrize("mode", MODES)
def test_outou_counts_every_outou_and_name_bonuses_do_not_stack(mode: str) -> None:
    # Three 桜桃: each 3 + 3 = 6; 葉桜 3; all summer +10; three equal names +5 (not 7).
    role = ["Outou", "Outou", "Outou", "Hazakura"]
    filler = (FILLER[0], ["Ochiba"])  # only 4 桜桃 exist
    state = round_end(mode, [(role[:3] + ["Ochiba"], role[3:]), filler, filler],
                      [role, FILLER[0], FILLER[0]])
    lines = sheet(state, 0, "r1")
    assert [lines["Outou"], lines["Outou #2"], lines["Outou #3"]] == [6, 6, 6]
    assert (lines["Hazakura"], lines["seasons"], lines["names"]) == (3, 10, 5)


@pytest.mark.parametrize("mode", MODES)
def test_two_pairs_give_4_and_four_of_a_name_10(mode: str) -> None:
    # P0: 落葉 落葉 葉桜 葉桜: two pairs +4; 落葉 autumn and 葉桜 summer: no season bonus (the
    # best 落葉 seasons cannot make four of one season or all four).
    # P1: four 葉桜: +10 names and all summer +10: 12 + 20 = 32.
    r0 = ["Ochiba", "Ochiba", "Hazakura", "Hazakura"]
    r1 = ["Hazakura"] * 4
    state = round_end(mode, [(r0[:3] + ["Outou"], r0[3:]), (r1[:3] + ["Outou"], r1[3:]), FILLER],
                      [r0, r1, FILLER[0]])
    assert (sheet(state, 0, "r1")["names"], sheet(state, 0, "r1")["seasons"]) == (4, 0)
    assert (sheet(state, 1, "r1")["names"], sheet(state, 1, "r1")["seasons"]) == (10, 10)


@pytest.mark.parametrize("mode", MODES)
def test_four_hazakura_zero_every_other_players_someiyoshino(mode: str) -> None:
    # P0 plays four 葉桜; P1's 染井吉野 (its own hand is clean) becomes 0; P0's own would not.
    r1 = ["Someiyoshino", "Yaezakura", "Kobukuzakura", "Outou"]
    state = round_end(mode, [(["Hazakura"] * 3 + ["Someiyoshino"], ["Hazakura"]),
                             (r1[:3] + ["Yaezakura"], r1[3:]), FILLER],
                      [["Hazakura"] * 4, r1, FILLER[0]])
    assert sheet(state, 1, "r1")["Someiyoshino"] == 0


@pytest.mark.parametrize("mode", MODES)
def test_musouzakura_named_hazakura_with_one_real_hazakura_triggers_it(mode: str) -> None:
    # P0: 葉桜 + three 夢想桜 (usable: at least 2 in the hand) named 葉桜: four 葉桜 with one
    # real one: +10 names, and P1's 染井吉野 is 0. The seasons give +10 too (all summer, or the
    # 夢想桜 in the three other seasons: the same score, either is a best use).
    r1 = ["Someiyoshino", "Yaezakura", "Kobukuzakura", "Outou"]
    dreams = ["Musouzakura"] * 3
    state = round_end(mode, [(dreams + ["Outou"], ["Hazakura"]), (r1[:3] + ["Yaezakura"], r1[3:]),
                             FILLER], [dreams + ["Hazakura"], r1, FILLER[0]])
    lines = sheet(state, 0, "r1")
    assert sum(1 for k in lines if k.startswith("Musouzakura as Hazakura")) == 3
    assert (lines["names"], lines["seasons"]) == (10, 10)
    assert sheet(state, 1, "r1")["Someiyoshino"] == 0


@pytest.mark.parametrize("mode", MODES)
def test_four_musouzakura_named_hazakura_without_a_real_one_do_nothing(mode: str) -> None:
    # The player names all four 夢想桜 葉桜 (abilities chosen by hand): no real 葉桜, so P1's
    # 染井吉野 keeps its 8; the names still give +10 and the seasons (all summer) +10.
    r1 = ["Someiyoshino", "Yaezakura", "Kobukuzakura", "Outou"]
    dreams = ["Musouzakura"] * 4
    state = at_round_end(load(3, mode, abilities="chosen").new_initial_state(seed=1),
                         [(dreams[:3] + ["Outou"], dreams[3:]), (r1[:3] + ["Yaezakura"], r1[3:]),
                          FILLER])
    state.apply_action("(Musouzakura, Musouzakura, Musouzakura, Musouzakura)")
    for _ in range(4):
        state.apply_action("(Hazakura, summer)")
    choose_roles_from(state, 1, [r1, FILLER[0]])
    assert sheet(state, 0, "r1")["names"] == 10 and sheet(state, 0, "r1")["seasons"] == 10
    assert sheet(state, 1, "r1")["Someiyoshino"] == 8


def choose_roles_from(state: object, first: int, roles: list) -> None:
    from muso_tools import role
    for p, r in enumerate(roles, start=first):
        assert state.current_player() == p  # type: ignore[attr-defined]
        state.apply_action(role(r))  # type: ignore[attr-defined]
        while state.current_player() == p:  # type: ignore[attr-defined]
            options = [state.action_to_string(a) for a in state.legal_actions()]  # type: ignore[attr-defined]
            state.apply_action(options[0])  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", MODES)
def test_musouzakura_named_outou_counts_for_the_others_but_gains_nothing(mode: str) -> None:
    # 桜桃 桜桃 夢想桜 葉桜 with a second 夢想桜 in the hand: the best use names the 夢想桜 桜桃:
    # the two real 桜桃 are 3 + 3 = 6 each, the 夢想桜 stays 3; three 桜桃 +5; all summer +10:
    # 6 + 6 + 3 + 3 + 5 + 10 = 33 (named 葉桜 instead: 5 + 5 + 3 + 3 + 4 + 10 = 30).
    role = ["Outou", "Outou", "Musouzakura", "Hazakura"]
    state = round_end(mode, [(["Outou", "Outou", "Musouzakura", "Musouzakura"], ["Hazakura"]),
                             FILLER, FILLER], [role, FILLER[0], FILLER[0]])
    lines = sheet(state, 0, "r1")
    assert lines["Musouzakura as Outou in summer"] == 3
    assert (lines["Outou"], lines["Outou #2"], lines["names"], lines["seasons"]) == (6, 6, 5, 10)


@pytest.mark.parametrize("mode", MODES)
def test_a_single_musouzakura_has_no_ability(mode: str) -> None:
    # Only one 夢想桜 in the hand: no season, its own name: 桜桃 桜桃 夢想桜 葉桜 scores
    # 5 + 5 + 3 + 3, a pair +2, no season bonus.
    role = ["Outou", "Outou", "Musouzakura", "Hazakura"]
    state = round_end(mode, [(["Outou", "Outou", "Musouzakura", "Ochiba"], ["Hazakura"]),
                             FILLER, FILLER], [role, FILLER[0], FILLER[0]])
    assert sheet(state, 0, "r1") == {"Outou": 5, "Outou #2": 5, "Musouzakura": 3, "Hazakura": 3,
                                     "seasons": 0, "names": 2}


@pytest.mark.parametrize("mode", MODES)
def test_the_top_role_gains_5_and_a_tie_goes_to_the_smaller_curtain(mode: str) -> None:
    # P0, P1 and P2 play the same role; P1 holds 幕引き札 1, P2 2 and P0 (closing last) 3.
    state = round_end(mode, [FILLER, FILLER, FILLER], [FILLER[0]] * 3)
    assert ["top role" in sheet(state, p, "r1") for p in range(3)] == [False, True, False]
    assert sheet(state, 1, "r1")["top role"] == 5


@pytest.mark.parametrize("mode", MODES)
def test_round_4_of_the_long_game_counts_double(mode: str) -> None:
    # The 30-point role of the 八重桜 test doubled; the fillers' 34 doubled, and the top-role
    # bonus of 10 for P1 (tied with P2, smaller 幕引き).
    role = ["Yaezakura", "Kobukuzakura", "Ochiba", "Kanzakura"]
    state = round_end(mode, [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER],
                      [role, FILLER[0], FILLER[0]], round_no=4, options={"mode": "long"})
    lines = sheet(state, 0, "r4")
    assert sum(v for k, v in lines.items() if k != "top role") == 60
    assert lines["Kobukuzakura"] == 14 and "top role" not in lines
    assert sum(sheet(state, 1, "r4").values()) == 68 + 10


@pytest.mark.parametrize("mode", MODES)
def test_scenic_cards_from_the_field_go_lowest_role_first(mode: str) -> None:
    # Roles: P0 30 (the 八重桜 role), P1 and P2 the filler (34 each; P1 holds 幕引き札 1). The
    # lowest, P0, picks 2 first, then P1 (tie with P2, smaller 幕引き), then P2.
    role = ["Yaezakura", "Kobukuzakura", "Ochiba", "Kanzakura"]
    field = ("Hazakura", "Kareki", "Outou", "Ochiba", "Kuruizaki", "Kanzakura")
    state = round_end(mode, [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER],
                      [role, FILLER[0], FILLER[0]], field=field)
    order = []
    while len(order) < 6:
        p = state.current_player()
        options = [state.action_to_string(a) for a in state.legal_actions()]
        assert "deck" not in options  # the deck is empty
        state.apply_action(options[0])
        order.append(p)
    assert order == [0, 0, 1, 1, 2, 2]
    assert names(state, "field") == []


@pytest.mark.parametrize("mode", MODES)
def test_long_game_scenic_cards_from_the_field_one_each_for_the_two_lowest(mode: str) -> None:
    role = ["Yaezakura", "Kobukuzakura", "Ochiba", "Kanzakura"]
    field = ("Hazakura", "Kareki", "Outou", "Ochiba")
    state = round_end(mode, [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER],
                      [role, FILLER[0], FILLER[0]], field=field, options={"mode": "long"})
    for p in (0, 1):
        assert state.current_player() == p
        state.apply_action("Kareki" if p == 0 else "Outou")
    # then ③ (from the hand) for everyone: P0's lowest printed points is 3 (落葉 or 桜桃)
    assert state.current_player() == 0
    assert {state.action_to_string(a) for a in state.legal_actions()} == {"Ochiba", "Outou"}
    assert names(state, "field") == ["Hazakura", "Ochiba"]
    assert names(state, "scenic", 0) == ["Kareki"] and names(state, "scenic", 1) == ["Outou"]


@pytest.mark.parametrize("mode", MODES)
def test_scenic_card_from_the_hand_lowest_printed_points_or_any_with_kareki(mode: str) -> None:
    # P0 (role 落葉 寒桜 狂い咲き 枯れ木 + 桜桃) holds 枯れ木: any of its 5 cards. P1 (filler +
    # 桜桃): the lowest printed points: 桜桃 3 only (abilities do not count here).
    role = ["Ochiba", "Kanzakura", "Kuruizaki", "Kareki"]
    state = round_end(mode, [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER],
                      [role, FILLER[0], FILLER[0]])
    assert {state.action_to_string(a) for a in state.legal_actions()} == set(role) | {"Outou"}
    state.apply_action("Kanzakura")
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["Outou"]
    assert names(state, "scenic", 0) == ["Kanzakura"]


def play_to_the_end(state: object, roles: list, finals: list) -> None:
    """Round-end roles, the 勝景札 from the hand (the first option), then the final roles."""
    choose_roles(state, roles)
    for p in range(len(roles)):  # ③ (the field and the deck are empty: ② takes nothing)
        assert state.current_player() == p  # type: ignore[attr-defined]
        state.apply_action(state.legal_actions()[0])  # type: ignore[attr-defined]
    choose_roles(state, finals)


@pytest.mark.parametrize("mode", MODES)
def test_final_role_kuruizaki_is_0_and_someiyoshino_keeps_8(mode: str) -> None:
    # 勝景点 of 狂い咲き 寒桜 染井吉野 落葉 (with 落葉 in the same role): 狂い咲き 0 at 勝景点,
    # 寒桜 5 + 1, 染井吉野 8 (its self rule is off), 落葉 3; seasons winter, winter, spring,
    # autumn or winter: no bonus; names all different: 0 + 6 + 8 + 3 = 17.
    final = ["Kuruizaki", "Kanzakura", "Someiyoshino", "Ochiba"]
    hands = [(["Hazakura", "Hazakura", "Ochiba", "Ochiba"], ["Jugatsuzakura"])] * 3
    state = at_round_end(load(3, mode).new_initial_state(seed=1), hands, round_no=2,
                         scenic=[final + ["Outou"], ["Outou"] * 3 + ["Yaezakura"] * 2,
                                 ["Kareki"] * 4 + ["Kobukuzakura"]])
    play_to_the_end(state, [hands[0][0]] * 3, [final, ["Outou"] * 3 + ["Yaezakura"],
                                              ["Kareki"] * 4])
    assert state.is_terminal()
    assert sheet(state, 0, "final") == {"Kuruizaki": 0, "Kanzakura": 6, "Someiyoshino": 8,
                                        "Ochiba": 3, "seasons": 0, "names": 0}


@pytest.mark.parametrize("mode", MODES)
def test_final_musouzakura_needs_two_among_the_scenic_cards(mode: str) -> None:
    # P0 holds two 夢想桜 among its 勝景札: one named 葉桜 with three real ones: four 葉桜,
    # +10 names and +10 seasons: 3 * 4 + 20 = 32. P1 holds one: no ability: 12 + 5 (three
    # 葉桜) = 17.
    hands = [(["Ochiba", "Ochiba", "Someiyoshino", "Yaezakura"], ["Jugatsuzakura"])] * 3
    state = at_round_end(load(3, mode).new_initial_state(seed=1), hands, round_no=2,
                         scenic=[["Musouzakura", "Musouzakura", "Hazakura", "Hazakura",
                                  "Hazakura"],
                                 ["Musouzakura", "Hazakura", "Hazakura", "Hazakura", "Outou"],
                                 ["Outou"] * 3 + ["Kuruizaki"] * 2])
    final0 = ["Musouzakura"] + ["Hazakura"] * 3
    play_to_the_end(state, [hands[0][0]] * 3, [final0, final0, ["Outou"] * 3 + ["Kuruizaki"]])
    assert sum(sheet(state, 0, "final").values()) == 32 + 5  # the top final role: +5
    assert sum(sheet(state, 1, "final").values()) == 17


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("before, winners", [((10, 0, 10), [1]), ((10, -1, 10), [2]),
                                             ((30, 0, 0), [0])])
def test_the_highest_total_wins_ties_to_the_smaller_final_curtain(
        mode: str, before: tuple[int, ...], winners: list[int]) -> None:
    # Every player has the same hand and 勝景札, so round 2 and the final roles score the same
    # for all; P1 (幕引き札 1) gains both top-role bonuses (+5 +5). Totals before: `before`.
    # (10, 0, 10): all three tie at 10 + x: P1, the smallest 幕引き, wins [ASSUMED C-06].
    # (10, -1, 10): P0 and P2 tie; P2 holds 幕引き札 2, P0 (closing last) 3: P2.
    hands = [(["Hazakura", "Hazakura", "Ochiba", "Ochiba"], ["Jugatsuzakura"])] * 3
    scenic = [["Musouzakura", "Musouzakura", "Kuruizaki", "Kareki", "Kobukuzakura"]] * 3
    state = at_round_end(load(3, mode).new_initial_state(seed=1), hands, round_no=2,
                         scenic=scenic)
    for p, points in enumerate(before):
        state.ctx.data.vars[("sheet", p)] = (("r1 set", points),)
    play_to_the_end(state, [hands[0][0]] * 3, [scenic[0][:4]] * 3)
    totals = state.scores()
    assert totals[1] - totals[0] == 10 - before[0] + before[1]
    assert state.winners() == winners


@pytest.mark.parametrize("mode", MODES)
def test_long_game_final_role_counts_double_with_a_top_bonus_of_10(mode: str) -> None:
    # Round 4 of the long game, then the 勝景点: P0's 狂い咲き 寒桜 染井吉野 落葉 scores 17
    # (see above) doubled: 34; P1's 桜桃 x3 + 八重桜 (3 + 3 each for the 桜桃, 5, three of a
    # name +5, 八重桜 in summer: all summer +10 = 38) doubled: 76, and the top bonus 10.
    final = ["Kuruizaki", "Kanzakura", "Someiyoshino", "Ochiba"]
    hands = [(["Hazakura", "Hazakura", "Ochiba", "Ochiba"], ["Jugatsuzakura"])] * 3
    state = at_round_end(load(3, mode, mode="long").new_initial_state(seed=1), hands,
                         round_no=4,
                         scenic=[final + ["Outou"], ["Outou"] * 3 + ["Yaezakura"] * 2,
                                 ["Kareki"] * 4 + ["Kobukuzakura"]])
    play_to_the_end(state, [hands[0][0]] * 3, [final, ["Outou"] * 3 + ["Yaezakura"],
                                              ["Kareki"] * 4])
    assert sum(sheet(state, 0, "final").values()) == 34
    assert sheet(state, 1, "final") == {"Outou": 12, "Outou #2": 12, "Outou #3": 12,
                                        "Yaezakura in summer": 10, "seasons": 20, "names": 10,
                                        "top role": 10}


@pytest.mark.parametrize("mode", MODES)
def test_with_chosen_abilities_the_player_sets_each_season_secretly(mode: str) -> None:
    # abilities=chosen: after the role, 八重桜 asks spring or summer and 落葉 autumn or winter
    # (the other cards have nothing to choose). Spring and autumn: no season bonus, 子福桜 5:
    # 5 + 5 + 3 + 5 = 18 (the best use would score 30).
    role = ["Yaezakura", "Kobukuzakura", "Ochiba", "Kanzakura"]
    state = at_round_end(load(3, mode, abilities="chosen").new_initial_state(seed=1),
                         [(role[:3] + ["Outou"], role[3:]), FILLER, FILLER])
    state.apply_action("(Kanzakura, Kobukuzakura, Ochiba, Yaezakura)")
    asked = []
    while state.current_player() == 0:
        asked.append(sorted(state.action_to_string(a) for a in state.legal_actions()))
        state.apply_action(asked[-1][0])
        assert state.observation(1)["history"][-1] == "(secret choice)"
    assert asked == [["(Ochiba, autumn)", "(Ochiba, winter)"],
                     ["(Yaezakura, spring)", "(Yaezakura, summer)"]]
    choose_roles_from(state, 1, [FILLER[0], FILLER[0]])
    assert sheet(state, 0, "r1") == {"Kanzakura": 5, "Kobukuzakura": 5, "Ochiba": 3,
                                     "Yaezakura": 5, "seasons": 0, "names": 0}
