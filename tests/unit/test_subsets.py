"""Choosing sets of pieces (subsets), pieces shown by name, and asking for the best choice."""
from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"


def hand(state: rulelang.State, p: int) -> list[tuple[str, int]]:
    data = state.ctx.data
    return [(data.attrs["name"][c.id], data.attrs["points"][c.id])
            for z, pile in data.zones.items() if z.name == "hand" and z.owner == p
            for c in pile]


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_roles_are_the_subsets_of_the_hand_shown_by_name(mode: str) -> None:
    state = rulelang.load_game(RULES / "role.rule", mode=mode).new_initial_state(seed=2)
    state.apply_action("show")
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    names = [n for n, _ in hand(state, 0)]
    expected = ["(" + ", ".join(pair) + ")" for pair in combinations(names, 2)]
    assert labels[0] == "best"
    assert [lab.split(" #")[0] for lab in labels[1:]] == expected
    assert len(set(labels)) == len(labels) == 4
    assert "#" not in json.dumps(labels).replace(" #2", "").replace(" #3", "")


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_best_gives_the_highest_role_and_roles_stay_secret_until_revealed(mode: str) -> None:
    state = rulelang.load_game(RULES / "role.rule", mode=mode).new_initial_state(seed=2)
    state.apply_action("show")
    state.apply_action("best")  # A
    assert "best" not in json.dumps(state.observation(1))  # B cannot see A's choice
    worst = min(range(1, 4), key=lambda a: sum(
        p for n, p in hand(state, 1) if n in state.action_to_string(a)))
    state.apply_action(worst)  # B
    assert state.is_terminal()
    best_a = max(a + b for (_, a), (_, b) in combinations(hand(state, 0), 2))
    assert state.score_breakdown(0) == {"points": best_a}
