"""Helpers shared by the scenario and construct tests: a rulebook written out and loaded, legal
action strings, a var as observed, and playing a scripted line."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import rulelang


def load_text(folder: Path, text: str, mode: str = "compiled",
              options: dict[str, Any] | None = None, name: str = "t.rule") -> Any:
    """The game of rulebook `text`, written to folder/name."""
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return rulelang.load_game(path, options, mode=mode)


def offered(state: Any) -> list[str]:
    """The legal action strings, in the menu's order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def var_value(state: Any, name: str, player: int = 0) -> Any:
    """A var's value as `player`'s observation shows it."""
    return next(v["value"] for v in state.observation(player)["vars"] if v["var"] == name)


def legal(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def play(game: Any, actions: str, state: Any = None) -> Any:
    """Apply the ';'-separated action strings; each must be legal and the game not over."""
    state = game.new_initial_state() if state is None else state
    for i, text in enumerate(actions.split(";")):
        text = text.strip()
        assert not state.is_terminal(), f"game over before action {i} {text!r}"
        assert text in legal(state), f"action {i} {text!r} is not legal"
        state.apply_action(text)
    return state
