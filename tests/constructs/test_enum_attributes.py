"""Piece attributes with a declared type (docs/language.md, "Piece attributes of a declared
type"), on their own: `piece gardener with name: gardener_name [= Muso]`; the values a data
file gives are checked against the enumeration (R210, at the line that loads the file, all
of them together), the checker knows the attribute's type (`c.name == "Muso"` is R251), and
a game reads them as symbols in both modes (tests/constructs/gardeners.rule)."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

HERE = Path(__file__).resolve().parent
MODES = ("interpreted", "compiled")
RULE = (HERE / "gardeners.rule").read_text(encoding="utf-8")
DATA = (HERE / "gardeners.yaml").read_text(encoding="utf-8")


def _write(tmp_path: Path, rule: str = RULE, data: str = DATA) -> Path:
    (tmp_path / "gardeners.yaml").write_text(data, encoding="utf-8")
    path = tmp_path / "gardeners.rule"
    path.write_text(rule, encoding="utf-8")
    return path


def _codes(tmp_path: Path, rule: str = RULE, data: str = DATA
           ) -> list[tuple[str, int, int, str, str]]:
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(_write(tmp_path, rule, data))
    return [(d.code, d.span.line, d.span.column, d.message, d.help or "")
            for d in info.value.diagnostics]


def _line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


@pytest.mark.parametrize("mode", MODES)
def test_data_values_become_symbols_and_defaults_fill_the_rest(mode: str) -> None:
    game = rulelang.load_game(HERE / "gardeners.rule", mode=mode)
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["draw Muso", "draw Zenami", "draw Sesshu"]
    state.apply_action("draw Zenami")
    state.apply_action("draw Muso")
    state.apply_action("draw Sesshu")
    assert state.is_terminal() and state.winners() == [0]  # North holds Zenami


def test_the_default_of_a_typed_attribute_is_used_where_the_data_gives_none(
        tmp_path: Path) -> None:
    # Muso's row gives no season: spring, the default, so it may be drawn; with autumn
    # as the default it may not (only Sesshu may be drawn in autumn)
    autumn = RULE.replace("season: season = spring", "season: season = autumn")
    state = rulelang.load_game(_write(tmp_path, autumn)).new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["draw Zenami", "draw Sesshu"]


def test_a_value_that_is_no_symbol_is_reported_at_the_line_loading_the_file(
        tmp_path: Path) -> None:
    data = DATA.replace("Zenami", "Zenamy").replace("season: autumn", "season: winter")
    codes = _codes(tmp_path, data=data)
    line = _line(RULE, "zone row")
    assert codes == [
        ("R210", line, 11, 'row 2 of \'gardeners.yaml\': name "Zenamy" is no symbol of the '
         "enumeration 'gardener_name', which has Muso, Zenami, Sesshu",
         "'name' of a 'gardener' is a symbol of the enumeration 'gardener_name'"),
        ("R210", line, 11, 'row 3 of \'gardeners.yaml\': season "winter" is no symbol of the '
         "enumeration 'season', which has spring, summer, autumn",
         "'season' of a 'gardener' is a symbol of the enumeration 'season'")]


def test_a_number_attribute_refuses_a_text_in_the_data(tmp_path: Path) -> None:
    [(code, _, _, message, _)] = _codes(tmp_path, data=DATA.replace("points: 3", "points: x"))
    assert code == "R210" and message == "row 3 of 'gardeners.yaml': points \"x\" is not a " \
        "whole number"


def test_the_checker_knows_the_attribute_is_a_symbol(tmp_path: Path) -> None:
    text = RULE.replace("c.name == Sesshu", 'c.name == "Sesshu"', 1)
    [(code, line, _, message, help)] = _codes(tmp_path, text)
    assert (code, line) == ("R251", _line(RULE, "  choose c in row"))
    assert "a symbol of 'gardener_name' with a text" in message
    assert help == "write the symbol without quotes: Sesshu"
    other = RULE.replace("c.season != autumn or", "c.season != Muso or", 1)
    [(code, _, _, message, _)] = _codes(tmp_path, other)
    assert code == "R251" and "'season' and 'gardener_name'" in message


def test_a_default_of_another_type_is_reported(tmp_path: Path) -> None:
    text = RULE.replace("season: season = spring", "season: season = Muso")
    [(code, line, column, message, _)] = _codes(tmp_path, text)
    assert (code, line) == ("R230", _line(RULE, "piece gardener"))
    assert message == "the attribute 'season' of a 'gardener': expected a symbol of the " \
        "enumeration 'season', found a symbol of the enumeration 'gardener_name'"


def test_a_type_that_names_nothing_is_an_unknown_name(tmp_path: Path) -> None:
    text = RULE.replace("name: gardener_name,", "name: gardener_nam,")
    [(code, line, column, message, help)] = _codes(tmp_path, text)
    assert (code, line, column) == ("R201", _line(RULE, "piece gardener"), 27)
    assert message == "unknown type 'gardener_nam'"
    assert help.startswith("did you mean 'gardener_name'?")
    zone = RULE.replace("name: gardener_name,", "name: hand,")
    [(code, _, _, message, _)] = _codes(tmp_path, zone)
    assert (code, message) == ("R201", "'hand' names a zone, not a type")


def test_setting_a_typed_attribute_to_another_type_is_reported(tmp_path: Path) -> None:
    text = RULE.replace("  move c to hand of mover\n", "  move c to hand of mover\n"
                        "  set c.name = \"Muso\"\n  set c.season = summer\n")
    [(code, line, column, message, _)] = _codes(tmp_path, text)
    assert (code, line, column) == ("R230", _line(text, "  set c.name"), 16)
    assert message == "the attribute 'name': expected a symbol of the enumeration " \
        "'gardener_name', found a text"


def test_a_table_of_symbols_read_at_a_typed_attribute_is_checked(tmp_path: Path) -> None:
    table = "table worth: Muso -> 2, Zenami -> 1, Sesshu -> 3\n"
    good = RULE.replace("action draw\n", table + "action draw\n").replace(
        "  move c to hand of mover\n", "  move c to hand of mover\n  require worth[c.name] > 0\n")
    rulelang.load_game(_write(tmp_path, good))  # checks
    other = good.replace("worth[c.name]", "worth[c.season]")
    [(code, line, _, message, help)] = _codes(tmp_path, other)
    assert (code, line) == ("R251", _line(other, "  require worth"))
    assert message == "the table 'worth' is read at a symbol of the enumeration 'season': its " \
        "keys are symbols of 'gardener_name'"
    assert help == "a key of 'worth' is one of Muso, Zenami, Sesshu"
    quoted = good.replace("worth[c.name]", 'worth["Muso"]')
    [(code, _, _, _, help)] = _codes(tmp_path, quoted)
    assert (code, help) == ("R251", "write the symbol without quotes: Muso")
