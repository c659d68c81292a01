"""Records with named fields (docs/language.md, "Records with named fields"), on their own: a
record in a `choose` domain, a var and a secret var, in both modes; how it shows in action
strings, observations and game records; what the checker refuses. The values, case by case,
are in tests/conformance/cases/20_named_records.cases."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.model.values import Record

MODES = ("interpreted", "compiled")
GAME = '''game "Records"
players North, South
enum season: spring, autumn
var held = (name: "none", season: spring, card: 0)
var pick each player secret = (name: "none", season: spring, card: 0)
var seen = []
def cards = [(name: "ember", season: spring, card: 3), (name: "frost", season: autumn, card: 1)]
action take
  choose c in cards where c not in seen
  set held = c
  set pick of mover = c
  set seen = seen + [c]
turn
  do take
end
  if size(seen) == 2
    winner mover if held.season == autumn else opponent
'''


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "records.rule"
    path.write_text(text, encoding="utf-8")
    return path


def _codes(tmp_path: Path, text: str) -> list[tuple[str, int, int, str, str]]:
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(_write(tmp_path, text))
    return [(d.code, d.span.line, d.span.column, d.message, d.help or "")
            for d in info.value.diagnostics]


@pytest.mark.parametrize("mode", MODES)
def test_records_are_chosen_kept_and_compared_by_value(tmp_path: Path, mode: str) -> None:
    game = rulelang.load_game(_write(tmp_path, GAME), mode=mode)
    state = game.new_initial_state()
    strings = [state.action_to_string(a) for a in state.legal_actions()]
    assert strings == ["take (name: ember, season: spring, card: 3)",
                       "take (name: frost, season: autumn, card: 1)"]
    state.apply_action(strings[1])
    # the record taken is no longer offered: `c not in seen` compares records by value
    assert [state.action_to_string(a) for a in state.legal_actions()] == [strings[0]]
    state.apply_action(strings[0])
    assert state.is_terminal() and state.winners() == [0]  # held is ember: spring


@pytest.mark.parametrize("mode", MODES)
def test_a_record_in_an_observation_is_shown_by_field_and_hidden_when_secret(
        tmp_path: Path, mode: str) -> None:
    game = rulelang.load_game(_write(tmp_path, GAME), mode=mode)
    state = game.new_initial_state()
    state.apply_action("take (name: frost, season: autumn, card: 1)")
    seen_by_south = {(v["var"], v["owner"]): v for v in state.observation(1)["vars"]}
    frost = {"name": "frost", "season": "autumn", "card": 1}
    assert seen_by_south[("held", None)]["value"] == frost
    assert seen_by_south[("pick", "North")].get("hidden") is True
    assert seen_by_south[("pick", "North")]["value"] is None  # nothing of it leaks
    seen_by_north = {(v["var"], v["owner"]): v for v in state.observation(0)["vars"]}
    assert seen_by_north[("pick", "North")]["value"] == frost
    json.dumps(state.observation(0))  # plain JSON all through


def test_records_equal_and_hash_by_fields_and_values() -> None:
    a = Record(("name", "card"), ("ember", 3))
    assert a == Record(("name", "card"), ("ember", 3))
    assert hash(a) == hash(Record(("name", "card"), ("ember", 3)))
    assert a != ("ember", 3) and a != Record(("card", "name"), ("ember", 3))
    assert len({a, Record(("name", "card"), ("ember", 3)), ("ember", 3)}) == 2


def test_a_game_with_records_plays_the_same_in_both_modes(tmp_path: Path) -> None:
    path = _write(tmp_path, GAME)
    runs = []
    for mode in MODES:
        state = rulelang.load_game(path, mode=mode).new_initial_state(3)
        shown = []
        while not state.is_terminal():
            action = state.legal_actions()[0]
            shown.append(state.action_to_string(action))
            state.apply_action(action)
        runs.append((shown, state.winners()))
    assert runs[0] == runs[1] and len(runs[0][0]) == 2


def test_a_field_the_record_does_not_have_is_reported_where_it_is_read(tmp_path: Path) -> None:
    text = GAME.replace("held.season == autumn", "held.seasn == autumn").replace(
        "where c not in seen", "where c.cost > 0")
    codes = _codes(tmp_path, text)
    assert ("R238", 9, 27, "a record (name, season, card) has no 'cost'",
            "it has name, season, card") in codes
    assert all(c[0] == "R238" for c in codes)


def test_a_record_is_not_indexed_by_position(tmp_path: Path) -> None:
    text = GAME.replace("where c not in seen", "where c[0] == \"ember\"")
    [(code, line, column, message, _)] = _codes(tmp_path, text)
    assert (code, line, column) == ("R230", 9, 27) and "a record (name, season, card)" in message


def test_a_field_named_twice_is_refused(tmp_path: Path) -> None:
    text = GAME.replace('(name: "ember", season', '(name: "ember", name: "x", season')
    [(code, line, column, message, _)] = _codes(tmp_path, text)
    assert (code, line) == ("R202", 7) and "the field 'name' twice" in message


def test_a_game_record_of_records_replays(tmp_path: Path) -> None:
    from rulelang.tools.records.record import dump_record, record_game, replay

    path = _write(tmp_path, GAME)
    game = rulelang.load_game(path)
    state = game.new_initial_state(5)
    state.apply_action("take (name: frost, season: autumn, card: 1)")
    state.apply_action("take (name: ember, season: spring, card: 3)")
    out = tmp_path / "game.yaml"
    out.write_text(dump_record(record_game(game, state, 5, path.name)), encoding="utf-8")
    assert "take (name: frost, season: autumn, card: 1)" in out.read_text(encoding="utf-8")
    again = replay(out, mode="interpreted")
    assert again.state.winners() == [0]


def test_a_record_not_offered_is_named_whole_in_the_refusal(tmp_path: Path) -> None:
    state = rulelang.load_game(_write(tmp_path, GAME)).new_initial_state()
    with pytest.raises(rulelang.IllegalActionError) as info:
        state.apply_action("take (name: ember, season: spring, card: 4)")
    assert "(name: ember, season: spring, card: 4) is not among the choices here: " \
        "(name: ember, season: spring, card: 3)" in str(info.value)
