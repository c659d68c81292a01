"""The menu walk tries an action's effects on GameData.scratch(): a copy that shares only the
history and the counts of positions (which the flow writes between turns, never an effect),
so that the trials of a menu leave the position, its history and its counts as they were."""
from __future__ import annotations

import random
from pathlib import Path

import rulelang

ROOT = Path(__file__).resolve().parents[2]


def test_scratch_shares_the_history_and_positions_and_nothing_else() -> None:
    game = rulelang.load_game(ROOT / "rulebooks" / "spargo.rule", mode="closures")
    state = game.new_initial_state(seed=0)
    for _ in range(6):
        state.apply_action(0)
    data = state.ctx.data
    scratch = data.scratch()
    assert scratch.history is data.history and scratch.positions is data.positions
    for name in ("at", "loc", "zones", "owner", "counters", "vars", "last", "changes",
                 "cache", "came", "moved", "revealed"):
        assert getattr(scratch, name) is not getattr(data, name), name
        assert getattr(scratch, name) == getattr(data, name), name
    assert scratch.era != data.era  # what either kept is shared from now on
    copy = data.copy()
    assert copy.history is not data.history and copy.positions is not data.positions


def test_menu_trials_leave_history_and_positions_alone() -> None:
    """Spargo (a put and a capture tried before two requires, one of them on repetition)
    and Spyramid (a ball lifted and the pyramid settled before the second choose): each
    menu made again from the position leaves its history and counts as they were and is
    the menu the game offered; after each action they are the reference evaluator's."""
    for name in ("spargo", "spyramid"):
        path = ROOT / "rulebooks" / f"{name}.rule"
        game = rulelang.load_game(path, mode="closures")
        reference = rulelang.load_game(path, mode="interpreted")
        executor = game.flow.executor
        for seed in range(3):
            rng, state = random.Random(seed), game.new_initial_state(seed=seed)
            other = reference.new_initial_state(seed=seed)
            plies = 0
            while not state.is_terminal() and plies < 60:
                data, decision = state.ctx.data, state._decision
                history, positions = list(data.history), dict(data.positions)
                menu = executor.menu(decision.menu, state.ctx)
                assert list(menu) == list(decision.options)
                assert data.history == history and data.positions == positions
                action = rng.choice(state.legal_actions())
                state.apply_action(action)
                other.apply_action(action)
                assert data.positions == other.ctx.data.positions
                assert len(data.history) == len(other.ctx.data.history)
                plies += 1
