"""Rules written as clauses selected by a symbol (docs/language.md, "Rules written as
clauses"), on their own: a game that uses them (tests/constructs/clauses.rule) played the same
in both modes, the result type inferred across clauses, the positioned runtime error for a
value no clause is for, the check-time mistakes (R260-R265; their full text is the golden
tests/golden/errors/clauses_misuse.err) and rule coverage by clause. Values, case by case:
tests/conformance/cases/21_clauses.cases."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from scenario_tools import load_text

import rulelang
from rulelang.errors import RuleRuntimeError
from rulelang.tools.evidence.coverage import rule_coverage

HERE = Path(__file__).resolve().parent
GROVES = HERE / "clauses.rule"
MODES = ("interpreted", "compiled")
HEAD = 'game "T"\nplayers North, South\npiece stone\nzone bag: 3 stone\nenum tree: oak, pine\n'


def _load(tmp_path: Path, body: str, mode: str = "compiled") -> rulelang.Game:
    return load_text(tmp_path, HEAD + body, mode)


def _diagnostics(tmp_path: Path, body: str) -> list[tuple[str, int, int, str]]:
    with pytest.raises(rulelang.RulebookError) as info:
        _load(tmp_path, body)
    return [(d.code, d.span.line, d.span.column, d.message) for d in info.value.diagnostics]


def _play(mode: str, seed: int) -> tuple[list[str], list[int], list[int]]:
    game = rulelang.load_game(GROVES, mode=mode)
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    played: list[str] = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        played.append(state.action_to_string(action))
        state.apply_action(action)
    return played, list(state.scores()), list(state.winners())


@pytest.mark.parametrize("seed", [1, 2])
def test_a_game_of_clauses_is_the_same_in_both_modes(seed: int) -> None:
    played, scores, winners = _play("compiled", seed)
    assert _play("interpreted", seed) == (played, scores, winners)
    assert played[0] in ("plant pine", "plant elm")  # oak needs two seeds in one's grove
    assert set(played) <= {"plant oak", "plant pine", "plant elm"} and winners


@pytest.mark.parametrize("mode", MODES)
def test_each_clause_does_its_own_row(mode: str) -> None:
    """pine takes a seed from the bag and scores 1, elm gives one back and scores 2, oak
    scores the size of one's grove once one holds two."""
    game = rulelang.load_game(GROVES, mode=mode)
    state = game.new_initial_state()

    def strings() -> list[str]:
        return [state.action_to_string(a) for a in state.legal_actions()]
    assert strings() == ["plant pine", "plant elm"]
    for action in ("plant pine", "plant pine", "plant pine", "plant elm"):
        state.apply_action(action)
    assert list(state.scores()) == [2, 3]  # North: pine, pine; South: pine, elm
    assert strings() == ["plant oak", "plant pine", "plant elm"]
    state.apply_action("plant oak")  # North's grove holds two: 2 more points
    assert list(state.scores()) == [4, 3]


def test_the_result_type_is_inferred_across_clauses(tmp_path: Path) -> None:
    """Every clause gives a number: the rule gives a number, wherever it is used."""
    found = _diagnostics(tmp_path, "def cost(oak) = 3\ndef cost(pine) = 1\nturn\n"
                         "  winner cost(oak)\n")
    assert [(c, line) for c, line, _, _ in found] == [("R235", 9)]
    assert "found a number" in found[0][3]


def test_clauses_that_give_different_types_give_an_undecided_one(tmp_path: Path) -> None:
    game = _load(tmp_path, 'def cost(oak) = 3\ndef cost(pine) = "one"\nturn\n'
                 '  if cost(pine) == "one"\n    winner mover\n')
    state = game.new_initial_state()
    assert state.is_terminal() and state.winners() == [0]


@pytest.mark.parametrize("mode", MODES)
def test_a_value_no_clause_is_for_is_a_positioned_runtime_error(tmp_path: Path,
                                                               mode: str) -> None:
    game = _load(tmp_path, 'def cost(oak) = 3\ndef cost(pine) = 1\ndef hidden(x) = x\n'
                 'turn\n  if cost(hidden("ash")) > 0\n    draw\n', mode)
    with pytest.raises(RuleRuntimeError) as info:
        game.new_initial_state()
    d = info.value.diagnostic
    assert d.code == "R301" and (d.span.line, d.span.column) == (6, 1)
    assert d.message == "'cost' has no clause for ash (its clauses are for oak, pine)"


@pytest.mark.parametrize("mode", MODES)
def test_an_effect_given_a_value_no_clause_is_for(tmp_path: Path, mode: str) -> None:
    game = _load(tmp_path, 'effect grow(oak, p)\n  draw\neffect grow(pine, p)\n  draw\n'
                 'def hidden(x) = x\nturn\n  grow(hidden(3), mover)\n', mode)
    with pytest.raises(RuleRuntimeError, match="'grow' has no clause for 3") as info:
        game.new_initial_state()
    assert info.value.diagnostic.span.line == 6


@pytest.mark.parametrize("mode", MODES)
def test_a_catch_all_named_like_a_rule_the_other_clauses_use(tmp_path: Path,
                                                              mode: str) -> None:
    """The catch-all's parameter names its own argument only: `other` in the oak clause is
    still the rule `other`; parameters named differently in each clause are each their own."""
    game = _load(tmp_path, "def other = 10\ndef f(oak, a, b) = other + a - b\n"
                 "def f(other, b, a) = a - b\nturn\n  if f(oak, 5, 1) == 14 and f(pine, 5, 1) "
                 "== -4 and f(3, 2, 7) == 5\n    winner mover\n", mode)
    assert game.new_initial_state().winners() == [0]


@pytest.mark.parametrize("body, expected", [
    ("def f(oak, p) = 1\ndef f(pine) = 2\n", [("R260", 7, 1)]),
    ("enum colour: red\ndef f(oak) = 1\ndef f(red) = 2\ndef f(pine) = 3\n", [("R261", 8, 7)]),
    ("def f(oak) = 1\ndef f(pine) = 2\ndef f(oak) = 3\n", [("R262", 8, 7)]),
    ("def f(oak) = 1\ndef f(x) = 2\ndef f(pine) = 3\n", [("R263", 8, 7)]),
    ("enum wood: ash, elm, fir\ndef f(ash) = 1\ndef f(elm) = 2\n", [("R264", 7, 1)]),
    ("def f(pine) = 1\ndef f = 2\ndef f(oak) = 1\n", [("R265", 7, 1)]),
    ("def f(pine) = 1\neffect f(oak)\n  draw\n", [("R265", 7, 1)]),
])
def test_mistakes_in_clauses_are_reported_at_check(tmp_path: Path, body: str,
                                                   expected: list[tuple[str, int, int]]
                                                   ) -> None:
    found = _diagnostics(tmp_path, body + "turn\n  draw\n")
    assert [(c, line, col) for c, line, col, _ in found] == expected


def test_all_mistakes_are_reported_together(tmp_path: Path) -> None:
    """Clause mistakes come with the file's other mistakes, in the order of the file."""
    found = _diagnostics(tmp_path, "def f(oak) = 1\ndef f(oak) = 2\nturn\n  winner nobody\n")
    assert [(c, line) for c, line, _, _ in found] == [("R264", 6), ("R262", 7), ("R201", 9)]


def test_a_parameter_named_like_no_symbol_stays_a_plain_rule(tmp_path: Path) -> None:
    """Only a first parameter that is a symbol makes a clause: two plain rules of one name
    are still a name defined twice."""
    found = _diagnostics(tmp_path, "def f(x) = 1\ndef f(y) = 2\nturn\n  draw\n")
    assert [c for c, _, _, _ in found] == ["R202"]


@pytest.mark.parametrize("mode", MODES)
def test_a_rule_declared_once_is_never_clauses(tmp_path: Path, mode: str) -> None:
    """A parameter spelled like a symbol is a name of its own (it hides the symbol) when its
    rule is declared once: `def has(oak) = oak + 1` is a plain rule."""
    game = _load(tmp_path, "def has(oak) = oak + 1\nturn\n  if has(2) == 3\n    winner mover\n",
                 mode)
    assert game.new_initial_state().winners() == [0]


def test_each_clause_of_an_effect_is_a_branch_of_rule_coverage() -> None:
    game = rulelang.load_game(GROVES)
    record = {"seed": 0, "actions": ["plant pine", "plant pine"], "terms": []}
    report = rule_coverage(game, str(GROVES), None, [record])
    branches = [(u["what"], u["text"]) for u in report["unused"] if "branch" in u["what"]]
    assert ("branch", "effect planted(oak, p)") in branches
    assert ("branch", "effect planted(elm, someone)") in branches
    assert not any("pine" in text for _, text in branches)  # the one clause that ran
    assert not any(what.endswith("(else)") for what, _ in branches)  # no catch-all: none


@pytest.mark.parametrize("call, found", [
    ('worth("oak")', "a text"), ("worth(3)", "a number"), ("worth(mover)", "a player"),
    ("worth(red)", "a symbol of 'colour'")])
def test_the_selecting_argument_is_a_symbol_of_the_enumeration(tmp_path: Path, call: str,
                                                               found: str) -> None:
    """Without a catch-all, a first argument that no clause can be for is R251 at check; a
    symbol of the enumeration, or a value of undecided type, is not."""
    body = ("enum colour: red\ndef worth(oak) = 3\ndef worth(pine) = 1\ndef hidden(x) = x\n"
            f"turn\n  if worth(oak) + worth(hidden(1)) + {call} > 0\n    draw\n")
    found_ = _diagnostics(tmp_path, body)
    assert [(c, line) for c, line, _, _ in found_] == [("R251", 11)]
    assert found_[0][3].endswith(f"its first argument is {found}")


def test_a_catch_all_takes_any_first_argument(tmp_path: Path) -> None:
    """(The text "oak" is the value of the symbol oak: it runs the oak clause.)"""
    game = _load(tmp_path, 'def worth(oak) = 3\ndef worth(x) = 1\neffect grow(oak)\n  draw\n'
                 'effect grow(x)\n  winner mover\nturn\n  if worth("oak") + worth(3) == 4\n'
                 '    grow(mover)\n')
    assert game.new_initial_state().winners() == [0]
