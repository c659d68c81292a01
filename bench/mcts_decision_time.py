"""How long the default AI (`mcts`: 400 playouts, at most 2 s) and `mcts:400` (400 playouts,
no time cap) take to decide in the card games, three positions each (wall time; with --cpu,
`mcts:400` alone in CPU time, which a shared machine disturbs less).

    python bench/mcts_decision_time.py
    python bench/mcts_decision_time.py --cpu
    python bench/mcts_decision_time.py --cpu hex breakthrough     # other rulebooks
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rulelang  # noqa: E402
from rulelang.agents import make_agent  # noqa: E402


def main() -> None:
    cpu = "--cpu" in sys.argv[1:]
    clock = time.process_time if cpu else time.monotonic
    names = [a for a in sys.argv[1:] if not a.startswith("--")]
    for name in names or ("tatara", "karesansui", "muso_sakura"):
        game = rulelang.load_game(name)
        for agent_name in ("mcts:400",) if cpu else ("mcts", "mcts:400"):
            times = []
            for seed in range(3):
                state = game.new_initial_state(seed=seed)
                rng = random.Random(seed)
                for _ in range(12):
                    if not state.is_terminal():  # (a short game may end sooner)
                        state.apply_action(rng.choice(state.legal_actions()))
                if state.is_terminal():
                    state = game.new_initial_state(seed=seed)
                agent = make_agent(agent_name, seed)
                start = clock()
                agent.choose(state)
                times.append(clock() - start)
            print(f"{name:12} {agent_name:9} " + "  ".join(f"{t:5.2f} s" for t in times)
                  + (" CPU" if cpu else ""), flush=True)


if __name__ == "__main__":
    main()
