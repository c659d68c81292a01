"""`any`/`all` written as `for` loops where a rule returns them or a statement tests them
(gen/lower.py): in a rule's value and its blocks, under `not`, `and`, `or` and `if … else`,
in an effect's `if`/`elif`, a turn's `if` and an action's `require`, and within another
loop's test of an item. Each stops at the
item that decides, as the generator did: a later item whose condition would fail (12 // 0)
is never read."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

LOOPS = """use square
game "Loops"
players A, B
board square.grid(3, 3, 0)
piece stone with d = 1
zone supply each player: 14 stone
var bonus each player = 0
# a stone's d: 0, 1 or 2 by the turn it came; 12 // d fails for a stone of d 0
def sharp(s) = any x in pieces(s): x.d > 0 and 12 // x.d == 12
def calm(s) = all x in pieces(s) where owner(x) == mover: x.d == 0 or 12 // x.d < 12
def split(s) = not (any x in pieces(s): owner(x) != mover) or sharp(s)
def grade(s) = 3 if sharp(s) and calm(s) else (2 if all x in pieces(s): x.d != 1 else 1)
def worth(s)
  if any x in pieces(s): owner(x) != mover and x.d == 2
    return 0
  elif all x in pieces(s): x.d > 0 and 12 // x.d > 5
    return grade(s) + 1
  return grade(s)
effect score(s)
  if all x in pieces(s): owner(x) == mover
    increase bonus of mover by worth(s)
  elif any x in pieces(s): x.d == 1 and 12 // x.d == 12
    increase bonus of mover by 2
  else
    decrease bonus of mover by 1
action stack
  choose site s in sites where size(pieces(s)) < 4
  require split(s) or size(pieces(s)) == 0
  put stone of mover at s as x
  set x.d = turn % 3
  score(s)
action pass
  require bonus of mover > 8
turn
  if any s in sites: size(pieces(s)) >= 4 and calm(s)
    do pass or stack
  else
    do stack
end
  when bonus of mover >= 30
    winner mover
  when turn > 26
    draw
"""


def test_quantifiers_written_as_loops_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, LOOPS, 16)
    source = gen.state_class.generated.source
    # (no generator left, not even within a loop's test of each item: the turn's `calm(s)`)
    assert "any(" not in source and "all(" not in source
    assert source.count("return True") >= 2 and source.count("break") >= 12
    assert {t.split()[0] for t in taken} == {"stack", "pass"}
