"""A/B of random playouts between two checkouts of rulelang (e.g. this one and the commit
before a change, made with `git worktree add --detach ../base COMMIT`), as ratios of CPU time.

This machine is shared and noisy: the same code in fresh processes varies by 30 % from run to
run, and a slow spell lasts seconds. So each side runs in one long-lived process (it imports
rulelang from its checkout and loads the rulebook once), and the two are asked in turn to play
short batches of the same seeded uniformly random games (batch i: the same seeds on both
sides), many times. Each pair of neighbouring batches gives one ratio base/this (CPU time,
time.process_time, load excluded); drifts slower than a batch hit both sides of a pair alike.
Printed per game: the median of the paired ratios with a distribution-free 95 % interval for
that median (order statistics), and the ratio of the totals. Above 1: this checkout is faster.
Exits 0; this is not a test.

    python bench/ab_playouts.py ../base                 # every game below, 40 pairs each
    python bench/ab_playouts.py ../base --pairs 80 spline tatara
    python bench/ab_playouts.py ../base --opcodes hex   # Python opcodes executed instead
                                                        # (repeatable; ~50x slower; with
                                                        # --play-out, of State.play_out)
    python bench/ab_playouts.py ../base --this-mode generated tatara   # this side generated
    python bench/ab_playouts.py ../base --play-out hex  # games by State.play_out (MCTS's)
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# rulebook stem -> (options, games per batch: about a tenth of a second of CPU, compiled)
GAMES: dict[str, tuple[dict[str, Any], int]] = {
    "tic_tac_toe": ({}, 600), "connect_four": ({}, 250), "hex": ({}, 30),
    "breakthrough": ({}, 16), "spline": ({}, 300), "sponnect": ({}, 250),
    "spline_plus": ({}, 6), "muso_sakura": ({}, 12), "karesansui": ({}, 6),
    "tatara": ({}, 2), "spargo": ({}, 4), "spyramid": ({}, 4)}
_CHILD = """
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
import rulelang
game = rulelang.load_game(sys.argv[2], json.loads(sys.argv[3]) or None, mode=sys.argv[4])

def play(seeds):
    moves = 0
    for seed in seeds:
        rng, state = random.Random(seed), game.new_initial_state(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            moves += 1
    return moves

def play_outs(seeds):
    moves, cpu = 0, 0.0
    for seed in seeds:
        start = time.process_time()
        state = game.new_initial_state(seed=seed)
        state.play_out(random.Random(seed), 10 ** 6)
        cpu += time.process_time() - start
        moves += len(state.history())  # (not timed: the strings are made here)
    return moves, cpu

def opcodes(seeds, how):
    count = [0]
    def trace(frame, event, arg):
        frame.f_trace_opcodes = True
        if event == "opcode":
            count[0] += 1
        return trace
    sys.settrace(trace)
    try:
        moves = play_outs(seeds)[0] if how == "opcodes-playout" else play(seeds)
    finally:
        sys.settrace(None)
    return moves, count[0]

print("ready", flush=True)
for line in sys.stdin:
    low, high, what = line.split()
    seeds = range(int(low), int(high))
    if what.startswith("opcodes"):
        moves, count = opcodes(seeds, what)
        print(json.dumps({"opcodes": count, "moves": moves}), flush=True)
    else:
        start = time.process_time()
        if what == "playout":
            moves, cpu = play_outs(seeds)
        else:
            moves = play(seeds)
            cpu = time.process_time() - start
        print(json.dumps({"cpu": cpu, "moves": moves}), flush=True)
"""


class Side:
    """One checkout's long-lived player process."""

    def __init__(self, checkout: Path, stem: str, options: dict[str, Any], mode: str) -> None:
        rulebook = checkout / "rulebooks" / f"{stem}.rule"
        self.proc = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(checkout), str(rulebook), json.dumps(options),
             mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=checkout)
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise SystemExit(f"{checkout}: the player process did not start")

    def ask(self, low: int, high: int, what: str = "cpu") -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{low} {high} {what}\n")
        self.proc.stdin.flush()
        answer: dict[str, Any] = json.loads(self.proc.stdout.readline())
        return answer

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def median_interval(values: list[float], confidence: float = 0.95) -> tuple[float, float]:
    """A distribution-free interval for the median: the order statistics k and n-1-k, where
    k is the largest with P(Binomial(n, 1/2) < k+1) <= (1 - confidence) / 2."""
    ordered, n = sorted(values), len(values)
    tail, k, cumulative = (1 - confidence) / 2, -1, 0.0
    while True:
        cumulative += math.comb(n, k + 1) / 2 ** n
        if cumulative > tail:
            break
        k += 1
    if k < 0:
        return ordered[0], ordered[-1]
    return ordered[k], ordered[n - 1 - k]


def paired(base: Path, stem: str, pairs: int, scale: float = 1.0, mode: str = "compiled",
           options: dict[str, Any] | None = None, this_mode: str | None = None,
           what: str = "cpu") -> dict[str, Any]:
    """The A/B of one rulebook: the paired ratios' median and its interval, the totals
    (`this_mode`: this checkout's mode, when not `mode`)."""
    default, per_batch = GAMES.get(stem, ({}, 10))
    options = default if options is None else options
    n = max(1, int(per_batch * scale * (8 if what == "playout" else 1)))  # (faster games)
    sides = {"base": Side(base, stem, options, mode),
             "this": Side(ROOT, stem, options, this_mode or mode)}
    try:
        ratios, totals, moves = [], {"base": 0.0, "this": 0.0}, {"base": 0, "this": 0}
        for i in range(pairs):
            low, high = i * n, (i + 1) * n
            # alternate which side goes first, so that neither always follows the other
            order = ("base", "this") if i % 2 == 0 else ("this", "base")
            cpu = {}
            for side in order:
                found = sides[side].ask(low, high, what)
                cpu[side] = found["cpu"]
                totals[side] += found["cpu"]
                moves[side] += found["moves"]
            ratios.append(cpu["base"] / cpu["this"])
    finally:
        for side in sides.values():
            side.close()
    return {"batch": n, "median": statistics.median(ratios),
            "interval": median_interval(ratios), "totals": totals,
            "same_moves": moves["base"] == moves["this"]}


def compare(base: Path, stem: str, pairs: int, scale: float, mode: str,
            this_mode: str | None = None, what: str = "cpu") -> str:
    ab = paired(base, stem, pairs, scale, mode, this_mode=this_mode, what=what)
    (low, high), totals = ab["interval"], ab["totals"]
    same = "" if ab["same_moves"] else "  (the sides made different moves)"
    return (f"{stem:14} {ab['batch']:>5} x{pairs:<4} {totals['base']:>9.2f} "
            f"{totals['this']:>9.2f} {ab['median']:>7.3f} [{low:.3f}, {high:.3f}] "
            f"{totals['base'] / totals['this']:>7.3f}{same}")


def count(base: Path, stem: str, games: int, mode: str, play_out: bool = False) -> str:
    options, _ = GAMES.get(stem, ({}, 10))
    found = {}
    for side, checkout in (("base", base), ("this", ROOT)):
        player = Side(checkout, stem, options, mode)
        try:
            found[side] = player.ask(0, games, "opcodes-playout" if play_out else "opcodes")
        finally:
            player.close()
    b, t = found["base"], found["this"]
    same = "" if b["moves"] == t["moves"] else "  (moves differ)"
    return (f"{stem:14} {games:>5} {b['opcodes']:>14,} {t['opcodes']:>14,} "
            f"{t['opcodes'] / b['opcodes'] - 1:>+8.1%}{same}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", type=Path, help="the other checkout (the A side)")
    ap.add_argument("games", nargs="*", help="rulebook stems (default: every one above)")
    ap.add_argument("--pairs", type=int, default=40, help="pairs of batches per game")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the games per batch")
    ap.add_argument("--mode", default="compiled", choices=("compiled", "interpreted"))
    ap.add_argument("--this-mode", choices=("compiled", "interpreted", "generated"),
                    help="this checkout's mode, when not --mode's (e.g. generated)")
    ap.add_argument("--play-out", action="store_true",
                    help="each game as one State.play_out (a search's playout) instead of "
                         "apply_action(legal_actions()[...]) per move")
    ap.add_argument("--opcodes", action="store_true",
                    help="count the Python opcodes one batch executes on each side instead")
    args = ap.parse_intermixed_args()
    base = args.base.resolve()
    stems = args.games or list(GAMES)
    if args.opcodes:
        print(f"{'game':14} {'games':>5} {'base opcodes':>14} {'this opcodes':>14} "
              f"{'this-base':>8}")
        for stem in stems:
            print(count(base, stem, max(1, int(GAMES.get(stem, ({}, 10))[1] * args.scale)),
                        args.mode, args.play_out), flush=True)
        print("this-base < 0: this checkout executes fewer opcodes")
        return 0
    print(f"{'game':14} {'batch':>5} {'pairs':5} {'base s':>9} {'this s':>9} "
          f"{'median':>7} {'95 % interval':>16} {'totals':>7}")
    for stem in stems:
        print(compare(base, stem, args.pairs, args.scale, args.mode, args.this_mode,
                      "playout" if args.play_out else "cpu"),
              flush=True)
    print("speed base/this per pair of batches (CPU time): above 1, this checkout is faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
