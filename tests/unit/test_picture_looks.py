"""A `picture` that is a record gives a piece kind its look per state: a glyph, a colour, a
body shape and a label (language/looks.py). The checker refuses what cannot be drawn (R239,
every mistake at once), the engine a value computed as the game runs; the terminal, the SVG
and the zones' lists use the look, and kinds without one keep the defaults that tell them
apart."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError, RuleRuntimeError
from rulelang.tools.pictures.picture import board_shape, draw
from rulelang.tools.pictures.render import render_observation

BOOK = """use square
game "Looks"
players Red, Blue
board square.grid(3, 3, 2)
piece seed with grown = false
piece rock
piece marker
zone supply each player: 3 seed, 1 marker
zone heap: 2 rock
picture seed(s) = (glyph: "S" if s.grown else "s", colour: "green", shape: "triangle",
                   label: "tree" if s.grown else "seed (lying)")
picture rock(r) = (glyph: "#", color: "#777", shape: "square", label: "rock")
setup
  for each s in sites where s.name == "b2"
    put rock from heap at s
action sow
  choose site s in sites where empty(s)
  put seed of mover at s
action grow
  choose site s in sites where occupied(s) and owner(s) == mover
  set top(s).grown = true
turn
  do sow or grow
"""


def _game(tmp_path: Path, text: str = BOOK) -> rulelang.Game:
    path = tmp_path / "looks.rule"
    path.write_text(text, encoding="utf-8")
    return rulelang.load_game(path, mode="interpreted")


def test_a_record_picture_gives_each_piece_its_look(tmp_path: Path) -> None:
    state = _game(tmp_path).new_initial_state()
    for move in ("sow a1", "sow c3", "grow a1"):
        state.apply_action(move)
    obs = state.observation(0)
    looks = {s["site"]: s["pieces"][0].get("look") for s in obs["board"] if s["pieces"]}
    assert looks["a1"] == {"glyph": "S", "colour": "#009E73", "shape": "triangle",
                           "label": "tree"}
    assert looks["c3"]["glyph"] == "s" and looks["b2"]["colour"] == "#777777"
    text = render_observation(obs)
    assert "s/S seed" in text and "# rock" in text  # the legend: glyphs, shortest label
    assert re.search(r"\bRS\b", text) and re.search(r"\bBs\b", text)  # owner mark + glyph
    svg = draw(obs, board_shape(state.game))
    pieces = re.findall(r'<g class="piece[^"]*" data-piece="(\w+)"[^>]*data-shape="(\w+)" '
                        r'data-label="([^"]+)"><title>([^<]*)</title>(<\w+[^>]*>)', svg)
    by_site = {(kind, label): (shape, title, body) for kind, shape, label, title, body in pieces}
    shape, title, body = by_site[("seed", "RS")]
    assert shape == "triangle" and title.startswith("tree") and "stroke: #009E73" in body
    shape, title, body = by_site[("rock", "#")]
    assert shape == "square" and 'fill="#777777"' in body  # a piece without owner: its fill
    supply = next(z for z in obs["zones"] if z["zone"] == "supply" and z["owner"] == "Blue")
    assert "2 seed (lying)" in render_observation({**obs, "zones": [supply]})


def test_what_cannot_be_drawn_is_refused_at_its_place(tmp_path: Path) -> None:
    bad = BOOK.replace('colour: "green"', 'colour: "grene"').replace(
        'shape: "square"', 'shape: "blob"').replace('glyph: "#"', 'glyph: "####"').replace(
        'label: "rock"', 'lable: "rock"')
    with pytest.raises(RulebookError) as err:
        _game(tmp_path, bad)
    found = [(d.code, d.span.line, d.message) for d in err.value.diagnostics]
    assert [(c, line) for c, line, _ in found] == [("R239", 10)] + [("R239", 12)] * 3, found
    text = " / ".join(m for _, _, m in found)
    assert '"grene" is not a colour' in text and '"blob" is not a shape' in text
    assert "a glyph is 1 to 3 characters" in text and "no field 'lable'" in text


def test_a_computed_value_that_cannot_be_drawn_is_a_rule_error(tmp_path: Path) -> None:
    book = BOOK.replace('colour: "green"', 'colour: "green" if s.grown else str(1)')
    state = _game(tmp_path, book).new_initial_state()
    state.apply_action("sow a1")
    with pytest.raises(RuleRuntimeError) as err:
        state.observation(0)
    assert '"1" is not a colour' in str(err.value) and err.value.diagnostic.span.line == 10


def test_kinds_without_a_look_keep_letters_that_tell_them_apart(tmp_path: Path) -> None:
    book = BOOK.replace('picture rock(r) = (glyph: "#", color: "#777", shape: "square", '
                        'label: "rock")\n', "")
    state = _game(tmp_path, book).new_initial_state()
    state.apply_action("sow a1")
    obs = state.observation(0)
    text = render_observation(obs)
    assert "r rock" in text and "s/S" not in text and "s seed" in text
    svg = draw(obs, board_shape(state.game))
    shapes = dict(re.findall(r'data-piece="(\w+)"[^>]*data-shape="(\w+)"', svg))
    assert shapes["seed"] == "triangle" and shapes["rock"] != "triangle"  # not a declared one
