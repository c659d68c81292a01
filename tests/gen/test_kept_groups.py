"""Kept groups (union-find with a bitset per group, gen/kept.py) where pieces have no owner:
a stone from a shared bag joins the touching stones of no owner, never the empty sites
around it (whose top owner is none too), as the reference's group does."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

NEUTRAL = """use square
game "Neutral"
players A, B
board square.grid(4, 4, 2)
piece stone
zone bag: 30 stone
zone supply each player: 8 stone
def free = each s in sites where empty(s)
def big(s) = size(group(s, square.orthogonal)) >= {size}
action place
  choose site s in free
  put stone from bag at s
action claim
  choose site s in free
  put stone of mover at s
turn
  do {actions}
end
  when big(last.site)
    winner mover
"""


def test_groups_of_stones_without_an_owner_are_kept_as_the_reference_finds_them(
        tmp_path: object) -> None:
    for size, actions in ((5, "place or claim"), (3, "claim or place")):
        gen, taken = _side_by_side(tmp_path, NEUTRAL.format(size=size, actions=actions), 6)
        assert "u1" in gen.state_class.generated.source  # (the groups are kept)
        assert any(t.startswith("place") for t in taken)
