"""Load time of every bundled rulebook, CPU time, each figure in a fresh process:
`import rulelang`; a cold `load_game` with no cache at all (RULELANG_NO_CACHE=1); a cold
`load_game` in a new process whose private cache folder is filled (the usual case after the
first run); and a warm `load_game` (the same process again, the mean of 5).

    python bench/load_time.py [names...]
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["tic_tac_toe", "connect_four", "hex", "breakthrough", "spline", "sponnect",
         "spline_plus", "muso_sakura", "tatara", "karesansui"]
PROBE = """
import json, sys, time
cpu = time.process_time
t0 = cpu(); import rulelang; t1 = cpu()
rulelang.load_game(sys.argv[1]); t2 = cpu()
for _ in range(5): rulelang.load_game(sys.argv[1])
t3 = cpu()
print(json.dumps([t1 - t0, t2 - t1, (t3 - t2) / 5]))
"""


def probe(name: str, env: dict[str, str]) -> list[float]:
    out = subprocess.run([sys.executable, "-c", PROBE, name], capture_output=True, text=True,
                         check=True, cwd=ROOT, env=env)
    return [1000 * x for x in json.loads(out.stdout)]


def main() -> None:
    names = sys.argv[1:] or GAMES
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": home}
        print(f"{'rulebook':14} {'import':>7} {'no cache':>9} {'cold':>7} {'warm':>7}   (ms CPU)")
        for name in names:
            uncached = probe(name, {**env, "RULELANG_NO_CACHE": "1"})
            probe(name, env)  # fills the cache folder
            imported, cold, warm = probe(name, env)
            print(f"{name:14} {imported:7.0f} {uncached[1]:9.0f} {cold:7.0f} {warm:7.1f}")


if __name__ == "__main__":
    main()
