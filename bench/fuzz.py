"""The mutation fuzzer over every bundled rulebook, standard-library module and data file
(tests/fuzz/): N seeded cases, each loaded, checked and, if it loads, played for a few random
plies in each mode (the interpreter, the game's generated module) under a time limit.
Prints the number of cases per outcome class (ok, diagnostic, crash, hang, memory, outside
read), the distinct problems (outcome, exception type and innermost project frame, with an
example seed and its mutation) and the cases the modes ended differently; exits 0, this is
not a test (tests/fuzz/test_fuzz.py runs a short budget in the suite).

    python bench/fuzz.py --cases 2000 --seed 0
    python bench/fuzz.py --seconds 600 --seed 0           # as many cases as 10 minutes allow
    python bench/fuzz.py --cases 1 --seed 1234 --show      # one case: its mutation and result
    python bench/fuzz.py --shapes                          # the shapes of issue 50, each once
"""
from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # (as pytest imports it: some packages, shibumi's
# among them, install a top-level `tests` of their own, which `tests.fuzz` would then miss)

from fuzz.mutate import shape_cases  # noqa: E402
from fuzz.runner import run, run_cases, table  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=None, help="cases to run (500 without "
                    "--seconds; with it, at most this many)")
    ap.add_argument("--seed", type=int, default=0, help="the first case's seed")
    ap.add_argument("--limit", type=float, default=5.0, help="CPU seconds per case")
    ap.add_argument("--plies", type=int, default=6, help="random plies per mode")
    ap.add_argument("--show", action="store_true", help="print every case's result")
    ap.add_argument("--quick", action="store_true", help="small large mutations (the suite's)")
    ap.add_argument("--seconds", type=float, default=None,
                    help="run cases from --seed on until this much wall time has passed")
    ap.add_argument("--shapes", action="store_true",
                    help="the pinned cases of the shapes that once hung or overflowed")
    args = ap.parse_args()
    start = time.monotonic()
    done = [0]

    def seeds() -> Iterator[int]:
        cases = args.cases if args.cases is not None or args.seconds is not None else 500
        for seed in itertools.count(args.seed):
            if cases is not None and seed >= args.seed + cases:
                return
            if args.seconds is not None and time.monotonic() - start > args.seconds:
                return
            yield seed

    def progress(o: object) -> None:
        done[0] += 1
        if args.show:
            print(f"{o.seconds:5.2f}s", o.case.seed, o.case.target,  # type: ignore[attr-defined]
                  o.case.mutation, o.result)  # type: ignore[attr-defined]
        elif done[0] % 200 == 0:
            print(f"  {done[0]} cases, {time.monotonic() - start:.0f} s", file=sys.stderr,
                  flush=True)

    if args.shapes:
        outcomes = run_cases(shape_cases(), limit=args.limit, plies=args.plies,
                             progress=progress)
    else:
        outcomes = run(seeds(), limit=args.limit, plies=args.plies, progress=progress,
                       quick=args.quick)
    first = "the shapes" if args.shapes else f"seed {args.seed}"
    print(f"{len(outcomes)} cases from {first}, limit {args.limit} CPU s, "
          f"{args.plies} plies per mode, {time.monotonic() - start:.0f} s wall")
    print(table(outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
