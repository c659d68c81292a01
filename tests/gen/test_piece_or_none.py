"""A site's top piece is a piece or none (gen/forms.PIECE_OR_NONE): a `put` of it is refused
where the site is empty, so the menu's check of the put is `is not None`, as the reference
refuses the option."""
from __future__ import annotations

from .test_generated_equal import _side_by_side

SHIFT = """use square
game "Shift"
players A, B
board square.grid(1, 5, 2)
piece stone
zone supply each player: 3 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action shift
  choose site s in sites
  let b = top(s)
  choose site t in sites where empty(t) and t != s
  put b at t
turn
  do {actions}
end
  when turn > 14
    draw
"""


def test_a_put_of_an_empty_sites_top_is_not_an_option(tmp_path: object) -> None:
    for actions in ("shift or place", "place or shift"):
        gen, taken = _side_by_side(tmp_path, SHIFT.format(actions=actions), 4)
        assert " is not None)" in gen.state_class.generated.source
        assert any(t.startswith("shift") for t in taken)
