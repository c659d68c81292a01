"""A board sized by the player count: the board's arguments are evaluated once the players
are known (`board square.grid(size(players), 3, 0)`), in both modes."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

BOOK = """\
game "Rows per player"
players 2..4
use square
board square.grid(size(players), 3, 0)
action rest
  require true
turn
  do rest
end
  when turn > 1
    draw
"""


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_row_per_player(tmp_path: Path, mode: str, players: int) -> None:
    (tmp_path / "rows.rule").write_text(BOOK)
    game = rulelang.load_game(tmp_path / "rows.rule", {"players": players}, mode=mode)
    sites = game.runtime.board.sites
    assert len(sites) == 3 * players
    assert sites[-1].name == f"c{players}"
