"""Refusals and mistakes in a `do` menu (docs/language.md, "What refuses a way of acting"):
while a menu is made each way of acting is tried, and only a refusal — a `require` that
fails, a `put` with no piece left, a `move`/`remove` of no piece, a piece sent to none —
makes it illegal. Any other runtime error met there (a division by zero, the step budget) is
a mistake in the rules: it is reported with its position, the same in both modes, and the
command line shows it as a diagnostic, never a traceback. The menu cases are also in
tests/conformance/cases/23_menu_refusals.cases."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import Refusal, RuleRuntimeError, StatedChanceError
from rulelang.tools.cli import main

MODES = ("compiled", "interpreted")
HEAD = '''game "Refusals"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone supply each player: 3 stone
zone empty_bag: 0 stone
counter zero = 0
counter n from -100 to 100 = 0
def hidden(x) = x
action pass
  increase n by 1
'''
TURN = '''turn
  do place or pass
end
  if n >= 2
    draw
'''

# a mistake inside a tried way: (the action, the text at the error's position, its code)
MISTAKES = {
    "require": ('''action place
  choose site s in sites where empty(s)
  require 10 // zero > 0 else "never"
  put stone of mover at s
''', "10 // zero", "R301"),
    "effect after the last choice": ('''effect settle(s)
  increase n by 10 // zero
  put stone of mover at s
action place
  choose site s in sites where empty(s)
  settle(s)
''', "10 // zero", "R301"),
    "if after the last choice": ('''action place
  choose site s in sites where empty(s)
  if 10 // zero > 0
    put stone of mover at s
''', "10 // zero", "R301"),
    "if between chooses": ('''action place
  choose site s in sites where empty(s)
  if [1, 2][zero + 5] > 0
    increase n by 1
  choose site t in sites where empty(t) and t != s
  put stone of mover at s
''', "[1, 2][zero + 5]", "R301"),
    "wrong type in a tried effect": ('''action place
  choose site s in sites where empty(s)
  move hidden(zero) to s
  require n == 0
''', "hidden(zero)", "R301"),
    "step budget": ('''action place
  choose site s in sites where empty(s)
  require (count k in 0..3000000: k > 0) > 0
  put stone of mover at s
''', "count k in 0..3000000: k > 0", "R302"),
}


def _write(tmp_path: Path, action: str, name: str = "book") -> Path:
    path = tmp_path / f"{name}.rule"
    path.write_text(HEAD + action + TURN, encoding="utf-8")
    return path


def _where(path: Path, text: str) -> tuple[int, int]:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if text in line:
            return number, line.index(text) + 1
    raise AssertionError(f"{text!r} is not in {path}")


def _menu_error(path: Path, mode: str) -> RuleRuntimeError:
    game = rulelang.load_game(path, mode=mode)
    with pytest.raises(RuleRuntimeError) as info:
        game.new_initial_state(0)  # the first menu is made here
    return info.value


@pytest.mark.parametrize("case", sorted(MISTAKES))
def test_a_mistake_in_a_tried_way_is_reported_in_both_modes(tmp_path: Path, case: str) -> None:
    action, text, code = MISTAKES[case]
    path = _write(tmp_path, action)
    line, column = _where(path, text)
    found = []
    for mode in MODES:
        err = _menu_error(path, mode)
        d = err.diagnostic
        assert not isinstance(err, Refusal), (mode, d.message)
        assert d.code == code, (mode, d)
        assert d.span is not None and (d.span.line, d.span.column) == (line, column), (mode, d)
        assert f"{path}:{line}:{column}: error[{code}]" in err.render()
        found.append((d.code, d.message, d.span.line, d.span.column))
    assert found[0] == found[1]


REFUSED = {
    "require false": '''action place
  choose site s in sites where empty(s)
  require n > 5 else "not yet"
  put stone of mover at s
''',
    "put with an empty zone": '''action place
  choose site s in sites where empty(s)
  put stone from empty_bag at s
''',
    "put after the last choice, in an if": '''action place
  choose site s in sites where empty(s)
  if zero == 0
    put stone from empty_bag at s
''',
    "move of no piece, before a require": '''action place
  choose site s in sites where empty(s)
  move top(s) to supply of mover
  require n == 0
''',
    "remove of no piece, between chooses": '''action place
  choose site s in sites where empty(s)
  remove top(s)
  choose site t in sites where empty(t)
  put stone of mover at t
''',
    "a piece sent nowhere": '''action place
  choose site s in sites where empty(s)
  put stone of mover at none
  require n == 0
''',
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_refusal_only_removes_the_way(tmp_path: Path, case: str) -> None:
    path = _write(tmp_path, REFUSED[case])
    menus = []
    for mode in MODES:
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        menus.append([state.action_to_string(a) for a in state.legal_actions()])
    assert menus[0] == menus[1] == ["pass"]


def test_a_way_the_rules_allow_is_still_offered(tmp_path: Path) -> None:
    """The control of the cases above: without the refusal, every empty site is a way."""
    path = _write(tmp_path, '''action place
  choose site s in sites where empty(s)
  require n == 0 else "too late"
  put stone of mover at s
''')
    for mode in MODES:
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        assert len(state.legal_actions()) == 9 + 1


def test_an_effect_not_tried_is_reported_when_the_way_is_taken(tmp_path: Path) -> None:
    """After the last choice, only a `require` or a `put` (also inside an `if` or an
    effect) makes the rest be tried: a lone `move` of no piece is offered, and taking it
    stops the game (R301) where the move is."""
    path = _write(tmp_path, '''action place
  choose site s in sites where empty(s)
  move top(s) to supply of mover
''')
    for mode in MODES:
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        assert state.action_to_string(0) == "place a1"
        with pytest.raises(Refusal) as info:
            state.apply_action(0)
        assert info.value.diagnostic.code == "R301"
        assert info.value.diagnostic.message == "'move' needs a piece, not none"
        assert info.value.diagnostic.span.line == _where(path, "move top(s)")[0]


def test_a_refusal_outside_a_menu_is_reported_as_before(tmp_path: Path) -> None:
    """A `require` that fails where no menu is made stops the game with R301 and its
    message, as every rule error does (a Refusal is a RuleRuntimeError)."""
    path = tmp_path / "setup.rule"
    path.write_text(HEAD + '''setup
  require zero > 0 else "the setup needs a number"
''' + TURN.replace("do place or pass", "do pass"), encoding="utf-8")
    for mode in MODES:
        err = _menu_error(path, mode)
        assert isinstance(err, Refusal)
        assert err.diagnostic.code == "R301"
        assert "the setup needs a number" in err.diagnostic.message
        assert err.diagnostic.span is not None and err.diagnostic.span.line == \
            _where(path, "require zero")[0]


def test_a_mistake_met_later_is_raised_by_the_action_that_reaches_the_menu(
        tmp_path: Path) -> None:
    path = _write(tmp_path, '''action place
  choose site s in sites where empty(s)
  require 10 // (1 - n) > 0
  put stone of mover at s
''')
    for mode in MODES:
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        assert state.action_to_string(state.legal_actions()[-1]) == "pass"
        with pytest.raises(RuleRuntimeError) as info:
            state.apply_action("pass")  # n becomes 1: the next menu divides by zero
        assert info.value.diagnostic.span.line == _where(path, "10 // (1 - n)")[0]


def test_the_command_line_shows_the_position(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    action, text, _ = MISTAKES["require"]
    path = _write(tmp_path, action, "command_line")
    line, column = _where(path, text)
    head = f"{path}:{line}:{column}: error[R301]: cannot compute 10 // 0"
    for argv in (["check", "--simulate", "1", str(path)],
                 ["play", "--agents", "random,random", str(path)]):
        assert main(argv) == 1, argv
        out, err = capsys.readouterr()
        assert head in out + err, argv
        assert "Traceback" not in out + err


def test_a_rule_error_crosses_processes_whole() -> None:
    """`evaluate` plays in worker processes: an error comes back with its code, message,
    position and class."""
    for err in (Refusal("no stone left", None), RuleRuntimeError("over", None, "R302"),
                StatedChanceError("not an outcome", None, None)):
        back = pickle.loads(pickle.dumps(err))
        assert type(back) is type(err)
        assert back.diagnostic == err.diagnostic and str(back) == str(err)


def test_the_same_rulebook_in_two_folders_reports_each_its_own_path(tmp_path: Path) -> None:
    """Checked programs are kept per content and per path: the second copy's error names
    the second file, not the first one loaded."""
    action, text, _ = MISTAKES["require"]
    for folder in ("first", "second"):
        (tmp_path / folder).mkdir()
        path = _write(tmp_path / folder, action)
        for mode in MODES:
            assert _menu_error(path, mode).diagnostic.span.path == str(path)
