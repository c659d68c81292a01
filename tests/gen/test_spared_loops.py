"""Where a game's steps are counted as they run, a loop over a domain known when the game is
written (the board's sites, the players, an enum) that takes a few steps, all told, charges
none: what it takes joins what encloses it — a charged loop's item, or what one action
leaves uncharged (`generated.steps`). The charges and what is left uncharged must hold what
the reference counts, action by action (else the generated game could run on past the
reference's R302)."""
from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rulelang
from rulelang.gen import facts, rt

GAMES = [("karesansui", None), ("muso_sakura", {"players": 3})]

POOL = """use square
game "Pool"
players A, B
board square.grid(1, 2, 0)
piece token
zone pool: 40 token
zone box
var xs = [1]
action grow
  set xs = [x for x in xs, y in 1..1]      # a list of any length: the steps are counted
  move (first t in pool) to box
turn
  do grow
end
  when (count t in box where true) >= 40 and size(xs) > 0
    draw
"""

WALK = """use square
game "Walk"
players A, B
board square.grid(1, 2, 0)
var xs = [1]
var n = 0
action pick
  choose x in xs                      # a list of any length: charged
  set n = x                           # (an effect between the chooses: the options walked)
  choose site s in sites where (count p in players where p != mover) > 0
  set xs = xs + [x]
turn
  do pick
end
  when size(xs) > 60
    draw
"""


def _counts(game: Any, ref: Any, seed: int) -> list[tuple[int, int]]:
    """Per action of a seeded random game: the generated game's steps charged and the
    reference's steps counted (the action, the end, the next menu)."""
    g, r, rng = game.new_initial_state(seed), ref.new_initial_state(seed), random.Random(seed)
    out = []
    while not r.is_terminal():
        action = rng.choice(r.legal_actions())
        assert g.legal_actions() == r.legal_actions()
        g.apply_action(action)
        r.apply_action(action)
        if not r.is_terminal():
            g.legal_actions(), r.legal_actions()
        out.append((g.steps[0], r.ctx.steps))
    return out


def _load(name: Any, options: Any, monkeypatch: pytest.MonkeyPatch, spare: int) -> Any:
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")
    monkeypatch.setattr(facts, "SPARE", spare)
    monkeypatch.setattr(rulelang, "_GENERATED", type(rulelang._GENERATED)())  # (written anew)
    return rulelang.load_game(name, options, mode="generated")


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_counted_game_spares_small_loops_and_still_holds_the_reference_count(
        name: str, options: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    spared = _load(name, options, monkeypatch, facts.SPARE)
    every = _load(name, options, monkeypatch, 0)  # (every loop charged)
    ref = rulelang.load_game(name, options, mode="interpreted")
    assert spared.state_class.counting and every.state_class.counting
    left = spared.state_class.generated.steps
    assert left <= facts.UNCHARGED
    counts = _counts(spared, ref, 1)
    assert all(mine + left >= theirs for mine, theirs in counts), counts
    assert _charging(spared) <= _charging(every)
    if name == "karesansui":  # (its loops over a garden's sites, stone types, players)
        assert _charging(spared) < _charging(every)


def _charging(game: Any) -> int:
    """The loops of the generated module that charge their items."""
    generated = game.state_class.generated
    name = next(k for k, v in generated.constants.items() if v is rt.charged)
    return len(re.findall(rf"\b{name}\(", generated.source))


def test_a_walked_options_loop_charges_what_its_spared_loops_take(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A choose whose options are walked, charged: each of its items is charged what the
    next choose takes, spared (its sites, each with its count of the players)."""
    path = tmp_path / "walk.rule"
    path.write_text(WALK)
    game = _load(path, None, monkeypatch, facts.SPARE)
    ref = rulelang.load_game(path, mode="interpreted")
    left = game.state_class.generated.steps
    counts = _counts(game, ref, 0)
    assert len(counts) == 60 and all(mine + left >= theirs for mine, theirs in counts), counts


def test_a_loop_over_a_zone_charges_its_items_where_steps_are_counted(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A zone's pieces are known only as the game runs (here up to 40): a loop over them
    is charged, not spared, however few steps an item takes."""
    path = tmp_path / "pool.rule"
    path.write_text(POOL)
    game = _load(path, None, monkeypatch, facts.SPARE)
    ref = rulelang.load_game(path, mode="interpreted")
    assert game.state_class.counting
    left = game.state_class.generated.steps
    counts = _counts(game, ref, 0)
    assert len(counts) == 40 and all(mine + left >= theirs for mine, theirs in counts), counts
