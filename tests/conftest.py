"""Shared test setup: `tests/` on sys.path (for `import fakes` and `from reference...`), the
`--update-golden` option of tests/test_golden.py, the package's bytecode written before
the run, and the order of the run: the test files that take most of the time first, so that
the workers of pytest-xdist (pyproject.toml's addopts) share them out instead of one of them
finishing the run alone."""
from __future__ import annotations

import compileall
import sys
from pathlib import Path

import pytest

_TESTS = str(Path(__file__).resolve().parent)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

# The slow files, slowest first (`python -m pytest -n 0 --durations=50` shows the figures);
# every other file follows in collection order. The order changes nothing but the run's length.
SLOW_FIRST = (
    "test_static.py",  # mypy: 30 s without its cache (a fresh checkout)
    "unit/test_hash_seed.py",
    "tools/test_ray_backend.py",
    "test_shibumi_perft.py",
    "openspiel/test_differential.py",
    "property/test_engine.py",
    "games/test_karesansui_games.py",
    "serve/test_browser.py",
    "games/test_tatara_games.py",
    "unit/test_step_budget.py",
    "fuzz/test_fuzz.py",
    "security/test_cost.py",
    "games/test_karesansui_scoring.py",
    "property/test_resample_consistent.py",
)


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # once, in the process that starts the run
        _write_bytecode()


def _write_bytecode() -> None:
    """Compile the package's modules to their __pycache__ files, as an import does unless
    PYTHONDONTWRITEBYTECODE is set (as it is on the CI image). Without them every Python
    process a test starts (`rulelang play` in a pseudo-terminal, the command line, the bench
    scripts) compiles the whole package again: 0.5 s a start. (Nothing is written where the
    files are up to date; an unwritable checkout just runs slower.)"""
    package = Path(_TESTS).parent / "rulelang"
    compileall.compile_dir(str(package), quiet=2)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden files from the interpreter's output")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> int:
        where = item.path.relative_to(_TESTS).as_posix()
        return SLOW_FIRST.index(where) if where in SLOW_FIRST else len(SLOW_FIRST)
    items.sort(key=rank)  # stable: the order within a file is kept


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
