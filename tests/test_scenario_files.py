"""The bundled games' scenario files (rulebooks/*.test, `rulelang test`) as pytest items: one
per scenario and engine mode, failing with the runner's own report."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.tools.scenario import scenarios

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "rulebooks").glob("*.test"))


def _cases() -> list[object]:
    cases: list[object] = []
    for path in FILES:
        file = scenarios.read(path)
        for sc in file.scenarios:
            for mode in scenarios.MODES:
                if sc.mode in (None, mode):
                    cases.append(pytest.param(file, sc, mode,
                                              id=f"{path.stem}:{sc.span.line}:{sc.name}:{mode}"))
    return cases


@pytest.mark.parametrize("file, scenario, mode", _cases())
def test_scenario(file: scenarios.ScenarioFile, scenario: scenarios.Scenario, mode: str) -> None:
    failure = scenarios.run_one(file, scenario, mode)
    if failure is not None:
        pytest.fail(f"{scenario.span} {scenario.name} [{mode}]\n{failure}", pytrace=False)


def test_every_bundled_game_has_a_scenario_file() -> None:
    import rulelang

    games = {p.stem for p in (ROOT / "rulebooks").glob("*.rule") if not rulelang.is_library(p)}
    assert {scenarios.read(p).rulebook.stem for p in FILES} == games
