"""The terminal summaries of evaluate and compare as Rich tables (tools/evidence/tables.py): every
figure of the plain summary is in a table, the verdicts are said, the progress bar counts
games with their rate, and the commands draw tables on a terminal and print the plain lines
anywhere else."""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from rulelang.tools.cli import main
from rulelang.tools.evidence.report import rate_text
from rulelang.tools.evidence.tables import GamesProgress, compare_view, evaluate_view, sparkline

HERE = Path(__file__).parent
DEAD = HERE / "rulebooks" / "dead_rules.rule"


def _text(renderable: Any, width: int = 160) -> str:
    console = Console(record=True, width=width, force_terminal=True, color_system=None)
    console.print(renderable)
    return console.export_text()


@pytest.fixture(scope="module")
def summary(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("dead")
    assert main(["evaluate", str(DEAD), "--games", "40", "--jobs", "1", "--agents",
                 "random,mcts:4", "--out", str(out)]) == 0
    data: dict[str, Any] = json.loads((out / "evaluation.json").read_text(encoding="utf-8"))
    return data


def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:.1f} %"


def test_every_figure_of_the_evaluate_summary_is_in_a_table(summary: dict[str, Any]) -> None:
    s = summary["summary"]
    text = _text(evaluate_view("Dead rules (x)", s))
    assert "Dead rules (x): 40 games" in text
    for i, row in enumerate(s["seats"]):  # each seat, agent: its rate and interval
        line = next(t for t in text.splitlines() if f"seat {i + 1} {row['player']}" in t)
        w = row["wins"]
        assert _pct(w) in line and f"{100 * w['low']:.1f} .. {100 * w['high']:.1f} %" in line
    for row in s["agents"]:
        line = next(t for t in text.splitlines() if f"agent {row['agent']}" in t)
        assert _pct(row["wins"]) in line
    draws = next(t for t in text.splitlines() if t.strip().startswith("draws"))
    assert _pct(s["draws"]) in draws
    plies = next(t for t in text.splitlines() if t.strip().startswith("plies"))
    p = s["length"]["plies"]
    assert [f"{p['mean']:.2f}", f"{p['sd']:.2f}", f"{p['min']:g}", f"{p['max']:g}"] == \
        [cell.strip() for cell in plies.split("│")[1:5]]
    bins = s["length"]["histogram"]
    assert f"plies per game: {bins[0]['low']} {sparkline(bins)} {bins[-1]['high']}" in text
    assert f"branching: mean {s['branching']['mean']:.2f}, max {s['branching']['max']}" in text
    for name, n in s["actions"].items():
        assert any(name in t and t.rstrip().endswith(str(n)) for t in text.splitlines())
    for row in s["choices"]:
        assert row["where"] in text
    assert f"distinct games: {s['distinct_games']}" in text
    assert f"shortest: seed {s['notable']['shortest']['seed']}" in text
    cov = s["coverage"]
    assert f"{len(cov['unused'])} never used" in text
    for u in cov["unused"]:  # each at its place, with what it never did
        line = next(t for t in text.splitlines() if u["where"] in t)
        assert "never" in line
    assert "effect tidy never called" in text and "action resign never taken" in text
    assert "skill: mcts:4 against random" in text or "skill: random against mcts:4" in text


def test_the_verdicts_are_said(summary: dict[str, Any]) -> None:
    s = json.loads(json.dumps(summary["summary"]))
    s["first_player"]["advantage"] = True
    s["first_player"]["share_of_decided"]["rate"] = 0.9
    assert "FIRST-PLAYER ADVANTAGE" in _text(evaluate_view("t", s))
    s["first_player"]["share_of_decided"]["rate"] = 0.1
    assert "FIRST-PLAYER DISADVANTAGE" in _text(evaluate_view("t", s))
    s["first_player"]["advantage"] = False
    assert "no clear advantage" in _text(evaluate_view("t", s))
    s["capped"] = {"count": 2, "rate": 0.05, "low": 0.01, "high": 0.2}
    s["capped_seeds"] = [11, 12]
    text = _text(evaluate_view("t", s))
    assert "cut by the cap" in text and "seeds: 11, 12" in text


def test_the_compare_table_holds_each_difference_and_its_verdict() -> None:
    diffs = {"p0-win": {"a": 0.5, "b": 0.7, "diff": 0.2, "low": 0.1, "high": 0.3},
             "draw": {"a": 0.1, "b": 0.1, "diff": 0.0, "low": -0.05, "high": 0.05},
             "length": {"a": 7.5, "b": 6.25, "diff": -1.25, "low": -2.0, "high": -0.5}}
    text = _text(compare_view(["A: one", "B: two"], 40, diffs, {"p0-win", "draw"},
                              {"length": " plies"}, ["SPRT on p0-win: shown"]))
    lines = text.splitlines()
    assert "A: one" in text and "B: two" in text and "SPRT on p0-win: shown" in text
    assert "40 pairs" in text
    win = next(t for t in lines if t.strip().startswith("p0-win"))
    assert "50.00" in win and "70.00" in win and "+20.00 pt" in win and "differ" in win
    assert "+10.00 .. +30.00" in win
    draw = next(t for t in lines if t.strip().startswith("draw"))
    assert "no clear difference" in draw
    length = next(t for t in lines if t.strip().startswith("length"))
    assert "-1.25 plies" in length and "-2.00 .. -0.50" in length and "differ" in length


def test_the_progress_bar_counts_games_and_their_rate() -> None:
    console = Console(record=True, width=100, force_terminal=True, color_system=None)
    bar = GamesProgress(12, console)
    bar.advance(5, 2.5)
    bar.advance(7, 31.25)
    text = console.export_text()
    bar.stop()
    assert "5/12" in text and "2.50 games/s" in text
    assert "12/12" in text and "31.2 games/s" in text and "ETA" in text


def test_rates_keep_the_digits_that_matter() -> None:
    assert [rate_text(x) for x in (1850.4, 42.54, 0.318, 0.0)] == ["1850", "42.5", "0.32",
                                                                  "0.00"]


def test_tables_on_a_terminal_plain_lines_elsewhere(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    args = ["evaluate", "tic_tac_toe", "--games", "20", "--jobs", "1"]
    assert main(args) == 0
    plain = capsys.readouterr().out
    assert "wins (95 % Wilson interval):" in plain and "┃" not in plain
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(args) == 0
    drawn = capsys.readouterr().out
    assert "┃" in drawn and "95 % Wilson interval" in drawn
    assert "wins (95 % Wilson interval):" not in drawn


def test_compare_draws_its_table_on_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "tic_tac_toe", "tic_tac_toe", "--games", "10", "--jobs", "1"]
    assert main(args) == 0
    assert "B - A, 95 % intervals:" in capsys.readouterr().out
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert main(args) == 0
    drawn = capsys.readouterr().out
    assert "┃" in drawn and "no clear difference" in drawn


@pytest.mark.skipif(os.name != "posix", reason="a pseudo-terminal")
def test_evaluate_in_a_real_terminal_draws_tables(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "COLUMNS": "120", "LINES": "40"}
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "rulelang", "evaluate", "tic_tac_toe",
                                           "--games", "30", "--jobs", "1"],
                          cwd=str(tmp_path), env=env, dimensions=(40, 120),
                          encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    out = str(child.before)
    assert "┃" in out and "seat 1 X" in out and "games/s" in out


def test_a_histogram_as_a_sparkline() -> None:
    bins = [{"low": 5, "high": 5, "count": c} for c in (0, 1, 4, 8, 2)]
    assert sparkline(bins) == " ▁▄█▂"
    assert sparkline([{"low": 1, "high": 1, "count": 0}]) == " "
