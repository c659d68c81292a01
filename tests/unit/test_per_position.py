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
var level = 0
def free = each s in sites where empty(s) and level == 0
def open_sites = each s in sites where empty(s)
def just_moved = count s in sites where moved(s)
def seen_before = any s in sites: repeated(1) and empty(s)
action place
  choose site s in free
  put stone of mover at s
turn
  if any(free) and just_moved >= 0 and not seen_before and any(open_sites)
    do place
end
  when count(free) == 0
    draw
"""


VERSIONS = """use square
game "Versions"
players A, B
board square.grid(3, 3, 3)
piece stone with side = 1
zone supply each player: 4 stone
zone box: 3 stone
counter points each player = 0
var flag = 0
var seen = ()
var after = ()

def total = sum p in players: points of p
def flags = sum x in [flag, flag]: x
def sides = sum s in sites where occupied(s): top(s).side
def mine = count s in sites where occupied(s) and owner(s) == A
def boxed = count p in pieces(box): p.side == 1
def order = each p in pieces(box): p.side
def whose = count s in sites where mover == A
def actor = count p in players where last.player == p and p == A
def look = (total, flags, sides, mine, boxed, order, whose, actor)

# each change is looked at just before and just after, with no other change between
action act
  choose site s in sites where empty(s)
  let b1 = look
  put stone of mover at s
  let b2 = look
  increase points of mover by 1
  let b3 = look
  set flag = flag + 1
  let b4 = look
  set top(s).side = 2
  let b5 = look
  set top(s).owner = B
  let b6 = look
  move top(s) to box
  let b7 = look
  move top(box) to s
  let b8 = look
  set top(box).side = 3
  let b9 = look
  shuffle box
  let b10 = look
  remove top(s)
  set seen = seen + ((b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, look),)
  require look != () else "never"
turn
  do act
  set after = after + (look,)     # the action over: `last` is this one
end
  when look == () or turn > 4     # the end check looks too, before the next turn begins
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
    game = rulelang.load_game(tmp_path / "once.rule", mode="closures")
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


def test_rules_that_read_moved_history_or_are_kept_site_queries_are_not_kept(tmp_path: Path
                                                                          ) -> None:
    (tmp_path / "once.rule").write_text(ONCE, encoding="utf-8")
    state = rulelang.load_game(tmp_path / "once.rule", mode="closures").new_initial_state(0)
    state.apply_action(state.legal_actions()[0])
    # not just_moved (moved), seen_before (history), nor open_sites (a site query the
    # compiled mode keeps up to date from the sites that changed)
    assert _kept_keys(state) == {"free"}


def test_a_change_without_a_new_version_would_be_caught(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check the game test below relies on: a kept value that no longer holds fails."""
    (tmp_path / "once.rule").write_text(ONCE, encoding="utf-8")
    game = rulelang.load_game(tmp_path / "once.rule", mode="closures")
    state = game.new_initial_state(seed=0)
    free = game.runtime.fn(next(d for d in game.runtime.program.defs.values()
                                if d.name == "free").body)
    assert len(state.legal_actions()) == 9
    monkeypatch.setattr(kept, "CHECK", [])
    data = state.ctx.data
    stone = data.zones[next(iter(data.zones))][-1]
    data.put(stone, game.runtime.board.sites[4])  # a change: a new version
    state.ctx.data.cache.pop(("state", "free"), None)
    rule = kept.per_state("free", free)
    assert len(rule(state.ctx, {})) == 8
    data.at[5] = data.at[4]  # a change behind the version's back (the site query sees it)
    data.changes.append(5)
    with pytest.raises(kept.KeptValueChanged, match="free: kept"):
        rule(state.ctx, {})


@pytest.mark.parametrize("decisions", [1, 2])
def test_each_kind_of_change_is_seen_by_the_kept_rules_right_after_it(tmp_path: Path,
                                                                     decisions: int) -> None:
    """Each change (a put, a counter, a var, a piece's attribute and owner, moves to and from a
    zone, a shuffle, a removal, the next turn) is looked at just before and just after with
    nothing else between: a change that did not renew the version would show its rules'
    values from before it, where the reference evaluator computes them afresh. (With two
    decisions the action runs as a resumable segment, not in one call.)"""
    text = VERSIONS if decisions == 1 else VERSIONS.replace(
        "  let b10 = look\n", "  let b10 = look\n  choose site t in sites\n")
    (tmp_path / "versions.rule").write_text(text, encoding="utf-8")
    seen = []
    for mode in ("closures", "interpreted"):
        game = rulelang.load_game(tmp_path / "versions.rule", mode=mode)
        state = game.new_initial_state(seed=3)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[-1])
        seen.append(state.ctx.data.vars[("seen", None)] + state.ctx.data.vars[("after", None)])
    assert len(seen[0]) == 10 and seen[0] == seen[1]  # (turns 1 to 5, in the action, after)
    first = seen[0][0]
    assert all(a != b for a, b in zip(first, first[1:], strict=False)), "each change shows"
    assert seen[0][1][0][-2] != first[-1][-2]  # the next turn: the mover changed
    assert [a[-1] for a in seen[0][5:]] == [1, 0, 1, 0, 1]  # `last`, once each action is over


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


# the bundled rulebooks whose games find values kept for the position (the others keep none)
KEEPING = {"karesansui", "spaniel", "tatara"}


@pytest.mark.parametrize("book", BOOKS, ids=lambda p: p.stem)
def test_every_kept_value_holds_in_random_games(book: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []  # every value found is computed again and compared: noted here
    monkeypatch.setattr(kept, "CHECK", checked)
    game = rulelang.load_game(book, mode="closures")
    for seed in range(2):
        _play(game, seed, 120)
    if book.stem in KEEPING:
        assert checked, "no kept value was found, so none was checked"
    else:
        assert not checked, f"{book.stem} keeps values for the position: add it to KEEPING"


HIDDEN = """game "Hands"
players A, B
piece card with points = 0
zone deck visible to nobody: 3 card
zone hand each player visible to owner
setup
  for each k in 1..3
    set top(deck).points = k
    move top(deck) to hand of B
def best = max c in pieces(hand of B): c.points * 10 + size(pieces(hand of B))
def firsts = each c in pieces(hand of B): c.points
action look
  require best > 0
action wait
  require true
turn
  do look or wait
end
  when turn > 3
    draw
"""


def test_a_resample_keeps_no_value_of_the_true_position(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A resample deals what its player cannot see again: nothing computed from the true
    cards may be found in it (the AI's search would see them)."""
    monkeypatch.setattr(kept, "CHECK", [])
    (tmp_path / "hands.rule").write_text(HIDDEN, encoding="utf-8")
    game = rulelang.load_game(tmp_path / "hands.rule", mode="closures")
    state = game.new_initial_state(seed=0)
    state.legal_actions()
    firsts = next(d for d in game.runtime.program.defs.values() if d.name == "firsts")
    rule = kept.per_state("firsts", game.runtime.fn(firsts.body))
    true = rule(state.ctx, {})
    assert sorted(true) == [1, 2, 3]
    orders = {tuple(rule(state.resample(0, seed).ctx, {})) for seed in range(12)}
    assert len(orders) > 1  # dealt again: the kept order of the true hand was not found
