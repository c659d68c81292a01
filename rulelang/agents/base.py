"""The agent protocol, the state surface agents rely on, and the human seat.

Agents see a game only through the OpenSpiel-shaped State of DESIGN.md section 5; they never
import the engine, so any object with these methods (a test fake included) can be played.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol, runtime_checkable


class StateLike(Protocol):
    """What an agent may call on a state."""

    def current_player(self) -> int: ...
    def legal_actions(self) -> list[int]: ...
    def action_to_string(self, action: int) -> str: ...
    def apply_action(self, action: int | str) -> None: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def clone(self) -> Any: ...


@runtime_checkable
class Agent(Protocol):
    """Anything that picks one of `state.legal_actions()` for `state.current_player()`."""

    name: str

    def choose(self, state: StateLike) -> int: ...


class QuitGame(Exception):
    """A human asked to stop playing; the command line catches it and ends the game."""


Ask = Callable[[StateLike], int]


class HumanAgent:
    """A seat played by a person; `ask` does the talking (the command line supplies it)."""

    is_human = True

    def __init__(self, ask: Ask | None = None, name: str = "human") -> None:
        self.name = name
        self.ask = ask

    def choose(self, state: StateLike) -> int:
        if self.ask is None:
            raise QuitGame("no way to ask a human here")
        return self.ask(state)
