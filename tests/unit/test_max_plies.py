"""`end at most N plies`: the longest game, a general guard; capped games in the API, the
observation, records, `rulelang play --max-plies`, `replay` and `evaluate`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError
from rulelang.tools import cli
from rulelang.tools.records.record import parse_record, replay

ENDLESS = """game "Endless"
players 2..2
counter n = 0
action tick
  increase n by 1
action tock
  increase n by 2
turn
  do tick or tock
end at most {cap} plies
"""

DECIDED = """game "Decided"
players 2..2
counter n = 0
var most = 0
action tick
  increase n by 1
turn
  do tick
end at most 10 plies
  when n >= 3
    draw
"""


def _book(tmp_path: Path, text: str, name: str = "g.rule") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_an_endless_game_ends_capped_at_the_cap(tmp_path: Path, mode: str) -> None:
    game = rulelang.load_game(_book(tmp_path, ENDLESS.format(cap=9)), mode=mode)
    assert game.max_plies == 9
    state = game.new_initial_state(seed=1)
    plies = 0
    while not state.is_terminal():
        assert not state.capped()
        state.apply_action(state.legal_actions()[plies % 2])
        plies += 1
    assert plies == 9 and state.capped() and state.current_player() == rulelang.TERMINAL
    assert state.winners() == [] and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == []
    obs = state.observation(1)
    assert obs["capped"] is True and obs["terminal"] is True
    assert state.clone().capped()
    with pytest.raises(rulelang.IllegalActionError):
        state.apply_action(0)


def test_a_game_decided_before_the_cap_is_not_capped(tmp_path: Path) -> None:
    game = rulelang.load_game(_book(tmp_path, DECIDED))   # `most` is still a name
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(0)
    assert len(state.history()) == 3 and not state.capped()
    assert "capped" not in state.observation(0)


def test_a_caller_lowers_the_cap(tmp_path: Path) -> None:
    game = rulelang.load_game(_book(tmp_path, DECIDED))
    game.max_plies = 2
    state = game.new_initial_state()
    state.apply_action(0)
    assert not state.is_terminal()
    state.apply_action(0)
    assert state.capped()


def test_no_cap_without_the_declaration() -> None:
    assert rulelang.load_game("tic_tac_toe").max_plies is None


@pytest.mark.parametrize(("cap", "shown"), [("0", "0"), ("100000001", "100000001"),
                                            ("9" * 40, "999999999999…")])
def test_an_impossible_cap_is_a_positioned_diagnostic(tmp_path: Path, cap: str,
                                                       shown: str) -> None:
    with pytest.raises(RulebookError) as err:
        rulelang.load_game(_book(tmp_path, ENDLESS.format(cap=cap)))
    text = err.value.render()
    assert "g.rule:10:13: error[R205]" in text
    assert f"a game of at most {shown} plies is impossible" in text and "^" in text


def test_play_max_plies_reports_and_records_a_capped_game(tmp_path: Path, capsys) -> None:
    rec = tmp_path / "game.yaml"
    code = cli.main(["play", "tic_tac_toe", "--agents", "random", "--max-plies", "3",
                     "--record", str(rec)])
    out = capsys.readouterr().out
    assert code == 0 and "result: capped after 3 plies" in out and "4. " not in out
    record = parse_record(rec.read_text(encoding="utf-8"))
    assert record.capped and record.winners == [] and len(record.actions) == 3
    done = replay(rec)
    assert done.state.capped()
    assert cli.main(["replay", str(rec)]) == 0
    assert "3 moves reproduce (capped)" in capsys.readouterr().out


def test_a_record_claiming_a_cap_that_is_not_there_is_refused(tmp_path: Path,
                                                              capsys) -> None:
    rec = tmp_path / "game.yaml"
    assert cli.main(["play", "tic_tac_toe", "--agents", "random", "--record", str(rec)]) == 0
    text = rec.read_text(encoding="utf-8").replace("  scores:", "  capped: true\n  scores:")
    rec.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert cli.main(["replay", str(rec)]) == 1
    assert "R404" in capsys.readouterr().err
    rec.write_text(text.replace("capped: true", "capped: 3"), encoding="utf-8")
    assert cli.main(["replay", str(rec)]) == 1
    assert "'result.capped' must be true or false" in capsys.readouterr().err


def test_play_refuses_a_cap_below_one(capsys) -> None:
    assert cli.main(["play", "tic_tac_toe", "--agents", "random", "--max-plies", "0"]) == 1
    assert "R418" in capsys.readouterr().err


def test_evaluate_counts_the_rulebooks_cap(tmp_path: Path, capsys) -> None:
    book = _book(tmp_path, ENDLESS.format(cap=5))
    out = tmp_path / "out"
    assert cli.main(["evaluate", book, "--games", "4", "--jobs", "1", "--out", str(out)]) == 0
    data = json.loads((out / "evaluation.json").read_text(encoding="utf-8"))
    assert [r["capped"] for r in data["records"]] == [True] * 4
    assert {r["plies"] for r in data["records"]} == {5}
    assert "cut by the cap     100.0 %" in capsys.readouterr().out


def test_check_simulate_reports_the_rulebooks_cap(tmp_path: Path, capsys) -> None:
    book = _book(tmp_path, ENDLESS.format(cap=6))
    assert cli.main(["check", book, "--simulate", "3"]) == 1
    out = capsys.readouterr().out
    assert "3 random games, 0 ended" in out and "capped by the rulebook after 6 actions" in out
    decided = _book(tmp_path, DECIDED, "d.rule")
    assert cli.main(["check", decided, "--simulate", "3"]) == 0
