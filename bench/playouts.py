"""Random playouts per second for every bundled rulebook, in both engine modes, next to Spline
from the PyPI package `shibumi` 0.5.0 (pure Python, numpy boards) driven the same way; plus the
time of load_game, cold (first load in a fresh interpreter) and warm (second load, same process).
For the classic games (tic-tac-toe, Connect Four, Hex 11x11, Breakthrough 8x8) it also times
OpenSpiel 2.0.2's C++ games driven from the same kind of Python loop, and for tic-tac-toe
OpenSpiel's pure-Python `python_tic_tac_toe`, and prints rulelang's compiled rate as a ratio
of theirs next to the targets; without `pyspiel` (pip install open-spiel==2.0.2) that part is
skipped with a hint.

A playout starts at new_initial_state(seed) and applies uniformly random legal actions
(random.Random(seed)) until the state is terminal. Timing uses time.perf_counter, either for
--games playouts or for at least --seconds. Prints figures and exits 0; this is not a test.

    python bench/playouts.py                      # every rulebook, both modes, ~3 s each
    python bench/playouts.py --seconds 1 --mode compiled
    python bench/playouts.py --games 200 rulebooks/spline.rule
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402

MODES = ("compiled", "interpreted")
SHIBUMI_HINT = "pip install shibumi==0.5.0"
OPENSPIEL_HINT = "pip install open-spiel==2.0.2 (or pip install -e '.[test]')"
# rulebook stem -> (pyspiel game, parameters matching the rulebook's default options)
OPENSPIEL_GAMES: dict[str, tuple[str, dict[str, int]]] = {
    "tic_tac_toe": ("tic_tac_toe", {}),
    "connect_four": ("connect_four", {}),
    "hex": ("hex", {"board_size": 11}),
    "breakthrough": ("breakthrough", {"rows": 8, "columns": 8}),
}
# (rulebook stem, OpenSpiel engine) -> least rulelang compiled / OpenSpiel playouts per second
TARGETS = {("tic_tac_toe", "OpenSpiel Python"): 2.0, ("hex", "OpenSpiel C++"): 0.5,
           ("breakthrough", "OpenSpiel C++"): 0.3}
WARM_TARGET_MS = 100.0
Playout = Callable[[int], int]  # seed -> number of moves played


def rulelang_playout(game: rulelang.Game) -> Playout:
    def playout(seed: int) -> int:
        rng, state, moves = random.Random(seed), game.new_initial_state(seed=seed), 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            moves += 1
        return moves
    return playout


def shibumi_playout() -> Playout | None:
    """Spline from `shibumi`: get_valid_moves() (a bool array), make_move() (a new state),
    is_ended(). None when the package is missing."""
    try:
        import numpy as np
        from shibumi.spline.game import SplineState
    except ImportError:
        return None

    def playout(seed: int) -> int:
        rng, state, moves = random.Random(seed), SplineState(), 0
        while not state.is_ended():
            legal = np.flatnonzero(state.get_valid_moves())
            state = state.make_move(int(legal[rng.randrange(len(legal))]))
            moves += 1
        return moves
    return playout


def openspiel_playout(game: Any) -> Playout:
    """A pyspiel game driven from Python: new_initial_state, then random legal actions."""
    def playout(seed: int) -> int:
        rng, state, moves = random.Random(seed), game.new_initial_state(), 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        return moves
    return playout


def openspiel_engines(stem: str) -> list[tuple[str, Playout]] | None:
    """[(engine, playout)] for a classic rulebook: OpenSpiel's C++ game and, for
    tic-tac-toe, its pure-Python one. None when pyspiel is missing."""
    try:
        import pyspiel
    except ImportError:
        return None
    name, params = OPENSPIEL_GAMES[stem]
    engines = [("OpenSpiel C++", openspiel_playout(pyspiel.load_game(name, params)))]
    if stem == "tic_tac_toe":
        import open_spiel.python.games  # noqa: F401  (registers python_tic_tac_toe)
        engines.append(("OpenSpiel Python",
                        openspiel_playout(pyspiel.load_game("python_tic_tac_toe"))))
    return engines


def compare_openspiel(paths: list[Path], rates: dict[tuple[str, str], float],
                      seconds: float, games: int | None) -> None:
    """rulelang compiled against OpenSpiel for the classic games among `paths`."""
    stems = [p.stem for p in paths if p.stem in OPENSPIEL_GAMES]
    if not stems:
        return
    print("\nOpenSpiel 2.0.2 driven from Python (state.apply_action(rng.choice("
          "state.legal_actions())) until terminal) against rulelang compiled")
    print(f"{'game':<22} {'engine':<17} {'games':>7} {'moves':>7} {'playouts/s':>11} "
          f"{'rulelang/s':>11} {'ratio':>7}  target")
    for stem in stems:
        engines = openspiel_engines(stem)
        if engines is None:
            print(f"OpenSpiel              not installed: {OPENSPIEL_HINT}")
            return
        if (stem, "compiled") not in rates:
            game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", mode="compiled")
            rates[(stem, "compiled")] = measure(rulelang_playout(game), seconds, games)["per_s"]
        ours = rates[(stem, "compiled")]
        for engine, playout in engines:
            r = measure(playout, seconds, games)
            ratio, target = ours / r["per_s"], TARGETS.get((stem, engine))
            verdict = "" if target is None else (
                f">= {target:g}x {'met' if ratio >= target else 'MISSED'}")
            print(f"{stem:<22} {engine:<17} {r['games']:>7.0f} {r['moves'] / r['games']:>7.1f} "
                  f"{r['per_s']:>11.1f} {ours:>11.1f} {ratio:>7.2f}  {verdict}", flush=True)


def measure(playout: Playout, seconds: float, games: int | None) -> dict[str, float]:
    """Playouts until `games` are done, or until at least `seconds` have passed."""
    n = moves = 0
    start = time.perf_counter()
    while True:
        moves += playout(n)
        n += 1
        elapsed = time.perf_counter() - start
        if (games is not None and n >= games) or (games is None and elapsed >= seconds):
            break
    return {"games": n, "moves": moves, "seconds": elapsed, "per_s": n / elapsed,
            "moves_per_s": moves / elapsed}


_COLD = """
import json, sys, time
t0 = time.process_time()
import rulelang
t1 = time.process_time()
rulelang.load_game(sys.argv[1], mode=sys.argv[2])
t2 = time.process_time()
rulelang.load_game(sys.argv[1], mode=sys.argv[2])
t3 = time.process_time()
print(json.dumps({"import": t1 - t0, "cold": t2 - t1, "warm": t3 - t2}))
"""


def load_times(path: Path, mode: str, home: str | None = None) -> dict[str, float]:
    """import rulelang, first load_game and second load_game, in a fresh interpreter (with
    `home`: that folder for the caches, XDG_CACHE_HOME)."""
    env = {**os.environ, **({} if home is None else {"XDG_CACHE_HOME": home})}
    out = subprocess.run([sys.executable, "-c", _COLD, str(path), mode], cwd=ROOT,
                         capture_output=True, text=True, check=True, env=env)
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def row(name: str, mode: str, r: dict[str, float]) -> str:
    return (f"{name:<22} {mode:<12} {r['games']:>7.0f} {r['moves'] / r['games']:>7.1f} "
            f"{r['seconds']:>7.2f} {r['per_s']:>11.1f} {r['moves_per_s']:>10.0f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rulebooks", nargs="*", type=Path,
                    help="rulebooks to time (default: every file in rulebooks/)")
    ap.add_argument("--seconds", type=float, default=3.0, help="time per line (default 3)")
    ap.add_argument("--games", type=int, default=None, help="play exactly N games instead")
    ap.add_argument("--mode", choices=(*MODES, "both"), default="both")
    args = ap.parse_args(argv)
    paths = args.rulebooks or [p for p in sorted((ROOT / "rulebooks").glob("*.rule"))
                               if not rulelang.is_library(p)]  # games, not their modules
    modes = MODES if args.mode == "both" else (args.mode,)
    budget = f"{args.games} games" if args.games else f">= {args.seconds:g} s"
    print(f"random playouts ({budget} per line), Python {sys.version.split()[0]}")
    print(f"{'game':<22} {'engine':<12} {'games':>7} {'moves':>7} {'time s':>7} "
          f"{'playouts/s':>11} {'moves/s':>10}")
    rates: dict[tuple[str, str], float] = {}
    for path in paths:
        for mode in modes:
            r = measure(rulelang_playout(rulelang.load_game(path, mode=mode)),
                        args.seconds, args.games)
            rates[(path.stem, mode)] = r["per_s"]
            print(row(path.stem, mode, r), flush=True)
    shibumi = shibumi_playout()
    if shibumi is None:
        print(f"shibumi (Spline)       not installed: {SHIBUMI_HINT}")
    else:
        r = measure(shibumi, args.seconds, args.games)
        print(row("shibumi Spline", "shibumi 0.5", r))
        for mode in modes:
            if ("spline", mode) in rates:
                print(f"ratio rulelang/shibumi, Spline, {mode}: "
                      f"{rates[('spline', mode)] / r['per_s']:.2f}")
    compare_openspiel(paths, rates, args.seconds, args.games)
    print("\nload_game time (fresh interpreter): import rulelang, first load (cold), "
          "second load in the same process (warm)")
    print(f"{'game':<22} {'mode':<12} {'import ms':>10} {'cold ms':>10} {'warm ms':>10}")
    warm: dict[str, float] = {}
    for path in paths:
        for mode in modes:
            t = load_times(path, mode)
            warm[f"{path.stem} {mode}"] = t["warm"] * 1e3
            print(f"{path.stem:<22} {mode:<12} {t['import'] * 1e3:>10.1f} "
                  f"{t['cold'] * 1e3:>10.1f} {t['warm'] * 1e3:>10.1f}", flush=True)
    slowest = max(warm, key=warm.__getitem__)
    print(f"load_game warm: slowest {warm[slowest]:.1f} ms ({slowest}), target <= "
          f"{WARM_TARGET_MS:g} ms {'met' if warm[slowest] <= WARM_TARGET_MS else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
