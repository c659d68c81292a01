"""The classic rulebooks (tic-tac-toe, Connect Four, Hex, Breakthrough) against OpenSpiel
2.0.2: the full soak of tests/openspiel/test_differential.py's test_random_games. Seeded random
games (seeds 0..N-1) played move for move in both engines, moves matched through board
coordinates: at every step the same player, terminal flag and set of legal moves, the boards
every few moves and at the end, the same returns. Prints per game and mode the games played,
the time and the games that diverge (the shortest one in full); exits 1 on any divergence.
Not a test (the suite plays a sample). Needs pyspiel (pip install -e '.[test]').

    python bench/openspiel_games.py                        # 200 games per game, both modes
    python bench/openspiel_games.py --games 50 --mode interpreted hex
    python bench/openspiel_games.py --deep-perft           # also the perfts the suite cuts

--deep-perft also counts the game trees the suite walks less deep, node for node against
OpenSpiel: Breakthrough 8x8 to depth 4 (OpenSpiel's pinned 256,036), every game of tic-tac-toe
(255,168) and of 3x3 Hex (257,760), 5x5 Hex to depth 4 (303,600) and Connect Four to depth 6
(117,649).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "openspiel"))

from test_differential import PAIRS, play, test_perft  # noqa: E402

DEEP_PERFT = [("breakthrough", 8, 4, "compiled"), ("tic_tac_toe", None, None, "compiled"),
              ("hex", 3, None, "compiled"), ("hex", 5, 4, "compiled"),
              ("connect_four", None, 6, "compiled")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--mode", choices=["compiled", "interpreted"], nargs="*",
                        default=["compiled", "interpreted"])
    parser.add_argument("names", nargs="*", default=list(PAIRS), help="games (default: all)")
    parser.add_argument("--deep-perft", action="store_true")
    args = parser.parse_intermixed_args(argv)
    failed = 0
    for name, size, depth, mode in DEEP_PERFT if args.deep_perft else []:
        start = time.perf_counter()
        test_perft(name, size, depth, mode)  # raises on a difference, with the first one
        print(f"{name} {size}x{size} perft to depth {depth}, {mode}: equal to OpenSpiel's "
              f"({time.perf_counter() - start:.1f} s)")
    for name in args.names:
        for mode in args.mode:
            start = time.perf_counter()
            found = [d for seed in range(args.games) if (d := play(name, None, mode, seed))]
            took = time.perf_counter() - start
            print(f"{name}, {mode}: {args.games - len(found)}/{args.games} games agree in "
                  f"{took:.1f} s ({took / max(1, args.games) * 1000:.0f} ms a game)")
            if found:
                failed += len(found)
                print(f"  the shortest divergence: {min(found, key=lambda d: len(d.moves))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
