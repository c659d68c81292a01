"""The compiled mode (the generated module, rulelang/gen) against the reference evaluator and
OpenSpiel's C++ games: random playouts per second of CPU time, the modes alternated in one
run, for every rulebook the generator takes (and a line for each it does not, with what
stands in the way). The closures it replaced are measured against it by
`python bench/ab_playouts.py BASE_WORKTREE --this-mode compiled` with a worktree of a commit
that still has them (e.g. a8385d6).

    python bench/generated.py [--seconds S] [GAME ...]

OpenSpiel's games (tic_tac_toe, connect_four, hex, breakthrough) are driven from a Python
loop as `state.apply_action(rng.choice(state.legal_actions()))`; without open_spiel installed
(`pip install -e '.[test]'`) their column is left out. Spline is also set against the
pure-Python `shibumi` 0.5.0 (`pip install shibumi==0.5.0`), when installed."""
from __future__ import annotations

import argparse
import random
import time
from typing import Any

import rulelang
from rulelang.gen import GenGame, explain

OPENSPIEL = {"tic_tac_toe": "tic_tac_toe", "connect_four": "connect_four",
             "hex": "hex(board_size=11)", "breakthrough": "breakthrough"}


def _rate(new: Any, seconds: float) -> float:
    rng, games = random.Random(1), 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = new(games)
        state.play_out(rng, 100_000) if hasattr(state, "play_out") else _spiel(state, rng)
        games += 1
    return games / (time.process_time() - start)


class _Played:
    """A playout already played (shibumi's): play_out does nothing more."""

    def __init__(self, playout: Any, seed: int) -> None:
        playout(seed)

    def play_out(self, rng: Any, limit: int) -> None:
        pass


def _spiel(state: Any, rng: random.Random) -> None:
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", nargs="*")
    ap.add_argument("--seconds", type=float, default=2.0)
    args = ap.parse_args()
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    from playouts import shibumi_playout  # (bench/playouts.py: None without the package)
    shibumi = shibumi_playout()
    names = args.games or sorted(p.stem for p in rulelang.BUNDLED.glob("*.rule")
                                 if not rulelang.is_library(p))
    print(f"random playouts/s of CPU time, {args.seconds:g} s per measure "
          "(python bench/generated.py)")
    for name in names:
        gen = rulelang.load_game(name)
        if not isinstance(gen, GenGame):
            why = explain(rulelang.load_game(name, mode="interpreted").runtime)
            where = f"{why.span.path.rsplit('/', 1)[-1]}:{why.span.line}" if why and why.span \
                else ""
            print(f"{name:14} not generated: {why.what if why else '?'} ({where})")
            continue
        reference = rulelang.load_game(name, mode="interpreted")
        g1 = _rate(gen.new_initial_state, args.seconds / 2)
        r1 = _rate(reference.new_initial_state, args.seconds / 4)
        g2 = _rate(gen.new_initial_state, args.seconds / 2)
        r2 = _rate(reference.new_initial_state, args.seconds / 4)
        g, r = (g1 + g2) / 2, (r1 + r2) / 2
        line = f"{name:14} generated {g:9,.0f}  reference {r:8,.1f}  ratio {g / r:6.1f}x"
        if name == "spline" and shibumi is not None:  # the pure-Python Spline of PyPI
            o = _rate(lambda seed: _Played(shibumi, seed), args.seconds)
            line += f"  shibumi 0.5.0 {o:9,.0f}  generated/shibumi {g / o:5.0f}x"
        if pyspiel is not None and name in OPENSPIEL:
            spiel = pyspiel.load_game(OPENSPIEL[name])
            o = _rate(lambda _, g=spiel: g.new_initial_state(), args.seconds)
            line += f"  OpenSpiel C++ {o:9,.0f}  generated/OpenSpiel {g / o:5.2f}x"
        print(line)


if __name__ == "__main__":
    main()
