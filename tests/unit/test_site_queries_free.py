"""A site query whose condition reads other locals (`count s in sites where owner(s) == p`, p
a rule's parameter) is kept per their values when these are players (fast/site_queries.py);
for any other value the quantifier runs as its plain loop, steps and all. These tests play
games in both modes move by move, check that the kept path is taken, plant a query kept
without its values to show the comparison catches it, and compare a declined one's steps."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.fast import incremental

COUNTS = """use square
game "Counts"
players A, B
board square.grid(3, 4, 3)
piece stone
zone supply each player: 12 stone
var seen = none

def stones(p) = count s in sites where owner(s) == p
def highest(p) = max s in sites where owner(s) == p: s.r
def rows(p) = each s in sites where owner(s) == p: s.r
def lonely(p) = first s in sites where owner(s) == p and empty(s) == false
def at(r, c) = first s in sites where s.r == r and s.c == c

action place
  choose site s in sites where empty(s)
  put stone of mover at s

action take
  require stones(mover) > stones(opponent)
  choose site s in sites where owner(s) == opponent
  remove top(s)

turn
  do place or take
  set seen = [stones(A), stones(B), highest(A), rows(B), lonely(A), at(1, 2)]

end
  when turn > 14
    draw
"""


def _play(path: Path, mode: str, seed: int) -> list[Any]:
    state = rulelang.load_game(path, mode=mode).new_initial_state(seed)
    rng, seen = random.Random(seed), []
    while not state.is_terminal():
        actions = state.legal_actions()
        seen.append([state.action_to_string(a) for a in actions])
        state.apply_action(rng.choice(actions))
        value = state.ctx.data.vars[("seen", None)]
        seen.append(repr(value))
    return seen


def _book(tmp_path: Path) -> Path:
    path = tmp_path / "counts.rule"
    path.write_text(COUNTS)
    return path


def test_queries_kept_per_player_give_the_reference_values_move_by_move(tmp_path: Path) -> None:
    path = _book(tmp_path)
    for seed in range(10):
        assert _play(path, "closures", seed) == _play(path, "interpreted", seed), seed


def test_the_kept_path_is_taken_per_player(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    keys: set[Any] = set()
    made = incremental.incremental_filter

    def spy(*args: Any) -> Any:
        query = made(*args)

        def watched(c: Any, e: dict[str, Any]) -> Any:
            found = query(c, e)
            keys.update(k for k in c.data.cache if type(k) is tuple and len(k) == 2
                        and type(k[1]) is tuple)
            return found
        return watched
    monkeypatch.setattr("rulelang.fast.site_queries.incremental_filter", spy)
    _play(_book(tmp_path), "closures", 1)
    players = {given[0].name for _, given in keys}
    assert players == {"A", "B"}  # one kept set per player


def test_a_query_kept_without_its_values_would_be_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept under one key whatever the player: the menus or values differ somewhere."""
    made = incremental.incremental_filter

    def blind(qid: Any, sites: Any, deps: Any, var: str, cond: Any, per_mover: bool = False,
              free: tuple[Any, ...] = (), site_fn: Any = None) -> Any:
        return made(qid, sites, deps, var, cond, per_mover, (), site_fn)
    monkeypatch.setattr("rulelang.fast.site_queries.incremental_filter", blind)
    path = _book(tmp_path)
    assert any(_play(path, "closures", seed) != _play(path, "interpreted", seed)
               for seed in range(10))


VALUES = """use square
game "Values"
players A, B
board square.grid(3, 4, 3)
piece stone
zone supply each player: 2 stone
var seen = none
def hidden(x) = x
def at(r, c) = first s in sites where s.r == r and s.c == c
def in_column(k) = count s in sites where s.c == k or empty(s)
def top_in(k) = max s in sites where s.c == k: s.r
def first_in(k) = first s in sites where s.r == k
def mine(p) = count s in sites where owner(s) == p or s.r == 2
setup
  put stone of A at at(0, 0)
  set seen = {expr}
action go
  require true
turn
  do go
end
  when turn >= 1
    draw
"""


def _setup_steps(tmp_path: Path, mode: str, expr: str) -> tuple[str, int]:
    path = tmp_path / f"{mode}.rule"
    path.write_text(VALUES.format(expr=expr))
    state = rulelang.load_game(path, mode=mode).new_initial_state(0)
    return repr(state.ctx.data.vars[("seen", None)]), state.ctx.steps


@pytest.mark.parametrize("expr, kept", [("at(1, 2)", False), ("in_column(0)", False),
                                        ("top_in(1)", False), ("first_in(1)", False),
                                        ("mine(A)", True)])
def test_a_query_of_values_that_are_no_players_runs_as_the_plain_loop(
        tmp_path: Path, expr: str, kept: bool) -> None:
    """Its value and its steps are the reference's; a query kept for a player counts fewer
    (only what it computes)."""
    found = []
    for mode in ("interpreted", "closures"):
        value, steps = _setup_steps(tmp_path, mode, expr)
        found.append((value, steps - _setup_steps(tmp_path, mode, "none")[1]))
    assert found[1][0] == found[0][0] and found[0][1] > 0
    assert (found[1][1] < found[0][1]) if kept else (found[1][1] == found[0][1])
