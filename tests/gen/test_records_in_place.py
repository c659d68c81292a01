"""A field of a record the rules make, read from a value of unknown form, is read in place
where the value is a record of those fields (`r.fields is` their constant), by the helper
otherwise: a piece's attribute of the same name, a field two kinds of record hold at
different places, a record the setup made (the reference's: fields equal, not the same)."""
from __future__ import annotations

from typing import Any

import pytest

import rulelang

from .test_generated_equal import _side_by_side

RECORDS = """use square
game "Records"
players A, B
board square.grid(3, 3, 0)
piece stone with worth = 1
zone supply each player: 9 stone
var notes each player = []
var marks each player = []
var opening = none
# `worth`: a stone's attribute and a field of one kind of record; `at`: a field of two kinds
def note(s, w) = (at: s, worth: w)
def mark(s) = (kind: "mark", at: s)
def total(p) = sum n in notes of p: n.worth
def places(p) = each n in notes of p + marks of p: n.at
setup
  set opening = (at: none, worth: 5)  # (made by the setup, run by the reference)
action place
  choose site s in sites where empty(s)
  put stone of mover at s as x
  set x.worth = 1 + size(notes of mover) % 3
  set notes of mover = notes of mover + [note(s, x.worth)]
  if total(mover) > opening.worth
    set marks of mover = marks of mover + [mark(s)]
turn
  do place
end
  when size(places(mover)) >= 6 or any x in pieces(supply of mover): x.worth > 1
    winner mover
"""


def test_record_fields_read_in_place_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, RECORDS, 10)
    source = gen.state_class.generated.source
    assert ".fields is k" in source  # (`worth`: one kind of record has it)
    assert taken


def test_a_record_without_the_field_is_the_reference_error(tmp_path: Any) -> None:
    """A record of another kind, without the field, read as if it had it: the helper's
    error in both modes (not the item at the field's place in the other kind)."""
    text = RECORDS.replace("  when size(places(mover))", "  when turn > 3 and worth_of("
                           "mark(last.site)) > 0\n    draw\n  when size(places(mover))")
    path = tmp_path / "game.rule"
    path.write_text(text.replace("def total(p)", "def worth_of(r) = r.worth\ndef total(p)"))
    errors = []
    for mode in ("generated", "interpreted"):
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        with pytest.raises(rulelang.RuleRuntimeError) as info:
            while not state.is_terminal():
                state.apply_action(state.legal_actions()[0])
        errors.append((str(info.value), state.history()))
    assert errors[0] == errors[1] and "has no 'worth'" in errors[0][0]
