"""`group(start, rel, link)` over the flat state (gen/helpers.group_bits, group_linked on
boards too large for bitsets): a player's pieces' neighbours found among the kept owner
bits (a relation's neighbours of a site come in board order), those of pieces of no owner
site by site, a tuple of starts of several owners searched per owner; the group read as
bits (its size, `x in g`; none from an empty site, or from `()` in the other branch of
an `if`) or as sites (`first`); all as the reference."""
from __future__ import annotations

import re

import rulelang.gen.helpers as H

from .test_generated_equal import _side_by_side

LINKED = """use square
game "Linked"
players A, B
board square.grid(4, 4, 0)
piece stone
zone supply each player: 9 stone
zone bag: 6 stone
def free = each s in sites where empty(s)
def near(a, b) = b.c != 1 or a.r == 0
def starts = each s in sites where occupied(s) and s.r <= 1
def low(s) = group(s, square.{rel}, near) if s.r == 0 else ()
action place
  choose site s in free
  put stone of mover at s
action neutral
  choose site s in free
  put stone from bag at s
turn
  do place or neutral
end
  when size(group(last.site, square.{rel}, near)) >= 4
    winner mover
  when size(group(starts, square.{rel}, near)) >= 9
    draw
  when turn > 12 and last.site in group(starts, square.{rel}, near) \
      and first(group(starts, square.{rel}, near)) == last.site
    draw
  when turn > 9 and size(low(last.site)) == 1
    draw
  when size(free) > 0 and size(group(first(free), square.{rel}, near)) > 0
    draw
  when size(free) == 0
    draw
"""


def test_a_group_with_a_link_as_the_reference(tmp_path: object) -> None:
    for rel in ("northward", "adjacent"):
        gen, taken = _side_by_side(tmp_path, LINKED.format(rel=rel), 8)
        generated = gen.state_class.generated
        linked = next(k for k, v in generated.constants.items() if v is H.group_bits)
        calls = re.findall(rf"{linked}\(S, .*?, (None|k\d+)\)", generated.source)
        assert calls and "None" not in calls, (rel, calls)  # (the bits' tables given)
        assert any(t.startswith("neutral") for t in taken)
