"""Muso Sakura (rulebooks/muso_sakura.rule): the full soak of tests/games/
test_muso_sakura_games.py. 500 seeded random games (seeds 0..499) for each of 3, 4 and 5
players in each game mode (short: 2 rounds, long: 4), every step checked by
tests/games/muso_check.py (every card in exactly one place, no hand over 5 cards, the end
reached in the last round with the 勝景札 the rules give). Prints, per player count and game
mode, the games that ended normally, the time, actions per game and wins by seat; exits 1 if
any game fails a check. Not a test (the suite plays a sample).

    python bench/muso_sakura_games.py                     # 500 games each, compiled
    python bench/muso_sakura_games.py --games 50 --engine interpreted --players 3
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "games"))

from muso_check import play_checked  # noqa: E402
from muso_tools import load  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--players", type=int, nargs="*", default=[3, 4, 5])
    parser.add_argument("--game-mode", choices=["short", "long"], nargs="*",
                        default=["short", "long"])
    parser.add_argument("--engine", choices=["compiled", "interpreted"], default="compiled")
    args = parser.parse_args(argv)
    failed = 0
    for game_mode in args.game_mode:
        for n in args.players:
            game = load(n, engine=args.engine, mode=game_mode)
            wins: Counter[int] = Counter()
            ended = steps = 0
            start = time.perf_counter()
            for seed in range(args.games):
                try:
                    state, made = play_checked(game, n, game_mode, seed)
                except AssertionError:
                    failed += 1
                    print(f"{n} players, {game_mode}, seed {seed}: FAILED")
                    traceback.print_exc()
                    continue
                ended += 1
                steps += made
                wins.update(state.winners())
            took = time.perf_counter() - start
            print(f"{n} players, {game_mode}, {args.engine}: {ended}/{args.games} games ended "
                  f"normally in {took:.1f} s ({took / max(1, args.games) * 1000:.0f} ms a game, "
                  f"{steps / max(1, ended):.0f} actions a game)")
            print("  wins by seat: " + ", ".join(f"Player{p + 1} {wins[p]}" for p in range(n)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
