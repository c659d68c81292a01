"""Rulebooks are untrusted: evaluation has a step budget. A rule that calls itself without
end, an endless `while`, a quantifier over a huge range (alone or nested) and a huge list
comprehension are all stopped with R302, positioned, in both modes, with no traceback."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

BOOK = """game "Loop"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone bag: 9 stone
counter n = 0
{defs}

action place
  choose site s in sites where empty(s) and {test}
  put stone from bag at s
{effects}
turn
  do place

end
  when turn > 3
    draw
"""


def _failure(tmp_path: Path, mode: str, defs: str, test: str, effects: str = "",
             move: bool = False) -> rulelang.RuleRuntimeError:
    """The rule error of starting the game (and, with move, of its first move)."""
    path = tmp_path / "game.rule"
    path.write_text(BOOK.format(defs=defs, test=test, effects=effects))
    game = rulelang.load_game(path, mode=mode)
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        state = game.new_initial_state(seed=0)
        if move:
            state.apply_action(0)
    return info.value


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("defs, test, places", [
    ("def forever(n) = forever(n + 1)", "forever(1) > 0", {(8, 18)}),
    ("def ping(n) = pong(n) + 1\ndef pong(n) = ping(n) + 1", "ping(0) > 0",
     {(8, 15), (9, 15)}),                              # one of the two calls
])
def test_endless_recursion_is_a_positioned_rule_error(tmp_path: Path, mode: str, defs: str,
                                                      test: str,
                                                      places: set[tuple[int, int]]) -> None:
    error = _failure(tmp_path, mode, defs, test)
    d = error.diagnostic
    assert d.code == "R302" and "too deeply" in d.message
    assert d.span is not None and (d.span.line, d.span.column) in places
    assert "game.rule:" in error.render() and "^" in error.render()


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("effects", ["effect spin\n  spin\n", "effect spin(k)\n  spin(k + 1)\n"])
def test_an_endless_recursive_effect_is_positioned(tmp_path: Path, mode: str,
                                                   effects: str) -> None:
    """The effect's call to itself, in both modes (the interpreter's used to have none)."""
    call = effects.split("\n")[1].strip()
    error = _failure(tmp_path, mode, effects, "true", f"  {call.replace('k + 1', '1')}\n",
                     move=True)
    d = error.diagnostic
    assert d.code == "R302" and "too deeply" in d.message
    assert d.span is not None and d.span.line == 9 and d.span.column in (3, 8)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("defs, test, effects, place", [
    ("def big = count x in 0..100000000 where x > 5", "big > 0", "", (8, 11)),
    ("def pairs = count x in 0..10 where (any y in 0..1500000: true)", "pairs > 0",
     "", (8, 37)),                                     # each inner loop fits, both do not
    ("def listed = [x for x in 0..100000000]", "size(listed) > 0", "", (8, 14)),
    # an endless while of 100 steps a turn: 20,000 turns
    ("", "true", "  while true\n    increase n by size([k for k in 1..99])\n", (13, 3)),
    ("", "true", "  for each k in 0..100000000\n    increase n by k\n", (13, 3)),
])
def test_long_evaluation_exceeds_the_step_budget(tmp_path: Path, mode: str, defs: str,
                                                 test: str, effects: str,
                                                 place: tuple[int, int]) -> None:
    d = _failure(tmp_path, mode, defs, test, effects, move=True).diagnostic
    assert d.code == "R302" and "step budget" in d.message
    assert d.span is not None and (d.span.line, d.span.column) == place


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("defs, test, place, message", [
    ("def grow(x, k) = grow(x + x, k - 1) if k > 0 else x", "size(grow([1], 40)) > 0",
     (8, 23), "cannot compute +: a result of 1,048,576 items, more than 1,000,000"),
    ('def wide = "ab" * 600000', "size(wide) > 0", (8, 12),
     "cannot compute *: a result of 1,200,000 items, more than 1,000,000"),
    ("def many = subsets(0..60, 30)", "size(many) > 0", (8, 12),
     "subsets: 232,714,176,627,630,544 choices, more than 100,000"),
])
def test_values_too_large_to_make_are_refused(tmp_path: Path, mode: str, defs: str, test: str,
                                              place: tuple[int, int], message: str) -> None:
    # a list doubled forty times takes forty steps but would fill the memory
    d = _failure(tmp_path, mode, defs, test).diagnostic
    assert d.message == message and d.span is not None
    assert (d.span.line, d.span.column) == place


@pytest.mark.parametrize("zone, data, code, message", [
    ("zone bag: 200000 stone", None, "R301", "a game may have 100,000 pieces at most"),
    ("zone bag: stone from \"rows.yaml\"", "- {copies: 60000}\n- {copies: 60000}\n", "R301",
     "a game may have 100,000 pieces at most"),
    ("zone bag: stone from \"rows.yaml\"", "- {copies: 1000000000}\n", "R210",
     "row 1 of 'rows.yaml': copies must be a whole number from 0 to 100,000"),
])
def test_a_game_has_a_bounded_number_of_pieces(tmp_path: Path, zone: str, data: str | None,
                                                code: str, message: str) -> None:
    if data is not None:
        (tmp_path / "rows.yaml").write_text(data)
    path = tmp_path / "many.rule"
    path.write_text(BOOK.format(defs="", test="true", effects="").replace(
        "zone bag: 9 stone", zone))
    with pytest.raises(rulelang.RulelangError) as info:
        rulelang.load_game(path).new_initial_state(seed=0)
    error = info.value
    found = error.diagnostics if isinstance(error, rulelang.RulebookError) else \
        [error.diagnostic]  # type: ignore[attr-defined]
    assert [(d.code, d.message) for d in found] == [(code, message)]
