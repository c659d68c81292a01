"""The small front-end constructs: `for each … where`, an action without a block, ranges with
any lower bound, and one spelling of `if … elif` (`else if` refused, `when` kept)."""
from __future__ import annotations

from pathlib import Path

import pytest
from test_golden import dump_ast

import rulelang
from rulelang.language.builder import build

MODES = ["interpreted", "compiled"]

_BOOK = """game "Constructs"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
counter visits = 0
{decls}
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action pass
turn
{turn}
end
  if turn >= 4
    draw
"""


def _load(tmp_path: Path, mode: str, turn: str = "  do place or pass", decls: str = "") -> object:
    path = tmp_path / "constructs.rule"
    path.write_text(_BOOK.format(turn=turn, decls=decls))
    return rulelang.load_game(path, mode=mode)


def _ast(text: str) -> str:
    src = rulelang.Source("x.rule", text)
    return dump_ast(build(rulelang.parse(src), src))


@pytest.mark.parametrize("mode", MODES)
def test_an_action_without_a_block_is_offered_and_does_nothing(tmp_path: Path, mode: str) -> None:
    game = _load(tmp_path, mode)
    state = game.new_initial_state()
    names = [state.action_to_string(a) for a in state.legal_actions()]
    assert "pass" in names and len(names) == 10  # nine sites and the pass
    before = state.observation(0)
    state.apply_action(state.legal_actions()[names.index("pass")])
    after = state.observation(0)
    assert after["board"] == before["board"]
    assert state.current_player() == 1  # the turn went to B


@pytest.mark.parametrize("mode", MODES)
def test_for_each_where_visits_the_items_that_satisfy_it(tmp_path: Path, mode: str) -> None:
    turn = "  for each s in sites where s.r == 0 and s.c > 0\n    increase visits by 1\n" \
           "  do place or pass"
    state = _load(tmp_path, mode, turn).new_initial_state()
    assert state.ctx.data.counters[("visits", None)] == 2


def test_for_each_where_is_the_loop_over_each_where() -> None:
    one = "turn\n  for each s in sites where empty(s)\n    draw\n"
    two = "turn\n  for each s in each s in sites where empty(s)\n    draw\n"
    assert _ast(one) == _ast(two)


@pytest.mark.parametrize("expr, expected", [
    ("k..5", (3, 4, 5)), ("k..k + 1", (3, 4)), ("size(sites) - 7..k", (2, 3)),
    ("-1..1", (-1, 0, 1)), ("1 + 1..3", (2, 3)), ("(k..4)", (3, 4)),
])
@pytest.mark.parametrize("mode", MODES)
def test_a_range_starts_with_any_sum(tmp_path: Path, mode: str, expr: str,
                                     expected: tuple[int, ...]) -> None:
    decls = f"var out = none\ndef k = 3\nsetup\n  set out = {expr}\n"
    state = _load(tmp_path, mode, decls=decls).new_initial_state()
    assert tuple(state.ctx.data.vars[("out", None)]) == expected


def test_else_if_is_refused_with_its_position(tmp_path: Path) -> None:
    turn = "  if turn > 9\n    draw\n  else if turn > 8\n    draw\n  do place or pass"
    with pytest.raises(rulelang.RulebookError) as info:
        _load(tmp_path, "compiled", turn)
    [d] = info.value.diagnostics
    assert (d.code, d.message, d.span.line, d.span.column) == (
        "R109", "'else if' is written 'elif'", 16, 3)
    assert "^^^^^^^" in info.value.render()


def test_when_is_a_kept_spelling_of_if() -> None:
    when = "end\n  when turn > 2\n    draw\n  elif turn > 1\n    draw\n"
    assert _ast(when) == _ast(when.replace("when", "if"))
