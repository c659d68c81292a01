"""Tatara and the Forest: the issue's proof at full size. 300 seeded random games (seeds
0..299) for each of 2, 3 and 4 players, every step checked by tests/games/tatara_check.py
(pieces conserved, one tree / building / pawn per space, money and material never negative,
every decision's options and every forest phase against an independent model of the rules,
the winners by the end rule). Prints how the games ended, their length, the checks made and
the time; exits 1 if any game fails a check. Not a test (tests/games/test_tatara_games.py
plays a sample).

    python bench/tatara_games.py                    # 3 x 300 games, compiled
    python bench/tatara_games.py --games 50 --mode interpreted --players 3
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "games"))

from tatara_check import play_checked  # noqa: E402

import rulelang  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--mode", choices=["compiled", "interpreted"], default="compiled")
    args = parser.parse_args(argv)
    failed = 0
    for n in args.players:
        game = rulelang.load_game(ROOT / "rulebooks" / "tatara.rule", {"players": n},
                                  mode=args.mode)
        reasons: Counter[str] = Counter()
        checks: Counter[str] = Counter()
        rounds, steps, shared = [], 0, 0
        start = time.perf_counter()
        for seed in range(args.games):
            try:
                o = play_checked(game, seed)
            except AssertionError:
                failed += 1
                print(f"{n} players, seed {seed}: FAILED")
                traceback.print_exc()
                continue
            reasons[o.reason] += 1
            checks.update(o.checks)
            rounds.append(o.rounds)
            steps += o.steps
            shared += len(o.winners) > 1
        took = time.perf_counter() - start
        print(f"{n} players, {args.mode}: {len(rounds)}/{args.games} games ended normally "
              f"in {took:.1f} s ({took / max(1, args.games) * 1000:.0f} ms a game, "
              f"{steps} actions)")
        print(f"  ends: {dict(sorted(reasons.items()))}; shared wins {shared}")
        if rounds:
            print(f"  rounds: mean {statistics.mean(rounds):.1f}, median "
                  f"{statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}")
        print(f"  checked: {dict(sorted(checks.items()))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
