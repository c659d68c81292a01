"""`any` and `all` over a site's pile answer an empty pile without a loop (false, true),
and a quantifier over a zone's pieces reads the zone's own list (no copy: an expression
changes nothing while it runs); every value stays the reference's."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

PILES = """use square
game "Piles"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 12 stone
def mine(s) = all x in pieces(s): owner(x) == mover
def theirs(s) = any x in pieces(s): owner(x) != mover
def left(p) = count x in pieces(supply of p) where kind(x) == stone
action stack
  choose site s in sites where mine(s) and not theirs(s) and size(pieces(s)) < 3
  put stone of mover at s
action cover
  choose site s in sites where theirs(s) and left(mover) > left(opponent)
  put stone of mover at s
turn
  do stack or cover
end
  when any s in sites: size(pieces(s)) >= 3 and mine(s)
    winner mover
  when turn > 20
    draw
"""


def test_piles_and_zones_read_in_place_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, PILES, 12)
    source = gen.state_class.generated.source
    assert "else True)" in source and "else False)" in source  # (the empty piles' answers)
    assert "in S.zones[" in source and "tuple(S.zones[" not in source
    assert {t.split()[0] for t in taken} == {"stack", "cover"}
