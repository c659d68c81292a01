"""A rule of no parameters that loops over the position is computed at most once per position
in the compiled mode (fast/kept.per_state): its value is kept with the data's version, which
every change renews (GameData.version). These tests count the computations, prove that a
value kept across a change would be caught, and check every kept value found in random games
of every bundled rulebook against a fresh computation."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.fast import calls, kept

ROOT = Path(__file__).resolve().parents[2]
BOOKS = sorted(p for p in (ROOT / "rulebooks").glob("*.rule") if not rulelang.is_library(p))

ONCE = """use square
game "Once"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 5 stone
def free = each s in sites where empty(s)
def just_moved = count s in sites where moved(s)
def seen_before = any s in sites: repeated(1) and empty(s)
action place
  choose site s in free
  put stone of mover at s
turn
  if any(free) and just_moved >= 0 and not seen_before
    do place
end
  when count(free) == 0
    draw
"""


def _kept_keys(state: Any) -> set[str]:
    return {k[1] for k in state.ctx.data.cache if type(k) is tuple and k[0] == "state"}


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Every per_state rule made from now on counts its computations by rule."""
    counts: dict[str, int] = {}
    made = kept.per_state

    def counted(key: str, compute: Any) -> Any:
        def run(c: Any, e: dict[str, Any]) -> Any:
            counts[key] = counts.get(key, 0) + 1
            return compute(c, e)
        return made(key, run)
    monkeypatch.setattr(calls, "per_state", counted)
    return counts


def test_a_rule_used_twice_in_a_position_is_computed_once(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    counts = _counting(monkeypatch)
    (tmp_path / "once.rule").write_text(ONCE, encoding="utf-8")
    game = rulelang.load_game(tmp_path / "once.rule", mode="compiled")
    state = game.new_initial_state(seed=0)
    moves = 0
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        moves += 1
    # `free` is asked for three times a move: by the turn's `if`, by its menu, and by the end
    # check after the move. The `if` and the menu see the same position, and are one
    # computation; the end check sees the move, before the next player's turn (a change).
    assert counts == {"free": 2 * moves}
    reference = rulelang.load_game(tmp_path / "once.rule", mode="interpreted")
    again = reference.new_initial_state(seed=0)
    while not again.is_terminal():
        again.apply_action(again.legal_actions()[0])
    assert again.returns() == state.returns()


def test_rules_that_read_moved_history_or_nothing_costly_are_not_kept(tmp_path: Path) -> None:
    (tmp_path / "once.rule").write_text(ONCE, encoding="utf-8")
    state = rulelang.load_game(tmp_path / "once.rule", mode="compiled").new_initial_state(0)
    state.apply_action(state.legal_actions()[0])
    assert _kept_keys(state) == {"free"}  # not just_moved (moved), not seen_before (history)


def test_a_change_without_a_new_version_would_be_caught(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check the game test below relies on: a kept value that no longer holds fails."""
    (tmp_path / "once.rule").write_text(ONCE, encoding="utf-8")
    game = rulelang.load_game(tmp_path / "once.rule", mode="compiled")
    state = game.new_initial_state(seed=0)
    free = game.runtime.fn(next(d for d in game.runtime.program.defs.values()
                                if d.name == "free").body)
    assert len(state.legal_actions()) == 9
    monkeypatch.setattr(kept, "CHECK", True)
    data = state.ctx.data
    stone = data.zones[next(iter(data.zones))][-1]
    data.put(stone, game.runtime.board.sites[4])  # a change: a new version
    state.ctx.data.cache.pop(("state", "free"), None)
    rule = kept.per_state("free", free)
    assert len(rule(state.ctx, {})) == 8
    data.at[5] = data.at[4]  # a change behind the version's back (the site query sees it)
    data.changes.append(5)
    with pytest.raises(AssertionError, match="free: kept"):
        rule(state.ctx, {})


def _play(game: Any, seed: int, plies: int) -> None:
    """Random moves, with clones and (where the game hides something) resamples taken and
    played on mid-game: every kind of copy a search makes."""
    rng, state = random.Random(seed), game.new_initial_state(seed=seed)
    for n in range(plies):
        if state.is_terminal():
            return
        actions = state.legal_actions()
        if n % 5 == 2:
            copy = state.resample(state.current_player(), seed + n) if n % 10 == 2 \
                else state.clone()
            for _ in range(3):
                if copy.is_terminal():
                    break
                copy.apply_action(rng.choice(copy.legal_actions()))
            copy.returns() if copy.is_terminal() else copy.scores()
        state.apply_action(rng.choice(actions))
    state.scores()


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_every_kept_value_holds_in_random_games(book: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "CHECK", True)  # every value found is computed again, compared
    game = rulelang.load_game(book, mode="compiled")
    for seed in range(2):
        _play(game, seed, 120)
