"""`layer expr` in a geometry: the titles of a three-coordinate board's layers, carried by the
observation (only when declared) and refused on a board of other coordinates."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.tools.pictures.render import render_state

BOOK = """\
game "Layers"
players White, Black
geometry plots(n)
  sites (p, r, c) for p in 0..n-1, r in 0..1, c in 0..1
  name str(p) + letter(c) + str(r + 1)
{layer}
board plots(size(players))
piece stone

action place
  choose site s in sites where empty(s)
  put stone of mover at s

turn
  do place

end
  when turn > 8
    draw
zone supply each player: 9 stone
"""


def _game(tmp_path: Path, layer: str, mode: str = "compiled") -> object:
    path = tmp_path / "layers.rule"
    path.write_text(BOOK.format(layer=layer))
    return rulelang.load_game(path, mode=mode)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_each_layer_is_titled_from_its_first_site(tmp_path: Path, mode: str) -> None:
    game = _game(tmp_path, '  layer "plot of " + str(players[p]) + " from " + letter(r + c)',
                 mode)
    state = game.new_initial_state(seed=0)
    assert state.observation(1)["layers"] == {"0": "plot of White from a",
                                              "1": "plot of Black from a"}
    text = render_state(state, 0)
    assert "plot of White from a" in text and "level 0" not in text


def test_no_layer_no_titles(tmp_path: Path) -> None:
    state = _game(tmp_path, "").new_initial_state(seed=0)
    assert "layers" not in state.observation(0)
    assert "level 1" in render_state(state, 0)


def test_a_layer_needs_three_coordinates(tmp_path: Path) -> None:
    path = tmp_path / "flat.rule"
    path.write_text(BOOK.format(layer='  layer "x"').replace("(p, r, c) for p in 0..n-1, ",
                                                            "(r, c) for ").replace(
        "str(p) + ", ""))
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(path)
    assert [d.code for d in info.value.diagnostics] == ["R204"]
    assert "'layer' titles the layers of a board of three coordinates" in str(info.value)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_layers_placed_in_rows_are_drawn_as_they_lie(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "placed.rule"
    path.write_text(BOOK.format(layer='  layer "plot " + str(p) at (p // 2, 1 - p % 2)')
                    .replace("board plots(size(players))", "board plots(3)"))
    state = rulelang.load_game(path, mode=mode).new_initial_state(seed=0)
    assert state.observation(0)["layer_at"] == {"0": [0, 1], "1": [0, 0], "2": [1, 1]}
    lines = render_state(state, 0).splitlines()
    row = next(line for line in lines if "plot" in line)
    assert row.split() == ["plot", "1", "plot", "0"]        # column 0 first
    below = [line for line in lines if line.startswith("plot 2")]
    assert below and lines.index(below[0]) > lines.index(row)  # the next row of grids


def test_a_layer_placed_at_something_else_than_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.rule"
    path.write_text(BOOK.format(layer='  layer "x" at p'))
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        rulelang.load_game(path)
    assert "a layer is placed at (row, column), not 0" in str(info.value)
    assert info.value.diagnostic.span.line == 6
