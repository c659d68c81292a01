"""Per-CPU throughput of `rulelang evaluate` on a process pool: the same games played with
`--jobs 1` and with `--jobs 2` (or --jobs J), alternately, several rounds, in one run. CPU
time is that of every process (this one and its workers: resource.getrusage SELF +
CHILDREN, user + system; a pool's workers are counted once they have exited, which they have
when a run returns), so the workers' start is counted too. Prints games per CPU second of
each and their ratio (1.00: the pool costs nothing; the aim is within 15 %) and the wall
times; the records of every run are checked equal. To tell the pool's cost from the
machine's, `apart` is the same ratio for J plain processes forked side by side, each playing
its share of the games with no pool and no records sent back: on a machine whose cores slow
each other down (shared caches, a host's other guests) it is below 1 by itself. Every run
starts from the content cache the game had once loaded (the values of `cached`/`memo` rules
by content, which its states share; a forked worker inherits this process's): else a run
would find the values of the same games an earlier run met, as no real run does.
`--start fork|forkserver|spawn` picks how workers start (default: as `rulelang evaluate`
does). Exits 0; not a test.

    python bench/evaluate_jobs.py                     # a few bundled games
    python bench/evaluate_jobs.py spline --games 2000 --jobs 2 --rounds 3
"""
from __future__ import annotations

import argparse
import multiprocessing
import multiprocessing.forkserver
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulelang.tools.evidence import playout  # noqa: E402
from rulelang.tools.evidence.evaluate import evaluate  # noqa: E402
from rulelang.tools.evidence.playout import Setup  # noqa: E402

# about a CPU second of play each with --jobs 1, so that a pool's start (forking, each worker's
# first games on cold caches: about 0.1 CPU second) is a small part of the run, as it is of
# an evaluation a designer waits for
GAMES = {"tic_tac_toe": 6000, "spline": 5000, "muso_sakura": 120, "karesansui": 60}


def cpu() -> float:
    """CPU seconds of this process and of its children that have exited."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(setup: Setup, games: int, jobs: int) -> tuple[float, float, list[object]]:
    """(CPU seconds, wall seconds, records) of one run. The pool's workers are forked from a
    fork server (where the system has one), which outlives the run: it is stopped here, so
    that its time and its workers' (it waits for them) are counted too, as a new run
    starts one again."""
    c, w = cpu(), time.perf_counter()
    records = evaluate(setup, games, jobs)
    if jobs > 1 and playout._context().get_start_method() == "forkserver":
        multiprocessing.forkserver._forkserver._stop()  # type: ignore[attr-defined]
    return cpu() - c, time.perf_counter() - w, records  # type: ignore[return-value]


def apart(setup: Setup, games: int, jobs: int) -> float:
    """CPU seconds of `jobs` processes forked at once, each playing every jobs-th game."""
    context = multiprocessing.get_context("fork")
    start = cpu()
    procs = [context.Process(target=playout.play_chunk, args=(setup, list(range(k, games, jobs))))
             for k in range(jobs)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return cpu() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(GAMES))
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=2, help="the pool's size (default 2)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--start", choices=("fork", "forkserver", "spawn"))
    args = ap.parse_args()
    if args.start:
        chosen = multiprocessing.get_context(args.start)
        if args.start == "forkserver":
            chosen.set_forkserver_preload([playout.__name__])
        playout._context = lambda: chosen  # type: ignore[assignment]
    print(f"workers started with {playout._context().get_start_method()!r}")
    print(f"{'game':<13}{'games':>6}{'cpu j1 s':>10}{f'cpu j{args.jobs} s':>10}"
          f"{'games/cpu-s j1':>16}{f'j{args.jobs}':>8}{'ratio':>7}{'wall j1':>9}"
          f"{f'wall j{args.jobs}':>9}{'apart':>7}")
    for name in args.names:
        n = args.games or GAMES.get(name, 200)
        setup = Setup(str(ROOT / "rulebooks" / f"{name}.rule"), (), ("random",), 0, 2000)
        runtime = setup.game().runtime  # loaded once, as `rulelang evaluate` does first
        loaded = runtime.content_cache
        runs: dict[int, list[tuple[float, float]]] = {1: [], args.jobs: []}
        side_by_side: list[float] = []
        first = None
        for _ in range(args.rounds):
            runtime.content_cache = None if loaded is None else dict(loaded)
            side_by_side.append(apart(setup, n, args.jobs))
            for jobs in (1, args.jobs):
                runtime.content_cache = None if loaded is None else dict(loaded)
                c, w, records = measure(setup, n, jobs)
                runs[jobs].append((c, w))
                if first is None:
                    first = records
                assert records == first, "the records differ between --jobs"
        c1, w1 = min(runs[1])
        cj, wj = min(runs[args.jobs])
        print(f"{name:<13}{n:>6}{c1:>10.2f}{cj:>10.2f}{n / c1:>16.0f}{n / cj:>8.0f}"
              f"{c1 / cj:>7.2f}{w1:>9.2f}{wj:>9.2f}{c1 / min(side_by_side):>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
