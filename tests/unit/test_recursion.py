"""A rule that calls itself without end is stopped with R302, positioned at the call that
recurs, in both modes, with no Python traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

BOOK = """game "Loop"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone bag: 9 stone
{defs}

action place
  choose site s in sites where empty(s) and {test}
  put stone from bag at s

turn
  do place

end
  when turn > 3
    draw
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("defs, test, places", [
    ("def forever(n) = forever(n + 1)", "forever(1) > 0", {(7, 18)}),
    ("def ping(n) = pong(n) + 1\ndef pong(n) = ping(n) + 1", "ping(0) > 0",
     {(7, 15), (8, 15)}),                              # one of the two calls
])
def test_endless_recursion_is_a_positioned_rule_error(tmp_path: Path, mode: str, defs: str,
                                                      test: str,
                                                      places: set[tuple[int, int]]) -> None:
    path = tmp_path / "loop.rule"
    path.write_text(BOOK.format(defs=defs, test=test))
    game = rulelang.load_game(path, mode=mode)
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        game.new_initial_state(seed=0)
    d = info.value.diagnostic
    assert d.code == "R302" and "too deeply" in d.message
    assert d.span is not None and (d.span.line, d.span.column) in places
    assert "loop.rule:" in info.value.render() and "^" in info.value.render()
