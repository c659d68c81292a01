"""The further Shibumi games (Spava, Splice, Spodd, Spaiji, Spire, Splade, Spao, Spice,
Spaniel, Spought, Spyramid, Spargo): seeded uniform-random games of each (compiled mode), the
random action drawn by random.Random(seed) over the legal actions.
Prints, per game, each seat's win rate, the draw rate, the mean length (actions) and the time.
Not a test: figures only.

    python bench/shibumi_more_games.py                   # 2,000 games of each
    python bench/shibumi_more_games.py --games 200 spire
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

GAMES = ("spava", "splice", "spodd", "spaiji", "spire", "splade", "spao", "spice", "spaniel",
         "spought", "spyramid", "spargo")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--mode", choices=["compiled", "interpreted"], default="compiled")
    parser.add_argument("names", nargs="*", default=list(GAMES))
    args = parser.parse_args(argv)
    print(f"{'game':8} {'games':>6}  {'seat wins':42} {'draws':>6} {'mean length':>11} "
          f"{'CPU s':>7}")
    for name in args.names:
        game = rulelang.load_game(ROOT / "rulebooks" / f"{name}.rule", mode=args.mode)
        wins, draws, length = [0] * game.num_players, 0, 0
        start = time.process_time()
        for seed in range(args.games):
            state, rng = game.new_initial_state(seed=seed), random.Random(seed)
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
            length += len(state.history())
            for w in state.winners():
                wins[w] += 1
            draws += not state.winners()
        seats = "  ".join(f"{game.player_names[i]} {100 * w / args.games:5.1f}%"
                          for i, w in enumerate(wins))
        print(f"{name:8} {args.games:>6}  {seats:42} {100 * draws / args.games:5.1f}% "
              f"{length / args.games:11.1f} {time.process_time() - start:7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
