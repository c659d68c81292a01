"""Map literals `{key: value, …}` (indexing, `in`, size, iteration over keys, a missing key is
none) and reversed(), on their own and in both modes."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = Path(__file__).parent / "rules"
MODES = ["interpreted", "compiled"]


def _var(state, name):
    return next(v["value"] for v in state.observation(0)["vars"] if v["var"] == name)


@pytest.mark.parametrize("mode", MODES)
def test_a_map_is_queried_by_key(mode: str) -> None:
    state = rulelang.load_game(RULES / "graph.rule", mode=mode).new_initial_state(0)
    # iteration goes over the keys in the order written
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["look pine",
                                                                           "look oak"]
    state.apply_action("look pine")
    assert _var(state, "seen") == "oak 2 2 2 no"    # pine -> oak -> beech: two steps
    state.apply_action("look oak")
    assert _var(state, "seen") == "beech 3 1 2 no"  # beech is no key: it turns into nothing


@pytest.mark.parametrize("mode", MODES)
def test_reversed_goes_round_the_table_backwards(mode: str) -> None:
    state = rulelang.load_game(RULES / "graph.rule", mode=mode).new_initial_state(0)
    assert _var(state, "order") == ["South", "East", "North"]


def _load_text(tmp_path: Path, text: str, mode: str = "compiled"):
    path = tmp_path / "m.rule"
    path.write_text(text)
    return rulelang.load_game(path, mode=mode)


GAME = 'game "M"\nplayers A, B\n{defs}\naction go\n  set x = {expr}\nturn\n  do go\n' \
       'end\n  when turn > 1\n    draw\nvar x = 0\n'


@pytest.mark.parametrize("mode", MODES)
def test_a_key_written_twice_is_a_positioned_runtime_error(tmp_path: Path, mode: str) -> None:
    game = _load_text(tmp_path, GAME.format(defs="", expr='{"a": 1, "a": 2}["a"]'), mode)
    state = game.new_initial_state(0)
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        state.apply_action("go")
    text = info.value.render()
    assert "same key twice" in text and "m.rule:5:" in text


@pytest.mark.parametrize("mode", MODES)
def test_maps_hold_any_values_and_nest(tmp_path: Path, mode: str) -> None:
    defs = 'def costs = {"hut": (1, 2), "hall": (3, 4)}\ndef by = {1: costs, 2: {}}'
    game = _load_text(tmp_path, GAME.format(defs=defs, expr='by[1]["hall"][1] + size(by[2])'),
                      mode)
    state = game.new_initial_state(0)
    state.apply_action("go")
    assert _var(state, "x") == 4


def test_a_map_missing_its_closing_brace_is_a_syntax_error(tmp_path: Path) -> None:
    with pytest.raises(rulelang.RulebookError) as info:
        _load_text(tmp_path, GAME.format(defs='def m = {"a": 1', expr="0"))
    # as with an unclosed '[': the lines run on, so the error is where the map cannot go on
    assert "m.rule:4:1: error[R101]: unexpected name 'action'" in info.value.render()


@pytest.mark.parametrize("mode", MODES)
def test_a_map_may_span_lines(tmp_path: Path, mode: str) -> None:
    defs = 'def prices = {\n    "hut": 1,\n    "hall": 5,\n}'
    game = _load_text(tmp_path, GAME.format(defs=defs.replace(",\n}", "\n}"),
                                            expr='prices["hall"]'), mode)
    state = game.new_initial_state(0)
    state.apply_action("go")
    assert _var(state, "x") == 5


def test_names_inside_a_map_are_checked(tmp_path: Path) -> None:
    with pytest.raises(rulelang.RulebookError) as info:
        _load_text(tmp_path, GAME.format(defs='def m = {"a": hte}', expr="0"))
    assert "m.rule:3:15: error[R201]: unknown name 'hte'" in info.value.render()
