"""The worst cases of loading untrusted input, each near or over a limit of rulelang/limits.py:
the wall time of the load (after a first load of tic-tac-toe has built the grammar) and the
peak memory of the process, in a fresh process each, and the first line of the diagnostic
(or "loads"). Prints a table and exits 0; this is not a test.

    python bench/load_limits.py
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASE = (ROOT / "rulebooks" / "tic_tac_toe.rule").read_text(encoding="utf-8")
ZONE = "zone supply each player: 5 mark"
BOARD = "square.grid(3, 3, 3)"
LAUGHS = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
    f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join(["*" + chr(96 + i)] * 9) + "]\n"
    for i in range(1, 10))
_CHILD = """
import json, resource, sys, time
import rulelang
from rulelang.errors import RulelangError
rulelang.load_game("tic_tac_toe")  # the grammar is built once per process: not counted
start = time.perf_counter()
try:
    rulelang.load_game(sys.argv[1])
    result = "loads"
except RulelangError as exc:
    result = exc.render().splitlines()[0]
print(json.dumps([time.perf_counter() - start, result,
                  resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024]))
"""


def with_data(rows: str) -> tuple[str, str]:
    return (BASE.replace(ZONE, 'piece card with name = "", points = 0, tags = []\n'
                         f'zone deck: card from "cards.yaml"\n{ZONE}'), rows)


def cases() -> dict[str, tuple[str, str | None]]:
    defs = "".join(f"def d{i}(x) = x + {i} * 2 - (x if x > {i} else {i})\n" for i in range(1750))
    return {
        "square.grid(3000, 3000, 0)": (BASE.replace(BOARD, "square.grid(3000, 3000, 0)"), None),
        "a 98 KB rulebook, 200 syntax errors at its end":
            (BASE + defs + "".join(f"def e{i} = = )\n" for i in range(200)), None),
        "a 230 KB rulebook": (BASE + defs + "#" * 130_000 + "\n", None),
        "180 nested expressions": (BASE + "def deep = " + "-" * 180 + "1\n", None),
        "billion laughs data file (900 bytes)": with_data(LAUGHS),
        "5,000 data rows (the most allowed)": with_data("".join(
            f"- {{name: card{i}, points: {i % 13}, tags: [a, b]}}\n" for i in range(5000))),
        "100,000 data rows (5 MB)": with_data("".join(
            f"- {{name: card{i}, points: {i % 13}, tags: [a, b, c{i % 7}]}}\n"
            for i in range(100_000))),
        "option range to 9999999999999999999":
            (BASE.replace("# Components", "option n: 1..9999999999999999999 = 3\n# Components"),
             None),
    }


def main() -> int:
    print(f"{'case':52} {'seconds':>8} {'MB':>6}  result")
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, data) in cases().items():
            book = Path(tmp) / "book.rule"
            book.write_text(text, encoding="utf-8")
            if data is not None:
                (Path(tmp) / "cards.yaml").write_text(data, encoding="utf-8")
            out = subprocess.run([sys.executable, "-c", _CHILD, str(book)], cwd=ROOT,
                                 capture_output=True, text=True, timeout=600)
            seconds, result, mb = json.loads(out.stdout.strip().splitlines()[-1])
            result = result.replace(str(book), "book.rule").replace(tmp + "/", "")
            print(f"{name:52} {seconds:8.2f} {mb:6.0f}  {result[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
