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


@pytest.mark.parametrize("mode", ["compiled", "generated"])
def test_not_in_the_middle_of_a_turn(mode: str) -> None:
    state = rulelang.load_game("muso_sakura", mode=mode).new_initial_state(seed=0)
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


def test_stated_chance_outcomes_and_the_end_rule(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(Path(__file__).parents[1] / "flow" / "chance.rule", tmp_path)
    (tmp_path / "c.test").write_text("\n".join([
        'rulebook "chance.rule"', "",
        'scenario "the next roll stated"', '  given chance "6"', "  expect var roll: 6",
        '  when "draw"', "  expect to move South",
        'scenario "two rolls stated"', '  given chance "6", "2"', '  when "draw"',
        "  expect var roll: 2",
        'scenario "an outcome the draw does not have"', '  given chance "7"', ""]))
    assert main(["test", str(tmp_path / "c.test"), "--mode", "both"]) == 1
    out = capsys.readouterr().out
    assert out.count("ok   ") == 4 and out.count("FAIL ") == 2
    # positioned at the scenario's `chance` line (line 13, column 9), naming the draw
    assert "c.test:13:9: error[R420]: impossible position: the stated chance outcome '7' is " \
           "not one of this draw's outcomes (1, 2, 3, 4, 5, 6) (the draw at " in out
    assert "chance.rule:28:3)" in out and "R301" not in out
    shutil.copy(RULEBOOKS / "tic_tac_toe.rule", tmp_path)
    moves = 'given play "place a1", "place a2", "place b1", "place b2", "place c1"'
    (tmp_path / "e.test").write_text("\n".join([
        'rulebook "tic_tac_toe.rule"', "", 'scenario "a line"', f"  {moves}",
        '  expect ended by "three of your marks in a row"',
        'scenario "not so"', f"  {moves}", '  expect ended by "nobody could"', ""]))
    assert main(["test", str(tmp_path / "e.test")]) == 1
    out = capsys.readouterr().out
    assert "ok   " in out and "expected: the game ended by 'nobody could'" in out
    assert "found:    why: End: three of your marks in a row" in out


def test_a_resample_draws_stated_chance_again() -> None:
    state = rulelang.load_game(Path(__file__).parents[1] / "flow" / "chance.rule"
                               ).new_initial_state(seed=0)
    state = position.state_chance(state, ["6"])
    assert state.data.stated_chance == ()  # the turn's roll took it
    state.data.stated_chance = ("3",)
    assert state.resample(0, 1).data.stated_chance == ()


COUNTS = """use square
game "Counts"
players A, B
board square.grid(2, 2, 2)
piece stone
zone supply each player: 4 stone
counter begun = 0
var note = 0
action place
  choose site s in sites where empty(s)
  put stone of mover at s
turn
  increase begun by 1
  do place
end
  when turn >= 3
    draw
"""


@pytest.mark.parametrize("mode", ["interpreted", "compiled", "generated"])
def test_a_turn_restated_begins_again_from_its_start(tmp_path: Path, mode: str) -> None:
    """What the turn did before its first decision is not done twice."""
    path = tmp_path / "counts.rule"
    path.write_text(COUNTS, encoding="utf-8")
    state = rulelang.load_game(path, mode=mode).new_initial_state(seed=0)
    state.apply_action(0)
    assert state.data.counters[("begun", None)] == 2
    stated = position.set_value(state, "var", "note", None, 3)
    assert stated.data.counters[("begun", None)] == 2
    assert stated.data.vars[("note", None)] == 3
