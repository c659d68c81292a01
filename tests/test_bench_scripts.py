"""The bench/ scripts are not run by the suite (they print figures, for minutes), so a change
elsewhere can break one unseen: each is loaded here as a module (its imports and top-level
definitions run, its main does not), in a fresh interpreter as `python bench/x.py` would be."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "bench").glob("*.py"))

LOAD_ALL = """
import json, runpy, sys, traceback
failed = {}
for path in sys.argv[1:]:
    saved = list(sys.path)
    sys.path.insert(0, path.rsplit("/", 1)[0])  # (as `python bench/x.py` puts it first)
    try:
        runpy.run_path(path, run_name="bench_script")
    except BaseException:
        failed[path] = traceback.format_exc(limit=-3)
    finally:
        sys.path[:] = saved
print(json.dumps(failed))
"""


def test_every_bench_script_loads() -> None:
    assert len(SCRIPTS) > 10
    done = subprocess.run([sys.executable, "-c", LOAD_ALL, *map(str, SCRIPTS)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=True)
    failed = json.loads(done.stdout.strip().splitlines()[-1])
    assert not failed, "\n".join(f"{p}:\n{t}" for p, t in failed.items())
