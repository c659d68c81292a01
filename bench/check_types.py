"""What the type pass costs `rulelang check`: for each rulebook given (default: every bundled
one), the whole check of an already loaded rulebook and, of that, the type pass
(rulelang.language.typestmt.check_types), each the fastest of N runs. Prints a table; this is
not a test.

    python bench/check_types.py                       # every rulebook, 60 runs
    python bench/check_types.py rulebooks/karesansui.rule --runs 200
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulelang import is_library  # noqa: E402
from rulelang.language import checker  # noqa: E402
from rulelang.language.loader import load  # noqa: E402


def measure(path: Path, runs: int) -> tuple[float, float]:
    loaded = load(path)
    library = is_library(path)
    real = checker.check_types
    spent: list[float] = []

    def timed(*args: Any) -> None:
        t = time.perf_counter()
        real(*args)
        spent.append(time.perf_counter() - t)

    checker.check_types = timed
    total = []
    try:
        for _ in range(runs):
            t = time.perf_counter()
            checker.check(loaded, library=library)
            total.append(time.perf_counter() - t)
    finally:
        checker.check_types = real
    return min(total), min(spent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", type=Path)
    parser.add_argument("--runs", type=int, default=60)
    args = parser.parse_args()
    paths = args.paths or sorted((ROOT / "rulebooks").glob("*.rule"))
    print(f"{'rulebook':32} {'check ms':>9} {'types ms':>9}")
    for path in paths:
        whole, types = measure(path, args.runs)
        print(f"{path.name:32} {whole * 1000:9.2f} {types * 1000:9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
