"""Tatara and the Forest: the tests the scenario file cannot state, through the public API, both
modes (the positions and outcomes of each rule are scenarios in rulebooks/tatara.test).

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
from tatara_tools import ORDERED, RULEBOOK, tree, var, zone_count

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


# -- the forest phase (ordered deck) -------------------------------------------------------------
ROUND1 = "2b3;4a2;move 4b2;plant pine 4c2;plant cedar 4b3;move 4b1;plant pine 4a1;pass"


def test_a_standing_beech_stays_and_cannot_be_felled(load) -> None:
    # Not a scenario: three rounds of board-4 cards need more than the rules' 3 such cards.
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


# -- the terminal picture --------------------------------------------------------------------------
def test_the_picture_shows_trees_pawns_buildings_resources_and_cards(load) -> None:
    from rulelang.tools.pictures.render import render_observation
    state = play(load(ORDERED), ROUND1)
    text = render_observation(state.observation(0))
    # the rulebook's `picture` glyphs: a sapling in small letters, a standing tree a capital
    assert "1 Player1, 2 Player2" in text and "C cedar" in text and "s sawtooth oak" in text
    assert "P pawn" in text and "T tatara" in text and "upper case" not in text
    lines = text.splitlines()
    board4 = lines[[i for i, line in enumerate(lines) if "board 4" in line][0]:][:5]
    # board 4 (its columns are the picture's last three): 2s 2P O / 1T 1P 1s / O 1C .
    assert [line.split()[-3:] for line in board4[2:5]] == [
        ["2s", "2P", "O"], ["1T", "1P", "1s"], ["O", "1C", "."]]
    assert "7 red pine (sapling)" in text  # a zone lists a piece by its picture's label
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
