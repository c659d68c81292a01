"""Failed games are results (tools/evidence/failures.py): `evaluate` and `compare` play every game
of a
rulebook that fails in some seeds, report the others, list each failed game with its seed,
error, rule calls and replay command (which reproduces it), and exit 1; `--fail-fast` stops at
the first; `check --simulate` reports the same way."""
from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from rulelang.tools.cli import main

BOOK = str(Path(__file__).parent / "rulebooks" / "late_centre_fails.rule")
GAMES = ["--games", "40", "--seed", "0", "--coverage", "0"]


def evaluation(tmp_path: Path, *args: str) -> tuple[int, dict]:
    code = main(["evaluate", BOOK, *GAMES, "--out", str(tmp_path), *args])
    return code, json.loads((tmp_path / "evaluation.json").read_text(encoding="utf-8"))


def test_evaluate_reports_the_other_games_and_lists_the_failed_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = evaluation(tmp_path, "--jobs", "1")
    out = capsys.readouterr().out
    failed = data["failures"]
    assert code == 1
    assert 0 < len(failed) < 40 and data["games"] == 40
    assert data["games_failed"] == len(failed)
    assert len(data["records"]) == 40 - len(failed)
    seats = data["summary"]["seats"]
    decided = sum(row["wins"]["count"] for row in seats) + data["summary"]["draws"]["count"]
    assert decided == 40 - len(failed)  # the figures are those of the games that ended
    assert sorted(r["index"] for r in failed + data["records"]) == list(range(40))
    for r in failed:
        err = r["failed"]
        assert err["code"] == "R301" and err["at"].endswith("late_centre_fails.rule:17:19")
        assert [name for _, name in err["calls"]] == ["action place", "share"]
        assert err["calls"][0][0].endswith("late_centre_fails.rule:23:16")
        assert f"--seed {r['seed']} " in r["replay"]
    assert f"{len(failed)} of 40 games failed with a rule error" in out
    assert failed[0]["replay"] in out
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "Failed games" in page and str(failed[-1]["seed"]) in page


def test_the_replay_command_reproduces_the_failure(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _, data = evaluation(tmp_path, "--jobs", "1", "--mode", "generated")
    first = data["failures"][0]
    capsys.readouterr()
    words = shlex.split(first["replay"])
    assert words[:2] == ["rulelang", "play"]
    assert main(words[1:]) == 1
    err = capsys.readouterr().err
    assert f"{first['failed']['at']}: error[R301]: {first['failed']['message']}" in err
    assert "rule calls (innermost last):" in err


def test_failures_are_the_same_for_every_jobs(tmp_path: Path) -> None:
    _, one = evaluation(tmp_path / "one", "--jobs", "1")
    _, two = evaluation(tmp_path / "two", "--jobs", "2")
    assert one == two


def test_fail_fast_stops_at_the_first_error(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["evaluate", BOOK, *GAMES, "--jobs", "1", "--fail-fast",
                 "--out", str(tmp_path)])
    assert code == 1
    assert "error[R301]" in capsys.readouterr().err
    assert not (tmp_path / "evaluation.json").exists()


def test_compare_leaves_out_the_pairs_with_a_failed_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", "tic_tac_toe", BOOK, "--games", "40", "--jobs", "1",
                 "--out", str(tmp_path)])
    data = json.loads((tmp_path / "compare.json").read_text(encoding="utf-8"))
    out = capsys.readouterr().out
    failed = data["b"]["failures"]
    assert code == 1 and data["a"]["failures"] == []
    assert data["pairs"] == 40 and data["pairs_failed"] == len(failed) > 0
    assert data["differences"]["length"]["pairs"] == 40 - len(failed)
    assert f"B: {len(failed)} of 40 games failed" in out
    assert "Failed games, side B" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_check_simulate_gives_the_rule_calls_and_the_replay(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", BOOK, "--simulate", "20"]) == 1
    out = capsys.readouterr().out
    assert "problem: a rule failed in" in out
    assert "rule calls: " in out and "in action place > " in out
    assert f"replay: rulelang play {BOOK} --seed " in out
