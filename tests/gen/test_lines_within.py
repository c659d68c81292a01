"""Quantifiers over many lines whose condition is `owned(l, p)` (a mask within the owner's
bits): the generated code asks first whether any line is within the bits at all (one
lanes test, gen/comprehensions._some_within) and skips the loop when none is; every
quantifier's value stays the reference's."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

FOLDS = """use square
use lines
game "Folds over lines"
players A, B
board square.grid(4, 4, 3)
piece stone
zone supply each player: 16 stone
counter tally each player from 0 to 10000 = 0
def mine(l) = lines.owned(l, mover)
action place
  choose site s in sites where empty(s)
  put stone of mover at s
  increase tally of mover by count l in square.in_a_row where mine(l)
  increase tally of mover by sum l in square.in_a_row where mine(l): size(l)
  increase tally of mover by lines.longest(square.in_a_row, mover)
  increase tally of mover by 1 + size(each l in square.in_a_row where mine(l))
  increase tally of mover by (min l in square.in_a_row where mine(l): size(l)) * 100
  increase tally of mover by 1000 if (first l in square.in_a_row where mine(l)) == none else 0
score tallied(p) = tally of p
turn
  do place
end
  when turn > 13
    highest score wins
"""


def test_folds_over_owned_lines_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, FOLDS, 12)
    source = gen.state_class.generated.source
    assert source.count("within_lanes") == 0  # (the helper is a constant, never a name)
    # every one of the six quantifiers tests the lanes first (in the act of each mover)
    lanes = [k for k, v in gen.state_class.generated.constants.items()
             if getattr(v, "__name__", "") == "within_lanes"]
    assert len(lanes) == 1 and source.count(f"{lanes[0]}(") == 6 * 2
    assert len(taken) > 100


# a few lines (fewer than lanes take): a line within the owner bits only where the bits
# hold at least a line's sites among all the lines' sites (the loop not run otherwise)
FEW = """use square
use lines
game "Few lines"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
turn
  do place
end
  when lines.full_line(square.horizontal, mover)
    winner mover
  when lines.full_line_through(square.vertical, last.site, mover)
    winner mover
  when turn > 8
    draw
"""


def test_few_lines_guarded_by_a_count_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, FEW, 40)
    source = gen.state_class.generated.source
    helpers = [k for k, v in gen.state_class.generated.constants.items()
               if getattr(v, "__name__", "") == "some_within"]
    assert len(helpers) == 1 and source.count(").bit_count() >= k") >= 4  # (each mover's
    assert source.count(f"and {helpers[0]}(") == 4  # two tests, each guarded)
    assert len(taken) > 200
