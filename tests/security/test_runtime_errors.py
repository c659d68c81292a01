"""Broken rulebooks that load but fail while played: each failure is a positioned R3xx
diagnostic (never a Python exception), the same text in both modes, and no internal piece id
(`mark#4`) in it. Each case was found by the fuzzer (tests/fuzz) as a KeyError, TypeError or
AttributeError inside the evaluators."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

MODES = ("interpreted", "compiled")
HEAD = """use square
game "T"
players X, O
board square.grid(3, 3, 3)
piece mark
zone supply each player: 5 mark
def free = each s in sites where empty(s)
var v = 2
"""
TAIL = """
turn
  do place
end
  when size(free) == 0
    draw
"""


def play(path: Path, mode: str, plies: int = 2) -> str:
    """The rendered diagnostic of loading and playing a few plies (first legal action)."""
    rulelang._PROGRAMS.clear()
    rulelang._RUNTIMES.clear()
    try:
        game = rulelang.load_game(path, mode=mode)
        state = game.new_initial_state(seed=0)
        for _ in range(plies):
            state.observation(0)
            state.apply_action(state.legal_actions()[0])
    except rulelang.RulelangError as err:
        return err.render().replace(str(path), "T.rule")
    return "ok"


def action(*lines: str) -> str:
    return "action place\n  choose site s in free\n  put mark of mover at s\n" + "".join(
        f"  {line}\n" for line in lines)


# Each case: the broken line as a designer might write it, which the type checker now refuses
# before play (its R2xx code), and the same line with the offending value passed through
# `hidden` (a rule whose type the checker does not know), which reaches the evaluators and
# must fail there with the positioned R301 (its first line; the source line and caret follow).
CASES = {
    # a choice's domain that is not a collection (TypeError: 'int' object is not iterable)
    "int_domain": ("action place\n  choose site s in {}\n  put mark of mover at s\n", "5",
                   "R231", "T.rule:11:20: error[R301]: 5 is not a collection"),
    "player_domain": ("action place\n  choose site s in {}\n  put mark of mover at s\n",
                      "mover", "R231", "T.rule:11:20: error[R301]: X is not a collection"),
    # `last` has no such field (compiled: KeyError 'b'; the dict showed `mark#4`)
    "last_field": (action("let y = {}.b"), "last", "R238",
                   "T.rule:13:11: error[R301]: {action: none, player: none, site: a1, piece: "
                   "mark} has no 'b'"),
    # a relation called on something that is not a site (AttributeError: no 'index')
    "relation_of_player": (action("let y = square.north({})"), "mover", "R230",
                           "T.rule:13:11: error[R301]: relation 'north' takes one site, not X"),
    "relation_of_list": (action("let y = square.north({})"), "square.north(s)", "R230",
                         "T.rule:13:11: error[R301]: relation 'north' takes one site, not (a2)"),
    # unary minus of a site and of a tuple (TypeError: bad operand type for unary -)
    "negate_site": (action("let y = -{}"), "s", "R230",
                    "T.rule:13:11: error[R301]: cannot compute -a1: not a number"),
    "negate_tuple": (action("let y = -{}"), "(1, 2)", "R230",
                     "T.rule:13:11: error[R301]: cannot compute -(1, 2): not a number"),
    # `in` on a relation and on a number (TypeError: argument is not iterable)
    "in_relation": (action("let y = s in {}"), "square.north", "R231",
                    "T.rule:13:11: error[R301]: cannot compare a1 in relation north"),
    "in_number": (action("let y = 1 in {}"), "5", "R231",
                  "T.rule:13:11: error[R301]: cannot compare 1 in 5"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_runtime_error_is_positioned_and_the_same_in_both_modes(name: str,
                                                                 tmp_path: Path) -> None:
    body, value, check_code, expected = CASES[name]
    path = tmp_path / "T.rule"
    path.write_text(HEAD + "def hidden(x) = x\n" + body.format(value) + TAIL, encoding="utf-8")
    for mode in MODES:
        assert f"error[{check_code}]" in play(path, mode).splitlines()[0]  # refused at check
    path.write_text(HEAD + "def hidden(x) = x\n" + body.format(f"hidden({value})") + TAIL,
                    encoding="utf-8")
    got = {mode: play(path, mode) for mode in MODES}
    assert got["interpreted"] == got["compiled"]
    lines = got["compiled"].splitlines()
    assert lines[0] == expected
    assert f"hidden({value})" in lines[2] and "^" in lines[3]
    assert "#" not in expected  # no internal piece id


def test_a_geometry_cannot_use_the_board_it_builds(tmp_path: Path) -> None:
    """`'Runtime' object has no attribute 'board'`: a geometry whose names call a rule
    about the board (a same-file identifier put in place of a coordinate)."""
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\ngeometry line(n)\n  sites (i) for i in 0..n-1\n'
        "  name str(size(free))\n"
        "board line(3)\npiece p\nzone supply each player: 3 p\n"
        "def free = each s in sites where empty(s)\n"
        "action place\n  choose site s in free\n  put p of mover at s\n" + TAIL,
        encoding="utf-8")
    expected = ("T.rule:6:1: error[R301]: a geometry cannot use the board it is building (its "
                "sites, relations or a rule about them)\n  |\n6 | board line(3)\n  | "
                "^^^^^^^^^^^^^")
    for mode in MODES:
        assert play(tmp_path / "g.rule", mode).replace(str(tmp_path / "g.rule"),
                                                       "T.rule") == expected


def test_a_site_pattern_name_without_a_generator(tmp_path: Path) -> None:
    """KeyError 'r' while building a board: the pattern names a coordinate no `for` gives."""
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\ngeometry line(n)\n  sites (i, r) for i in 0..n-1\n'
        "board line(3)\npiece p\nzone supply each player: 3 p\n"
        "def free = each s in sites where empty(s)\n"
        "action place\n  choose site s in free\n  put p of mover at s\n" + TAIL,
        encoding="utf-8")
    for mode in MODES:
        got = play(tmp_path / "g.rule", mode).replace(str(tmp_path / "g.rule"), "T.rule")
        assert got == ("T.rule:4:3: error[R301]: no generator gives 'r' a value: write "
                       "`for r in ...`\n  |\n4 |   sites (i, r) for i in 0..n-1\n  |   "
                       + "^" * 28)
