"""Enumerations, tables and indexed zones (docs/language.md, "Enumerations, tables and
indexed zones"), each on its own: what the checker refuses (R2xx, positioned), what a game
does with them in both modes, and how indexed zones are named outside the rulebook
(observations, scenario files, the terminal). Their values, case by case, are in
tests/conformance/cases/19_enums_tables_zones.cases."""
from __future__ import annotations

from pathlib import Path

import pytest
from scenario_tools import load_text

import rulelang
from rulelang.errors import RuleRuntimeError
from rulelang.tools.scenario import scenarios
from rulelang.tools.terminal.screen import Screen

HERE = Path(__file__).resolve().parent / "constructs"
MODES = ("interpreted", "compiled")
HEAD = 'game "T"\nplayers North, South\npiece stone\nzone bag: 3 stone\n'


def _load(tmp_path: Path, body: str, mode: str = "compiled",
          options: dict[str, object] | None = None) -> rulelang.Game:
    return load_text(tmp_path, HEAD + body, mode, options)


def _codes(tmp_path: Path, body: str) -> list[tuple[str, int, int, str]]:
    """(code, line, column, message) of every diagnostic of a rulebook that must fail."""
    with pytest.raises(rulelang.RulebookError) as info:
        _load(tmp_path, body)
    return [(d.code, d.span.line, d.span.column, d.message) for d in info.value.diagnostics]


# ---- enumerations --------------------------------------------------------------------------
ENUM = "enum answer: accept, decline\nenum colour: red, blue\n"


def test_symbols_of_one_enumeration_compare_without_a_diagnostic(tmp_path: Path) -> None:
    game = _load(tmp_path, ENUM + "option reply: answer = decline\n"
                 "action respond\n  choose a in answer\n  when a == reply\n    winner mover\n"
                 "  when a != reply and a == accept\n    draw\nturn\n  do respond\n")
    state = game.new_initial_state()
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        ["respond accept", "respond decline"]
    state.apply_action("respond decline")  # the option's default
    assert state.is_terminal() and state.winners() == [0]


@pytest.mark.parametrize("mode", MODES)
def test_an_option_of_an_enumeration_takes_its_symbols(tmp_path: Path, mode: str) -> None:
    body = ENUM + ("option reply: answer = decline\naction respond\n  choose a in answer\n"
                   "  when a == reply\n    winner mover\nturn\n  do respond\n")
    game = _load(tmp_path, body, mode, {"reply": "accept"})
    state = game.new_initial_state()
    state.apply_action("respond accept")
    assert state.winners() == [0]
    with pytest.raises(rulelang.RulebookError, match="choose accept, decline"):
        _load(tmp_path, body, mode, {"reply": "maybe"})


@pytest.mark.parametrize("comparison, fragment", [
    ("a == red", "symbols of two enumerations, 'answer' and 'colour'"),
    ("blue != a", "symbols of two enumerations, 'colour' and 'answer'"),
    ('a == "accept"', "with a text"),
    ('"maybe" == a', "with a text"),
    ("a == 3", "with a number"),
    ("a == North", "with a player"),
    ("a.name == 1", "has no 'name'"),
])
def test_a_symbol_compared_with_another_kind_of_value(tmp_path: Path, comparison: str,
                                                      fragment: str) -> None:
    body = ENUM + f"action respond\n  choose a in answer\n  when {comparison}\n    draw\n" \
        "turn\n  do respond\n"
    [(code, line, _, message)] = _codes(tmp_path, body)
    assert (code, line) == ("R238" if ".name" in comparison else "R251", 9)
    assert fragment in message


def test_a_quoted_symbol_is_told_to_lose_its_quotes(tmp_path: Path) -> None:
    path = tmp_path / "t.rule"
    path.write_text(HEAD + ENUM + 'def yes(a) = a == answer_of(a)\ndef answer_of(a) = accept\n'
                    'turn\n  when answer_of(1) == "accept" or answer_of(1) == "maybe"\n'
                    '    draw\n', encoding="utf-8")
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(path)
    helps = [d.help for d in info.value.diagnostics]
    assert helps == ["write the symbol without quotes: accept",
                     "\"maybe\" is not a symbol of 'answer', which has accept, decline"]


def test_a_symbol_is_a_name_declared_once(tmp_path: Path) -> None:
    codes = _codes(tmp_path, ENUM + "enum other: accept, later\nturn\n  draw\n")
    assert [c[0] for c in codes] == ["R202"] and "'accept'" in codes[0][3]
    codes = _codes(tmp_path, ENUM + "turn\n  when accpet == accept\n    draw\n")
    assert codes[0][:2] == ("R201", 8) and "accpet" in codes[0][3]


def test_an_enumeration_option_default_must_be_one_of_its_symbols(tmp_path: Path) -> None:
    [(code, line, _, message)] = _codes(tmp_path, ENUM + "option reply: answer = maybe\n"
                                        "turn\n  draw\n")
    assert (code, line) == ("R205", 7) and "'maybe'" in message


# ---- tables -----------------------------------------------------------------------------------
TABLE = 'table points: "oak" -> 3, "pine" -> 1\n'


@pytest.mark.parametrize("mode", MODES)
def test_a_missing_computed_key_is_a_positioned_runtime_error(tmp_path: Path,
                                                              mode: str) -> None:
    game = _load(tmp_path, TABLE + 'def hidden(x) = x\nturn\n  when points[hidden("ash")] > 0'
                 "\n    draw\n", mode)
    with pytest.raises(RuleRuntimeError) as info:
        game.new_initial_state().legal_actions()
    d = info.value.diagnostic
    assert d.code == "R301" and (d.span.line, d.span.column) == (8, 8)
    assert "the table 'points' has no entry for ash (its keys: oak, pine)" in d.message


def test_a_table_is_made_once_when_the_game_is_made(tmp_path: Path) -> None:
    """A table whose value fails is an error when the game is made, before any move."""
    def_ = "def hidden(x) = x\n"
    with pytest.raises(RuleRuntimeError, match="same key twice"):
        _load(tmp_path, def_ + 'table t: hidden(1) -> 2, hidden(1) -> 3\nturn\n  draw\n')


@pytest.mark.parametrize("body, code, line, fragment", [
    ('turn\n  when points["ash"] == 1\n    draw\n', "R252", 7, "no entry for \"ash\""),
    ('table t: 1 -> "a", 1 -> "b"\nturn\n  draw\n', "R252", 6, "the key 1 twice"),
    ("table t: 1 -> size(bag)\nturn\n  draw\n", "R250", 6, "reads the game's state"),
    ("table t: 1 -> mover\nturn\n  draw\n", "R250", 6, "reads the game's state"),
    ('turn\n  when points["oak"] + "x" == 1\n    draw\n', "R230", 7, "cannot combine a number"),
])
def test_table_mistakes_at_check(tmp_path: Path, body: str, code: str, line: int,
                                 fragment: str) -> None:
    found = _codes(tmp_path, TABLE + body)
    assert found[0][:2] == (code, line) and fragment in found[0][3], found


def test_the_block_form_and_fixed_keys(tmp_path: Path) -> None:
    """Rows on lines of their own (a trailing comma allowed); keys of any fixed value; a
    table may use an option and a rule of fixed values."""
    game = _load(tmp_path, ENUM + "option n: 1..5 = 2\ndef twice(x) = 2 * x\n"
                 "table t:\n  accept -> twice(n), decline -> 0,\n  North -> 7\n"
                 "var out = (t[accept], t[decline], t[North], size(t))\nturn\n  draw\n")
    obs = game.new_initial_state().observation(0)
    assert [v["value"] for v in obs["vars"]] == [[4, 0, 7, 3]]


# ---- indexed zones -----------------------------------------------------------------------------
@pytest.mark.parametrize("body, code, line, fragment", [
    ("zone stack[1..3]\nturn\n  move top(bag) to stack[4]\n", "R253", 7, "no zone stack[4]"),
    ("zone stack[1..3]\nturn\n  move top(bag) to stack[-1]\n", "R253", 7, "stack[-1]"),
    ('zone stack[1..3]\nturn\n  move top(bag) to stack["a"]\n', "R230", 7, "expected a number"),
    ("zone hand[1..3] each player\nturn\n  move top(bag) to hand[1]\n", "R204", 7,
     "belong to each player: write 'hand[1] of <player>'"),
    ("zone stack[1..3]\nturn\n  move top(bag) to stack[1] of mover\n", "R204", 7,
     "shared, not one per player"),
    ("zone hand[1..3] each player\nturn\n  move top(bag) to hand[0] of mover\n", "R253", 7,
     "no zone hand[0]"),
    ("zone hand[1..3] each player\nturn\n  let h = hand\n  move top(bag) to h[1]\n", "R204",
     8, "write 'h[1] of <player>'"),
    ("zone stack[1..3]\nturn\n  when stack.size == 0\n    draw\n", "R238", 7,
     "the indexed zones 'stack' has no 'size'"),
    ("zone stack[3..1]\nturn\n  draw\n", "R205", 5, "from a number up to another"),
    ("zone stack[1..5000]\nturn\n  draw\n", "R205", 5, "at most 1000"),
    ("zone stack[1..3]\nturn\n  move top(bag) to stack\n", "R230", 7, "indexed zones"),
])
def test_indexed_zone_mistakes_at_check(tmp_path: Path, body: str, code: str, line: int,
                                        fragment: str) -> None:
    found = _codes(tmp_path, body)
    assert found[0][:2] == (code, line) and fragment in found[0][3], found


@pytest.mark.parametrize("mode", MODES)
def test_a_computed_index_out_of_range_is_a_positioned_runtime_error(tmp_path: Path,
                                                                     mode: str) -> None:
    game = _load(tmp_path, "zone stack[1..3]\naction place\n  choose number i in 1..4\n"
                 "  move top(bag) to stack[i]\nturn\n  do place\n", mode)
    state = game.new_initial_state()
    state.apply_action("place 3")
    with pytest.raises(RuleRuntimeError) as info:
        state.apply_action("place 4")
    d = info.value.diagnostic
    assert (d.code, d.span.line, d.span.column) == ("R301", 8, 20)
    assert "stack[1] to stack[3]: there is no stack[4]" in d.message


def test_indexed_zones_are_named_stack_1_in_observations_and_views(tmp_path: Path) -> None:
    game = _load(tmp_path, "zone stack[1..3] ordered: 1 stone\nzone pile[0..1]\nturn\n"
                 "  draw\nview\n  hide pile\n")
    obs = game.new_initial_state().observation(0)
    assert [(z["zone"], z["count"]) for z in obs["zones"]] == [
        ("bag", 3), ("stack[1]", 1), ("stack[2]", 1), ("stack[3]", 1), ("pile[0]", 0),
        ("pile[1]", 0)]
    assert obs["view"]["hidden"] == ["pile[0]", "pile[1]"]


def test_the_terminal_shows_a_row_of_indexed_zones_as_one_item(tmp_path: Path) -> None:
    game = _load(tmp_path, "zone stack[1..3]\nzone pile1\nzone pile2\naction place\n"
                 "  choose number i in 1..3\n  move top(bag) to stack[i]\nturn\n  do place\n")
    state = game.new_initial_state()
    state.apply_action("place 3")
    text = "\n".join(t.plain for t in Screen(state.observation(0)).lines())
    assert "stack[1..3]: 0, 0, 1" in text and "pile1-2: 0, 0" in text
    game = _load(tmp_path, "zone stack[1..3]\nturn\n  draw\nview\n  show stack as \"Piles\"\n")
    text = "\n".join(t.plain for t in Screen(game.new_initial_state().observation(0)).lines())
    assert "Piles 1..3: 0, 0, 0" in text


# ---- together: the example rulebook and its scenarios -------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_the_example_rulebook_scenarios(mode: str) -> None:
    """tests/constructs/stacks.test: `given move all from deck to stack[1]`, `zone stack[2]
    holds …`, symbols as action strings and vars, a table in the scores."""
    file = scenarios.read(HERE / "stacks.test")
    assert len(file.scenarios) == 4
    for sc in file.scenarios:
        failure = scenarios.run_one(file, sc, mode)
        assert failure is None, f"{sc.name}: {failure}"


def test_a_scenario_naming_an_index_out_of_range_is_refused(tmp_path: Path) -> None:
    (tmp_path / "stacks.rule").write_text((HERE / "stacks.rule").read_text(), encoding="utf-8")
    (tmp_path / "stacks_cards.yaml").write_text((HERE / "stacks_cards.yaml").read_text(),
                                                encoding="utf-8")
    (tmp_path / "s.test").write_text('rulebook "stacks.rule"\n\nscenario "x"\n  given\n'
                                     '    move all from deck to stack[7]\n  expect over\n',
                                     encoding="utf-8")
    file = scenarios.read(tmp_path / "s.test")
    failure = scenarios.run_one(file, file.scenarios[0], "compiled")
    assert failure is not None and "stack[7]" in failure


@pytest.mark.parametrize("mode", MODES)
def test_indexed_zones_of_each_player(tmp_path: Path, mode: str) -> None:
    """`zone hand[1..2] each player`: hand[i] of p, named hand[1] of its owner outside."""
    game = _load(tmp_path, "zone hand[1..2] each player\naction place\n"
                 "  choose number i in 1..2\n  let h = hand\n  move top(bag) to h[i] of mover\n"
                 "turn\n  do place\n", mode)
    state = game.new_initial_state()
    for action in ("place 2", "place 1", "place 2"):
        state.apply_action(action)
    obs = state.observation(0)
    assert [(z["zone"], z["owner"], z["count"]) for z in obs["zones"]][1:] == [
        ("hand[1]", "North", 0), ("hand[1]", "South", 1), ("hand[2]", "North", 2),
        ("hand[2]", "South", 0)]
    text = "\n".join(t.plain for t in Screen(obs).lines())
    assert "you: hand[1..2]: 0, 2" in text


def test_indexed_zones_keep_their_visibility(tmp_path: Path) -> None:
    """`visible to owner` holds for each zone of the row: the other player sees a count."""
    game = _load(tmp_path, "zone hand[1..2] each player visible to owner\naction place\n"
                 "  move top(bag) to hand[2] of mover\nturn\n  do place\n")
    state = game.new_initial_state()
    state.apply_action("place")
    own, other = (
        next(z for z in state.observation(p)["zones"]
             if (z["zone"], z["owner"]) == ("hand[2]", "North")) for p in (0, 1))
    assert own["count"] == other["count"] == 1
    assert own["pieces"] and other["pieces"] is None


def test_the_end_rule_is_shown_as_written(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """`rulelang play` shows the rule that ended the game with its `stack[i]` (not read as
    terminal markup)."""
    from rulelang.tools import cli
    path = tmp_path / "t.rule"
    path.write_text(HEAD + "zone stack[1..2]\nturn\n  let i = 2\n  when size(stack[i]) == 0"
                    "\n    draw\n", encoding="utf-8")
    assert cli.main(["play", str(path), "--agents", "random,random"]) == 0
    assert "when size(stack[i]) == 0 → draw" in capsys.readouterr().out


@pytest.mark.parametrize("mode", MODES)
def test_a_table_made_from_itself_is_refused(tmp_path: Path, mode: str) -> None:
    with pytest.raises(RuleRuntimeError, match="the table 't' is made from itself") as info:
        _load(tmp_path, "def first_of(x) = t[x]\ntable t: 1 -> 2, 2 -> first_of(1)\n"
              "turn\n  draw\n", mode)
    assert info.value.diagnostic.span.line == 6


def test_scenario_files_name_indexed_zones_of_each_player(tmp_path: Path) -> None:
    (tmp_path / "t.rule").write_text(HEAD + "zone hand[1..2] each player\naction place\n"
                                     "  move top(bag) to hand[2] of mover\nturn\n  do place\n",
                                     encoding="utf-8")
    (tmp_path / "t.test").write_text(
        'rulebook "t.rule"\n\nscenario "a"\n  given\n    move "stone" to hand[1] of South\n'
        '  when "place"\n  expect\n    zone hand[2] of North count 1\n'
        '    zone hand[1] of South holds ["stone"]\n    zone bag count 1\n\n'
        'scenario "b"\n  expect zone hand[2] of North count 1\n', encoding="utf-8")
    file = scenarios.read(tmp_path / "t.test")
    first, second = (scenarios.run_one(file, sc, "compiled") for sc in file.scenarios)
    assert first is None, first
    assert second is not None and "hand[2]" in second  # honest: a wrong count fails
