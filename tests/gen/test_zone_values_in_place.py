"""`top` of a zone, `size`, `first` and `distinct` of a value of unknown form (a list, a zone
found as the game runs) and `%` or `//` by a number known when written are written in place
(gen/calls.py, gen/operators.py): the same games, values and errors as the reference."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import rulelang
import rulelang.gen.helpers as H
from rulelang.library import BUILTINS

from .traces import played

RULEBOOK = """use square
game "Zone values"
players A, B
board square.grid(2, 2, 0)
piece chip
piece disc
zone box: 4 chip, 5 disc
zone heap[1..3] ordered
var picks = []
var sizes = []
var held = none
var mark = none

setup
  shuffle box
  for each i in 0..6
    move top(box) to heap[i % 3 + 1]
  set held = heap[2]
  set mark = top(box)

action pick
  choose h in [1, 2, 3] where size(heap[h]) > 0
  set picks = picks + [h // 2, (h + 7) % 4]
  set sizes = sizes + [size(heap[h]), size(held), size(picks){more}, kind(top(heap[h]))]
  set sizes = sizes + [first(picks), first(sizes), distinct(picks), distinct(box)]
  move top(heap[h]) to box
  set held = heap[h]

turn
  do pick

end
  when size(box) == 9 or size(picks) > 12
    draw
"""


@pytest.mark.parametrize("more", ["", " + size(mark)"])
def test_zone_values_in_place_play_as_the_reference(tmp_path: Path, more: str) -> None:
    path = tmp_path / "zones.rule"
    path.write_text(RULEBOOK.replace("{more}", more))
    source = rulelang.load_game(path, mode="generated").state_class.generated.source  # type: ignore[attr-defined]
    assert " % k" in source and " // k" in source  # (in place)
    assert re.search(r"\(S\.zones\[k\d+\] or k\d+\)\[k\d+\]", source)  # (top(box))
    for seed in range(8):
        assert played(path, "generated", seed, True) == played(path, "interpreted", seed, True)
    last = played(path, "generated", 0, True)[-1]
    if more:  # (the size of a piece: the builtin's error, at the call)
        assert "zones.rule:24:65:" in last[0] and "'size' cannot take " in last[0], last
    else:
        assert len(played(path, "generated", 0, True)) > 4


@pytest.mark.parametrize("key", ["size", "first", "distinct"])
def test_a_list_builtin_in_place_gives_and_charges_what_the_builtin_does(
        tmp_path: Path, key: str) -> None:
    """Given a list (empty, with repeats, long) or a zone: the same value or error, and the
    same steps charged, as the builtin called through the state's view."""
    path = tmp_path / "zones.rule"
    path.write_text(RULEBOOK.replace("{more}", ""))
    state: Any = rulelang.load_game(path, mode="generated").new_initial_state(0)
    zone = next(iter(state.zones))
    in_place = {"size": H.size_of, "first": H.first_of, "distinct": H.distinct_of}[key]
    impl = BUILTINS[key].impl

    def outcome(call: Any, *args: Any) -> tuple[Any, int]:
        state.steps[0] = 0
        try:
            value = call(*args)
        except rulelang.RuleRuntimeError as err:
            value = str(err)
        return value, state.steps[0]

    for x in [(), (3, 1, 3, 2, 1), ("a",) * 40, zone]:
        assert outcome(in_place, state, impl, key, None, x) == outcome(
            H.call_builtin, impl, key, None, state.view(), x), x
