"""rulelang compare: paired runs on the same seeds; the SPRT flags a deliberately unbalanced
Connect Four (the first player drops two discs on the first turn) in fewer games than a
fixed-size test at the same error rates needs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelang.tools.cli import main

VARIANT = str(Path(__file__).parent / "rulebooks" / "connect_four_double_start.rule")


def _compare(tmp_path: Path, *args: str) -> dict:
    assert main(["compare", *args, "--out", str(tmp_path)]) == 0
    return json.loads((tmp_path / "compare.json").read_text(encoding="utf-8"))


def test_sprt_flags_the_unbalanced_variant_before_a_fixed_size_run(tmp_path: Path) -> None:
    data = _compare(tmp_path, "connect_four", VARIANT, "--sprt", "p0-win", "--games", "2000",
                    "--jobs", "1")
    sprt = data["sprt"]
    assert sprt["decision"] == "H1" and sprt["b_higher"] > sprt["a_higher"]
    assert data["pairs"] == sprt["pairs"] < sprt["fixed_size_pairs"]
    assert data["differences"]["p0-win"]["diff"] > 0
    a, b = data["a"]["records"], data["b"]["records"]
    assert len(a) == len(b) == data["pairs"] < 2000
    assert [r["seed"] for r in a] == [r["seed"] for r in b]
    assert [r["agents"] for r in a] == [r["agents"] for r in b]


def test_compare_is_the_same_for_every_jobs(tmp_path: Path) -> None:
    args = ["connect_four", VARIANT, "--sprt", "p0-win", "--games", "400", "--seed", "3"]
    one = _compare(tmp_path / "one", *args, "--jobs", "1")
    two = _compare(tmp_path / "two", *args, "--jobs", "2")
    assert one == two


def test_one_rulebook_with_two_option_sets(tmp_path: Path) -> None:
    data = _compare(tmp_path, "breakthrough", "--option-a", "size=5", "--option-b", "size=6",
                    "--games", "10", "--jobs", "1")
    assert data["a"]["options"] == {"size": 5} and data["b"]["options"] == {"size": 6}
    assert data["pairs"] == 10 and "sprt" not in data
    assert data["differences"]["length"]["b"] > data["differences"]["length"]["a"] > 0


@pytest.mark.parametrize(("args", "code"), [
    (["tic_tac_toe"], "R418"),
    (["tic_tac_toe", "connect_four", "--sprt", "p0-win", "--q1", "1.5"], "R418"),
    (["tic_tac_toe", "connect_four", "--alpha", "0.7", "--sprt", "draw"], "R418"),
    (["tic_tac_toe", "connect_four", "--games", "0"], "R418"),
    (["tic_tac_toe", "--option-a", "size=3", "--option-b", "size=4"], "R205"),
])
def test_compare_mistakes_are_diagnostics(capsys: pytest.CaptureFixture[str],
                                          args: list[str], code: str) -> None:
    assert main(["compare", *args, "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert f"error[{code}]" in err and "Traceback" not in err


def _record(winners: list[int], agents: list[str], capped: bool = False, **extra: object
            ) -> dict:
    return {"winners": winners, "agents": agents, "capped": capped, "plies": 10, "turns": 5,
            "rounds": 2, "branching": {"decisions": 4, "options": 10, "single": 1},
            "scores": [3.0, 7.0, 5.0], "lead_changes": 2, **extra}


def test_every_per_game_figure_is_paired() -> None:
    from rulelang.tools.evidence.metrics import binary_names, paired_metrics

    m = paired_metrics(3, ("random", "mcts:8"), scored=True, rounds=True, lead_changes=True)
    assert list(m) == ["p0-win", "p1-win", "p2-win", "draw", "shared-win", "capped",
                       "random-win", "mcts:8-win", "length", "turns", "rounds", "branching",
                       "single-option", "margin", "lead-changes"]
    assert binary_names(m) == list(m)[:8]
    won = _record([1], ["random", "mcts:8", "random"])
    assert [m[k].read(won) for k in ("p0-win", "p1-win", "p2-win", "draw", "shared-win")] == \
        [0.0, 1.0, 0.0, 0.0, 0.0]
    assert (m["random-win"].read(won), m["mcts:8-win"].read(won)) == (0.0, 1.0)
    assert [m[k].read(won) for k in ("length", "turns", "rounds", "branching",
                                     "single-option", "margin", "lead-changes")] == \
        [10.0, 5.0, 2.0, 2.5, 0.25, 2.0, 2.0]
    shared = _record([0, 2], ["random", "mcts:8", "random"])
    assert (m["shared-win"].read(shared), m["random-win"].read(shared)) == (1.0, 0.0)
    cut = _record([], ["random"] * 3, capped=True)
    assert (m["capped"].read(cut), m["draw"].read(cut)) == (1.0, 0.0)
    plain = paired_metrics(2, ("random",), scored=False, rounds=False, lead_changes=False)
    assert list(plain) == ["p0-win", "p1-win", "draw", "capped", "length", "turns",
                           "branching", "single-option"]


def test_sprt_tests_only_a_rate_of_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "tic_tac_toe", "connect_four", "--sprt", "length",
                 "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "error[R418]" in err and "--sprt cannot test 'length'" in err
    assert "p0-win, p1-win, draw, capped" in err
    assert main(["compare", "tic_tac_toe", "connect_four", "--sprt", "p1-win", "--games",
                 "20", "--jobs", "1"]) == 0
    assert "SPRT on p1-win" in capsys.readouterr().out
