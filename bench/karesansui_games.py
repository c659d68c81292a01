"""Seeded random games of Karesansui (rulebooks/karesansui.rule) for 2, 3 and 4 players, with
the invariants of tests/games/karesansui_invariants.py checked after every action (80 tiles
accounted for, stones conserved, virtue in 0..6, the adjacency and stone rules, no secret card
in another player's observation). Prints, per player count: games that ended normally, the
time, actions and turns per game, how games ended (every garden complete, or tiles run out
[ASSUMED A-05]), the mean score and mean of each scoring item, and how often each seat won.
Any broken invariant stops the run with its seed. This is not a test; it prints figures.

    python bench/karesansui_games.py                    # 300 games each, compiled, all checks
    python bench/karesansui_games.py --games 50 --mode interpreted
    python bench/karesansui_games.py --no-hidden        # skip the (slow) observation check
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from games.karesansui_invariants import load, random_game  # noqa: E402


def run(players: int, games: int, mode: str, hidden: bool, variant: str) -> None:
    game = load(players, mode, variant)
    ends: Counter[str] = Counter()
    wins: Counter[int] = Counter()
    items: Counter[str] = Counter()
    actions = turns = total = 0
    start = time.perf_counter()
    for seed in range(games):
        try:
            state, steps = random_game(game, seed, hidden=hidden)
        except AssertionError as exc:
            print(f"  players {players} seed {seed}: {exc}")
            raise SystemExit(1) from None
        data = state.ctx.data
        complete = sum(1 for p in range(players)
                       if sum(1 for site in state.game.runtime.board.sites
                              if site.coords[0] == p and data.at[site.index]) == 15)
        ends["all complete" if complete == players else "tiles ran out"] += 1
        actions += steps
        turns += data.turn
        for w in state.winners():
            wins[w] += 1
        for p in range(players):
            for k, v in state.score_breakdown(p).items():
                items[k] += v
            total += state.scores()[p]
    secs = time.perf_counter() - start
    n = games * players
    print(f"{players} players ({variant}, {mode}): {games} games ended normally in {secs:.1f} s "
          f"({games / secs:.1f} games/s); {actions / games:.0f} actions and "
          f"{turns / games:.1f} turns per game")
    print("  ended: " + ", ".join(f"{k} {v}" for k, v in ends.most_common()))
    print(f"  mean score {total / n:.1f}: " + ", ".join(f"{k} {v / n:.1f}"
                                                       for k, v in items.items()))
    print("  wins by seat: " + ", ".join(f"Player{p + 1} {wins[p]}" for p in range(players)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--mode", choices=["compiled", "interpreted"], default="compiled")
    parser.add_argument("--no-hidden", action="store_true",
                        help="skip the check of every observation for secret cards")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4])
    parser.add_argument("--duo", action="store_true", help="also the 2-player variant")
    args = parser.parse_args()
    for players in args.players:
        run(players, args.games, args.mode, not args.no_hidden, "standard")
    if args.duo:
        run(2, args.games, args.mode, not args.no_hidden, "duo")


if __name__ == "__main__":
    main()
