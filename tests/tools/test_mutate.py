"""`rulelang test --mutate` (tools/scenario/mutate.py, tools/scenario/mutants.py): single-point
mutants of a
rulebook run against its scenario files; a planted weak scenario file lets through the mutants
the bundled one kills, and the report names them at their line; the run is the same for a
seed and every --jobs."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import rulelang
from rulelang.tools.cli import main
from rulelang.tools.scenario.mutants import mutants

ROOT = Path(__file__).resolve().parents[2]
WEAK = '''rulebook "tic_tac_toe.rule"

scenario "a taken site is refused"
  when "place b2"
  expect illegal "place b2"
'''
FAST = ["--games", "8", "--jobs", "1", "--json"]


def mutate(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["test", "--mutate", *args])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture
def weak(tmp_path: Path) -> Path:
    shutil.copyfile(ROOT / "rulebooks" / "tic_tac_toe.rule", tmp_path / "tic_tac_toe.rule")
    (tmp_path / "weak.test").write_text(WEAK, encoding="utf-8")
    return tmp_path


def test_a_weak_scenario_file_lets_through_what_the_bundled_one_kills(
        weak: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data = mutate(capsys, str(weak / "weak.test"), *FAST)
    [book] = data["rulebooks"]
    line = next(i for i, t in enumerate((weak / "tic_tac_toe.rule").read_text().splitlines(), 1)
                if "lines.full_line_through" in t)
    survivors = {(s["where"].split("/")[-1], s["kind"], s["after"]): s for s in book["survivors"]}
    win = survivors[(f"tic_tac_toe.rule:{line}:8", "condition",
                     "not (lines.full_line_through(square.in_a_row, last.site, mover))")]
    assert win["changed"] == 8  # every random game plays otherwise
    assert code == 1  # a survivor changes play
    changes = [s["changed"] for s in book["survivors"]]
    assert changes == sorted(changes, reverse=True)  # worst first
    assert book["killed"] + book["timeout"] + book["survived"] + book["invalid"] \
        == book["mutants"]
    _, strong = mutate(capsys, str(ROOT / "rulebooks" / "tic_tac_toe.test"), *FAST)
    [full] = strong["rulebooks"]
    assert full["mutants"] == book["mutants"]
    assert not [s for s in full["survivors"] if s["changed"]]
    assert full["kill_rate"] > book["kill_rate"]


def test_the_text_report_names_the_survivor_at_its_line(
        weak: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["test", "--mutate", str(weak / "weak.test"), "--games", "8", "--jobs", "1"])
    out = capsys.readouterr().out
    assert "kill rate" in out and "survivors, worst first:" in out
    assert ":35:8 condition: `lines.full_line_through(square.in_a_row, last.site, mover)` -> " \
        "`not (lines.full_line_through(square.in_a_row, last.site, mover))`: changes play in " \
        "8 of 8 games" in out


def test_the_same_for_a_seed_and_every_jobs(weak: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(weak / "weak.test"), "--games", "4", "--json", "--max-mutants", "9"]
    _, one = mutate(capsys, *args, "--jobs", "1", "--seed", "5")
    _, two = mutate(capsys, *args, "--jobs", "2", "--seed", "5")
    assert one == two
    assert one["rulebooks"][0]["mutants"] == 9
    _, other = mutate(capsys, *args, "--jobs", "1", "--seed", "6")
    chosen = [[m["where"], m["after"]] for m in one["rulebooks"][0]["all"]]
    assert chosen != [[m["where"], m["after"]] for m in other["rulebooks"][0]["all"]]


def test_the_time_box_stops_a_mutant(weak: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, data = mutate(capsys, str(weak / "weak.test"), *FAST, "--max-mutants", "3",
                     "--timeout", "0.000001")
    assert {m["status"] for m in data["rulebooks"][0]["all"]} == {"timeout"}


def test_every_kind_of_change_is_made() -> None:
    game = rulelang.load_game(str(ROOT / "rulebooks" / "spaniel.rule"))
    program = game.runtime.program
    found = mutants(program, {program.loaded.game.source.path},
                    sorted(game.runtime.board.relations))
    kinds = {m.kind for m in found}
    assert {"number", "comparison", "and/or", "condition", "statement", "relation"} <= kinds
    for m in found:  # each changes its own text only
        source = program.loaded.game.source.text
        assert m.text != source
        if m.kind != "statement":
            line = m.text.split("\n")[m.line - 1]
            assert line[m.column - 1:].startswith(m.after)
            assert source.split("\n")[m.line - 1][m.column - 1:].startswith(m.before)


def test_a_rule_written_as_clauses_is_changed_where_its_text_is() -> None:
    # Muso Sakura's card abilities are clauses (`def worth(Outou, x, r)`): which clause runs
    # is no text to negate, and its symbol is where the clause's header names it
    game = rulelang.load_game(str(ROOT / "rulebooks" / "muso_sakura.rule"))
    program = game.runtime.program
    source = program.loaded.game.source.text.split("\n")
    found = mutants(program, {program.loaded.game.source.path}, [])
    assert {"symbol", "condition"} <= {m.kind for m in found}
    for m in found:
        if m.kind != "statement":
            assert "\n" not in m.before, m.where
            assert source[m.line - 1][m.column - 1:].startswith(m.before), m.where


@pytest.mark.parametrize("bad", [["--games", "0"], ["--max-mutants", "0"],
                                 ["--timeout", "0"]])
def test_bad_numbers_are_diagnostics(bad: list[str], weak: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["test", "--mutate", str(weak / "weak.test"), *bad]) == 1
    assert "error[R418]" in capsys.readouterr().err


def test_stdlib_mutates_the_library_modules_too(weak: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    args = [str(weak / "weak.test"), "--games", "2", "--jobs", "1", "--json"]
    _, own = mutate(capsys, *args)
    _, more = mutate(capsys, *args, "--stdlib", "--max-mutants", "12")
    paths = {m["where"].split(":")[0] for m in more["rulebooks"][0]["all"]}
    assert not any(p.startswith("stdlib/") for m in own["rulebooks"][0]["all"]
                   for p in [m["where"]])
    assert any(p.startswith("stdlib/") for p in paths)  # square.rule, lines.rule
    assert {m["status"] for m in more["rulebooks"][0]["all"]} <= {
        "killed", "survived", "invalid", "timeout"}
