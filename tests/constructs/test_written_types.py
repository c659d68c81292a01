"""Written types of rules' parameters (docs/language.md, "Written types"), on their own:
`def free(s: site)`, `effect drop(s: site, k: number)`; a call with an argument of another
type is R230 where it is written, a body that misuses a parameter of a written type is R230
in the body, a written type that names nothing is R201; a game plays the same with and
without them. The values, case by case, are in tests/conformance/cases/22_written_types.cases."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

HEAD = '''game "Written"
players A, B
use square
board square.grid(3, 3, 3)
enum colour: red, blue
piece stone with level = 0
zone supply each player: 5 stone
'''
RULES = '''def free(s: site) = empty(s)
def bright(c: colour, n: number) = c == red and n > 0
def all_free(ss: list of site) = all s in ss: free(s)
def level_of(x: stone) = x.level
effect drop(s: site, k: number)
  put stone of mover at s as t
  set t.level = k
action place
  choose site s in sites where free(s) and bright(red, 2) and all_free([s])
  drop(s, 3)
turn
  do place
end
  if (count s in sites where occupied(s)) == 4
    winner mover
'''


def _write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "written.rule"
    path.write_text(HEAD + body, encoding="utf-8")
    return path


def _codes(tmp_path: Path, body: str) -> list[tuple[str, int, int, str, str]]:
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.load_game(_write(tmp_path, body))
    return [(d.code, d.span.line, d.span.column, d.message, d.help or "")
            for d in info.value.diagnostics]


def _line(body: str, start: str) -> int:
    text = HEAD + body
    return next(i for i, line in enumerate(text.splitlines(), start=1) if line.startswith(start))


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_written_types_do_not_change_the_game(tmp_path: Path, mode: str) -> None:
    plain = RULES.replace("s: site", "s").replace("c: colour, n: number", "c, n").replace(
        "ss: list of site", "ss").replace("x: stone", "x").replace("k: number", "k")
    assert plain != RULES
    games = []
    for n, body in enumerate((RULES, plain)):
        sub = tmp_path / str(n)
        sub.mkdir()
        state = rulelang.load_game(_write(sub, body), mode=mode).new_initial_state()
        shown = []
        while not state.is_terminal():
            action = state.legal_actions()[-1]
            shown.append(state.action_to_string(action))
            state.apply_action(action)
        games.append((shown, state.winners()))
    assert games[0] == games[1] and games[0][0][0] == "place c3"


def test_a_call_with_an_argument_of_another_type_is_reported_at_the_call(
        tmp_path: Path) -> None:
    body = RULES.replace("  drop(s, 3)\n", '  drop(mover, "x")\n  require free(last.player)\n'
                         '  require bright("red", 1) and all_free([mover])\n')
    drop, free, bright = (_line(body, "  drop("), _line(body, "  require free"),
                          _line(body, "  require bright"))
    assert _codes(tmp_path, body) == [
        ("R230", drop, 8, "drop(…), argument 1: expected a site, found a player",
         "'mover' is a player; 'drop' declares 's: site'"),
        ("R230", drop, 15, "drop(…), argument 2: expected a number, found a text",
         "'\"x\"' is a text; 'drop' declares 'k: number'"),
        ("R230", free, 16, "free(…), argument 1: expected a site, found a player",
         "'last.player' is a player; 'free' declares 's: site'"),
        ("R230", bright, 18, "bright(…), argument 1: expected a symbol of the enumeration "
         "'colour', found a text", "write the symbol without quotes: red"),
        ("R230", bright, 41, "all_free(…), argument 1: expected a list of sites, found a list "
         "of players", "'[mover]' is a list of players; 'all_free' declares 'ss: list of site'"),
    ]


def test_a_piece_kind_names_a_piece_of_that_kind(tmp_path: Path) -> None:
    body = RULES + "def trouble = level_of(first s in sites)\n"
    [(code, line, _, message, _)] = _codes(tmp_path, body)
    assert (code, line) == ("R230", _line(body, "def trouble"))
    assert message == "level_of(…), argument 1: expected a 'stone' piece, found a site"


def test_the_body_is_checked_with_the_written_types(tmp_path: Path) -> None:
    body = RULES + "def misuse(p: player) = empty(p)\n"
    [(code, line, column, message, _)] = _codes(tmp_path, body)
    assert (code, line, column) == ("R230", _line(body, "def misuse"), 31)
    assert message == "empty(…), argument 1: expected a site, found a player"


@pytest.mark.parametrize(("written", "message"), [
    ("sight", "unknown type 'sight'"),
    ("supply", "'supply' names a zone, not a type"),
    ("list", "'list' needs the type of its items"),
    ("site of number", "'site of …' is no type: only a list has items"),
    ("list of sight", "unknown type 'sight'"),
])
def test_a_written_type_that_names_no_type_is_r201(tmp_path: Path, written: str,
                                                   message: str) -> None:
    body = RULES.replace("def free(s: site)", f"def free(s: {written})")
    [(code, line, column, got, _)] = _codes(tmp_path, body)
    assert (code, line, column, got) == ("R201", _line(body, "def free"), 13, message)
