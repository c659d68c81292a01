"""`each s in sites where s.c == v` with v found as the game runs: the sites of v's column
from a table made once (gen/comprehensions.by_coordinate) for a whole number, the loop for
any other value (true equals 1, a text or none equals no coordinate), as the reference."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

ROWS = """use square
game "Rows"
players A, B
board square.grid(3, 4, 3)
piece stone
zone supply each player: 12 stone
var row = 0
def row_sites(r) = each s in sites where s.r == r
action place
  choose site s in row_sites(row) where empty(s)
  put stone of mover at s
action turn_to
  choose v in [0, 1, 2, 7, true, "1", none]
  set row = v
turn
  do place or turn_to
end
  when turn > 16
    draw
"""


def test_the_sites_of_a_coordinates_value_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, ROWS, 6)
    source = gen.state_class.generated.source
    assert ".get(" in source and ".__class__ is " in source  # (the table, and the loop)
    assert any(t.startswith("place") for t in taken)
    assert {t for t in taken if t.startswith("turn_to")} >= {"turn_to yes", "turn_to none"}
