"""`optionally choose` (a choice that may take no value: the local is none, the option's
string leaves it out) and `then NAME` (an action that goes on as another, in one option whose
string names both), in both evaluators, and their mistakes at check."""
from __future__ import annotations

from pathlib import Path

import pytest
from scenario_tools import load_text, offered, var_value

import rulelang
from rulelang.errors import RulebookError

MODES = ("interpreted", "compiled")

STRIP = """game "Strip"
players A, B
geometry strip(n)
  sites (r, c) for r in 0..0, c in 0..n-1
  name letter(c)
board strip(4)
piece stone
zone supply each player: 9 stone
var second = "unset"
var acted = "nothing"
action put
  choose site s in sites where empty(s)
  put stone of mover at s
  optionally choose site t in sites where empty(t) and t.c == s.c + 1
  set second = "none" if t == none else t.name
  if t != none
    put stone of mover at t
action take
  require any s in sites: owner(s) == opponent
  choose site r in sites where owner(r) == opponent
  remove top(r)
  then put
turn
  do put or take
  set acted = last.action
end
  when all s in sites: occupied(s)
    draw
"""


def _load(tmp_path: Path, text: str, mode: str = "compiled") -> rulelang.Game:
    return load_text(tmp_path, text, mode)


@pytest.mark.parametrize("mode", MODES)
def test_an_optional_choice_offers_no_value_first_and_its_string_leaves_it_out(
        tmp_path: Path, mode: str) -> None:
    state = _load(tmp_path, STRIP, mode).new_initial_state()
    assert offered(state) == ["put a", "put a b", "put b", "put b c", "put c", "put c d",
                               "put d"]
    one = state.clone()
    one.apply_action(one.string_to_action("put b"))
    assert var_value(one, "second") == "none"  # the local is none
    assert [p["site"] for p in one.observation(0)["board"] if p["pieces"]] == ["b"]
    two = state.clone()
    two.apply_action(two.string_to_action("put b c"))
    assert var_value(two, "second") == "c"
    assert [p["site"] for p in two.observation(0)["board"] if p["pieces"]] == ["b", "c"]


@pytest.mark.parametrize("mode", MODES)
def test_then_makes_one_option_of_two_actions_the_second_seeing_the_first(
        tmp_path: Path, mode: str) -> None:
    state = _load(tmp_path, STRIP, mode).new_initial_state()
    state.apply_action(state.string_to_action("put b c"))
    # B may take one of A's stones, then put: b or c is free again for the put that follows
    assert offered(state) == ["put a", "put d", "take b put a", "take b put a b",
                               "take b put b", "take b put d", "take c put a", "take c put c",
                               "take c put c d", "take c put d"]
    state.apply_action(state.string_to_action("take c put c d"))
    board = {p["site"]: p["pieces"][0]["owner"] for p in state.observation(0)["board"]
             if p["pieces"]}
    assert board == {"b": "A", "c": "B", "d": "B"}
    assert state.history() == ["put b c", "take c put c d"]
    assert var_value(state, "acted") == "take"  # last.action: the action the option began with


@pytest.mark.parametrize("mode", MODES)
def test_a_refused_string_is_explained_along_the_then(tmp_path: Path, mode: str) -> None:
    state = _load(tmp_path, STRIP, mode).new_initial_state()
    state.apply_action(state.string_to_action("put b c"))
    with pytest.raises(rulelang.IllegalActionError, match="expected 'put'.*found 'a'"):
        state.string_to_action("take b a")
    with pytest.raises(rulelang.IllegalActionError, match="'b' is not offered here"):
        state.string_to_action("take c put a b")  # b is A's


def test_both_evaluators_walk_the_same_tree(tmp_path: Path) -> None:
    def leaves(state, depth: int) -> list[tuple[str, ...]]:
        if depth == 0 or state.is_terminal():
            return [tuple(state.history())]
        out = []
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            out += leaves(child, depth - 1)
        return out
    ref = leaves(_load(tmp_path, STRIP, "interpreted").new_initial_state(), 2)
    fast = leaves(_load(tmp_path, STRIP, "compiled").new_initial_state(), 2)
    assert ref == fast and len(ref) > 40


@pytest.mark.parametrize("mode", MODES)
def test_a_then_without_a_way_leaves_the_option_out(tmp_path: Path, mode: str) -> None:
    endless = STRIP.replace("end\n  when all s in sites: occupied(s)\n    draw\n", "")
    # a variant in which the put that follows a take may not use the site just freed
    barred = endless.replace('var second = "unset"\n', 'var second = "unset"\nvar freed = none\n') \
        .replace("  remove top(r)\n", "  set freed = r\n  remove top(r)\n") \
        .replace("  choose site s in sites where empty(s)\n",
                 "  choose site s in sites where empty(s) and s != freed\n") \
        .replace("  do put or take\n", "  set freed = none\n  do put or take\n")
    for text, want in ((endless, ["take c put c", "take d put d"]), (barred, [])):
        state = _load(tmp_path, text, mode).new_initial_state()
        state.apply_action(state.string_to_action("put a b"))
        state.apply_action(state.string_to_action("put c d"))
        # the board is full: A can only take one of B's stones, then put
        assert offered(state) == want
        assert state.is_terminal() == (not want)  # nobody can act: a draw


@pytest.mark.parametrize("mode", MODES)
def test_an_optional_choice_of_its_own_offers_nothing(tmp_path: Path, mode: str) -> None:
    text = """game "Ask"
players A, B
board strip(3)
geometry strip(n)
  sites (r, c) for r in 0..0, c in 0..n-1
  name letter(c)
piece stone
zone supply each player: 9 stone
var got = "unset"
turn
  optionally choose site t in sites where empty(t) by opponent
  set got = "none" if t == none else t.name
  if t != none
    put stone of mover at t
end
  when got == "none"
    draw
"""
    state = _load(tmp_path, text, mode).new_initial_state()
    assert state.current_player() == 1
    assert offered(state) == ["nothing", "a", "b", "c"]
    state.apply_action(state.string_to_action("nothing"))
    assert state.is_terminal() and state.winners() == []


@pytest.mark.parametrize(("change", "code", "words"), [
    (("  then put\n", "  then put\n  remove top(r)\n"), "R204", "last statement"),
    (("  then put\n", "  then puts\n"), "R201", "unknown action 'puts'"),
    (("  if t != none\n", "  then take\n  if t != none\n"), "R204", "last statement"),
    (("    put stone of mover at t\n", "    put stone of mover at t\n  then take\n"), "R208",
     "without end"),
])
def test_mistakes_with_then_are_positioned(tmp_path: Path, change: tuple[str, str], code: str,
                                           words: str) -> None:
    text = STRIP.replace(*change, 1)
    assert text != STRIP
    with pytest.raises(RulebookError) as info:
        _load(tmp_path, text)
    found = [d for d in info.value.diagnostics if d.code == code]
    assert found and words in found[0].message, str(info.value)
    assert found[0].span.line > 0


def test_an_action_reached_only_through_then_is_offered(tmp_path: Path) -> None:
    text = STRIP.replace("  do put or take\n", "  do take\n")
    game = _load(tmp_path, text)  # no R206 for `put`
    state = game.new_initial_state()
    assert state.is_terminal()  # A has nothing to take, nor B: a draw by skipping
