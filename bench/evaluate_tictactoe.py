"""`rulelang evaluate` on uniform random tic-tac-toe: the reported 95 % intervals next to the
exact values (first player 737/1260, second 363/1260, draw 160/1260), and the throughput with
--jobs 1 and --jobs 2 (games/s, and the CPU seconds of this process and of its workers), next
to bare playouts (the same games with no bookkeeping).  Prints figures; this is not a test.

    python bench/evaluate_tictactoe.py               # 20,000 games
    python bench/evaluate_tictactoe.py --games 5000
"""
from __future__ import annotations

import argparse
import random
import resource
import time
from fractions import Fraction

from rulelang.tools.common import load
from rulelang.tools.evidence.evaluate import evaluate, report
from rulelang.tools.evidence.playout import Setup, game_seed

EXACT = {"first player": Fraction(737, 1260), "second player": Fraction(363, 1260),
         "draw": Fraction(160, 1260)}


def _cpu() -> float:
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(
        resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def bare(games: int) -> float:
    """Seconds for the same number of bare random playouts in this process."""
    game = load("tic_tac_toe")
    start = time.perf_counter()
    for i in range(games):
        seed = game_seed(0, i)
        state, rng = game.new_initial_state(seed=seed), random.Random(seed + 1)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000)
    games = ap.parse_args().games
    setup = Setup("tic_tac_toe", (), ("random",), 0, 100)
    for jobs in (1, 2):
        wall, cpu = time.perf_counter(), _cpu()
        records = evaluate(setup, games, jobs)
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        print(f"--jobs {jobs}: {games / wall:.0f} games/s, {wall:.1f} s wall, {cpu:.1f} s CPU "
              f"(all processes), {games / cpu:.0f} games per CPU second")
    s = report(setup, load("tic_tac_toe"), records)["summary"]
    figures = {"first player": s["seats"][0]["wins"], "second player": s["seats"][1]["wins"],
               "draw": s["draws"]}
    for name, exact in EXACT.items():
        f = figures[name]
        inside = "inside" if f["low"] <= exact <= f["high"] else "OUTSIDE"
        print(f"{name:<14} {f['rate']:.4f} [{f['low']:.4f}, {f['high']:.4f}]  exact "
              f"{float(exact):.4f}: {inside}")
    seconds = bare(games)
    print(f"bare playouts: {games / seconds:.0f} games/s in this process")


if __name__ == "__main__":
    main()
