"""Quantifiers over sites that test occupancy (`each/count s in D where occupied(s)`, `all/any
… : empty(s)`) run as direct loops in the compiled mode: equal to the interpreter, and a
domain that holds something else than sites gets the interpreter's message."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang

MODES = ["interpreted", "compiled"]

_BOOK = """game "Loops"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone bag: 9 stone
var out = none
def row(r) = each s in sites where s.r == r
def value = {expr}
def hidden(x) = x  # x, of a type the checker does not know
setup
  for each s in each s in sites where (s.r, s.c) in [(0, 0), (0, 1), (1, 2)]
    put stone from bag at s
  set out = value
action go
  require true
turn
  do go
end
  when turn >= 1
    draw
"""


def evaluate(tmp_path: Path, expr: str, mode: str) -> Any:
    path = tmp_path / "loops.rule"
    path.write_text(_BOOK.format(expr=expr))
    state = rulelang.load_game(path, mode=mode).new_initial_state()
    value = state.ctx.data.vars[("out", None)]
    return tuple(s.name for s in value) if isinstance(value, tuple) else value


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("expr, expected", [
    ("count s in sites where occupied(s)", 3),
    ("count s in row(0) where empty(s)", 1),
    ("each s in row(0) where occupied(s)", ("a1", "b1")),
    ("each s in row(1) where empty(s)", ("a2", "b2")),
    ("count s in row(2) where occupied(s)", 0),
    ("all s in row(2): empty(s)", True),
    ("any s in row(0): empty(s)", True),
])
def test_occupancy_loops_agree_in_both_modes(tmp_path: Path, mode: str, expr: str,
                                            expected: Any) -> None:
    assert evaluate(tmp_path, expr, mode) == expected


@pytest.mark.parametrize("mode", MODES)
def test_a_domain_of_other_things_is_refused_alike(tmp_path: Path, mode: str) -> None:
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        evaluate(tmp_path, "count s in hidden([1, 2]) where occupied(s)", mode)
    assert str(info.value) == "'occupied' cannot take 1"
    assert info.value.diagnostic.span.line == 9  # def value = …


def test_a_domain_of_other_things_is_found_by_the_checker(tmp_path: Path) -> None:
    """Without hiding the list's type, the checker reports it before the game runs."""
    with pytest.raises(rulelang.RulebookError) as info:
        evaluate(tmp_path, "count s in [1, 2] where occupied(s)", "compiled")
    [d] = info.value.diagnostics
    assert (d.code, d.message) == ("R230", "occupied(…), argument 1: expected a site, found "
                                   "a number")
