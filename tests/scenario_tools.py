"""Helpers shared by the scenario tests: legal action strings, and playing a scripted line."""
from __future__ import annotations

from typing import Any


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
