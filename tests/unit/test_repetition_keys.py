"""The board part of the position keys (game/repetition.py) is brought up to date from the
sites changed since it was last made: in random games of every bundled rulebook with a
repetition rule it equals the board made afresh after every action, and a planted stale key
would be caught."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.game import repetition

ROOT = Path(__file__).resolve().parents[2]
REPEATING = ("spargo", "spline_plus", "spought", "spyramid")


def _fresh(data: Any) -> tuple[Any, ...]:
    return tuple(tuple((p.kind, data.owner[p.id]) for p in stack) for stack in data.at)


def _mismatches(name: str, seeds: range) -> int:
    game = rulelang.load_game(ROOT / "rulebooks" / f"{name}.rule", mode="interpreted")
    found, checked = 0, 0
    for seed in seeds:
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            data = state.ctx.data
            kept = data.cache.get(repetition._BOARD_KEY)
            if kept is not None and kept[0] == len(data.changes):
                checked += 1
                found += kept[1] != _fresh(data)
    assert checked, "no kept board key was seen"
    return found


@pytest.mark.parametrize("name", REPEATING)
def test_kept_board_keys_equal_fresh_ones(name: str) -> None:
    assert _mismatches(name, range(3)) == 0


def test_a_board_key_not_brought_up_to_date_would_be_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the last of several changed sites left as it was, the kept keys differ from fresh
    ones (a move lifts a ball from one site and puts it on another)."""
    real = repetition.updated

    def stale(board: Any, changed: list[int], at: Any, owner: Any) -> Any:
        return real(board, changed[:-1] if len(changed) > 1 else changed, at, owner)
    monkeypatch.setattr(repetition, "updated", stale)
    assert _mismatches("spline_plus", range(3)) > 0
