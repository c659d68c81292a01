"""The block form of an enumeration (docs/language.md, "Enumerations"): symbols on lines of
their own, the same enumeration as the one-line form, each symbol's diagnostics at its own
line."""
from __future__ import annotations

from pathlib import Path

import pytest
from scenario_tools import load_text

import rulelang

HEAD = 'game "T"\nplayers North, South\n'
PICK = "action pick\n  choose c in colour\n  when c == blue\n    winner mover\nturn\n  do pick\n"


def _load(tmp_path: Path, body: str, mode: str = "compiled") -> rulelang.Game:
    return load_text(tmp_path, HEAD + body, mode)


@pytest.mark.parametrize("mode", ("interpreted", "compiled"))
def test_a_block_enumeration_has_its_symbols_in_order(tmp_path: Path, mode: str) -> None:
    game = _load(tmp_path, "enum colour:\n  red, green,\n  blue\n  white\n" + PICK, mode)
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["pick red", "pick green", "pick blue", "pick white"]
    state.apply_action("pick blue")
    assert state.winners() == [0]


def test_a_block_enumeration_is_the_one_line_enumeration(tmp_path: Path) -> None:
    games = [_load(tmp_path, "enum colour:\n  red, green\n  blue, white,\n" + PICK),
             _load(tmp_path, "enum colour: red, green, blue, white\n" + PICK)]
    states = [g.new_initial_state() for g in games]
    block, line = ([s.action_to_string(a) for a in s.legal_actions()] for s in states)
    assert block == line == ["pick red", "pick green", "pick blue", "pick white"]


def test_a_symbol_of_a_block_written_twice_is_reported_at_its_line(tmp_path: Path) -> None:
    with pytest.raises(rulelang.RulebookError) as info:
        _load(tmp_path, "enum colour:\n  red, green\n  blue, green\n" + PICK)
    spans = [(d.span.line, d.span.column) for d in info.value.diagnostics]
    assert (5, 9) in spans, [(d.code, d.span.line, d.span.column, d.message)
                             for d in info.value.diagnostics]


def test_an_empty_enumeration_block_is_a_syntax_error(tmp_path: Path) -> None:
    with pytest.raises(rulelang.RulebookError) as info:
        _load(tmp_path, "enum colour:\nturn\n  do pick\naction pick\n")
    assert info.value.diagnostics[0].span.line == 4
