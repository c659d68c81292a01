"""`piece KIND with (…)`: a piece kind's attributes in parentheses may run over several lines
(docs/language.md, "Components"), so a tile with ten edge labels needs no `\\` and no line
over 100 characters (rulebooks/karesansui.rule). The same attributes written on one line
make the same game: the same values on the pieces, in both modes."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

MODES = ("interpreted", "compiled")
GAME = """game "Tiles"
players North, South
{piece}
zone box: 2 tile
action take
  choose t in box where t.moss == false
  set t.n = "x"
turn
  do take
end
  if turn > 2
    draw
"""
ONE_LINE = 'piece tile with design = "P", moss = false, n = "p", count: number = 2'
LINES = '''piece tile with (
  design = "P", moss = false,     # what the tile shows
  n = "p",                        # its north edge
  count: number = 2)'''


def _game(tmp_path: Path, name: str, piece: str, mode: str) -> rulelang.Game:
    path = tmp_path / f"{name}.rule"
    path.write_text(GAME.format(piece=piece), encoding="utf-8")
    return rulelang.load_game(path, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_attributes_over_several_lines_are_those_of_one_line(tmp_path: Path, mode: str) -> None:
    games = [_game(tmp_path, "one", ONE_LINE, mode), _game(tmp_path, "lines", LINES, mode)]
    seen = []
    for game in games:
        state = game.new_initial_state(seed=0)
        state.apply_action(state.legal_actions()[0])
        seen.append((state.history(), state.observation(0)["zones"]))
    assert seen[0] == seen[1]
    pieces = seen[1][1][0]["pieces"]
    assert {"design": "P", "moss": False, "n": "x", "count": 2} in [p["attrs"] for p in pieces]


def test_an_unclosed_attribute_list_is_a_positioned_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "open.rule"
    path.write_text(GAME.format(piece='piece tile with (design = "P", moss = false'),
                    encoding="utf-8")
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(path)
    codes = [d.code for d in info.value.diagnostics]
    assert codes and all(c.startswith("R1") for c in codes)
    assert info.value.diagnostics[0].span.line >= 3
