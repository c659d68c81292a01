"""A part of a walked choose's test that no value of the loop changes is asked once, where
the test first reaches it, and kept for the later values (gen/invariant.py): the same
menus, and the same error at the same place, as the reference."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

from .traces import played

RULEBOOK = """use square
game "Kept parts"
players A, B
board square.grid(3, 3, 0)
piece pawn
zone supply each player: 4 pawn
var marker = none
var n = 0

action place
  choose site s in sites where empty(s)
  put pawn of mover at s
  set marker = top(s)

action hop
  choose x in [1, 2, 3]
  set n = x
  choose site t in sites where empty(t) and ({guard}t.c == site(marker).c) and t.r >= n - 1
  if marker != none
    move marker to t

turn
  do place or hop

end
  when size(supply of mover) == 0
    draw
"""


def _written(path: Path) -> str:
    game = rulelang.load_game(path, mode="generated")
    return str(game.state_class.generated.source)  # type: ignore[attr-defined]


@pytest.mark.parametrize("guard", ["marker == none or ", ""])
def test_a_part_no_value_changes_is_asked_once_with_the_same_menus_and_errors(
        tmp_path: Path, guard: str) -> None:
    path = tmp_path / "kept.rule"
    path.write_text(RULEBOOK.replace("{guard}", guard))
    assert ":= " in _written(path)  # (site(marker).c: asked once per walk of the sites)
    for seed in range(12):
        assert played(path, "generated", seed) == played(path, "interpreted", seed)
    error = played(path, "generated", 0)[-1]
    if guard:
        assert len(played(path, "generated", 0)) > 8  # (hops among the places)
    else:  # (the marker is none: the part's error, at the part)
        assert "kept.rule:18:" in error[0] and "'site' cannot take none" in error[0]


def test_a_part_that_reads_the_chosen_value_is_asked_for_each(tmp_path: Path) -> None:
    path = tmp_path / "kept.rule"
    path.write_text(RULEBOOK.replace("{guard}", "marker == none or ").replace(
        "site(marker).c", "site(marker).c + t.r - t.r"))
    for seed in range(12):
        assert played(path, "generated", seed) == played(path, "interpreted", seed)
