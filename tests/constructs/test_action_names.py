"""Action names live in a namespace of their own: only `do` and `then` name an action, so a
symbol of an enumeration (or a rule, a var …) may share its name. `do place` still takes the
action, `place` in an expression is the symbol, and a misspelt or unoffered action is still
reported (R201, R206); an action name used as a value, when nothing else has that name, is
still R204."""
from __future__ import annotations

from pathlib import Path

import pytest
from scenario_tools import load_text, offered, var_value

import rulelang
from rulelang.errors import RulebookError

MODES = ("interpreted", "compiled")

GAME = """game "Shared names"
players A, B
use square
board square.grid(2, 2, 2)
piece stone
zone supply each player: 4 stone
zone pile: 4 stone
enum use: place, discard                    # two symbols named like the two actions
var chosen = discard
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action discard
  choose how in use where how == discard or size(supply of mover) > 3
  set chosen = how
  if how == place
    move top(pile) to supply of mover
  else
    move top(supply of mover) to pile
turn
  do place or discard
end
  when all s in sites: occupied(s)
    draw
"""


def _load(tmp_path: Path, text: str, mode: str = "compiled") -> rulelang.Game:
    return load_text(tmp_path, text, mode)


def _diagnostics(tmp_path: Path, text: str) -> list:
    with pytest.raises(RulebookError) as info:
        _load(tmp_path, text)
    return info.value.diagnostics


@pytest.mark.parametrize("mode", MODES)
def test_a_symbol_may_share_an_action_name(tmp_path: Path, mode: str) -> None:
    state = _load(tmp_path, GAME, mode).new_initial_state()
    strings = offered(state)
    # `do place or discard` names the actions; `choose how in use` the symbols
    assert "place a1" in strings and "discard place" in strings
    assert "discard discard" in strings
    state.apply_action(state.string_to_action("discard place"))
    assert var_value(state, "chosen") == "place"          # the symbol's value is its name
    supply = {(z["zone"], z["owner"]): z["count"] for z in state.observation(0)["zones"]}
    assert supply[("supply", "A")] == 5 and supply[("pile", None)] == 3
    state.apply_action(state.string_to_action("place a1"))   # B: the action `place`
    assert state.current_player() == 0
    assert "place a1" not in offered(state) and "place b1" in offered(state)
    # B is down to 3 stones: "discard place" is refused by the `where`, for B only
    state.apply_action(state.string_to_action("place b1"))
    assert sorted(offered(state)) == ["discard discard", "place a2", "place b2"]


def test_the_symbol_is_checked_as_a_symbol(tmp_path: Path) -> None:
    text = GAME.replace("if how == place", 'if how == "place"')
    assert text != GAME
    found = [d for d in _diagnostics(tmp_path, text) if d.code == "R251"]
    assert found, "a text compared with a symbol named like an action is still R251"


def test_a_misspelt_action_in_do_is_still_unknown(tmp_path: Path) -> None:
    text = GAME.replace("  do place or discard\n", "  do plaec or discard\n")
    found = [d for d in _diagnostics(tmp_path, text) if d.code == "R201"]
    assert found and "unknown action 'plaec'" in found[0].message
    assert found[0].help and "place" in found[0].help
    # the action it was surely meant for is not reported as never offered
    assert not any(d.code == "R206" for d in _diagnostics(tmp_path, text))


def test_a_symbol_is_not_an_action_for_do(tmp_path: Path) -> None:
    text = GAME.replace("enum use: place, discard", "enum use: place, discard, keep") \
        .replace("  do place or discard\n", "  do place or discard or keep\n")
    found = [d for d in _diagnostics(tmp_path, text) if d.code == "R201"]
    assert found and "unknown action 'keep'" in found[0].message


def test_an_action_never_offered_is_still_r206(tmp_path: Path) -> None:
    text = GAME.replace("  do place or discard\n", "  do place\n")
    found = [d for d in _diagnostics(tmp_path, text) if d.code == "R206"]
    assert found and "'discard'" in found[0].message


def test_an_action_twice_is_still_r202(tmp_path: Path) -> None:
    text = GAME.replace("turn\n", "action place\n  put stone of mover at a1\nturn\n", 1)
    found = [d for d in _diagnostics(tmp_path, text) if d.code == "R202"]
    assert found and "'place' is defined twice" in found[0].message


def test_an_action_name_as_a_value_is_still_r204(tmp_path: Path) -> None:
    text = GAME.replace("enum use: place, discard", "enum use: put_down, discard") \
        .replace("if how == place", "if how == put_down") \
        .replace("  set chosen = how\n", "  set chosen = place\n")
    found = [d for d in _diagnostics(tmp_path, text) if d.code == "R204"]
    assert found and "'place' is an action, not a value" in found[0].message
