"""A piece's attribute compared with or added to a number is computed in place where it is a
number (the reference's helper for anything else: its error for none), compared for
equality in place where it is no list, and `x in T` of a map or a table known when written
is Python's own (gen/operators.py): the same games, views and errors as the reference."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import rulelang

from .traces import played

RULEBOOK = """use square
game "Columns"
players A, B
board square.grid(2, 3, 0)
piece sapling with side = 1
piece rock{rockattr}
zone supply each player: 4 sapling, 2 rock
table sides: sapling -> 2{rockside}
table grows: sapling -> true
var grown = 0

action plant
  choose site s in sites where empty(s)
  choose k in [sapling, rock] where any x in pieces(supply of mover): kind(x) == k
  put k of mover at s

action tend
  choose site s in sites where any x in pieces(s): x.side {op} sides[kind(x)]
  for each x in pieces(s)
    if kind(x) in grows
      set x.side = x.side + 1
      set grown = grown + 1
    if x.side == 3
      set grown = grown + 1

turn
  do plant or tend

end
  when grown >= 3 or (count s in sites where empty(s)) == 0
    draw
"""


@pytest.mark.parametrize(("rock", "op", "side"), [
    (" with side = 0", "<", ", rock -> 3"), (" with side = 0", ">=", ", rock -> 3"),
    ("", "<", ", rock -> 3"), (" with side = 0", "<", "")])
def test_attributes_and_keys_compared_in_place_play_as_the_reference(
        tmp_path: Path, rock: str, op: str, side: str) -> None:
    path = tmp_path / "columns.rule"
    path.write_text(RULEBOOK.replace("{rockattr}", rock).replace("{op}", op)
                    .replace("{rockside}", side))
    game: Any = rulelang.load_game(path, mode="generated")
    source = game.state_class.generated.source
    column = r"S\.attrs\[k\d+\]\[v\d+\.id\]"
    assert re.search(rf"\(\({column} {op} .*?\) if {column}\.__class__ is k\d+ else", source)
    assert re.search(r"\.kind in k\d+\)", source)  # (kind(x) in grows)
    assert re.search(r"\(k\d+\[v\d+\.kind\] if v\d+\.kind in k\d+ else", source)  # sides[…]
    assert re.search(rf"\(\({column} \+ k\d+\) if {column}\.__class__ is k\d+ else", source)
    assert re.search(rf"\(\({column} == k\d+\) if {column}\.__class__ is not k\d+", source)
    for seed in range(8):
        assert played(path, "generated", seed, True) == played(path, "interpreted", seed, True)
    last = played(path, "generated", 0, True)[-1]
    if not rock:  # (a rock has no side: none < 3, the reference's error at the test)
        assert "columns.rule:18:52:" in last[0] and "cannot compare none < 3" in last[0], last
    elif not side:  # (the table has no rock: its error, where it is read)
        assert "columns.rule:18:" in last[0] and "has no entry for rock" in last[0], last
    else:
        assert len(played(path, "generated", 0, True)) > 5


MAP = """use square
game "Maps"
players A, B
board square.grid(1, 3, 0)
piece mark
zone supply each player: 3 mark
def bonus = {1: 10, 2: 20}
var total = 0
action place
  choose site s in sites where empty(s)
  put mark of mover at s
  set total = bonus[s.c + 1] + 1
turn
  do place
end
  when (count s in sites where empty(s)) == 0
    draw
"""


def test_a_maps_entry_for_a_key_it_lacks_is_none_not_a_number(tmp_path: Path) -> None:
    """A map (not a table) gives none for a key it does not hold: its entries are numbers,
    but `bonus[3] + 1` is the reference's error, never a Python one."""
    path = tmp_path / "maps.rule"
    path.write_text(MAP)
    for seed in range(3):
        got = played(path, "generated", seed, True)
        assert got == played(path, "interpreted", seed, True)
        assert "cannot compute none + 1" in got[-1][0], got[-1]
