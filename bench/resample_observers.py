"""resample(p, seed) for every player p at every position of seeded random games of the
hidden-information rulebooks (issue 50's measure): per game and player count, the resamples
made, how many offered an option that does not apply (each option tried on a fresh resample
of the same seed; must be 0), how many were the observer's copy of another player's decision,
how many kept the true pieces because every deal was refused (game/resample.py), the
playouts from a resample that failed (must be 0), and the time per resample. Not a test: it
prints figures.

    python bench/resample_observers.py                       # Muso Sakura, 3 and 5 players
    python bench/resample_observers.py --games 20 --book karesansui --players 2 3 4
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
import rulelang.game.resample as resample  # noqa: E402
from rulelang.errors import RulelangError  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--book", default="muso_sakura")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 5])
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--mode", default="compiled")
    args = ap.parse_args()
    kept_truth = [0]
    attempt = resample._attempt

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        found = attempt(*a, **k)
        if found[0] is not None and a[-1] is None and resample._hides(a[0].game.runtime.program):
            kept_truth[0] += 1
        return found
    resample._attempt = counted
    bad_total = 0
    for players in args.players:
        game = rulelang.load_game(args.book, options={"players": players}, mode=args.mode)
        made = bad = others = failed_playouts = playouts = 0
        kept_truth[0] = 0
        spent = 0.0
        for g in range(args.games):
            state, rng = game.new_initial_state(seed=g), random.Random(g)
            while not state.is_terminal():
                for p in range(players):
                    seed = rng.randrange(1 << 30)
                    start = time.perf_counter()
                    copy = state.resample(p, seed)
                    spent += time.perf_counter() - start
                    made += 1
                    others += copy.current_player() != p
                    for action in copy.legal_actions():
                        try:
                            state.resample(p, seed).apply_action(action)
                        except RulelangError:
                            bad += 1
                            break
                    if rng.random() < 0.2:
                        playouts += 1
                        try:
                            copy.play_out(random.Random(seed), 100_000)
                        except RulelangError:
                            failed_playouts += 1
                state.apply_action(rng.choice(state.legal_actions()))
        bad_total += bad + failed_playouts
        print(f"{args.book} {players} players, {args.games} games: {made} resamples "
              f"({others} of another player's decision), {bad} with an option that fails, "
              f"{kept_truth[0]} kept the true pieces; {playouts} playouts, {failed_playouts} "
              f"failed; {1000 * spent / max(1, made):.2f} ms per resample", flush=True)
    return 1 if bad_total else 0


if __name__ == "__main__":
    sys.exit(main())
