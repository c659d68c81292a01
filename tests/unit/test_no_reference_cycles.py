"""A game played and dropped leaves no reference cycle behind: its states, decisions and
menus are freed as soon as they are dropped, not left to Python's cycle collector (which then
runs every few moves and costs CPU time). Two cycles were found this way: the end of a game
re-raised through a function that held the exception in its own frame, and a search that
called itself through its closure's cell."""
from __future__ import annotations

import gc
import random
from pathlib import Path

import pytest

import rulelang

ROOT = Path(__file__).resolve().parents[2]
BOOKS = sorted(p for p in (ROOT / "rulebooks").glob("*.rule") if not rulelang.is_library(p))


def _play(game: rulelang.Game, seed: int, plies: int = 40) -> None:
    rng, state = random.Random(seed), game.new_initial_state(seed=seed)
    for n in range(plies):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        if n == 3:
            state.clone().legal_actions()  # a clone made and dropped mid-game too
    state.returns()


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_a_finished_game_leaves_no_cycle(book: Path, mode: str) -> None:
    game = rulelang.load_game(book, mode=mode)
    plies = 40 if mode == "compiled" else 12  # (the reference is slow)
    _play(game, 0, plies)  # what is made once per game (kept by the game) is made now
    # Every object there is now is set aside, so that the collection below looks only at
    # what the second game makes (in a worker that ran many tests before, the whole heap is
    # big: not even collected once here).
    gc.freeze()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        _play(game, 1, plies)
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.unfreeze()
    assert not left, f"{len(left)} objects in cycles, e.g. {sorted(set(left))[:8]}"
