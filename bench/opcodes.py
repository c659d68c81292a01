"""Python opcodes per move of random playouts (`State.play_out`, a search's), by function:
a count that does not depend on the machine's load, so a change to the generated code can
be judged by it where CPU-time ratios drown in the noise of a shared machine. A
comprehension is named with the function it runs in (`<listcomp>@reach:236`).

    python bench/opcodes.py spline 300          # rulebook, games
    python bench/opcodes.py tatara 3 --top 30
    python bench/opcodes.py hex 20 --apply      # apply_action(legal_actions()[...]) instead
    python bench/opcodes.py tatara 10 --modules # by module: the generated game, rt.py, ...

Each function's line: opcodes per move, its share, and its calls per move (with --modules,
each module's: where the time goes between the generated code and what it calls). Exits 0;
this is not a test (about 50 times slower than the games themselves). It measures the
checkout it is in (its own rulelang first on the path)."""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import rulelang  # noqa: E402


def _name(frame: Any) -> str:
    name: str = frame.f_code.co_name
    if name.startswith("<") and frame.f_back is not None:
        return f"{name}@{frame.f_back.f_code.co_name}:{frame.f_code.co_firstlineno}"
    return name


def _module(frame: Any) -> str:
    """The file a frame runs in: the generated module's name, or a path below the package
    (`gen/rt.py`), or the file's name."""
    path: str = frame.f_code.co_filename
    if path.startswith("<"):  # (the generated game's module)
        return path
    _, found, below = path.replace("\\", "/").rpartition("/rulelang/")
    return below if found else path.rsplit("/", 1)[-1]


def count(game: Any, games: int, by: Callable[[Any], str] = _name,
          apply: bool = False) -> tuple[int, Counter[str], Counter[str]]:
    """The moves of `games` seeded random games (play_out, or apply_action per move), and
    the opcodes and calls of each function (or module: `by`) they ran."""
    states = [game.new_initial_state(seed) for seed in range(games)]
    opcodes: Counter[str] = Counter()
    calls: Counter[str] = Counter()

    def trace(frame: Any, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        if event == "opcode":
            opcodes[by(frame)] += 1
        elif event == "call":
            calls[by(frame)] += 1
        return trace
    sys.settrace(trace)
    try:
        for seed, state in enumerate(states):
            rng = random.Random(seed)
            if apply:
                while not state.is_terminal():
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.randrange(len(actions))])
            else:
                state.play_out(rng, 10 ** 6)
    finally:
        sys.settrace(None)
    return sum(len(state.history()) for state in states), opcodes, calls


def by_module(game: Any, games: int) -> tuple[float, list[tuple[str, float]]]:
    """Opcodes per move of `games` playouts, and each module's share (%), the largest
    first (bench/targets.py's "where the time goes")."""
    moves, opcodes, _ = count(game, games, _module)
    total = sum(opcodes.values())
    return total / max(moves, 1), [(name, 100 * n / total) for name, n in opcodes.most_common()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("games", type=int, nargs="?", default=20)
    ap.add_argument("--top", type=int, default=16)
    ap.add_argument("--apply", action="store_true",
                    help="apply_action per move (the A/B's loop) instead of play_out")
    ap.add_argument("--modules", action="store_true", help="by module instead of function")
    args = ap.parse_args()
    game = rulelang.load_game(args.game)
    moves, opcodes, calls = count(game, args.games, _module if args.modules else _name,
                                  args.apply)
    total = sum(opcodes.values())
    print(f"{args.game}: {args.games} games, {moves} moves, {total / moves:.0f} opcodes and "
          f"{sum(calls.values()) / moves:.1f} calls per move")
    for name, n in opcodes.most_common(args.top):
        print(f"{n / moves:9.1f} {100 * n / total:5.1f}%  {name}  "
              f"({calls[name] / moves:.2f} calls per move)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
