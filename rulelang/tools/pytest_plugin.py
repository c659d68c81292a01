"""A pytest plugin (entry point `pytest11`, installed with rulelang): every `*.test` scenario
file pytest meets is collected, one item per scenario and engine mode, failing with the
report `rulelang test` prints. A designer's own project runs its scenario files with plain
`pytest`; a file that cannot be read fails as one item with its diagnostic."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulelang.errors import RulelangError
from rulelang.tools.scenario import scenarios


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".test":
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            file = scenarios.read(self.path)
        except RulelangError as err:
            yield Unreadable.from_parent(self, name="read", message=err.render())
            return
        for sc in file.scenarios:
            for mode in scenarios.MODES:
                if sc.mode in (None, mode):
                    yield Scenario.from_parent(self, name=f"{sc.span.line}:{sc.name}:{mode}",
                                               file=file, scenario=sc, mode=mode)


class Scenario(pytest.Item):
    # a test function's fixture values: none here (plugins that wrap every test's call, as
    # pytest-lsp's does, look for them and fail on an item without them)
    funcargs: dict[str, Any] = {}

    def __init__(self, *, file: Any, scenario: Any, mode: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.file, self.scenario, self.mode = file, scenario, mode
        self.funcargs: dict[str, Any] = {}  # (no fixtures: plugins that look for them find none)

    def runtest(self) -> None:
        failure = scenarios.run_one(self.file, self.scenario, self.mode)
        if failure is not None:
            raise ScenarioFailed(failure)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            return f"scenario '{self.scenario.name}' [{self.mode}]\n{excinfo.value}"
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, self.scenario.span.line - 1, f"scenario: {self.scenario.name}"


class Unreadable(pytest.Item):
    funcargs: dict[str, Any] = {}  # (as Scenario's)

    def __init__(self, *, message: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message
        self.funcargs: dict[str, Any] = {}

    def runtest(self) -> None:
        raise ScenarioFailed(self.message)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str:
        return str(excinfo.value)


class ScenarioFailed(Exception):
    """A scenario's expectation did not hold (the runner's report is the message)."""
