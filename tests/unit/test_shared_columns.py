"""Piece attributes that no rule sets are one column shared by every copy of a game's data
(GameData.fixed); a column some `set x.name = …` may change is copied with the data, so that
states stay apart."""
from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang.gen.rt import GenState

GAME = """use square
game "Columns"
players A, B
board square.grid(2, 2, 2)
piece stone with side = 1, colour = "white"
zone supply each player: 2 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
  set top(s).side = 2
turn
  do place
end
  when count s in sites where occupied(s) == 4
    draw
"""


def test_columns_no_rule_sets_are_shared_and_the_others_copied(tmp_path: Path) -> None:
    (tmp_path / "columns.rule").write_text(GAME, encoding="utf-8")
    for mode in ("compiled", "interpreted"):
        game = rulelang.load_game(tmp_path / "columns.rule", mode=mode)
        state = game.new_initial_state(seed=0)
        copy = state.clone()
        if isinstance(state, GenState):  # the generated flat state holds them itself
            a, b = state, copy
            assert type(state).changing == ("side",)
        else:
            a, b = state.ctx.data, copy.ctx.data
            assert a.fixed == {"colour"}
        assert a.attrs["colour"] is b.attrs["colour"]
        assert a.attrs["side"] is not b.attrs["side"]
        state.apply_action(0)
        piece = a.at[0][-1]
        assert a.attrs["side"][piece.id] == 2 and b.attrs["side"][piece.id] == 1
        other = game.new_initial_state(seed=0)
        assert other.ctx.data.attrs["side"][piece.id] == 1  # the game's template untouched
