"""Full nine-item scoring of complete Karesansui gardens per second (score_breakdown of one
player = one garden), compiled against interpreted, in three workloads:

* uncached: every garden is new to the engine (every cache is emptied before each garden):
  what scoring costs from scratch;
* one garden changes: a 4-player game position in which, step after step, one stone of one
  garden moves (on a copy of the state's data, as a move does) and all four gardens are
  scored (the time of copying and moving alone is taken off); the compiled mode counts again
  only what the changed stones touch (`cached`: per state, `memo`: by tiles / stones);
* repeated gardens: the same gardens scored again in fresh states (`memo`: the same tiles and
  stones give the remembered values).

The interpreter is the specification and computes every garden every time (`cached` and
`memo` keep nothing there). A last line gives the floor of the uncached workload: the nine
items written by hand in Python, calling the same builtins (attr_at, occurrences, …) that
both modes call; no compiler of the rules can score a new garden faster than that, and the
interpreted time divided by it bounds the ratio any compiler can reach without keeping values.
Gardens: 15 random tiles of the 80 (tests/games/karesansui_fixture.rule with
rulebooks/karesansui_garden.rule and its data), 0 to 8 random stones, a random famous-garden
card. Timing: time.process_time (CPU time of
this process: the machine may be shared). Prints figures; not a test.

    python bench/karesansui_scoring.py               # ~20 s
    python bench/karesansui_scoring.py --gardens 400 --steps 1000
    python bench/karesansui_scoring.py --profile     # the top functions of the uncached path
    python bench/karesansui_scoring.py --items       # µs per garden of each item, uncached
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from games.karesansui_tools import fixture_book, give_card  # noqa: E402

import rulelang  # noqa: E402
from rulelang.library.semantics import Ctx  # noqa: E402
from rulelang.model.values import zone_ref  # noqa: E402

PLAYERS = 4
TARGET_RATE, TARGET_RATIO = 20_000, 10


def random_state(game: Any, rng: random.Random) -> Any:
    """Four complete gardens from one box of 80 tiles, stones and cards at random."""
    state = game.new_initial_state(seed=0)
    data, board = state.ctx.data, game.runtime.board
    tiles = rng.sample(list(data.zones[zone_ref("box", None)]), 15 * PLAYERS)
    quarry = list(data.zones[zone_ref("quarry", None)])
    rng.shuffle(quarry)
    cards = rng.sample([data.attrs["name"][c.id] for c in data.zones[zone_ref("cards", None)]],
                       PLAYERS)
    for p in range(PLAYERS):
        cells = [board.by_coords[(p, r, c)] for r in range(3) for c in range(5)]
        for site, tile in zip(cells, tiles[15 * p:15 * p + 15], strict=True):
            data.put(tile, site)
        for site in rng.sample(cells, rng.randint(0, 8)):
            data.put(quarry.pop(), site)
        give_card(state, p, cards[p])
    return state


def score_all(rt: Any, data: Any) -> None:
    for p in range(PLAYERS):
        rt.breakdown(Ctx(rt, data), p)


def rate(fn: Callable[[], int]) -> float:
    """Gardens per second of CPU time."""
    start = time.process_time()
    gardens = fn()
    return gardens / (time.process_time() - start)


def uncached(game: Any, states: list[Any]) -> float:
    """Each garden scored as if never seen: every cache emptied before it."""
    rt = game.runtime
    table = rt.content_cache if rt.content_cache is not None else {}

    def run() -> int:
        for state in states:
            for p in range(PLAYERS):
                state.ctx.data.cache.clear()
                table.clear()
                rt.breakdown(Ctx(rt, state.ctx.data), p)
        return len(states) * PLAYERS
    return rate(run)


def one_garden_changes(game: Any, state: Any, steps: int, seed: int) -> float:
    """Per step: a copy of the data (as a move makes), one stone of one garden moved, the four
    gardens scored. The copying and moving alone is timed too and taken off."""
    rt, board = game.runtime, game.runtime.board
    if rt.content_cache is not None:
        rt.content_cache.clear()
    rng = random.Random(seed)
    moves = []  # (stone, to) drawn in advance: the same moves for both modes
    data = state.ctx.data.copy()
    for _ in range(steps):
        p = rng.randrange(PLAYERS)
        cells = [board.by_coords[(p, r, c)] for r in range(3) for c in range(5)]
        stones = [x for s in cells for x in data.at[s.index] if x.kind == "stone"]
        free = [s for s in cells if all(x.kind != "stone" for x in data.at[s.index])]
        if stones and free:
            stone, to = rng.choice(stones), rng.choice(free)
            data.put(stone, to)
            moves.append((stone, to))

    def run(score: bool) -> float:
        start = time.process_time()
        data = state.ctx.data.copy()
        for stone, to in moves:
            data = data.copy()
            data.put(stone, to)
            if score:
                score_all(rt, data)
        return time.process_time() - start
    spent = run(True) - run(False)
    return len(moves) * PLAYERS / spent


def repeated(game: Any, states: list[Any]) -> float:
    rt = game.runtime
    for state in states:  # first time: computed and kept by content
        score_all(rt, state.ctx.data.copy())

    def run() -> int:
        for state in states:
            data = state.ctx.data.copy()
            data.cache.clear()
            score_all(rt, data)
        return len(states) * PLAYERS
    return rate(run)


def items(game: Any, states: list[Any]) -> None:
    """Each score term alone, every cache emptied before each garden: µs per garden."""
    rt = game.runtime
    table = rt.content_cache if rt.content_cache is not None else {}
    for term in rt.program.scores:
        f, n = rt.fn(term.expr), 0
        start = time.process_time()
        for state in states:
            for p in range(PLAYERS):
                state.ctx.data.cache.clear()
                table.clear()
                f(Ctx(rt, state.ctx.data), {term.param: rt.players[p]})
                n += 1
        print(f"{term.name:14} {1e6 * (time.process_time() - start) / n:8.1f} µs")


def by_hand(c: Any, board: Any, player: int) -> dict[str, Any]:
    """The nine items of rulebooks/karesansui_garden.rule transcribed to Python, on the same
    builtins: the floor of scoring a new garden (checked equal to the rules' breakdown)."""
    from rulelang.library import grids as g
    rows = g.chunks(c, tuple(board.by_coords[(player, r, col)] for r in range(3)
                             for col in range(5)), 5)
    tiles, stones = g.pieces_at(c, rows, "tile"), g.attr_at(c, rows, "stone", "type")

    def tv(name: str) -> Any:
        return g.attr_at(c, tiles, "tile", name)
    moss, looks, mirrors, centre, v = tv("moss"), tv("look"), tv("mirror"), tv("symmetric"), \
        tv("vortex")
    broken = g.mismatches(c, tv("e"), tv("w"), 0, 1) + g.mismatches(c, tv("s"), tv("n"), 1, 0)
    top = g.masked(c, stones[0], moss[0])
    pairs = g.corner_pairs(c, stones, 2, 3, 5) + g.corner_pairs(c, stones, 3, 2, 5) + \
        g.corner_pairs(c, stones, 3, 3, 7)
    data = c.data
    cards = data.zones[zone_ref("famous", player)]
    card = cards[-1] if cards else None
    return {
        "sand": g.largest_rectangle(c, moss, False),
        "moss": 2 * g.occurrences(c, moss, ((True,),)),
        "symmetry": 5 * sum(1 for r in range(3) if centre[r][2] is True and None not in looks[r]
                            and tuple(reversed(looks[r])) == mirrors[r]),
        "vortices": 8 * g.occurrences(c, v, (("QA", "QB"), ("QC", "QD"))) + 2 * (
            g.occurrences(c, v, (("HL", "HR"),)) + g.occurrences(c, v, (("VL", "VR"),)))
            + g.occurrences(c, v, (("one",),)),
        "ripples": -2 * broken if broken else 7 if g.occurrences(c, tiles, ("*",)) else 0,
        "stone_kinds": 2 * len({t for row in stones for t in row if t is not None}),
        "arrangements": g.best_matching(c, pairs)
            + (10 if g.occurrences(c, (top,), ("TT",)) else 0)
            + (15 if g.occurrences(c, (top,), ("sTs",)) else 0)
            + 3 * sum(1 for row in stones if row[2] == "F") + (3 if "B" in stones[2] else 0),
        "famous": 0 if card is None else data.attrs["points"][card.id]
            if g.occurrences(c, stones, data.attrs["grid"][card.id]) else 0,
        "virtue": data.counters[("virtue", player)],
    }


def floor(game: Any, states: list[Any]) -> float:
    """Gardens per second of the nine items by hand on the same builtins (after checking
    that they agree with the rules' breakdown)."""
    rt = game.runtime
    for state in states:
        for p in range(PLAYERS):
            assert by_hand(Ctx(rt, state.ctx.data), rt.board, p) == \
                state.score_breakdown(p), "the hand-written items disagree with the rules"

    def run() -> int:
        for state in states:
            c = Ctx(rt, state.ctx.data)
            for p in range(PLAYERS):
                by_hand(c, rt.board, p)
        return len(states) * PLAYERS
    return rate(run)


def check_agreement(games: dict[str, Any], states: dict[str, list[Any]]) -> None:
    """Both modes give the same breakdown for every garden (else the figures mean nothing)."""
    for a, b in zip(states["compiled"], states["interpreted"], strict=True):
        for p in range(PLAYERS):
            assert a.score_breakdown(p) == b.score_breakdown(p), "modes disagree"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gardens", type=int, default=200, help="states of 4 gardens (default 200)")
    ap.add_argument("--steps", type=int, default=500, help="steps of one changing garden")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--items", action="store_true", help="time each item alone, uncached")
    args = ap.parse_args(argv)
    book = fixture_book(Path(tempfile.mkdtemp(prefix="karesansui-bench-")))
    games = {m: rulelang.load_game(book, {"players": PLAYERS}, mode=m)
             for m in ("compiled", "interpreted")}
    states = {}
    for m, game in games.items():
        rng = random.Random(args.seed)
        states[m] = [random_state(game, rng) for _ in range(max(1, args.gardens // PLAYERS))]
    check_agreement(games, states)
    if args.items:
        items(games["compiled"], states["compiled"])
        return 0
    if args.profile:
        import cProfile
        import pstats
        cProfile.runctx("uncached(games['compiled'], states['compiled'])", globals(),
                        {"games": games, "states": states}, "/tmp/karesansui-scoring.prof")
        pstats.Stats("/tmp/karesansui-scoring.prof").sort_stats("tottime").print_stats(20)
        return 0
    print(f"Karesansui scoring: full nine-item score_breakdown, gardens per second "
          f"({len(states['compiled']) * PLAYERS} random complete gardens, CPU time)")
    print(f"{'workload':28} {'compiled':>10} {'interpreted':>12} {'ratio':>7}")
    rows = [
        ("uncached (every garden new)", uncached, "states"),
        ("one garden changes a step", one_garden_changes, "steps"),
        ("repeated gardens", repeated, "states"),
    ]
    for label, fn, kind in rows:
        figures = {}
        for m, game in games.items():
            if kind == "steps":
                figures[m] = fn(game, states[m][0], args.steps, args.seed)  # type: ignore[operator]
            else:
                figures[m] = fn(game, states[m])  # type: ignore[operator]
        ratio = figures["compiled"] / figures["interpreted"]
        if fn is uncached:
            interpreted_uncached = figures["interpreted"]
        print(f"{label:28} {figures['compiled']:>10,.0f} {figures['interpreted']:>12,.0f} "
              f"{ratio:>6.1f}x")
    low = floor(games["compiled"], states["compiled"])
    print(f"{'floor: by hand, same builtins':28} {low:>10,.0f}   (at most "
          f"{low / interpreted_uncached:.1f}x the interpreter without keeping values)")
    print(f"targets: >= {TARGET_RATE:,} gardens/s compiled and >= {TARGET_RATIO}x the "
          "interpreted path (the interpreter keeps nothing: it is the specification)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
