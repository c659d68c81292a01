"""A menu of two choices in a row (`choose a …` then `choose b …`, then effects) computes the
second choice's values once when they do not depend on the first value, not once per first
value (fast/menus.py pairs); the options, and their order, stay those of the reference."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang

GAME = """use square
game "Pairs"
players A, B
board square.grid(3, 3, 3)
piece stone with kind = 0
zone supply each player: 9 stone
action place
  choose k in [1, 2, 3]
  choose site s in SECOND
  put stone of mover at s
turn
  do place
end
  when count s in sites where occupied(s) == 9
    draw
"""


def _second_calls(tmp_path: Path, second: str) -> tuple[list[str], list[int]]:
    """The first menu's options in the compiled mode, and how often the second choice's
    values were computed for each of the first three menus."""
    (tmp_path / "pairs.rule").write_text(GAME.replace("SECOND", second), encoding="utf-8")
    game = rulelang.load_game(tmp_path / "pairs.rule", mode="closures")
    state = game.new_initial_state(seed=0)
    executor = game.flow.executor
    choose = game.runtime.program.actions["place"].body.stmts[1]
    plain = executor._choice_plans[choose]
    calls = [0]

    def counted(c: Any, e: dict[str, Any]) -> Any:
        calls[0] += 1
        return plain(c, e)
    executor._choice_plans[choose] = counted
    options = [state.action_to_string(a) for a in state.legal_actions()]
    per_menu = []
    for _ in range(3):
        calls[0] = 0
        state.apply_action(state.legal_actions()[-1])
        per_menu.append(calls[0])
    reference = rulelang.load_game(tmp_path / "pairs.rule", mode="interpreted")
    again = reference.new_initial_state(seed=0)
    assert [again.action_to_string(a) for a in again.legal_actions()] == options
    return options, per_menu


@pytest.mark.parametrize("second, once", [
    ("each t in sites where empty(t) and t.r != 1", True),
    ("each t in sites where empty(t) and t.r != k", False),  # depends on the first value
])
def test_the_second_choice_is_computed_once_when_it_does_not_need_the_first(
        tmp_path: Path, second: str, once: bool) -> None:
    options, per_menu = _second_calls(tmp_path, second)
    assert options[0] == "place 1 a1" and len(options) > 3
    assert per_menu == ([1, 1, 1] if once else [3, 3, 3])
