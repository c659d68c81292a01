"""`any`/`all`/`count` of a relation's sites by `moved(x)` is one mask test of the kept bits
of the sites whose top piece moved since the action began (slot `mv`: set by the upkeep
after each change of a site, cleared with `moved`); every value stays the reference's, and
the bits are those made anew from the data after every action (`_same`)."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

MOVED = """use square
game "Moved"
players A, B
board square.grid(4, 4, 0)
piece stone
zone supply each player: 10 stone
zone bin each player: 0 stone
def near_moved(t) = any b in square.adjacent(t): moved(b)
def calm(t) = all b in square.orthogonal(t): not moved(b)
action place
  choose site s in sites where empty(s)
  put stone of mover at s
  choose site t in sites where empty(t) and not near_moved(t)
  put stone of mover at t
action shift
  choose site s in sites where owner(s) == mover
  choose site t in square.orthogonal(s) where empty(t)
  move top(s) to t
  choose site u in sites where occupied(u) and calm(u) and u != t
  move top(u) to bin of mover
action stack
  choose site s in sites where occupied(s) and (count b in square.orthogonal(s): moved(b)) == 0
  put stone of mover at s
turn
  do place or shift or stack
end
  when (count s in sites: moved(s)) > 2 and turn > 18
    draw
  when turn > 30
    draw
"""


def test_moved_tops_as_bits_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, MOVED, 10)
    source = gen.state_class.generated.source
    assert "mv" in gen.state_class.generated.slots and source.count("& S.mv)") >= 3
    assert {t.split()[0] for t in taken} == {"place", "shift", "stack"}
