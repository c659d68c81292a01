"""How a rulebook says it is shown: `draw at … [offset k]` in a geometry (where each site is
drawn) and the `view` section (goals, hidden names, titles); the terminal board drawn from
them, the screen grouped from the observation, and refused moves explained."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError
from rulelang.resources import bundled_dir
from rulelang.tools.terminal.board import BoardPainter
from rulelang.tools.terminal.explain import why_illegal
from rulelang.tools.terminal.screen import Screen

BOOK = """\
game "Shown"
players White, Black
option size: 2..5 = 3
geometry strip(n)
  sites (r, c) for r in 0..n-1, c in 0..n-1
  name letter(c) + str(r + 1)
{draw}
board strip(size)
piece stone with weight = 1
zone supply each player: 9 stone
zone hand each player visible to owner: 2 stone
var bid each player secret = 0
var tally = 0
counter rounds = 0

action place
  choose site s in sites where empty(s)
  put stone of mover at s

turn
  do place

{view}
end
  when turn > 6
    draw
"""


def _game(tmp_path: Path, draw: str = "", view: str = "", mode: str = "compiled") -> object:
    path = tmp_path / "shown.rule"
    path.write_text(BOOK.format(draw=draw, view=view))
    return rulelang.load_game(path, mode=mode)


def _text(lines: list[object]) -> list[str]:
    return [line.plain for line in lines]  # type: ignore[attr-defined]


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_draw_at_places_each_site_and_offset_shifts_by_half_sites(tmp_path: Path,
                                                                  mode: str) -> None:
    game = _game(tmp_path, "  draw at (r, c) offset r", mode=mode)
    obs = game.new_initial_state(seed=0).observation(0)  # type: ignore[attr-defined]
    assert obs["draw_at"]["a1"] == [0, 0] and obs["draw_at"]["b2"] == [1, 3]
    rows = _text(BoardPainter(obs).lines())
    assert rows[1].index(".") + 1 == rows[2].index(".")  # each row half a site further east


def test_without_draw_at_rows_go_down_the_screen(tmp_path: Path) -> None:
    obs = _game(tmp_path).new_initial_state(seed=0).observation(0)  # type: ignore[attr-defined]
    assert "draw_at" not in obs
    rows = _text(BoardPainter(obs).lines())
    assert rows[0].split() == ["a", "b", "c"] and rows[1].startswith("1 ")


def test_a_site_drawn_at_something_else_is_a_positioned_error(tmp_path: Path) -> None:
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        _game(tmp_path, '  draw at "left"')
    assert "a site is drawn at (row, column), not left" in str(info.value)


def test_square_boards_have_row_1_at_the_bottom() -> None:
    game = rulelang.load_game(bundled_dir() / "connect_four.rule")
    state = game.new_initial_state(seed=0)
    state.apply_action("place d1")
    rows = _text(BoardPainter(state.observation(1), {"d1"}).lines())
    assert rows[0].split() == list("abcdefg") and rows[-1].split() == list("abcdefg")
    assert rows[-2] == "1 . . . X . . . 1" and rows[1].startswith("6 ")


def test_whites_breakthrough_pawns_start_at_the_bottom() -> None:
    game = rulelang.load_game(bundled_dir() / "breakthrough.rule")
    rows = _text(BoardPainter(game.new_initial_state(seed=0).observation(0)).lines())
    assert rows[1] == "8 B B B B B B B B 8" and rows[-2] == "1 W W W W W W W W 1"


def test_hex_is_a_rhombus_with_offset_rows_and_each_players_edges() -> None:
    game = rulelang.load_game(bundled_dir() / "hex.rule", {"size": 3})
    obs = game.new_initial_state(seed=0).observation(0)
    screen = _text(Screen(obs).lines())
    assert "  B Black: link the north edge (row 1) to the south edge (row 3)" in screen
    assert "  W White: link the west edge (column a) to the east edge (column c)" in screen
    board = _text(BoardPainter(obs).lines())
    assert board == ["  a b c", "1 . . . 1", " 2 . . . 2", "  3 . . . 3", "    a b c"]


def test_the_view_hides_and_titles_and_a_secret_shows_as_hidden(tmp_path: Path) -> None:
    view = ('view\n  goal everyone "the most stones"\n  hide tally, weight\n'
            '  show rounds as "rounds played"\n  show hand as "in hand"\n')
    game = _game(tmp_path, view=view)
    obs = game.new_initial_state(seed=0).observation(0)  # type: ignore[attr-defined]
    assert obs["view"] == {"goals": {"everyone": "the most stones"},
                           "hidden": ["tally", "weight"],
                           "labels": {"rounds": "rounds played", "hand": "in hand"}}
    assert [v.get("hidden") for v in obs["vars"] if v["var"] == "bid"] == [None, True]
    text = "\n".join(_text(Screen(obs).lines()))
    assert "goal: the most stones" in text and "tally" not in text
    assert "you: supply: 9 stone · in hand: 2 stone · bid 0" in text
    assert "Black: supply: 9 stone · in hand: 2 hidden · bid hidden" in text
    assert "table: rounds played 0" in text and "weight" not in text


@pytest.mark.parametrize(("view", "words", "column"), [
    ('view\n  goal Red "win"\n', "a goal is a player's: 'Red' is not a player", 8),
    ("view\n  hide talley\n", "'talley' is not a var, counter, zone or piece attribute", 8),
    ('view\n  show nothing as "x"\n', "'nothing' is not a var, counter, zone", 8),
])
def test_view_mistakes_are_positioned(tmp_path: Path, view: str, words: str,
                                      column: int) -> None:
    with pytest.raises(RulebookError) as info:
        _game(tmp_path, view=view)
    text = info.value.render()
    line = BOOK.format(draw="", view=view).splitlines().index(view.splitlines()[1]) + 1
    assert words in text and f"shown.rule:{line}:{column}:" in text


@pytest.mark.parametrize("mode", ["compiled", "generated"])
def test_refused_moves_are_explained_in_the_rules_terms(mode: str) -> None:
    def why(book: str, moves: list[str], typed: str) -> str:
        game = rulelang.load_game(bundled_dir() / f"{book}.rule", mode=mode)
        state = game.new_initial_state(seed=0)
        for move in moves:
            state.apply_action(move)
        with pytest.raises(rulelang.IllegalActionError) as info:
            state.string_to_action(typed)
        return why_illegal(game, state, typed, str(info.value))

    assert why("spline", ["place 0a1"], "place 0a1") == "0a1 is occupied (by White)"
    assert why("spline", [], "place 1a1") == "it needs every one of the base of 1a1: 0a1 is empty"
    assert why("hex", [], "place z9") == "there is no site z9 on this board"
    assert why("breakthrough", [], "move a2 a3") == "the owner of a2 is White, not Black"
    assert why("breakthrough", [], "move b7 b5") == \
        "b5 is not among the choices here: a6, b6, c6"
    assert why("connect_four", [], "place a2") == \
        "it needs every one of the down of a2: a1 is empty"
