"""Why an action is refused by a `require` that comes after its effects (docs/language.md,
Flow: the rest of the action is tried on a scratch copy): the engine's message (and so a
scenario's `illegal … because`, and `rulelang play`) names that requirement, in both modes,
while a value its choose does not offer is refused by what its condition tested."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import IllegalActionError
from rulelang.tools.terminal.explain import why_illegal

BOOK = """use square
game "Crowding"
players A, B
board square.grid(1, 4, 2)
piece stone
zone supply each player: 5 stone
counter crowded = 0
effect crowd(s)
  set crowded = count t in square.orthogonal(s) where occupied(t)
action put
  choose site s in sites where empty(s)
  put stone of mover at s
  crowd(s)
  require crowded < 2 else "the stone would be shut in"
action pass
turn
  do put or pass
"""
MODES = ("interpreted", "compiled", "generated")


def refusal(tmp_path: Path, mode: str, text: str) -> tuple[str, str]:
    path = tmp_path / "crowding.rule"
    path.write_text(BOOK, encoding="utf-8")
    game = rulelang.load_game(path, mode=mode)
    state = game.new_initial_state()
    state.apply_action("put a1")
    state.apply_action("put c1")
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(text)
    return str(err.value), why_illegal(game, state, text, str(err.value))


@pytest.mark.parametrize("mode", MODES)
def test_a_requirement_after_the_effects_is_named(tmp_path: Path, mode: str) -> None:
    engine, terminal = refusal(tmp_path, mode, "put b1")  # between a1 and c1
    assert engine == "'put b1' is not a legal way to put: the stone would be shut in"
    assert terminal == "the stone would be shut in"


@pytest.mark.parametrize("mode", MODES)
def test_a_value_the_choose_does_not_offer_says_why_in_words(tmp_path: Path, mode: str) -> None:
    engine, terminal = refusal(tmp_path, mode, "put a1")
    assert engine == "'put a1' is not a legal way to put: a1 is occupied (by A)"
    assert terminal == "a1 is occupied (by A)"
