"""`any x in D: kind(x) == K` over pieces (a zone's, a pile) is `K in map(kind, D)` in
generated code (gen/comprehensions._kind_in): the same answers as the reference, found or
not, through `kind(x)` or `x.kind`."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

KINDS = """use square
game "Kinds"
players A, B
board square.grid(3, 3, 3)
piece disc
piece cube
zone supply each player: 2 disc, 2 cube
def has(p, k) = any x in supply of p: kind(x) == k
def here(s, k) = any x in pieces(s): k == x.kind
action place
  choose k in ["disc", "cube"] where has(mover, k)
  choose site s in sites where empty(s)
  put k of mover at s
action mark
  choose site s in sites where here(s, "disc")
  remove top(s)
turn
  do place or mark
end
  when turn > 12
    draw
"""


def test_some_piece_of_a_kind_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, KINDS, 8)
    assert " in map(" in gen.state_class.generated.source
    assert any(t.startswith("mark") for t in taken)
    assert any(t.startswith("place cube") for t in taken)
