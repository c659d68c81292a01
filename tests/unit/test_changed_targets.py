"""What `set`, `increase` and `decrease` change is a counter, a var or a piece's attribute:
any other expression is R204 at check (`increase none of p by 1` was a KeyError during play,
found by a mutation of tests/constructs/clauses.rule)."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

HEAD = ('game "T"\nplayers A, B\ncounter points each player = 0\npiece stone\n'
        'zone bag: 2 stone\neffect bump(p)\n')
TAIL = "action go\n  bump(mover)\nscore pts(p) = points of p\nturn\n  do go\n"


@pytest.mark.parametrize("statement", [
    "increase none of p by 1", "decrease 3 of p by 1", "set 3 of p = 1",
    "increase size(bag) by 1", "set (points of p) of p = 1"])
def test_a_target_that_is_no_counter_var_or_attribute(tmp_path: Path, statement: str) -> None:
    path = tmp_path / "t.rule"
    path.write_text(HEAD + f"  {statement}\n" + TAIL, encoding="utf-8")
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(path)
    assert [(d.code, d.span.line, d.span.column) for d in info.value.diagnostics] == \
        [("R204", 7, statement.index(" ") + 4)]


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_a_counter_of_a_player_is_still_changed(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "t.rule"
    path.write_text(HEAD + "  increase points of p by 2\n  set points of p = points of p + 1\n"
                    + TAIL, encoding="utf-8")
    state = rulelang.load_game(path, mode=mode).new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert list(state.scores()) == [3, 0]
