"""README.md stays true: its two set-up commands, CI running exactly its test command, and
its Python quickstart run as a doctest."""
from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def blocks(lang: str, text: str = README) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def setup_commands() -> list[str]:
    section = README.split("## Set up and go", 1)[1].split("\n## ", 1)[0]
    return [b.strip() for b in blocks("sh", section)]


def test_readme_has_exactly_two_one_line_setup_commands() -> None:
    commands = setup_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)
    play, test = commands
    assert play.startswith("python3 -m venv .venv && ") and " rulelang play " in play
    assert test.startswith("python3 -m venv .venv && ") and "pytest" in test


def test_ci_runs_exactly_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in ci
    assert setup_commands()[1] in ci.splitlines()


def test_readme_play_command_names_a_bundled_rulebook_and_known_agents() -> None:
    words = shlex.split(setup_commands()[0].split("rulelang play", 1)[1])
    assert (ROOT / words[0]).is_file()
    from rulelang.agents import make_agent
    for name in words[words.index("--agents") + 1].split(","):
        agent = make_agent(name)
        # the AI it teaches answers in seconds: a time cap, not only a number of playouts
        assert getattr(agent, "is_human", False) or getattr(agent, "seconds", None) is not None


def test_readme_quickstart_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (code,) = blocks("python")
    monkeypatch.chdir(tmp_path)  # the quickstart works from any folder
    test = doctest.DocTestParser().get_doctest(code, {}, "README quickstart", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 5
