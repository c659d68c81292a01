"""Every speed target of the compiled mode (issues "Compiled mode, step 1" and "step 2") in
one run, CPU time (time.process_time), each figure next to its target, met or MISSED. Prints
a table and exits 0; this is not a test.

* classic games: uniform random playouts per CPU-second of rulelang compiled (`play_out`)
  against OpenSpiel 2.0.2's C++ games driven from a Python loop, measured alternately in
  this process (targets: hex 11x11 0.8x, breakthrough 8x8 0.4x, connect four 0.6x,
  tic-tac-toe 0.8x);
* Spline against the pure-Python package `shibumi` 0.5.0 (target 100x; skipped with a hint
  when it is not installed: pip install shibumi==0.5.0);
* with `--base CHECKOUT` (the issues' baseline, made with `git worktree add --detach
  ../base9 9b0d82b`): random playouts against it through bench/ab_playouts.py, as
  apply_action loops and as each side's `play_out` (targets: Spline+, Sponnect, Spyramid,
  Spargo 5x; Tatara (2 players) 5x, Karesansui (2) 4x, Muso Sakura (3) 4x); under a
  missed playout target, where its time goes: opcodes per move by module
  (bench/opcodes.py --modules);
* clone() of a state in the middle of a multi-decision turn against one apply_action
  (target: at most 1x), with the cyclic garbage collector on (the copies kept alive: its
  passes land on them) and off (as a search runs it);
* one decision of `mcts:400` (400 playouts) at the start and after 12 random moves of every
  bundled game (targets: at most 1 s in the games whose turns are one decision, at most
  2 s in every game; `--no-mcts` skips it, it takes minutes);
* load_game cold (a fresh interpreter, the private cache folder filled) and warm (again,
  the same process) (targets 250 ms, 20 ms).

    python bench/targets.py --base ../base9
    python bench/targets.py --no-mcts --seconds 1
    python bench/targets.py --mcts-only spyramid tatara
"""
from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from ab_playouts import GAMES as AB_GAMES  # noqa: E402
from ab_playouts import paired  # noqa: E402
from opcodes import by_module  # noqa: E402
from playouts import OPENSPIEL_GAMES, load_times  # noqa: E402

import rulelang  # noqa: E402
from rulelang.agents import make_agent  # noqa: E402
from rulelang.gen import GenGame  # noqa: E402
from rulelang.tools.common import bundled  # noqa: E402

CLASSIC = {"tic_tac_toe": 0.8, "connect_four": 0.6, "hex": 0.8, "breakthrough": 0.4}
AGAINST_BASE = {"spline_plus": ({}, 5.0), "sponnect": ({}, 5.0), "spyramid": ({}, 5.0),
                "spargo": ({}, 5.0), "tatara": ({"players": 2}, 5.0),
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

    def playout(seed: int) -> None:  # (a search's playout: State.play_out)
        game.new_initial_state(seed=seed).play_out(random.Random(seed), 10 ** 6)
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
        a, b = alternate(ours(stem), theirs, seconds, rounds=9)  # (drifts: many rounds)
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
          f"{verdict(a / b, 100)}")


def against_base(base: Path, pairs: int) -> None:
    print(f"\nagainst {base} (CPU time of the same seeded games, short batches played "
          f"alternately, median of {pairs} paired ratios and its 95 % interval)")
    for stem, (options, target) in AGAINST_BASE.items():
        if options:  # the sides play the default options: the bundled defaults here
            game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", mode="compiled")
            assert game.num_players == options["players"], (stem, options)
        for what, how in (("cpu", "apply_action"), ("playout", "play_out")):
            ab = paired(base, stem, pairs, what=what)
            low, high = ab["interval"]
            print(f"  {stem:<12} {how:<12} {ab['batch']:>4} games a batch  speed this/base "
                  f"{ab['median']:5.2f}x [{low:.2f}, {high:.2f}]  "
                  f"{verdict(ab['median'], target)}", flush=True)
            if how == "play_out" and ab["median"] < target:  # where its time goes
                print(f"  {'':<12} {'':<12} where the time goes: {where(stem)}", flush=True)


def where(stem: str) -> str:
    """A playout's opcodes per move by module, the largest first (bench/opcodes.py)."""
    game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", mode="compiled")
    per_move, share = by_module(game, max(1, AB_GAMES[stem][1] // 2))
    return f"{per_move:,.0f} opcodes a move: " + ", ".join(
        f"{name} {percent:.0f} %" for name, percent in share[:5])


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
        for collector in (True, False):  # (on: its passes over the copies land on a pass)
            ratios, clone_ts, apply_ts = [], [], []
            (gc.enable if collector else gc.disable)()
            try:
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
            finally:
                gc.enable()
            ratio = statistics.median(ratios)
            print(f"  {stem:<12} gc {'on ' if collector else 'off'} clone "
                  f"{statistics.median(clone_ts) * 1e6:5.0f} us  apply "
                  f"{statistics.median(apply_ts) * 1e6:5.0f} us  ratio {ratio:5.2f} "
                  f"[{min(ratios):.2f}, {max(ratios):.2f}]  {verdict(ratio, 1, False)}")


def mcts(only: set[str] | None = None) -> None:
    print("\none decision of mcts:400 (400 playouts), CPU seconds, the worse of two positions")
    for path in bundled():
        if only is not None and path.stem not in only:
            continue
        game = rulelang.load_game(path, mode="compiled")
        one = isinstance(game, GenGame) and game.state_class.steppers is None  # (a decision
        target = 1 if one else 2  # a turn: at most 1 s; every game at most 2 s)
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
            agent = make_agent("mcts:400", 1)
            begin = time.process_time()
            agent.choose(s)
            worst = max(worst, time.process_time() - begin)
        print(f"  {path.stem:<18} worst {worst:6.2f} s  {verdict(worst, target, False)}",
              flush=True)


def loads() -> None:
    print("\nload_game (fresh interpreter, compiled, CPU time): cold with its module written "
          "and compiled (the parsed rulebooks cached), cold from the cache, warm")
    cold = cached = warm = 0.0
    with tempfile.TemporaryDirectory() as home:
        for path in bundled():
            load_times(path, "compiled", home)  # (the caches filled)
            for module in (Path(home) / "rulelang").glob("generated-*"):
                module.unlink()
            t = load_times(path, "compiled", home)
            c = load_times(path, "compiled", home)
            cold, cached = max(cold, t["cold"]), max(cached, c["cold"])
            warm = max(warm, c["warm"])
    print(f"  slowest cold {cold * 1e3:.0f} ms  {verdict(cold * 1e3, 250, False)}")
    print(f"  slowest cold from the cache {cached * 1e3:.0f} ms")
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
