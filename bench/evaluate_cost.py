"""What `rulelang evaluate`'s bookkeeping costs over bare playouts: the same seeded games
(random agents) played by a bare loop and by evaluate's play_one (which also samples scores
for lead changes and, once the game is over, reads from its history each action's string,
the option counts, the movers and the values each choose took, and writes the record),
alternately, in one process, several rounds; prints the best CPU seconds of each and their
ratio per game (the aim: at most 1.10); and, to tell the two apart, the bare loop plus only the
looks at the scores (`looks`: the rulebook's scoring, in games with score terms). Exits 0;
not a test. `--jobs` throughput: bench/evaluate_jobs.py.

    python bench/evaluate_cost.py                    # a few bundled games
    python bench/evaluate_cost.py spline --games 500
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulelang.agents import make_agent  # noqa: E402
from rulelang.tools.playout import Setup, _lead_changes, game_seed, play_one  # noqa: E402

GAMES = {"tic_tac_toe": 4000, "spline": 800, "muso_sakura": 60, "karesansui": 30,
         "tatara": 10}


def bare(setup: Setup, n: int) -> None:
    game = setup.game()
    for i in range(n):
        seed = game_seed(setup.seed, i)
        agents = [make_agent("random", seed + k + 1) for k in range(game.num_players)]
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))


def looked(setup: Setup, n: int) -> None:
    """The bare loop plus evaluate's looks at the scores (for lead changes), nothing else."""
    game = setup.game()
    rounds, players = game.runtime.program.round is not None, game.num_players
    for i in range(n):
        seed = game_seed(setup.seed, i)
        agents = [make_agent("random", seed + k + 1) for k in range(game.num_players)]
        state = game.new_initial_state(seed=seed)
        if game.runtime.program.scores:  # (plays the game out)
            _lead_changes(state, agents, rounds, players)
        else:
            while not state.is_terminal():
                state.apply_action(agents[state.current_player()].choose(state))


def booked(setup: Setup, n: int) -> None:
    for i in range(n):
        play_one(setup, i)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", default=list(GAMES))
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    print(f"{'game':<14}{'games':>6}{'bare s':>9}{'+looks s':>10}{'evaluate s':>12}"
          f"{'looks':>7}{'ratio':>8}")
    for name in args.names:
        n = args.games or GAMES.get(name, 50)
        setup = Setup(str(ROOT / "rulebooks" / f"{name}.rule"), (), ("random",), 0, 2000,
                      "compiled")
        times: dict[str, list[float]] = {"bare": [], "looks": [], "evaluate": []}
        for _ in range(args.rounds):
            for label, run in (("bare", bare), ("looks", looked), ("evaluate", booked)):
                start = time.process_time()
                run(setup, n)
                times[label].append(time.process_time() - start)
        b, lk, e = min(times["bare"]), min(times["looks"]), min(times["evaluate"])
        print(f"{name:<14}{n:>6}{b:>9.2f}{lk:>10.2f}{e:>12.2f}{lk / b:>6.2f}x{e / b:>7.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
