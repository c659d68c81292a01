"""A/B of random playouts between two checkouts of rulelang (e.g. this one and the commit
before a change, made with `git worktree add --detach ../base COMMIT`), as ratios of CPU time
in one run: each measurement is a fresh process that imports rulelang from one checkout,
plays a fixed number of seeded uniformly random games and reports the CPU time they took
(load excluded); the two sides are run alternately, several rounds, and the median per side
is compared. Prints a table and exits 0; this is not a test.

    python bench/ab_playouts.py ../base            # every bundled game, 3 rounds
    python bench/ab_playouts.py ../base --rounds 5 --scale 2 spline tatara
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# rulebook stem -> games per measurement (about half a second of CPU each, compiled)
GAMES = {"tic_tac_toe": 4000, "connect_four": 1500, "hex": 200, "breakthrough": 100,
         "spline": 2000, "sponnect": 1500, "spline_plus": 40, "muso_sakura": 80,
         "karesansui": 40, "tatara": 12}
_CHILD = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import rulelang
game = rulelang.load_game(sys.argv[2], mode=sys.argv[4])
n, moves = int(sys.argv[3]), 0
start = time.process_time()
for seed in range(n):
    rng, state = random.Random(seed), game.new_initial_state(seed=seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        moves += 1
print(json.dumps({"cpu": time.process_time() - start, "moves": moves}))
"""


def measure(checkout: Path, rulebook: Path, games: int, mode: str) -> tuple[float, int]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(checkout), str(rulebook),
                          str(games), mode], capture_output=True, text=True, check=True,
                         cwd=checkout)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return float(found["cpu"]), int(found["moves"])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, help="the other checkout (the A side)")
    ap.add_argument("games", nargs="*", help="rulebook stems (default: every one below)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the games per run")
    ap.add_argument("--mode", default="compiled", choices=("compiled", "interpreted"))
    args = ap.parse_intermixed_args()
    sides = {"base": args.base.resolve(), "this": ROOT}
    print(f"{'game':14} {'games':>6} {'base cpu s':>11} {'this cpu s':>11} {'speed this/base':>16}")
    for stem in args.games or list(GAMES):
        n = max(1, int(GAMES[stem] * args.scale))
        times: dict[str, list[float]] = {"base": [], "this": []}
        moves: dict[str, int] = {}
        for _ in range(args.rounds):
            for side, checkout in sides.items():  # alternately, so drifts hit both
                cpu, moves[side] = measure(checkout, checkout / "rulebooks" / f"{stem}.rule",
                                           n, args.mode)
                times[side].append(cpu)
        base, this = statistics.median(times["base"]), statistics.median(times["this"])
        same = "" if moves["base"] == moves["this"] else f"  (moves differ: {moves})"
        print(f"{stem:14} {n:>6} {base:>11.3f} {this:>11.3f} {base / this:>15.2f}x{same}")
    print("this/base > 1: this checkout is faster (CPU time, median of the rounds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
