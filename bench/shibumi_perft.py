"""Perft of the Shibumi rulebooks (Spline, Sponnect, Spline+) at the full depth in both engine
modes, every node compared with the independent reference of tests/reference/ (the suite walks
the reference evaluator one level less). Prints the counts and times; exits 1 on a mismatch.

    python bench/shibumi_perft.py
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT)]

from reference.shibumi_ref import ShibumiRef  # noqa: E402
from test_shibumi_perft import PERFT_DEPTH, REFERENCE_PERFT, engine_perft, load  # noqa: E402


def main() -> int:
    expected = {(g, d): n for g, d, n in REFERENCE_PERFT}
    failed = 0
    for name, depth in sorted(PERFT_DEPTH.items()):
        for mode in ("compiled", "interpreted"):
            start = time.process_time()
            count = engine_perft(load(name, mode).new_initial_state(), ShibumiRef(name),
                                 depth, [])
            ok = count == expected[(name, depth)]
            failed += not ok
            print(f"{name:12} depth {depth} {mode:11} {count:>7} leaves "
                  f"{time.process_time() - start:6.1f} s CPU  {'ok' if ok else 'MISMATCH'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
