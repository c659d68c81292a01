"""A clone in the middle of a turn replays the turn from its start; in the compiled mode the
values its `set`s gave are taken from the turn's log instead of being computed again
(fast/executor.py set_value). These tests check each value so taken against a fresh
computation, and a clone's game against the original's, in every bundled rulebook."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.fast import executor

ROOT = Path(__file__).resolve().parents[2]
BOOKS = sorted(p for p in (ROOT / "rulebooks").glob("*.rule") if not rulelang.is_library(p))


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_a_clone_mid_turn_replays_the_logged_values(book: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(executor, "CHECK_REPLAY", True)  # each value taken is computed too
    game = rulelang.load_game(book, mode="closures")
    rng, state = random.Random(7), game.new_initial_state(seed=7)
    for ply in range(150):
        if state.is_terminal():
            break
        if state._trail and ply % 3 == 0:  # in the middle of a segment: a replayed clone
            copy = state.clone()
            for _ in range(4):  # the clone and the original go on alike
                if state.is_terminal():
                    break
                assert copy.legal_actions() == state.legal_actions()
                action = rng.choice(state.legal_actions())
                label = state.action_to_string(action)
                state.apply_action(action)
                copy.apply_action(label)
                assert copy.ctx.data.vars == state.ctx.data.vars
                assert copy.ctx.data.counters == state.ctx.data.counters
            continue
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_replay_takes_the_logged_values(tmp_path: Path) -> None:
    """The values of `let`s and `set`s and the branches of `if`s are really taken from the
    log: a log changed behind the clone's back shows in the clone (the check above would
    catch that)."""
    (tmp_path / "t.rule").write_text("""game "Log"
players A, B
var seen = 0
counter bonus = 0
action pick
  choose k in [1, 2]
  let double = k * 2
  if double > 3
    increase bonus by 5
  else
    set seen = k * 10
  choose j in [3, 4] by opponent
  set seen = seen + j
turn
  do pick
end
  when turn > 2
    draw
""", encoding="utf-8")
    state = rulelang.load_game(tmp_path / "t.rule", mode="closures").new_initial_state(0)
    state.apply_action("pick 1")
    assert state.ctx.values == [2, 1, 10]  # the let, the if's branch (the else), the set
    assert state.clone().ctx.data.vars[("seen", None)] == 10
    state.ctx.values[2] = 99  # (never done but here)
    assert state.clone().ctx.data.vars[("seen", None)] == 99
    state.ctx.values[1] = 0  # the first branch, from the log: its set is not met, and
    with pytest.raises(AssertionError, match="fewer sets"):  # the replay says so
        state.clone()
