"""The agents decide from what their player may see: `state.history()`, game records and the
engine's data are the true history (every secret choice spelled out), so no module of
rulelang/agents/ may read them. Its source is read as Python (names and attributes, not
words in comments), and a spy state records what an agent asks for while it plays."""
from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.agents import make_agent

AGENTS = Path(rulelang.__file__).resolve().parent / "agents"
FORBIDDEN_ATTRS = {"history", "ctx", "data", "_trail", "_checkpoint", "_gen", "_decision",
                   "runtime", "_views"}
FORBIDDEN_MODULES = ("rulelang.tools", "rulelang.game", "rulelang.model", "yaml")


def _uses(path: Path) -> tuple[set[str], set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    attrs = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    strings = {n.value for n in ast.walk(tree)
               if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    modules = {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | {
        a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return attrs, strings, modules


@pytest.mark.parametrize("path", sorted(AGENTS.glob("*.py")), ids=lambda p: p.name)
def test_no_agent_module_reads_the_true_history(path: Path) -> None:
    attrs, strings, modules = _uses(path)
    assert not attrs & FORBIDDEN_ATTRS, f"{path.name} reads {sorted(attrs & FORBIDDEN_ATTRS)}"
    assert "history" not in strings                        # getattr(state, "history") too
    assert not [m for m in modules if m.startswith(FORBIDDEN_MODULES)], modules


def test_the_scan_finds_a_reader(tmp_path: Path) -> None:
    """The scan above is not blind: a module that reads the history is caught."""
    probe = tmp_path / "probe_agent.py"
    probe.write_text("from rulelang.tools.records.record import read_record\n"
                     "def choose(state):\n    return len(state.history())\n", encoding="utf-8")
    attrs, _, modules = _uses(probe)
    assert "history" in attrs and "rulelang.tools.records.record" in modules


class Spy:
    """A state that records every attribute an agent asks it for."""

    def __init__(self, state: Any, asked: set[str]) -> None:
        self._state, self._asked = state, asked

    def __getattr__(self, name: str) -> Any:
        self._asked.add(name)
        value = getattr(self._state, name)
        if name in ("resample", "clone"):
            return lambda *a: Spy(value(*a), self._asked)
        return value


@pytest.mark.parametrize("agent", ["random", "mcts:8"])
def test_an_agent_playing_asks_only_for_what_its_player_may_see(agent: str) -> None:
    game = rulelang.load_game("karesansui", {"players": 3})
    state, rng = game.new_initial_state(seed=5), random.Random(5)
    asked: set[str] = set()
    player = make_agent(agent, seed=1)
    for _ in range(24):
        if state.is_terminal():
            break
        if state.current_player() == 0:
            state.apply_action(player.choose(Spy(state, asked)))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert asked and "history" not in asked and "ctx" not in asked
    assert asked <= {"legal_actions", "current_player", "resample", "action_to_string",
                     "is_terminal", "apply_action", "returns", "clone", "observation",
                     "play_out"}
