"""Many seeded random games of every bundled rulebook under every option set that matters
(tests/endings_tools.py), each played to its end under a generous cap; prints per option set
the games, how many reached the cap (must be 0), and the lengths in plies (mean, max, the
seed of the longest). Exit 1 if any game was capped. Not a test: it prints figures.

    python bench/every_game_ends.py              # 200 games per option set
    python bench/every_game_ends.py --games 1000 --mode interpreted
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import endings_tools as tools  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--mode", choices=("compiled", "interpreted"), default="compiled")
    args = ap.parse_args()
    capped_total = 0
    start = time.perf_counter()
    for book, options in tools.cases():
        game = tools.game_of(book, tuple(sorted(options.items())), args.mode)
        lengths, capped = [], []
        for seed in range(args.games):
            state = tools.random_game(game, seed)
            lengths.append(len(state.history()))
            if state.capped():
                capped.append(seed)
        capped_total += len(capped)
        longest = max(range(len(lengths)), key=lambda i: lengths[i])
        print(f"{tools.label(book, options):52} {args.games} games, capped {len(capped)}"
              f"{' seeds ' + str(capped[:5]) if capped else ''}, plies mean "
              f"{sum(lengths) / len(lengths):.0f} max {lengths[longest]} (seed {longest})",
              flush=True)
    print(f"cap {tools.CAP} plies; {capped_total} capped games; "
          f"{time.perf_counter() - start:.0f} s")
    return 1 if capped_total else 0


if __name__ == "__main__":
    sys.exit(main())
