"""The size of every screen a human is shown (rows x columns, the prompt's row included) in
seeded random games of the bundled rulebooks, through the terminal session's own drawing
(`Session.screen`), in a terminal of 80 x 24 for the abstract games and 120 x 50 for the card
and board games. Prints the largest per game and option set; this is not a test.

    python bench/terminal_screens.py                 # every game, worst-case options, 3 games
    python bench/terminal_screens.py --games 10 hex:size=19 karesansui:players=4
"""
from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rich.console import Console  # noqa: E402

import rulelang  # noqa: E402
from rulelang.agents import HumanAgent  # noqa: E402
from rulelang.resources import bundled_dir  # noqa: E402
from rulelang.tools.terminal.session import Session  # noqa: E402

BIG = {"karesansui", "tatara", "muso_sakura"}
WORST = ["hex:size=19", "karesansui:players=4", "tatara:players=4", "muso_sakura:players=5",
         "muso_sakura:players=5,mode=long"]


def spec_of(text: str) -> tuple[str, dict[str, object]]:
    book, _, rest = text.partition(":")
    options: dict[str, object] = {}
    for item in filter(None, rest.split(",")):
        key, _, value = item.partition("=")
        options[key] = int(value) if value.isdigit() else value
    return book, options


def measure(book: str, options: dict[str, object], seed: int) -> tuple[int, int, int]:
    """The tallest and the widest screen of one random game, and its length."""
    game = rulelang.load_game(bundled_dir() / f"{book}.rule", options or None)
    cols, rows = (120, 50) if book in BIG else (80, 24)
    console = Console(file=io.StringIO(), width=cols, height=rows)
    session = Session(game, [HumanAgent() for _ in game.player_names], seed, book,
                      console=console)
    rng = random.Random(seed)
    tall = wide = 0
    while not session.state.is_terminal():
        player = session.state.current_player()
        obs = session.state.observation(player)
        lines = session.screen(player, obs, set())
        tall = max(tall, len(lines) + 1)
        wide = max([wide] + [t.cell_len for t in lines])
        labels = session._labels()
        session._apply(labels[rng.randrange(len(labels))])
    session.humans = [0]  # the last screen, of one human against agents
    ending = session.ending
    for player in range(len(game.player_names)):
        lines = session.end_screen(player, ending)
        tall = max(tall, len(lines) + 1)  # and "record written to …"
        wide = max([wide] + [t.cell_len for t in lines])
    return tall, wide, len(session.actions)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    specs = args.specs or [p.stem for p in sorted(bundled_dir().glob("*.rule"))
                           if not rulelang.is_library(p)] + WORST
    print(f"{'game:options':36} rows x cols (limit)   plies")
    for spec in specs:
        book, options = spec_of(spec)
        found = [measure(book, options, seed) for seed in range(args.games)]
        limit = "50 x 120" if book in BIG else "24 x 80"
        print(f"{spec:36} {max(f[0] for f in found):4} x {max(f[1] for f in found):<4}"
              f" ({limit})  {max(f[2] for f in found)}", flush=True)


if __name__ == "__main__":
    main()
