"""The terminal picture, built from observations only."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fakes  # noqa: E402

from rulelang.tools.pictures.render import (  # noqa: E402
    cell_text,
    owner_glyphs,
    render_moves,
    render_observation,
    render_state,
)


@pytest.fixture
def state(tmp_path: Path) -> fakes.FakeState:
    book = tmp_path / "fake.rule"
    book.write_text("fake\n")
    state = fakes.load_game(str(book)).new_initial_state()
    for move in ["b2", "a1"]:
        state.apply_action(move)
    return state


def _obs(board: list, players: tuple = ("White", "Black"), **extra) -> dict:
    return {"game": "Test", "player": 0, "players": list(players), "current_player": 0,
            "terminal": False, "board": board, "zones": [], "counters": [], "history": [],
            "scores": None, **extra}


def _site(name: str, coords: list, *owners) -> dict:
    return {"site": name, "coords": coords,
            "pieces": [{"kind": "ball", "owner": o, "attrs": {}} for o in owners]}


def test_glyphs_are_first_letters_made_distinct():
    assert owner_glyphs(["White", "Black"]) == {"White": "W", "Black": "B"}
    assert owner_glyphs(["Black", "Blue", "Bb"]) == {"Black": "B", "Blue": "L", "Bb": "3"}


def test_cells_show_stacks_bottom_to_top():
    glyphs = {"White": "W", "Black": "B"}
    piece = {"kind": "Stone", "owner": None, "attrs": {}}
    assert cell_text([], glyphs) == "."
    assert cell_text([piece], glyphs) == "s"
    mine = {"kind": "ball", "owner": "White", "attrs": {}}
    theirs = {"kind": "ball", "owner": "Black", "attrs": {}}
    assert cell_text([mine, theirs], glyphs) == "WB"
    assert cell_text([theirs] * 4 + [mine], glyphs) == "5W"


def test_a_flat_grid_with_its_site_names(state):
    text = render_observation(state.observation(0))
    assert "Fake Three: Xena to move (you are Xena)" in text
    assert "pieces: X Xena, O Oscar" in text
    assert "0  O . .    0  a1 b1 c1" in text
    assert "1  . X .    1  a2 b2 c2" in text


def test_layers_are_drawn_one_grid_each_bottom_first():
    board = [_site(f"s{z}{r}{c}", [z, r, c], "White" if z == 0 else "Black")
             for z in range(3) for r in range(3 - z) for c in range(3 - z)]
    text = render_observation(_obs(board))
    assert text.index("level 0") < text.index("level 1") < text.index("level 2")
    assert "0  W W W" in text and "0  B B" in text
    assert "level 0 names" in text and "s021" in text


def test_layers_take_the_titles_the_observation_gives():
    board = [_site(f"s{z}{r}{c}", [z, r, c]) for z in (1, 2) for r in range(2) for c in range(2)]
    text = render_observation(_obs(board, layers={"1": "garden of White"}))
    assert text.index("garden of White") < text.index("level 2")
    assert "garden of White names" in text and "level 1" not in text


def test_other_sites_are_a_list():
    board = [_site("pool", [0], None), _site("bag", [], "White", "White")]
    text = render_observation(_obs(board))
    assert "sites:" in text and "pool: b" in text and "bag: WW" in text


def test_long_site_names_leave_out_the_key():
    board = [_site(f"square-{r}-{c}", [r, c]) for r in range(2) for c in range(2)]
    assert "names" not in render_observation(_obs(board))


def test_hidden_zones_show_only_a_count(state):
    text = render_observation(state.observation(0))
    assert "hand (Oscar): 1 hidden" in text
    assert "hand (Xena): card(secret=0)" in text
    assert "secret=7" not in text
    assert "supply (Xena): 8 stone" in text


def test_counters_and_scores(state):
    text = render_observation(_obs([], counters=state.observation(0)["counters"],
                                   scores=[3, 1]))
    assert "counters: moves 2" in text and "scores: White 3, Black 1" in text


def test_moves_are_numbered_from_one(state):
    moves = render_moves(state)
    assert moves.split()[:2] == ["1.", "b1"]
    assert "7. c3" in moves


def test_render_state_lists_moves_only_for_the_player_to_move(state):
    assert "your moves:" in render_state(state, 0)
    assert "your moves:" not in render_state(state, 1)


def test_a_finished_game_says_so(state):
    for move in ["b1", "a2", "b3"]:
        state.apply_action(move)
    assert "Fake Three: game over" in render_state(state, 0)


# --- several kinds, attributes, variables -----------------------------------------------------

def _piece(kind: str, owner=None, **attrs) -> dict:
    return {"kind": kind, "owner": owner, "attrs": attrs}


def test_numbered_players_show_as_their_number():
    assert owner_glyphs(["Player1", "Player2", "Player3"]) == {
        "Player1": "1", "Player2": "2", "Player3": "3"}
    assert owner_glyphs(["Ann", "Bob"]) == {"Ann": "A", "Bob": "B"}


def test_kinds_attributes_and_owners_in_each_cell():
    a, b = "Player1", "Player2"
    board = [
        {"site": "1a1", "coords": [1, 0, 0], "pieces": [_piece("rock", None, up=True, side=1)]},
        {"site": "1b1", "coords": [1, 0, 1], "pieces": [_piece("reed", a, up=False, side=2)]},
        {"site": "1c1", "coords": [1, 0, 2], "pieces": [_piece("reed", b, up=True, side=1),
                                                        _piece("runner", a)]},
        {"site": "2a1", "coords": [2, 0, 0], "pieces": []},
    ]
    text = render_observation(_obs(board, players=(a, b)))
    # kinds get distinct letters in name order (reed r, rock o, runner u); `up` and `side`
    # differ among the reeds, so they show (up: upper case), not for the single rock
    assert "r reed, o rock, u runner" in text
    assert "upper case: up" in text and "digits: side" in text
    assert "0       o    1r2 2R1+1u" in text
    assert "level 2" in text


def test_variables_are_listed():
    obs = _obs([], vars=[{"var": "drawn", "owner": None, "value": [4, 3]},
                         {"var": "done", "owner": "White", "value": True}])
    assert "vars: drawn (4, 3), done (White) yes" in render_observation(obs)
