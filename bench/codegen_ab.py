"""The code generator (rulelang/fast/codegen.py) against the closures it replaces, in CPU time:
random playouts and scoring, each measurement a fresh process running one of the two fast
evaluators ("closures": Compiler(generate=False); "generated": Compiler(generate=True)), the
two run alternately for several rounds, the median per side compared. Prints a table; this
is not a test.

    python bench/codegen_ab.py                         # tic_tac_toe muso_sakura karesansui
    python bench/codegen_ab.py --rounds 7 hex tatara
    python bench/codegen_ab.py --calls                 # Python calls per playout instead
    python bench/codegen_ab.py --warm                  # every expression compiled first

CPU times on a shared machine vary by tens of percent from one process to the next; `--calls`
counts the Python function calls of the same playouts (cProfile), which do not vary.

Scoring: `state.scores()` of saved positions of random games (every 3rd ply of 20 games),
each position scored from a fresh copy of its data (a new Ctx, the game's content cache
emptied), so that what is kept from one scoring does not serve the next.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # (--calls imports this checkout)
GAMES = {"tic_tac_toe": 4000, "connect_four": 1500, "hex": 200, "breakthrough": 100,
         "spline": 2000, "sponnect": 1500, "spline_plus": 40, "muso_sakura": 80,
         "karesansui": 40, "tatara": 12}
_CHILD = """
import functools, json, random, sys, time
sys.path.insert(0, sys.argv[1])
import rulelang
from rulelang.fast.compiler import Compiler
from rulelang.fast.flow import FastFlow
from rulelang.library.semantics import Ctx
mode = sys.argv[4]
rulelang.EVALUATORS[mode] = (functools.partial(Compiler, generate=mode == "generated"),
                             FastFlow)
game = rulelang.load_game(sys.argv[2], mode=mode)
n, moves = int(sys.argv[3]), 0
for seed in range(n if sys.argv[5] == "warm" else 0):  # every expression compiled first
    rng, state = random.Random(seed), game.new_initial_state(seed=seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
start = time.process_time()
for seed in range(n):
    rng, state = random.Random(seed), game.new_initial_state(seed=seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        moves += 1
play = time.process_time() - start
saved = []
for seed in range(20):
    rng, state = random.Random(seed), game.new_initial_state(seed=seed)
    ply = 0
    while not state.is_terminal():
        if ply % 3 == 0:
            saved.append(state.clone())
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        ply += 1
rt = game.runtime
start = time.process_time()
for _ in range(3):
    for s in saved:
        if rt.content_cache is not None:
            rt.content_cache.clear()
        s.ctx = Ctx(rt, s.ctx.data.copy())
        s.scores()
score = time.process_time() - start
print(json.dumps({"play": play, "moves": moves, "score": score, "scored": 3 * len(saved)}))
"""


def measure(game: str, n: int, mode: str, warm: bool) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(ROOT), game, str(n), mode,
                          "warm" if warm else "cold"],
                         capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def calls(game: str, n: int) -> None:
    """The Python function calls of n seeded playouts in each mode (one process)."""
    import cProfile
    import functools
    import pstats
    import random

    import rulelang
    from rulelang.fast.compiler import Compiler
    from rulelang.fast.flow import FastFlow
    counts = []
    for mode in ("closures", "generated"):
        rulelang.EVALUATORS[mode] = (
            functools.partial(Compiler, generate=mode == "generated"), FastFlow)
        played = rulelang.load_game(game, mode=mode)
        profile = cProfile.Profile()
        profile.enable()
        for seed in range(n):
            rng, state = random.Random(seed), played.new_initial_state(seed=seed)
            while not state.is_terminal():
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
        profile.disable()
        counts.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
    print(f"{game:14} {'calls':8} {counts[0]:10} {counts[1]:11} "
          f"{counts[0] / counts[1]:17.2f}x   ({n} games)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=["tic_tac_toe", "muso_sakura", "karesansui"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--calls", action="store_true",
                    help="count Python function calls (cProfile) instead of CPU time")
    ap.add_argument("--warm", action="store_true",
                    help="play the games once before timing them: the expressions are then "
                    "all compiled (generated code costs more to make than closures)")
    args = ap.parse_args()
    unit = "" if args.calls else " s"
    print(f"{'game':14} {'what':8} {'closures' + unit:>10} {'generated' + unit:>11} "
          f"{'closures/generated':>18}")
    for game in args.games:
        n = max(1, int(GAMES.get(game, 50) * args.scale))
        if args.calls:
            calls(game, max(1, n // 8))
            continue
        runs: dict[str, list[dict[str, float]]] = {"closures": [], "generated": []}
        for _ in range(args.rounds):
            for mode in runs:
                runs[mode].append(measure(game, n, mode, args.warm))
        for what, label in (("play", f"{n} games"), ("score", "scores")):
            a = statistics.median(r[what] for r in runs["closures"])
            b = statistics.median(r[what] for r in runs["generated"])
            print(f"{game:14} {what:8} {a:10.3f} {b:11.3f} {a / b:17.2f}x   ({label})")
    print("closures/generated > 1: the generated code is faster (" + (
        "fewer Python calls)" if args.calls else "CPU time, median of rounds)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
