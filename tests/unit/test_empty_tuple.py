"""The empty tuple literal `()`: a default for a list attribute filled from data."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

BOOK = """\
game "Empty"
players A, B
piece card with tags = ()
zone hand each player: 1 card
var seen = ()
action look
  require size(seen) == 0 and () == seen
  set seen = seen + (1,)
turn
  do look
end
  when size(seen) == 1
    draw
"""


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_empty_tuple_is_a_value(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "empty.rule"
    path.write_text(BOOK, encoding="utf-8")
    state = rulelang.load_game(path, mode=mode).new_initial_state()
    card = state.ctx.data.zones[next(z for z in state.ctx.data.zones if z.owner == 0)][0]
    assert state.ctx.data.attrs["tags"][card.id] == ()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["look"]
    state.apply_action("look")
    assert state.is_terminal()
    assert [v["value"] for v in state.observation(0)["vars"] if v["var"] == "seen"] == [[1]]
