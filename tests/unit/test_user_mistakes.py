"""Smaller points a new user meets (issue 48, item 5): a bundled name for `rulelang test`, a
record named *.json written as JSON, a number compared with a text, an empty rulebook, a
misspelt keyword."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError
from rulelang.resources import bundled_dir
from rulelang.tools.records.record import read_record, record_game, write_record
from rulelang.tools.scenario.scenarios import files

BOOK = """\
use square
game "Small"
players A, B
board square.grid(3, 3, 1)
piece stone
zone supply each player: 5 stone
zone free
action place
  {require}
  choose site s in sites where empty(s)
  put stone of mover at s
turn
  do place
"""


def _write(tmp_path: Path, text: str, name: str = "small.rule") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_rulelang_test_takes_a_bundled_name() -> None:
    assert files(["spline"]) == [bundled_dir() / "spline.test"]


def test_a_record_named_json_is_json_and_replays(tmp_path: Path) -> None:
    game = rulelang.load_game("tic_tac_toe")
    state = game.new_initial_state(seed=0)
    for text in ("place a1", "place b1"):
        state.apply_action(text)
    for name in ("r.json", "r.yaml"):
        write_record(tmp_path / name, record_game(game, state, 0, "tic_tac_toe"))
        assert read_record(tmp_path / name).actions == ["place a1", "place b1"]
    data = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert data["actions"] == ["place a1", "place b1"] and data["rulebook"] == "tic_tac_toe"
    with pytest.raises(json.JSONDecodeError):
        json.loads((tmp_path / "r.yaml").read_text(encoding="utf-8"))  # YAML stays YAML


def test_a_number_compared_with_a_text_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, BOOK.format(require='require size(free) == "zero"'))
    with pytest.raises(RulebookError) as info:
        rulelang.load_game(path)
    assert "small.rule:9:11: error[R230]: '==' compares a number with a text: it is never " \
        "true" in info.value.render()
    rulelang.load_game(_write(tmp_path, BOOK.format(require="require size(free) == 0")))


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_an_empty_rulebook_is_no_ok(tmp_path: Path, text: str) -> None:
    with pytest.raises(RulebookError) as info:
        rulelang.check_file(_write(tmp_path, text))
    assert "error[R204]: the file declares nothing" in info.value.render()


@pytest.mark.parametrize(("typo", "meant"), [("chose site s in sites", "choose"),
                                             ("requre true", "require"),
                                             ("decrese free by 1", "decrease")])
def test_a_misspelt_keyword_gets_a_did_you_mean(tmp_path: Path, typo: str, meant: str) -> None:
    with pytest.raises(RulebookError) as info:
        rulelang.load_game(_write(tmp_path, BOOK.format(require=typo)))
    text = info.value.render()
    assert "small.rule:9:" in text and f"did you mean '{meant}'?" in text
