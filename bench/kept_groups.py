"""The cost of one `group(last.site, rel)` in the compiled mode, kept (fast/groups.py: the
entry of the state before the move brought up to date with its one arrival, then the answer)
against the builtin's search (library/builtins.py: group), over the states of random games,
by the size of the group. CPU time (time.process_time) of each pass over all the states of a
bucket. Prints figures and exits 0; this is not a test.

    python bench/kept_groups.py                 # hex 11x11, 40 games
    python bench/kept_groups.py --games 200 sponnect
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.fast import groups  # noqa: E402
from rulelang.library.builtins import group as search  # noqa: E402
from rulelang.library.semantics import Ctx  # noqa: E402

BUCKETS = ((1, 1), (2, 4), (5, 16), (17, 40), (41, 10_000))


def samples(game: Any, rel: Any, n: int) -> list[tuple[Any, Any, list[Any]]]:
    """(data after a move, its last site, the kept entry of the data before it)."""
    out = []
    for seed in range(n):
        rng, st = random.Random(seed), game.new_initial_state(seed=seed)
        while not st.is_terminal():
            before = groups.build(st.ctx.data, rel.indices)
            actions = st.legal_actions()
            st.apply_action(actions[rng.randrange(len(actions))])
            data = st.ctx.data.copy()
            site = data.last["site"]
            if site is not None and data.at[site.index]:
                out.append((data, site, before))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="hex")
    ap.add_argument("--relation", default=None, help="default: the board's first relation "
                    "(hex: neighbours), or touching when the board has it")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    game = rulelang.load_game(args.game)
    rt = game.runtime
    rels = rt.board.relations
    name = args.relation or ("touching" if "touching" in rels else next(iter(rels)))
    rel = rels[name]
    kept = groups.kept_group(rt, search)
    found = samples(game, rel, args.games)
    print(f"{args.game}: group(last.site, {name}) over {len(found)} states of {args.games} "
          f"random games; microseconds per call (CPU time, best of {args.repeat} passes)")
    print(f"{'group size':>12} {'states':>7} {'search':>9} {'kept':>9} {'search/kept':>12}")
    for lo, hi in BUCKETS:
        mine = [(d, s, e) for d, s, e in found if lo <= len(search(Ctx(rt, d), s, rel)) <= hi]
        if not mine:
            continue
        ctxs = [(Ctx(rt, d), s) for d, s, _ in mine]
        best_s = best_k = float("inf")
        for _ in range(args.repeat):
            start = time.process_time()
            for c, s in ctxs:
                search(c, s, rel)
            best_s = min(best_s, time.process_time() - start)
            fresh = [[e[0], e[1].copy(), e[2].copy(), d.era] for d, _, e in mine]
            for (d, _, _), entry in zip(mine, fresh, strict=True):
                d.cache[("kept groups", rel)] = entry
            start = time.process_time()
            for c, s in ctxs:
                kept(c, s, rel)
            best_k = min(best_k, time.process_time() - start)
        n = len(mine)
        label = f"{lo}-{hi}" if hi < 10_000 else f"{lo}+"
        print(f"{label:>12} {n:>7} {best_s / n * 1e6:>9.2f} {best_k / n * 1e6:>9.2f} "
              f"{best_s / best_k:>11.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
