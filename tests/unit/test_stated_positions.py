"""Positions stated directly in scenario files (rulelang/game/position.py): each fact changes
the position at the start of a turn and play goes on from it by the rules, in both modes."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.game import position
from rulelang.tools.cli import main

RULEBOOKS = Path(__file__).resolve().parents[2] / "rulebooks"
MODES = ["compiled", "interpreted"]


def board(state: rulelang.State) -> dict[str, str]:
    data, rt = state.data, state.game.runtime
    names = state.game.player_names
    return {site.name: f"{names[data.owner[stack[-1].id]]} {stack[-1].kind}"
            for site, stack in zip(rt.board.sites, data.at, strict=True) if stack}


@pytest.mark.parametrize("mode", MODES)
def test_stated_pieces_and_turn_play_on_by_the_rules(mode: str) -> None:
    state = rulelang.load_game("tic_tac_toe", mode=mode).new_initial_state()
    state = position.put_pieces(state, "X", "mark", ["a1", "b1"])
    state = position.put_pieces(state, "O", None, ["a2", "b2"])
    state = position.set_mover(state, "O")
    assert board(state) == {"a1": "X mark", "b1": "X mark", "a2": "O mark", "b2": "O mark"}
    assert state.current_player() == 1
    assert len(state.legal_actions()) == 5  # the four taken sites are no longer offered
    state.apply_action("place c2")
    assert state.is_terminal() and state.winners() == [1]


@pytest.mark.parametrize("mode", MODES)
def test_pieces_come_from_the_zones(mode: str) -> None:
    state = rulelang.load_game("tic_tac_toe", mode=mode).new_initial_state()
    state = position.put_pieces(state, "O", "mark", ["a1", "a2", "a3", "b1", "b2"])
    with pytest.raises(position.PositionError, match="no O's mark is left"):
        position.put_pieces(state, "O", "mark", ["b3"])  # O has five marks


@pytest.mark.parametrize("mode", MODES)
def test_a_stated_deck_order_is_what_is_drawn(mode: str) -> None:
    game = rulelang.load_game("muso_sakura", mode=mode)
    state = game.new_initial_state(seed=2)
    state = position.order_zone(state, "deck", None, ["Kareki", "Outou"])
    deck = state.data.zones[next(z for z in state.data.zones if z.name == "deck")]
    assert [c.label for c in deck[-2:]] == ["Outou", "Kareki"]  # the top is the last
    mover = state.current_player()
    state.apply_action("wander")  # draws the top card into the hidden hand
    hidden = next(z for z in state.data.zones if z.name == "hidden" and z.owner == mover)
    assert state.data.zones[hidden][-1].label == "Kareki"


@pytest.mark.parametrize("mode", MODES)
def test_moved_cards_counters_vars_and_round(mode: str) -> None:
    state = rulelang.load_game("muso_sakura", mode=mode).new_initial_state(seed=1)
    state = position.move_all(state, None, ("reserve", None))
    assert all(not pile for z, pile in state.data.zones.items() if z.name != "reserve")
    state = position.move_pieces(state, ["Outou", "Outou"], "open", "Player2")
    state = position.set_value(state, "counter", "curtains_taken", None, 2)
    state = position.set_value(state, "var", "closed", "Player2", True)
    state = position.set_round(state, 3)
    data = state.data
    assert [c.label for z, pile in data.zones.items() if z.name == "open" and z.owner == 1
            for c in pile] == ["Outou", "Outou"]
    assert data.counters[("curtains_taken", None)] == 2
    assert data.vars[("closed", 1)] is True and data.round == 3
    with pytest.raises(position.PositionError, match="belongs to each player"):
        position.set_value(state, "var", "closed", None, True)
    with pytest.raises(position.PositionError, match="no 'Outou' is in another zone"):
        position.move_pieces(state, ["Outou"] * 9, "open", "Player1")


def test_not_in_the_middle_of_a_turn() -> None:
    state = rulelang.load_game("muso_sakura").new_initial_state(seed=0)
    state.apply_action("wander")  # the turn goes on: step 2 is still to come
    with pytest.raises(position.PositionError, match="only at the start of a turn"):
        position.set_mover(state, "Player2")


def test_a_counter_outside_its_bounds_is_refused() -> None:
    state = rulelang.load_game(Path(__file__).parents[1] / "flow" / "offer.rule"
                               ).new_initial_state(seed=0)
    with pytest.raises(position.PositionError, match="stays within -5..10: 11 is outside"):
        position.set_value(state, "counter", "points", state.game.player_names[0], 11)
    state = position.set_value(state, "counter", "points", state.game.player_names[0], 10)
    assert state.data.counters[("points", 0)] == 10


def test_a_scenario_file_states_a_round_end(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    for f in ("muso_sakura.rule", "muso_sakura_cards.yaml"):
        shutil.copy(RULEBOOKS / f, tmp_path)
    role = '"(Kobukuzakura, Outou, Someiyoshino, Yaezakura)"'
    body = "\n".join([
        'rulebook "muso_sakura.rule"', "", 'scenario "Someiyoshino wilts"', "  given",
        "    seed 1", "    move all to reserve",
        '    move "Someiyoshino", "Yaezakura", "Kobukuzakura" to hidden of Player1',
        *[f'    move "Outou" to open of Player{p}' for p in (1, 2, 3)],
        '    move "Someiyoshino", "Yaezakura", "Kobukuzakura", "Yaezakura" to hidden of Player2',
        '    move "Someiyoshino", "Yaezakura", "Kobukuzakura", "Kareki" to hidden of Player3',
        *[f"    var {v} of Player{p}: {x}" for p in (2, 3)
          for v, x in (("closed", "true"), ("curtain", p - 1))],
        '    move "Ochiba" to deck', "    counter curtains_taken: 2",
        "  expect to move Player1", '  when "wander", "close"',
        *[f"  when {role}"] * 3,
        "  expect",
        '    score "sheet r1 Someiyoshino" of Player1: 0',
        '    score "sheet r1 Someiyoshino" of Player2: 8',
        '    score "sheet r1 Someiyoshino" of Player3: 0', ""])
    (tmp_path / "m.test").write_text(body)
    assert main(["test", str(tmp_path / "m.test"), "--mode", "both"]) == 0
    (tmp_path / "m.test").write_text(body.replace("Player2: 8", "Player2: 7"))
    assert main(["test", str(tmp_path / "m.test")]) == 1
    out = capsys.readouterr().out
    assert 'expected: score sheet r1 Someiyoshino of Player2: 7\n    found:    8 (' in out
