"""What `rulelang evaluate`'s bookkeeping costs over bare playouts: the same seeded games
(random agents) played by a bare loop and by what evaluate's workers run (play_chunk:
play_one for each game, which also samples scores for lead changes and, once the game is
over, reads from its history each action's string, the option counts, the movers and the
values each choose took, and writes the record), in one process; and, to tell the two
apart, the bare loop plus only the looks at the scores (`looks`: the rulebook's scoring, in
games with score terms). Exits 0; not a test. `--jobs` throughput: bench/evaluate_jobs.py.

The machine it runs on may be noisy (other processes, frequency changes), so the three are
measured in many short alternations rather than a few long runs: batch i (--games games,
by default as many as make about --batch CPU seconds of bare playouts) is played bare, with
looks and by play_chunk, the same seeds each time, the order of the three turned each batch;
there are --rounds batches, batch i playing games i*n .. i*n+n-1. Each of the three keeps
its own content cache (the values of `cached`/`memo` rules by content, which a game's
states share): with one for all, the second to play a batch would find the values of the
same games, met by the first, which no real run does. Printed per game: the
median of the per-batch ratios (evaluate / bare, looks / bare) with a distribution-free 95 %
interval for that median (order statistics: ranks j and n+1-j of the n sorted ratios, j the
largest with P(Binomial(n, 1/2) < j) <= 2.5 %), and the ratio of the totals. The aim: an
evaluate / bare median of at most 1.10.

    python bench/evaluate_cost.py                    # a few bundled games
    python bench/evaluate_cost.py spline --rounds 60 --batch 0.2
    python bench/evaluate_cost.py tic_tac_toe --games 500
"""
from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulelang.agents import make_agent  # noqa: E402
from rulelang.tools.evidence.playout import Setup, _lead_changes, game_seed, play_chunk  # noqa: E402

NAMES = ["tic_tac_toe", "spline", "muso_sakura", "karesansui", "tatara"]


def bare(setup: Setup, low: int, n: int) -> None:
    game = setup.game()
    for i in range(low, low + n):
        seed = game_seed(setup.seed, i)
        agents = [make_agent("random", seed + k + 1) for k in range(game.num_players)]
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))


def looked(setup: Setup, low: int, n: int) -> None:
    """The bare loop plus evaluate's looks at the scores (for lead changes), nothing else."""
    game = setup.game()
    rounds, players = game.runtime.program.round is not None, game.num_players
    for i in range(low, low + n):
        seed = game_seed(setup.seed, i)
        agents = [make_agent("random", seed + k + 1) for k in range(game.num_players)]
        state = game.new_initial_state(seed=seed)
        if game.runtime.program.scores:  # (plays the game out)
            _lead_changes(state, agents, rounds, players)
        else:
            while not state.is_terminal():
                state.apply_action(agents[state.current_player()].choose(state))


def booked(setup: Setup, low: int, n: int) -> None:
    """What evaluate's workers run: play_chunk (play_one for each game, the game and its
    memo looked up once)."""
    play_chunk(setup, list(range(low, low + n)))


def median_interval(xs: list[float]) -> tuple[float, float, float]:
    """The median of xs and a distribution-free interval holding the true median with
    probability at least 95 % (ranks j and n+1-j of the sorted values)."""
    s, n = sorted(xs), len(xs)
    j, below = 0, 0.0  # below: P(Binomial(n, 1/2) < j + 1)
    while True:
        below_next = below + math.comb(n, j) / 2 ** n
        if below_next > 0.025:
            break
        below, j = below_next, j + 1
    if j == 0:  # too few batches for a 95 % interval: the whole range
        return statistics.median(s), s[0], s[-1]
    return statistics.median(s), s[j - 1], s[n - j]


def calibrate(setup: Setup, seconds: float) -> int:
    """As many games as take about `seconds` of CPU in the bare loop (after a warm-up)."""
    n = 1
    while True:
        start = time.process_time()
        bare(setup, 10_000_000, n)
        took = time.process_time() - start
        if took >= seconds / 4 or n >= 1_000_000:
            return max(1, round(n * seconds / max(took, 1e-9)))
        n *= 2


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=NAMES)
    ap.add_argument("--games", type=int, default=None,
                    help="games per batch (default: about --batch CPU seconds of bare play)")
    ap.add_argument("--rounds", type=int, default=40, help="paired batches")
    ap.add_argument("--batch", type=float, default=0.1, help="CPU seconds of a bare batch")
    args = ap.parse_args()
    print(f"{'game':<14}{'games':>7}{'bare s':>8}  {'looks/bare (95 %)':<22}"
          f"{'evaluate/bare (95 %)':<22}{'totals':>7}")
    runs = (("bare", bare), ("looks", looked), ("evaluate", booked))
    for name in args.names:
        setup = Setup(str(ROOT / "rulebooks" / f"{name}.rule"), (), ("random",), 0, 2000,
                      "compiled")
        booked(setup, 20_000_000, 3)  # warm-up: load, fill the memos
        n = args.games or calibrate(setup, args.batch)
        runtime = setup.game().runtime
        shared = runtime.content_cache
        caches = {label: None if shared is None else dict(shared) for label, _ in runs}
        times: dict[str, list[float]] = {label: [] for label, _ in runs}
        for r in range(args.rounds):
            order = runs[r % 3:] + runs[:r % 3]
            for label, run in order if r % 2 == 0 else order[::-1]:
                runtime.content_cache = caches[label]
                gc.collect()
                start = time.process_time()
                run(setup, r * n, n)
                times[label].append(time.process_time() - start)
        runtime.content_cache = shared
        b, lk, e = times["bare"], times["looks"], times["evaluate"]
        lm, llo, lhi = median_interval([x / y for x, y in zip(lk, b, strict=True)])
        em, elo, ehi = median_interval([x / y for x, y in zip(e, b, strict=True)])
        print(f"{name:<14}{n:>7}{sum(b):>8.2f}  {f'{lm:.3f} [{llo:.3f}, {lhi:.3f}]':<22}"
              f"{f'{em:.3f} [{elo:.3f}, {ehi:.3f}]':<22}{sum(e) / sum(b):>7.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
