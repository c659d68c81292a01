"""`best` and `sorted` quantifiers, the `product` and `distinct` builtins, and itemised score
terms (a term whose value is a list of (label, points) pairs)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import RuleRuntimeError

MODES = ["interpreted", "compiled"]

_TEMPLATE = """game "Eval"
players A, B
var out = none
var best = 7
def value = {expr}
setup
  set out = value
action go
  require true
turn
  do go
end
  when turn >= 1
    draw
"""


def evaluate(tmp_path: Path, expr: str, mode: str) -> Any:
    path = tmp_path / "eval.rule"
    path.write_text(_TEMPLATE.format(expr=expr))
    state = rulelang.load_game(path, mode=mode).new_initial_state()
    return state.ctx.data.vars[("out", None)]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("expr, expected", [
    ("best x in [3, 1, 4, 1, 5]: x", 5),
    ("best x in [3, 1, 4, 1, 5]: -x", 1),
    ("best x in [(1, \"a\"), (3, \"b\"), (3, \"c\")]: x[0]", (3, "b")),   # first on a tie
    ("best x in [4, 9, 2] where x < 5", 4),                               # no body: the item
    ("best x in []: x", None),
    ("sorted x in [(2, \"b\"), (1, \"z\"), (2, \"a\")]: x[0]",
     ((1, "z"), (2, "b"), (2, "a"))),                                      # stable
    ("sorted x in [3, 1, 2]", (1, 2, 3)),
    ("sorted x in [3, 1, 2, 5] where x > 1: -x", (5, 3, 2)),
    ("best + 1", 8),                                                      # still a name
    ("product([[\"a\", \"b\"], [1, 2]])", (("a", 1), ("a", 2), ("b", 1), ("b", 2))),
    ("product([[1, 2], []])", ()),
    ("product([])", ((),)),
    ("distinct([3, 1, 3, 2, 1])", (3, 1, 2)),
    ("distinct([])", ()),
])
def test_values(tmp_path: Path, mode: str, expr: str, expected: Any) -> None:
    assert evaluate(tmp_path, expr, mode) == expected


@pytest.mark.parametrize("mode", MODES)
def test_best_over_a_product_finds_the_highest_combination(tmp_path: Path, mode: str) -> None:
    expr = "best v in product([[1, 5], [2, 0], [7, 3]]): v[0] * 10 - v[1] + v[2]"
    assert evaluate(tmp_path, expr, mode) == (5, 0, 7)


def test_product_refuses_too_many_combinations(tmp_path: Path) -> None:
    with pytest.raises(RuleRuntimeError) as err:
        evaluate(tmp_path, "product([1..100, 1..100, 1..100])", "compiled")
    assert "1000000 combinations" in str(err.value)


_SCORES = """game "Sheet"
players A, B
var lines each player = []
counter bonus each player = 0
score bonus(p) = bonus of p
score sheet(p) = lines of p
setup
  set lines of A = [("r1 ember", 5), ("r1 names", 2), ("r1 ember", 1)]
  increase bonus of A by 3
action go
  require true
turn
  do go
end
  when turn >= 1
    highest score wins
"""


@pytest.mark.parametrize("mode", MODES)
def test_itemised_score_terms(tmp_path: Path, mode: str) -> None:
    path = tmp_path / "sheet.rule"
    path.write_text(_SCORES)
    state = rulelang.load_game(path, mode=mode).new_initial_state()
    assert state.score_breakdown(0) == {"bonus": 3, "sheet r1 ember": 5, "sheet r1 names": 2,
                                        "sheet r1 ember #2": 1}
    assert state.score_breakdown(1) == {"bonus": 0, "sheet": 0}
    state.apply_action("go")
    assert state.scores() == [11.0, 0.0] and state.winners() == [0]


def test_a_score_list_of_something_else_is_a_positioned_error(tmp_path: Path) -> None:
    path = tmp_path / "sheet.rule"
    path.write_text(_SCORES.replace('("r1 names", 2)', '"oops"'))
    state = rulelang.load_game(path).new_initial_state()
    with pytest.raises(RuleRuntimeError) as err:
        state.score_breakdown(0)
    assert "(label, points) pairs" in str(err.value) and err.value.diagnostic.span is not None
