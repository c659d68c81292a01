"""reach(): movement points over a relation, with entry costs and places to stop, and rules
passed as arguments."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_costs_blocks_and_stops(mode: str) -> None:
    state = rulelang.load_game(RULES / "walk.rule", mode=mode).new_initial_state(0)
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    # 6 points: s1 costs 1; the rocks on s2, s3 cost 2 each and cannot be stopped on; s4 is
    # reached with 1 + 2 + 2 + 1 = 6 points, s5 would need 7
    assert labels == ["run s1", "run s4", "rest"]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_a_wall_cannot_be_entered(mode: str) -> None:
    state = rulelang.load_game(RULES / "walk.rule", mode=mode).new_initial_state(0)
    state.apply_action("run s4")  # A
    state.apply_action("rest")    # B
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    # back over the rocks to s1 (5) and s0 (6); forward s5, s6; s7 is a wall, s8 behind it
    assert labels == ["run s0", "run s1", "run s5", "run s6", "rest"]


def test_a_rule_without_parameters_is_not_a_function() -> None:
    src = (RULES / "walk.rule").read_text().replace(
        "reach(home, step, 6, cost, can_stop)", "reach(home, step, 6, home, can_stop)")
    path = RULES / "_tmp_walk.rule"
    path.write_text(src)
    try:
        with pytest.raises(rulelang.RulebookError) as info:  # found by the type checker
            rulelang.load_game(path)
        assert [d.code for d in info.value.diagnostics] == ["R230"]
        assert "reach(…), argument 4: expected a rule, found a site" in info.value.render()
    finally:
        path.unlink()
