"""A way of acting is offered only if the whole action can happen: requires and puts nested
in `if`s and effects after the last choice are tried too; kinds may be held in locals."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

HERE = Path(__file__).parent


@pytest.fixture(params=["interpreted", "compiled"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def labels(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_nested_requires_and_puts_filter_the_menu(mode: str) -> None:
    state = rulelang.load_game(HERE / "refusals.rule", mode=mode).new_initial_state(0)
    # build x needs money 2 (require in an if); buy 1, buy 2 need money (require in an
    # effect); sow s0 is possible while the mover has a seed and s0 is empty
    assert labels(state) == ["build y", "buy 0", "sow s0", "wait"]
    with pytest.raises(rulelang.IllegalActionError):
        state.apply_action("build x")
    state.apply_action("sow s0")
    assert labels(state) == ["build y", "buy 0", "wait"]  # s0 is taken now


def test_a_kind_held_in_a_local(mode: str) -> None:
    state = rulelang.load_game(HERE / "kind_in_local.rule", mode=mode).new_initial_state(0)
    assert labels(state)[:4] == ["plant pine s0", "plant pine s1", "plant pine s2",
                                 "plant cedar s0"]
    state.apply_action("plant cedar s1")
    assert [p["kind"] for p in state.observation(0)["board"][1]["pieces"]] == ["cedar"]
    # A has no cedar left: A's next menu offers only pines
    state.apply_action("plant pine s0")  # B
    assert all(lab.startswith("plant pine") for lab in labels(state))
