"""MCTS (rulelang.agents.make_agent("mcts", seed)) against uniform random at Spline.

Plays N games (default 50), MCTS taking White in even games and Black in odd ones, and prints
MCTS's wins, draws and losses, its win rate overall and per colour, and the time taken.
Prints figures and exits 0; this is not a test.

    python bench/mcts_vs_random.py
    python bench/mcts_vs_random.py --games 10 --agent mcts:100 --mode interpreted
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.agents import make_agent  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--agent", default="mcts", help="mcts or mcts:N (default mcts)")
    ap.add_argument("--mode", choices=("compiled", "interpreted"), default="compiled")
    ap.add_argument("--rulebook", type=Path, default=ROOT / "rulebooks" / "spline.rule")
    args = ap.parse_args(argv)
    game = rulelang.load_game(args.rulebook, mode=args.mode)
    wins = draws = losses = 0
    by_colour = {0: [0, 0], 1: [0, 0]}  # seat of MCTS -> [wins, games]
    mcts_time = 0.0
    start = time.perf_counter()
    for i in range(args.games):
        seat = i % 2  # alternate colours
        mcts = make_agent(args.agent, seed=i)
        agents = [mcts, make_agent("random", seed=10_000 + i)]
        if seat == 1:
            agents.reverse()
        state = game.new_initial_state(seed=i)
        while not state.is_terminal():
            agent = agents[state.current_player()]
            t = time.perf_counter()
            action = agent.choose(state)
            if agent is mcts:
                mcts_time += time.perf_counter() - t
            state.apply_action(action)
        result = state.returns()[seat]
        wins, draws, losses = wins + (result > 0), draws + (result == 0), losses + (result < 0)
        by_colour[seat][0] += result > 0
        by_colour[seat][1] += 1
    elapsed = time.perf_counter() - start
    names = game.player_names
    print(f"{game.name}: {args.agent} vs random, {args.games} games, {args.mode} engine")
    print(f"{args.agent}: {wins} wins, {draws} draws, {losses} losses; "
          f"win rate {wins / max(1, args.games):.1%}")
    for seat, (w, n) in by_colour.items():
        if n:
            print(f"  as {names[seat]}: {w}/{n} ({w / n:.1%})")
    print(f"time: {elapsed:.1f} s in all, {elapsed / max(1, args.games):.2f} s per game, "
          f"MCTS thinking {mcts_time:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
