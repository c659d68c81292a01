"""Every speed target of the code-generator issue in one run, CPU time (time.process_time),
each figure next to its target, met or MISSED. Prints a table and exits 0; this is not a test.

* classic games: uniform random playouts per CPU-second of rulelang compiled against OpenSpiel
  2.0.2's C++ games driven from the same kind of Python loop, measured alternately in this
  process (targets: hex 11x11 0.5x, breakthrough 8x8 0.3x, connect four 0.3x, tic-tac-toe 0.3x);
* Spline against the pure-Python package `shibumi` 0.5.0 (target 60x; skipped with a hint when
  it is not installed: pip install shibumi==0.5.0);
* with `--base CHECKOUT` (the commit before the redesign, made with `git worktree add --detach
  ../base-run f50ee51`): Spline+, Tatara (2 players), Karesansui (2) and Muso Sakura (3)
  against it, through bench/ab_playouts.py (targets 5x, 4x, 4x, 4x);
* clone() of a state in the middle of a multi-decision turn against one apply_action (target:
  at most 2x), for the games whose turns hold several decisions;
* one decision of the default MCTS agent (400 playouts) at the start and in the middle of every
  bundled game (target: at most 5 s; `--no-mcts` skips it, it takes minutes);
* load_game cold (fresh interpreter) and warm (again, same process) (targets 150 ms, 20 ms).

    python bench/targets.py --base ../base-run
    python bench/targets.py --no-mcts --seconds 1
    python bench/targets.py --mcts-only spyramid tatara
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ab_playouts import paired  # noqa: E402
from playouts import OPENSPIEL_GAMES, load_times  # noqa: E402

import rulelang  # noqa: E402
from rulelang.agents import make_agent  # noqa: E402
from rulelang.tools.common import bundled  # noqa: E402

CLASSIC = {"tic_tac_toe": 0.3, "connect_four": 0.3, "hex": 0.5, "breakthrough": 0.3}
AGAINST_BASE = {"spline_plus": ({}, 5.0), "tatara": ({"players": 2}, 4.0),
                "karesansui": ({"players": 2}, 4.0), "muso_sakura": ({"players": 3}, 4.0)}
MULTI_DECISION = ("tatara", "karesansui", "muso_sakura")
Playout = Callable[[int], None]


def cpu_rate(playout: Playout, seconds: float) -> float:
    """Playouts per CPU-second, over at least `seconds` of CPU."""
    n, start = 0, time.process_time()
    while True:
        playout(n)
        n += 1
        spent = time.process_time() - start
        if spent >= seconds:
            return n / spent


def alternate(a: Playout, b: Playout, seconds: float, rounds: int = 3) -> tuple[float, float]:
    """The median rates of a and b, measured alternately (drifts hit both)."""
    ra, rb = [], []
    for _ in range(rounds):
        ra.append(cpu_rate(a, seconds / rounds))
        rb.append(cpu_rate(b, seconds / rounds))
    return statistics.median(ra), statistics.median(rb)


def ours(stem: str, options: dict[str, Any] | None = None) -> Playout:
    game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", options, mode="compiled")

    def playout(seed: int) -> None:
        rng, state = random.Random(seed), game.new_initial_state(seed=seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return playout


def verdict(value: float, target: float, at_least: bool = True) -> str:
    met = value >= target if at_least else value <= target
    return f"{'>=' if at_least else '<='} {target:g}  {'met' if met else 'MISSED'}"


def classic(seconds: float) -> None:
    try:
        import pyspiel
    except ImportError:
        print("OpenSpiel not installed: pip install open-spiel==2.0.2")
        return
    print("\nrandom playouts per CPU-second: rulelang compiled / OpenSpiel C++ from Python")
    for stem, target in CLASSIC.items():
        name, params = OPENSPIEL_GAMES[stem]
        spiel = pyspiel.load_game(name, params)

        def theirs(seed: int, spiel: Any = spiel) -> None:
            rng, state = random.Random(seed), spiel.new_initial_state()
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        a, b = alternate(ours(stem), theirs, seconds)
        print(f"  {stem:<14} {a:>9.1f}/s {b:>9.1f}/s  ratio {a / b:6.3f}  {verdict(a / b, target)}")


def spline(seconds: float) -> None:
    try:
        import numpy as np
        from shibumi.spline.game import SplineState
    except ImportError:
        print("\nshibumi not installed: pip install shibumi==0.5.0")
        return

    def theirs(seed: int) -> None:
        rng, state = random.Random(seed), SplineState()
        while not state.is_ended():
            legal = np.flatnonzero(state.get_valid_moves())
            state = state.make_move(int(legal[rng.randrange(len(legal))]))
    a, b = alternate(ours("spline"), theirs, seconds)
    print(f"\nSpline: rulelang {a:.1f}/s, shibumi 0.5.0 {b:.1f}/s, ratio {a / b:.1f}  "
          f"{verdict(a / b, 60)}")


def against_base(base: Path, pairs: int) -> None:
    print(f"\nagainst {base} (CPU time of the same seeded games, short batches played "
          f"alternately, median of {pairs} paired ratios and its 95 % interval)")
    for stem, (options, target) in AGAINST_BASE.items():
        if options:  # the sides play the default options: the bundled defaults here
            game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", mode="compiled")
            assert game.num_players == options["players"], (stem, options)
        ab = paired(base, stem, pairs)
        low, high = ab["interval"]
        print(f"  {stem:<14} {ab['batch']:>4} games a batch  speed this/base "
              f"{ab['median']:5.2f}x [{low:.2f}, {high:.2f}]  {verdict(ab['median'], target)}")


ROUNDS = 7  # of the clone measurement


def clones() -> None:
    print("\nclone() in a multi-decision turn / one apply_action (CPU time, mean over states; "
          f"median of {ROUNDS} rounds [smallest, largest])")
    for stem in MULTI_DECISION:
        game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", mode="compiled")
        states = []  # states after a decision that did not end the turn
        for seed in range(6):
            rng, state = random.Random(seed), game.new_initial_state(seed=seed)
            while not state.is_terminal():
                turn = state.ctx.data.turn
                state.apply_action(rng.choice(state.legal_actions()))
                if not state.is_terminal() and state.ctx.data.turn == turn \
                        and rng.random() < 0.3:
                    states.append(state.clone())
        # rounds of a clone pass and an apply pass over the same states (fresh clones each
        # round, the same actions): the machine's load moves one pass by tens of percent,
        # so the median of the rounds' ratios is printed, with the rounds' smallest and
        # largest
        rng = random.Random(1)
        actions = [rng.choice(s.legal_actions()) for s in states for _ in range(5)]
        ratios, clone_ts, apply_ts = [], [], []
        for _ in range(ROUNDS):
            start = time.process_time()
            copies = [s.clone() for s in states for _ in range(5)]
            clone_t = (time.process_time() - start) / len(copies)
            start = time.process_time()
            for c, a in zip(copies, actions, strict=True):
                c.apply_action(a)
            apply_t = (time.process_time() - start) / len(copies)
            ratios.append(clone_t / apply_t)
            clone_ts.append(clone_t)
            apply_ts.append(apply_t)
        ratio = statistics.median(ratios)
        print(f"  {stem:<14} clone {statistics.median(clone_ts) * 1e6:6.0f} us  apply "
              f"{statistics.median(apply_ts) * 1e6:6.0f} us  ratio {ratio:5.2f} "
              f"[{min(ratios):.2f}, {max(ratios):.2f}]  {verdict(ratio, 2, False)}")


def mcts(only: set[str] | None = None) -> None:
    print("\none decision of the default MCTS agent (400 playouts), CPU seconds")
    for path in bundled():
        if only is not None and path.stem not in only:
            continue
        game = rulelang.load_game(path, mode="compiled")
        rng, state = random.Random(0), game.new_initial_state(seed=0)
        starts = [state.clone()]
        for _ in range(12):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            starts.append(state)
        worst = 0.0
        for s in starts:
            agent = make_agent("mcts", 1)
            begin = time.process_time()
            agent.choose(s)
            worst = max(worst, time.process_time() - begin)
        print(f"  {path.stem:<18} worst {worst:6.2f} s  {verdict(worst, 5, False)}", flush=True)


def loads() -> None:
    print("\nload_game (fresh interpreter, compiled): cold, warm")
    cold = warm = 0.0
    for path in bundled():
        t = load_times(path, "compiled")
        cold, warm = max(cold, t["cold"]), max(warm, t["warm"])
    print(f"  slowest cold {cold * 1e3:.0f} ms  {verdict(cold * 1e3, 150, False)}")
    print(f"  slowest warm {warm * 1e3:.1f} ms  {verdict(warm * 1e3, 20, False)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, help="the checkout before the redesign")
    ap.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per rate")
    ap.add_argument("--pairs", type=int, default=20,
                    help="paired batches per game against the base")
    ap.add_argument("--no-mcts", action="store_true")
    ap.add_argument("--mcts-only", nargs="+", metavar="GAME",
                    help="only the MCTS decisions, of these bundled games")
    args = ap.parse_args()
    if args.mcts_only:
        mcts(set(args.mcts_only))
        return 0
    classic(args.seconds)
    spline(args.seconds)
    if args.base is not None:
        against_base(args.base.resolve(), args.pairs)
    clones()
    if not args.no_mcts:
        mcts()
    loads()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
