"""Every bundled rulebook under every option set that matters, played to its end by seeded
random moves under a generous cap: tests/property/test_every_game_ends.py plays a few games
of each, bench/every_game_ends.py many (and prints the lengths)."""
from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path
from typing import Any

import rulelang
from rulelang.errors import RuleRuntimeError

ROOT = Path(__file__).resolve().parents[1]
BOOKS = sorted(p for p in (ROOT / "rulebooks").glob("*.rule")
               if not rulelang.is_library(p))
CAP = 20_000  # plies: far beyond any bundled game's longest random game


def _values(spec: dict[str, Any]) -> list[Any]:
    """The values of an option worth playing: every choice of a list of names; of a range
    of numbers, its ends and its default."""
    choices = list(spec["choices"])
    if all(isinstance(c, str) for c in choices):
        return choices
    return sorted({choices[0], spec["default"], choices[-1]})


def option_sets(book: Path) -> list[dict[str, Any]]:
    """Every player count with every combination of the other options' values that the
    rulebook's setup accepts (Karesansui's duo variant is for 2 players only). The reference
    evaluator answers (it makes no code: the test modules call this when collected)."""
    game = rulelang.load_game(str(book), mode="interpreted")
    lo, hi = game.player_range
    specs = {k: v for k, v in game.option_specs.items() if k != "players"}
    names = sorted(specs)
    out = []
    for players in range(lo, hi + 1):
        for combo in itertools.product(*(_values(specs[n]) for n in names)):
            opts = {"players": players, **dict(zip(names, combo, strict=True))}
            try:
                rulelang.load_game(str(book), opts, mode="interpreted").new_initial_state(0)
            except RuleRuntimeError as exc:
                assert "requirement failed" in str(exc), exc
                continue
            out.append(opts)
    return out


def cases() -> list[tuple[Path, dict[str, Any]]]:
    return [(book, opts) for book in BOOKS for opts in option_sets(book)]


@functools.cache
def game_of(book: Path, options: tuple[tuple[str, Any], ...], mode: str = "compiled") -> Any:
    game = rulelang.load_game(str(book), dict(options), mode=mode)
    game.max_plies = CAP if game.max_plies is None else min(game.max_plies, CAP)
    return game


def random_game(game: Any, seed: int) -> Any:
    """A game from `seed`, every move uniformly random (also seeded): the final state."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def label(book: Path, options: dict[str, Any]) -> str:
    return book.stem + "[" + ",".join(f"{k}={v}" for k, v in options.items()) + "]"
