"""resample(p, seed) against what p has seen, at many seeded random positions of every bundled
rulebook and option set (tests/endings_tools.py): the checks of
tests/property/test_resample_consistent.py (p's observation, the player to move and p's
options, the pieces p knows the place of), counted instead of asserted. Prints per option
set the resamples made, how many broke a check (must be 0), how many redid another player's
secret choice, and the time per resample. Not a test: it prints figures.

    python bench/resample_consistency.py                  # 10 games x 30 positions per set
    python bench/resample_consistency.py --games 40 --positions 50
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "property"))

import endings_tools as tools  # noqa: E402
import test_resample_consistent as checks  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seeds", type=int, default=2)
    args = ap.parse_args()
    broken_total = made_total = 0
    for book, options in tools.cases():
        game = tools.game_of(book, tuple(sorted(options.items())))
        name = tools.label(book, options)
        made = broken = 0
        spent = 0.0
        for g in range(args.games):
            moves = tools.random_game(game, 5000 + g).history()
            rng = random.Random(g)
            plies = sorted(rng.sample(range(len(moves)), min(args.positions, len(moves))))
            state, done = game.new_initial_state(seed=5000 + g), 0
            for ply in plies:
                while done < ply:
                    state.apply_action(moves[done])
                    done += 1
                for player in range(game.num_players):
                    for seed in range(args.seeds):
                        start = time.perf_counter()
                        try:
                            checks.check(state, player, seed + 7 * ply, name)
                        except AssertionError:
                            broken += 1
                        spent += time.perf_counter() - start
                        made += 1
        made_total += made
        broken_total += broken
        print(f"{name:52} {made} resamples, {broken} broke a check, "
              f"{checks.REDONE[name]} redid a secret choice, "
              f"{1000 * spent / max(1, made):.2f} ms each (with the checks)", flush=True)
    print(f"{made_total} resamples, {broken_total} broke a check")
    return 1 if broken_total else 0


if __name__ == "__main__":
    sys.exit(main())
