"""Tatara and the Forest: scenario tests for each rule, through the public API, both modes
(those that only play moves and check options or the turn are in rulebooks/tatara.test).

Board layout (2 players, [ASSUMED B-07]): boards 1 2 over 3 4, each 3x3 spaces named
board + column a-c + row 1-3 ("4b2" is the centre of board 4):

    1a1 1b1 1c1 | 2a1 2b1 2c1
    1a2 1b2 1c2 | 2a2 2b2 2c2
    1a3 1b3 1c3 | 2a3 2b3 2c3
    ------------+------------
    3a1 3b1 3c1 | 4a1 4b1 4c1
    3a2 3b2 3c2 | 4a2 4b2 4c2
    3a3 3b3 3c3 | 4a3 4b3 4c3

Oaks stand on 1a1 1c3, 2c1 2a3, 3a1 3c3, 4c1 4a3 [ASSUMED B-02]. Expected move sets were
worked out by hand on this picture (each step costs 1, a standing tree costs 2 and cannot be
stopped on). The forest-phase scenarios use tests/games/tatara_ordered.rule, the same rules
with the succession deck left in card order: 2 players reveal 4 4, 4 3, 3 3, 2 2, 2 1, 1 1;
tests/games/tatara_board4.rule has every card show board 4.
"""
from __future__ import annotations

import pytest
from scenario_tools import legal, play
from tatara_tools import ORDERED, RULEBOOK, board, counter, kinds, tree, var, zone_count

import rulelang

_GAMES: dict[tuple[str, int, str], object] = {}
P1, P2 = "Player1", "Player2"


@pytest.fixture(params=["interpreted", "compiled"])
def load(request):
    def _load(path=RULEBOOK, players: int = 2):
        key = (str(path), players, request.param)
        if key not in _GAMES:
            _GAMES[key] = rulelang.load_game(path, {"players": players}, mode=request.param)
        return _GAMES[key]
    return _load


def moves(state) -> set[str]:
    return {a.split()[1] for a in legal(state) if a.startswith("move ")}


# -- components and setup ----------------------------------------------------------------------
@pytest.mark.parametrize(("players", "boards", "cards"), [(2, 4, 12), (3, 5, 15), (4, 6, 18)])
def test_boards_oaks_supplies_and_deck_by_player_count(load, players, boards, cards) -> None:
    state = load(players=players).new_initial_state(0)
    sites = board(state)
    assert len(sites) == 9 * boards
    assert {name[0] for name in sites} == {str(b) for b in range(1, boards + 1)}
    oaks = {s for s in sites if tree(state, s) is not None}
    odd, even = range(1, boards + 1, 2), range(2, boards + 1, 2)
    marks = {f"{b}a1" for b in odd} | {f"{b}c3" for b in odd}
    marks |= {f"{b}c1" for b in even} | {f"{b}a3" for b in even}
    assert oaks == marks
    assert all(tree(state, s) == ("oak", None, True, 1) for s in oaks)
    assert zone_count(state, "forest", kind="oak") == 12 - 2 * boards
    assert zone_count(state, "forest", kind="beech") == 30
    assert zone_count(state, "deck") == cards
    assert zone_count(state, "box") == 18 - cards
    for p in range(1, players + 1):
        name = f"Player{p}"
        assert zone_count(state, "supply", name, "pine") == 8
        assert zone_count(state, "supply", name, "cedar") == 6
        assert zone_count(state, "supply", name, "sawtooth") == 8
        assert zone_count(state, "supply", name, "tatara") == 2
        assert zone_count(state, "supply", name, "eitai") == 1
        assert counter(state, "money", name) == 0 and counter(state, "material", name) == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_goes_counter_clockwise_from_the_start_players_right(load, players) -> None:
    state = load(players=players).new_initial_state(0)
    spots = ["1b2", "2b2", "3b2", "4b2"][:players]
    order = []
    for spot in spots:
        order.append(state.current_player())
        assert spot in legal(state)
        state.apply_action(spot)
    assert order == list(range(players - 1, -1, -1))  # the last seat first, the start player last
    for p, spot in zip(order, spots, strict=True):
        assert kinds(state, spot) == [("pawn", f"Player{p + 1}"), ("tatara", f"Player{p + 1}")]
        assert zone_count(state, "supply", f"Player{p + 1}", "tatara") == 1
    assert state.current_player() == 0  # then the start player's first turn
    assert all(a.startswith("move ") for a in legal(state))


# -- movement ------------------------------------------------------------------------------------
def test_others_pieces_block_and_own_tatara_does_not(load) -> None:
    game = load(ORDERED)  # boards 1 and 2 see no forest event before round 4
    state = play(game, "2b2;1b2;move 1c2;plant pine 1c1;plant cedar 2a2")
    # Player2 on 2b2: 1c2 (Player1's pawn) and 1b2 (Player1's tatara) cannot be entered;
    # saplings can be stopped on: 2a2 (1), 1c1 over 2a2 2a1 (3)
    got = moves(state)
    assert "1c2" not in got and "1b2" not in got
    assert {"2a2", "1c1"} <= got
    play(game, "move 2c2;pass;pass;move 2c3;pass;pass", state)  # rounds 1 and 2 (it starts)
    # Player1 on 1c2 (3 points): onto its own tatara 1b2, and through it to 1a2 (2); any
    # other way to 1a2 costs 5 (over the oak 1c3, or the oak 1a1)
    assert {"1b2", "1a2"} <= moves(state)
    # Player2's tatara on 2b2 cannot be crossed: 2c2 and 2b3 would cost 3 through it; the
    # ways round cost 5 (2a1 2b1 and the oak 2c1) and 4 (the oak 2a3)
    assert "2c2" not in moves(state) and "2b3" not in moves(state)


def test_each_pass_adds_one_space_to_the_next_move_only(load) -> None:
    game = load(ORDERED)
    state = play(game, "2b2;1b2;move 1b3;pass;pass;move 2c2;pass;plant pine 2c3")
    # round 2 begins with Player2 [B-10]: 3 + 1 pass
    assert state.current_player() == 1 and var(state, "allowance") == 4
    assert var(state, "extra", P1) == 2
    play(game, "move 2b3;pass;pass", state)
    # Player1 on 1b3 with 3 + 2 = 5 points: 2b1 costs 5 (1b2 1c2 2a2 2a1 2b1, or 1b2 1b1 1c1
    # 2a1 2b1)
    assert var(state, "allowance") == 5 and "2b1" in moves(state)
    play(game, "move 2a1;plant cedar 1c1;plant pine 2b1", state)  # no pass this turn
    # round 3 begins with Player1 again: back to 3 points. From 2a1: 1c1 (cedar sapling)
    # 1c2 1b2 = 3; 1a2 costs 4 (1c1 1b1 1b2 1a2, or over the oak 1a1)
    assert state.current_player() == 0 and var(state, "allowance") == 3
    got = moves(state)
    assert "1b2" in got and "1a2" not in got


def test_a_pawn_with_nowhere_to_go_skips_its_move(load) -> None:
    game = load(ORDERED)
    # round 1: cedars on 4c2 4b3 (Player1) and 4b2 (Player2); cards 4 4 make them stand
    state = play(game, "4a2;4b1;move 4c3;plant cedar 4c2;plant cedar 4b3;"
                 "move 4b3;plant cedar 4b2;pass")
    assert all(tree(state, s)[2] for s in ("4c2", "4b3", "4b2"))
    play(game, "move 4a2;pass;pass", state)  # round 2, Player2 first: back to its tatara
    # Player1 on the corner 4c3: 4c2 and 4b3 stand (2 each, no stop); beyond them the oaks
    # 4c1 4a3 and the cedar 4b2 would make 4 > 3: no move [ASSUMED B-21], the actions remain
    assert state.current_player() == 0
    assert not any(a.startswith("move") for a in legal(state))
    assert {"pass", "fell 4c2 money", "fell 4c2 material", "fell 4b3 money"} <= legal(state)


# -- actions -------------------------------------------------------------------------------------
def test_plant_pine_or_cedar_as_a_sapling_next_to_the_pawn(load) -> None:
    state = play(load(), "2b2;1b2;move 1b1")
    plants = {a for a in legal(state) if a.startswith("plant")}
    # next to 1b1: 1a1 holds an oak, 1b2 Player1's tatara; 1c1 is empty
    assert plants == {"plant pine 1c1", "plant cedar 1c1"}
    play(load(), "plant cedar 1c1", state)
    assert tree(state, "1c1") == ("cedar", P1, False, 1)
    assert zone_count(state, "supply", P1, "cedar") == 5
    assert not any(a.startswith("plant") for a in legal(state))


def test_plant_needs_a_tree_left_in_supply(load) -> None:
    game = load(ORDERED)
    state = play(game, "4c3;1b2;move 1c2;plant cedar 1c1;plant cedar 2a2;"  # round 1
                 "move 4c2;pass;pass;move 4c3;pass;pass;"                   # Player2, round 2
                 "move 1b3;plant cedar 1a3;plant cedar 3b1;"                # Player1, round 2
                 "move 3b2;plant cedar 3a2;plant cedar 3c2")                # Player1, round 3
    assert zone_count(state, "supply", P1, "cedar") == 0
    play(game, "move 4c2;pass;pass;move 4c3;pass;pass;move 3b3", state)
    plants = {a for a in legal(state) if a.startswith("plant")}
    assert plants == {"plant pine 3a3", "plant pine 3b2"}  # no cedar left


def test_fell_an_oak_for_money_or_material(load) -> None:
    state = play(load(), "2b2;1b2;move 1b1")
    assert {"fell 1a1 money", "fell 1a1 material"} <= legal(state)
    play(load(), "fell 1a1 money", state)
    assert counter(state, "money", P1) == 3 and tree(state, "1a1") is None  # [B-15] oak 3
    assert zone_count(state, "out", kind="oak") == 1
    state = play(load(), "2b2;1b2;move 1b1;fell 1a1 material")
    assert counter(state, "material", P1) == 3 and counter(state, "money", P1) == 0


def test_build_a_tatara_pay_and_get_three_actions_from_the_next_turn(load) -> None:
    game = load(ORDERED)
    state = play(game, "2b2;1b2;move 1b1;fell 1a1 money;pass;move 2c2;pass;pass;"
                 "move 2c3;pass;pass")
    assert state.current_player() == 0
    assert not any(a.startswith("build") for a in legal(state))  # money 3, material 0
    play(game, "move 1b3;fell 1c3 material", state)  # 1c3 is next to 1b3
    assert counter(state, "material", P1) == 3
    builds = {a for a in legal(state) if a.startswith("build")}
    assert "build tatara 1a1" in builds and "build tatara 1b3" not in builds  # pawn there
    assert "build tatara 2b2" not in builds and not any("eitai" in a for a in builds)
    assert "build tatara 4b2" in builds  # anywhere empty, not only next to the pawn
    play(game, "build tatara 4b2", state)
    assert kinds(state, "4b2") == [("tatara", P1)]
    assert counter(state, "money", P1) == 1 and counter(state, "material", P1) == 1
    assert zone_count(state, "supply", P1, "tatara") == 0
    # that was the second action; round 3 begins with Player1, now with 3 actions
    assert state.current_player() == 0 and var(state, "built", P1) is True
    play(game, "move 1b2;pass;pass", state)
    assert state.current_player() == 0  # the third action
    assert not any(a.startswith("build tatara") for a in legal(state))  # once only
    play(game, "pass", state)
    assert state.current_player() == 1


# -- the forest phase (ordered deck) -------------------------------------------------------------
ROUND1 = "2b3;4a2;move 4b2;plant pine 4c2;plant cedar 4b3;move 4b1;plant pine 4a1;pass"


def test_growth_succession_snapshot_and_a_number_twice(load) -> None:
    state = play(load(ORDERED), ROUND1)
    assert var(state, "drawn") == [4, 4]
    # event 1: the pines stand, the cedar turns to side 2; event 2: the cedar stands, and the
    # pines (standing before event 2) give way to their planters' sawtooth oak saplings
    assert tree(state, "4c2") == ("sawtooth", P1, False, 1)
    assert tree(state, "4a1") == ("sawtooth", P2, False, 1)
    assert tree(state, "4b3") == ("cedar", P1, True, 2)
    assert tree(state, "4c1") == ("oak", None, True, 1) and tree(state, "4a3")[0] == "oak"
    assert zone_count(state, "out", kind="pine") == 2
    assert zone_count(state, "supply", P1, "sawtooth") == 7
    assert zone_count(state, "supply", P2, "sawtooth") == 7
    assert state.current_player() == 1  # the start player passed clockwise [B-10]


def test_one_event_grows_a_sapling_but_does_not_let_it_succeed(load) -> None:
    # the same plantings on board 3 see only one event in round 2 (4 3): a pine planted in
    # round 2 on board 3 stands but stays a pine
    state = play(load(ORDERED), ROUND1 + ";move 2b3;pass;pass;move 3c2;plant pine 3b2;pass")
    assert var(state, "drawn") == [4, 3]
    assert tree(state, "3b2") == ("pine", P1, True, 1)


def test_mature_cedar_and_sawtooth_become_beech_and_oak_stays(load) -> None:
    state = play(load(ORDERED), ROUND1)
    # round 2: Player2 cannot enter Player1's pawn (4b2) or tatara (4a2)
    assert "4b2" not in moves(state) and "4a2" not in moves(state)
    play(load(ORDERED), "move 2b3;pass;pass", state)  # onto its own tatara
    # Player1 stops on the sawtooth sapling 4c2, fells the oak 4c1 (free)
    assert "4c2" in moves(state)
    play(load(ORDERED), "move 4c2;fell 4c1 money;pass", state)
    assert counter(state, "money", P1) == 3
    # round 2's cards 4 3: the saplings stand, the standing cedar gives way to a beech
    assert tree(state, "4b3") == ("beech", None, False, 1)
    assert tree(state, "4c2") == ("sawtooth", P1, True, 1)
    assert tree(state, "4a1") == ("sawtooth", P2, True, 1)
    assert tree(state, "4a3") == ("oak", None, True, 1)
    assert zone_count(state, "forest", kind="beech") == 29
    assert zone_count(state, "out", kind="cedar") == 1


def test_a_standing_beech_stays_and_cannot_be_felled(load) -> None:
    game = load(ORDERED.parent / "tatara_board4.rule")  # every card: board 4
    state = play(game, "2b2;4a2;move 4b2;plant cedar 4b3;pass;move 2a2;pass;pass")
    assert tree(state, "4b3") == ("cedar", P1, True, 2)     # two events: side 2, standing
    play(game, "move 2b2;pass;pass;move 4c2;pass;pass", state)
    assert tree(state, "4b3") == ("beech", None, True, 1)   # a beech sapling, then it stands
    play(game, "move 4c3", state)
    assert not any(a.startswith("fell") for a in legal(state))  # the beech is next to the pawn
    play(game, "pass;pass;move 2a2;pass;pass", state)
    assert var(state, "drawn") == [4, 4]
    assert tree(state, "4b3") == ("beech", None, True, 1)   # a standing beech never changes


def test_fell_another_players_tree_pays_first_and_sawtooth_lies_down(load) -> None:
    state = play(load(ORDERED), ROUND1 + ";move 2b3;pass;pass;move 4c2;fell 4c1 money;pass")
    # round 3, Player1 starts from the now standing sawtooth 4c2 with 3 + 1 points
    play(load(ORDERED), "move 4b1", state)
    fells = {a for a in legal(state) if a.startswith("fell")}
    assert fells == {"fell 4a1 money"}  # Player2's sawtooth: money only [B-15]
    play(load(ORDERED), "fell 4a1 money", state)
    assert counter(state, "money", P1) == 3 - 1 + 2 and counter(state, "money", P2) == 1
    assert tree(state, "4a1") == ("sawtooth", P2, False, 1)  # laid down, still Player2's


def test_fell_another_players_tree_needs_money(load) -> None:
    game = load(ORDERED)
    # Player2 (no money) next to Player1's standing cedar 4b3 cannot fell it
    state = play(game, ROUND1 + ";move 4c3")
    assert not any(a.startswith("fell 4b3") for a in legal(state))


def test_fell_own_cedar_for_material_it_lies_down_on_side_one(load) -> None:
    game = load(ORDERED)
    state = play(game, ROUND1 + ";move 2b3;pass;pass;move 4c3")
    assert {"fell 4b3 money", "fell 4b3 material"} <= legal(state)
    play(game, "fell 4b3 material", state)
    assert counter(state, "material", P1) == 3 and counter(state, "money", P1) == 0
    assert tree(state, "4b3") == ("cedar", P1, False, 1)


def test_felling_a_pine_brings_the_planters_sawtooth(load) -> None:
    # round 2 on board 3 (one event): Player1's pine stands; round 3 Player1 fells it
    state = play(load(ORDERED), ROUND1 + ";move 2b3;pass;pass;move 3c2;plant pine 3b2;pass")
    play(load(ORDERED), "move 3a2", state)
    assert {a for a in legal(state) if a.startswith("fell 3b2")} == {"fell 3b2 money"}
    play(load(ORDERED), "fell 3b2 money", state)
    assert counter(state, "money", P1) == 2
    assert tree(state, "3b2") == ("sawtooth", P1, False, 1)


# -- the terminal picture --------------------------------------------------------------------------
def test_the_picture_shows_trees_pawns_buildings_resources_and_cards(load) -> None:
    from rulelang.tools.render import render_observation
    state = play(load(ORDERED), ROUND1)
    text = render_observation(state.observation(0))
    assert "1 Player1, 2 Player2" in text and "c cedar" in text and "s sawtooth" in text
    assert "upper case: standing" in text and "digits: side" in text
    lines = text.splitlines()
    board4 = lines[[i for i, line in enumerate(lines) if "board 4" in line][0]:][:5]
    # board 4 (its columns are the picture's last three): 2s 2p O / 1t 1p 1s / O 1C2 .
    assert [line.split()[-3:] for line in board4[2:5]] == [
        ["2s", "2p", "O"], ["1t", "1p", "1s"], ["O", "1C2", "."]]
    assert "money (Player1) 0" in text and "material (Player2) 0" in text
    assert "revealed: 2 card(board=4)" in text and "drawn (4, 4)" in text


def play_passing_until_round(state, round_no: int):
    """Every player moves (the first move offered) and passes, round after round."""
    while state.ctx.data.round < round_no:
        state.apply_action("pass" if "pass" in legal(state) else state.legal_actions()[0])
    return state


def test_an_empty_deck_is_the_revealed_cards_shuffled_anew(load) -> None:
    # [ASSUMED B-11] 2 players reveal 2 cards a round from the 12 in card order: after round 6
    # the deck is empty and the revealed cards are 4 4 4 3 3 3 2 2 2 1 1 1; round 7 shuffles
    # them into a new deck and reveals 2 of it.
    state = play_passing_until_round(load(ORDERED).new_initial_state(seed=3), 7)
    assert var(state, "drawn") == [1, 1]
    assert (zone_count(state, "deck"), zone_count(state, "revealed")) == (0, 12)
    revealed = [p["attrs"]["board"] for z in state.observation(0)["zones"]
                if z["zone"] == "revealed" for p in z["pieces"] for _ in range(p["count"])]
    assert revealed == [4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    state = play_passing_until_round(state, 8)
    assert (zone_count(state, "deck"), zone_count(state, "revealed")) == (10, 2)
    drawn = var(state, "drawn")
    assert len(drawn) == 2 and all(1 <= b <= 4 for b in drawn)
    # the new deck is shuffled: other seeds give other draws
    draws = {tuple(var(play_passing_until_round(load(ORDERED).new_initial_state(seed=s), 8),
                       "drawn")) for s in range(6)}
    assert len(draws) > 1
