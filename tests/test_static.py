"""The package type-checks under `mypy --strict` and the code passes ruff (STYLE.md). Both
tools come with the test extra, pinned, so that a new release cannot fail a clean checkout;
where one is missing the test is skipped."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(tool: str, *args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip(tool)
    return subprocess.run([sys.executable, "-m", tool, *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=900, check=False)


def test_the_package_is_mypy_strict_clean() -> None:
    done = _run("mypy", "--strict", "rulelang")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_code_passes_ruff() -> None:
    done = _run("ruff", "check", "rulelang", "tests", "bench", "cli.py", "setup.py")
    assert done.returncode == 0, done.stdout + done.stderr
