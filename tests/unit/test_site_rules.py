"""A rule of one site passed as a value (to reach) whose value at s is local — it reads the
board only at s and around it, and the mover — is kept per site and position in the compiled
mode (fast/site_rules.py): a change forgets only the values of the sites it can reach. These
tests play random games in both modes move by move, count the computations, and plant a
value kept across a change to show the comparison would catch it."""
from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.fast import site_rules
from rulelang.library import BUILTINS

RUNNERS = """use square
game "Runners"
players A, B
board square.grid(4, 4, 4)
piece runner
piece wall
zone supply each player: 1 runner, 6 wall

def at(r, c) = first s in sites where s.r == r and s.c == c

setup
  put runner from supply of A at at(0, 0)
  put runner from supply of B at at(3, 3)

# others' walls cannot be entered, your own cost 2 and cannot be stopped on
def blocked(s) = any x in pieces(s): kind(x) == "wall" and owner(x) != mover
def cost(s) = none if blocked(s) else (2 if occupied(s) and kind(top(s)) == "wall" else 1)
def can_stop(s) = empty(s)
def home = first s in sites where occupied(s) and kind(top(s)) == "runner" and owner(s) == mover

action build
  choose site s in sites where empty(s)
  put wall from supply of mover at s

action run
  choose site dest in reach(home, square.orthogonal, 3, cost, can_stop)
  move top(home) to dest

turn
  do build or run

end
  when turn > 14
    draw
"""


def _book(tmp_path: Path, text: str = RUNNERS, name: str = "runners") -> Path:
    path = tmp_path / f"{name}.rule"
    path.write_text(text)
    return path


def _menus(path: Path, mode: str, seed: int) -> list[list[str]]:
    state = rulelang.load_game(path, mode=mode).new_initial_state(seed)
    rng, seen = random.Random(seed), []
    while not state.is_terminal():
        actions = state.legal_actions()
        seen.append([state.action_to_string(a) for a in actions])
        state.apply_action(rng.choice(actions))
    return seen


def test_kept_site_rules_give_the_reference_menus_move_by_move(tmp_path: Path) -> None:
    path = _book(tmp_path)
    for seed in range(12):
        assert _menus(path, "closures", seed) == _menus(path, "interpreted", seed), seed


def test_both_rules_are_kept_and_computed_less_often_than_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    computed: dict[str, int] = {}
    made = site_rules.kept_site_rule

    def counting(rt: Any, key: str, node: Any, param: str, body: Any, *rest: Any) -> Any:
        def run(c: Any, s: Any) -> Any:  # (the body as a function of the site)
            computed[key] = computed.get(key, 0) + 1
            return body(c, s)
        return made(rt, key, node, param, run, *rest)
    monkeypatch.setattr(site_rules, "kept_site_rule", counting)
    asked: dict[str, int] = {}
    reach = BUILTINS["reach"].impl

    def counted_reach(c: Any, start: Any, rel: Any, budget: Any, cost: Any, stop: Any) -> Any:
        def ask(f: Any, key: str) -> Any:
            def g(s: Any) -> Any:
                asked[key] = asked.get(key, 0) + 1
                return f(s)
            return g
        return reach(c, start, rel, budget, ask(cost, "cost"), ask(stop, "can_stop"))
    spec = BUILTINS["reach"]
    monkeypatch.setitem(BUILTINS, "reach", dataclasses.replace(spec, impl=counted_reach))
    path = _book(tmp_path)
    for seed in range(4):
        _menus(path, "closures", seed)
    assert set(computed) == {"cost", "can_stop"}
    for key in computed:
        assert 0 < computed[key] < asked[key] / 2, (key, computed, asked)


def test_a_value_kept_across_a_change_would_be_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no site forgotten after a change the menus differ from the reference's: the
    comparison above can fail."""
    made = site_rules.kept_site_rule

    def forgetful(rt: Any, key: str, node: Any, param: str, body: Any,
                  deps: Any, per_mover: bool) -> Any:
        return made(rt, key, node, param, body, tuple(() for _ in deps), per_mover)
    monkeypatch.setattr(site_rules, "kept_site_rule", forgetful)
    path = _book(tmp_path)
    assert any(_menus(path, "closures", seed) != _menus(path, "interpreted", seed)
               for seed in range(12))


def test_a_rule_read_per_mover_is_kept_per_mover(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """blocked reads the mover: kept once for all movers, A would see B's walls as its own."""
    made = site_rules.kept_site_rule

    def shared(rt: Any, key: str, node: Any, param: str, body: Any,
               deps: Any, per_mover: bool) -> Any:
        return made(rt, key, node, param, body, deps, False)
    monkeypatch.setattr(site_rules, "kept_site_rule", shared)
    path = _book(tmp_path)
    assert any(_menus(path, "closures", seed) != _menus(path, "interpreted", seed)
               for seed in range(12))


# ---- rules of two sites (group's link): kept per pair of sites
CHAINS = """use square
game "Chains"
players A, B
board square.grid(5, 5, 0)
piece stone
zone supply each player: 12 stone

# a step from a to b of a chain is taken when b has an empty neighbour or one of the mover's
def open_link(a, b) = a != b and any t in square.orthogonal(b): empty(t) or owner(t) == mover
def chain(s) = group(s, square.orthogonal, open_link)

action place
  choose site s in sites where empty(s) and \\
      all t in square.orthogonal(s): empty(t) or size(chain(t)) < 4
  put stone from supply of mover at s

turn
  do place

end
  when turn > 22
    draw
"""


def _chains(tmp_path: Path) -> Path:
    return _book(tmp_path, CHAINS, "chains")


def test_kept_pair_rules_give_the_reference_menus_and_are_computed_less_often(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    computed, asked = [0], [0]
    made = site_rules.kept_pair_rule

    def counting(rt: Any, key: str, node: Any, params: Any, body: Any, *rest: Any
                 ) -> Any:
        def run(c: Any, a: Any, b: Any) -> Any:  # (the body as a function of two sites)
            computed[0] += 1
            return body(c, a, b)
        return made(rt, key, node, params, run, *rest)
    monkeypatch.setattr(site_rules, "kept_pair_rule", counting)
    spec = BUILTINS["group"]

    def counted_group(c: Any, s: Any, rel: Any, link: Any = None) -> Any:
        def ask(a: Any, b: Any) -> Any:
            asked[0] += 1
            return link(a, b)
        return spec.impl(c, s, rel, ask)
    monkeypatch.setitem(BUILTINS, "group", dataclasses.replace(spec, impl=counted_group))
    path = _chains(tmp_path)
    for seed in range(8):
        assert _menus(path, "closures", seed) == _menus(path, "interpreted", seed), seed
    assert 0 < computed[0] < asked[0] / 2, (computed, asked)


@pytest.mark.parametrize("plant", ["forget nothing", "one value for all movers"])
def test_a_pair_value_kept_wrongly_would_be_caught(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, plant: str) -> None:
    made = site_rules.kept_pair_rule

    def wrong(rt: Any, key: str, node: Any, params: Any, body: Any, deps: Any,
              per_mover: bool) -> Any:
        if plant == "forget nothing":
            return made(rt, key, node, params, body, tuple(() for _ in deps), per_mover)
        return made(rt, key, node, params, body, deps, False)
    monkeypatch.setattr(site_rules, "kept_pair_rule", wrong)
    path = _chains(tmp_path)
    assert any(_menus(path, "closures", seed) != _menus(path, "interpreted", seed)
               for seed in range(8))
