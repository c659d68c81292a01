"""The default --jobs of evaluate and compare (evaluate.auto_jobs): one process for a short
run or a busy machine, one worker per idle core for a long one; an explicit --jobs is kept."""
from __future__ import annotations

import pytest

from rulelang.tools.cli import main
from rulelang.tools.evidence import evaluate
from rulelang.tools.evidence.playout import Setup

SETUP = Setup("tic_tac_toe", (), ("random",), 0, 2000)


def test_a_short_run_is_played_by_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert evaluate.auto_jobs(SETUP, 200) == 1  # tic-tac-toe: some 20 ms of play
    assert main(["evaluate", "tic_tac_toe", "--games", "50", "--coverage", "0"]) == 0
    out = capsys.readouterr().out
    assert "50 games in" in out and " on 1 process:" in out


@pytest.mark.parametrize(("load", "cores", "workers"),
                         [(0.0, 2, 2), (0.4, 2, 2), (1.2, 2, 1), (6.0, 2, 1), (3.0, 8, 5),
                          (0.0, 1, 1)])
def test_a_long_run_takes_the_idle_cores(monkeypatch: pytest.MonkeyPatch, load: float,
                                         cores: int, workers: int) -> None:
    monkeypatch.setattr(evaluate, "SHORT", 0.0)  # every run is long
    monkeypatch.setattr(evaluate, "cores", lambda: cores)
    monkeypatch.setattr(evaluate.os, "getloadavg", lambda: (load, load, load))
    assert evaluate.auto_jobs(SETUP, 1000) == workers


def test_ray_takes_every_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluate, "cores", lambda: 6)
    assert evaluate.auto_jobs(SETUP, 10, cluster="") == 6
