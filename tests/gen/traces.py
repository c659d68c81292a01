"""A seeded random game as the tests of tests/gen compare it between the two modes."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import rulelang


def played(path: Path, mode: str, seed: int, views: bool = False) -> list[Any]:
    """Each menu's labels (with player 0's view, `views`) of a seeded random game, player
    1's view at its end, or the error's first lines."""
    trace: list[Any] = []
    try:
        state = rulelang.load_game(path, mode=mode).new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            labels = [state.action_to_string(a) for a in state.legal_actions()]
            trace.append((labels, state.observation(0)) if views else labels)
            state.apply_action(rng.randrange(len(labels)))
        if views:
            trace.append(state.observation(1))
    except rulelang.RuleRuntimeError as err:
        trace.append(err.render().splitlines()[:2])
    return trace
