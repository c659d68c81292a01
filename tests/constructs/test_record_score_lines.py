"""An itemised score term may hold records `(label: …, points: …)` as well as (label, points)
pairs: each record is one line `term label`, read by its fields (in any order), and the
observation shows the sheet's records as JSON objects, which the terminal sums like pairs."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RuleRuntimeError
from rulelang.tools.terminal.screen import value_text

MODES = ("interpreted", "compiled")

SHEET = """game "Record sheet"
players A, B
var lines each player = []
score sheet(p) = lines of p
def total(p) = sum x in lines of p: x.points
setup
  set lines of A = [(label: "r1 ember", points: 5), (points: 2, label: "r1 names"),
                    (label: "r1 ember", points: 1)]
action go
turn
  do go
end
  when turn >= 1
    highest score wins
"""


def _state(tmp_path: Path, text: str, mode: str = "compiled"):
    path = tmp_path / "sheet.rule"
    path.write_text(text, encoding="utf-8")
    return rulelang.load_game(path, mode=mode).new_initial_state()


@pytest.mark.parametrize("mode", MODES)
def test_records_are_lines_of_an_itemised_term(tmp_path: Path, mode: str) -> None:
    state = _state(tmp_path, SHEET, mode)
    assert state.score_breakdown(0) == {"sheet r1 ember": 5, "sheet r1 names": 2,
                                        "sheet r1 ember #2": 1}
    assert state.score_breakdown(1) == {"sheet": 0}
    state.apply_action(state.string_to_action("go"))
    assert state.scores() == [8.0, 0.0] and state.winners() == [0]


def test_the_observation_shows_the_records_and_the_terminal_sums_them(tmp_path: Path) -> None:
    state = _state(tmp_path, SHEET)
    value = next(v["value"] for v in state.observation(0)["vars"]
                 if v["var"] == "lines" and v["owner"] == "A")
    assert value[1] == {"points": 2, "label": "r1 names"}
    assert value_text(value) == "8 (3 lines)"
    assert value_text([["r1 ember", 5], ["r1 names", 2]]) == "7 (2 lines)"   # pairs still
    assert value_text([{"label": "x", "points": 1, "extra": 0}]).startswith("((label")


@pytest.mark.parametrize("bad", ['(label: "r1", score: 2)', '(label: "r1", points: "two")'])
def test_a_record_of_other_fields_is_a_positioned_error(tmp_path: Path, bad: str) -> None:
    text = SHEET.replace('(points: 2, label: "r1 names")', bad)
    assert text != SHEET
    state = _state(tmp_path, text)
    with pytest.raises(RuleRuntimeError) as err:
        state.score_breakdown(0)
    assert "(label: …, points: …) records" in str(err.value)
    assert err.value.diagnostic.span is not None


@pytest.mark.parametrize("mode", MODES)
def test_scores_are_the_sums_of_the_breakdowns(tmp_path: Path, mode: str) -> None:
    """State.scores adds each term's points without writing the lines' labels; it must add
    what score_breakdown lists: records, pairs, an empty list, a plain term."""
    text = SHEET.replace("score sheet(p) = lines of p", "score sheet(p) = lines of p\n"
                         'score pairs(p) = [("pair", 2), ("other", p.index)]\n'
                         "score flat(p) = 3")
    assert text != SHEET
    state = _state(tmp_path, text, mode)
    sums = [float(sum(state.score_breakdown(p).values())) for p in (0, 1)]
    assert state.scores() == sums == [13.0, 6.0]
    bad = _state(tmp_path, text.replace('("pair", 2)', '("pair", "two")'), mode)
    with pytest.raises(RuleRuntimeError) as err:
        bad.scores()
    assert "(label, points)" in str(err.value) and err.value.diagnostic.span is not None


@pytest.mark.parametrize("name", ["muso_sakura", "karesansui"])
def test_bundled_scores_are_the_sums_of_the_breakdowns(name: str) -> None:
    import random
    game = rulelang.load_game(Path(__file__).parents[2] / "rulebooks" / f"{name}.rule")
    rng, state, checked = random.Random(5), game.new_initial_state(seed=5), 0
    while not state.is_terminal():
        if checked < 40:
            assert state.scores() == [float(sum(state.score_breakdown(p).values()))
                                      for p in range(game.num_players)]
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 10
