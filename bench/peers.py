"""Every bundled rulebook and option set through the peers' own test suites (issue 51's
acceptance, in full; the suite runs a few games): OpenSpiel's `random_sim_test` (with
serialisation) on the registered game (rulelang/openspiel.py), and PettingZoo's `api_test`
and `seed_test` on the AEC environment (rulelang/pettingzoo.py). Prints per game and option
set the number of actions, the tensor size, the time and the outcome; exits 1 on a failure.

Option sets: every player count, every value of a choice option, a numeric option at its
lowest, default and highest value (one option varied at a time, the others at defaults).

    python bench/peers.py                          # everything (minutes)
    python bench/peers.py hex tic_tac_toe --sims 5 # some rulebooks
    python bench/peers.py --max-plies 200          # long games cut shorter
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402


def option_sets(name: str) -> list[dict[str, Any]]:
    game = rulelang.load_game(name)
    lo, hi = game.player_range
    out: list[dict[str, Any]] = [{}] + [{"players": n} for n in range(lo, hi + 1)
                                        if n != game.num_players]
    for key, spec in game.option_specs.items():
        choices = spec["choices"]
        picks = choices if isinstance(choices[0], str) else \
            sorted({choices[0], spec["default"], choices[-1]})
        out += [{key: v} for v in picks if v != spec["default"]]
    return out


def params(options: dict[str, Any], cap: int) -> str:
    return ",".join(f"{k}={v}" for k, v in {**options, "max_plies": cap}.items())


def check(name: str, options: dict[str, Any], sims: int, cap: int, cycles: int) -> str:
    import pyspiel
    from pettingzoo.test import api_test, seed_test

    from rulelang import pettingzoo
    game = pyspiel.load_game(f"rulelang_{name}({params(options, cap)})")
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo.env(name, options, max_plies=cap), num_cycles=cycles)
        seed_test(lambda render_mode=None: pettingzoo.env(name, options, render_mode, cap),
                  num_cycles=cycles)
    return f"{game.num_distinct_actions():>7} actions, tensor {game.observation_tensor_size()}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="bundled rulebooks (default: all)")
    parser.add_argument("--sims", type=int, default=2, help="random_sim_test's num_sims")
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--cycles", type=int, default=200, help="api_test's num_cycles")
    args = parser.parse_args(argv)
    import rulelang.openspiel  # noqa: F401  (registers the bundled rulebooks)
    names = args.names or [p.stem for p in sorted(rulelang.BUNDLED.glob("*.rule"))
                           if not rulelang.is_library(p)]
    failed = 0
    for name in names:
        for options in option_sets(name):
            start = time.perf_counter()
            try:
                result = check(name, options, args.sims, args.max_plies, args.cycles)
            except Exception:  # noqa: BLE001 - reported, the sweep goes on
                failed += 1
                result = "FAILED\n" + traceback.format_exc(limit=-4)
            label = f"{name} {options or ''}"
            print(f"{label:<48} {time.perf_counter() - start:6.1f}s  {result}", flush=True)
    print(f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
