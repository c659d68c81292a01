"""Agents that play a State: human seats, uniform random, and UCT Monte-Carlo tree search.

`make_agent(name, seed)` turns a command-line name into an agent: "human", "random", "mcts"
(DEFAULT_ITERATIONS playouts, at most DEFAULT_SECONDS a move: it answers in seconds in a long
game too), "mcts:N" (exactly N playouts per move, whatever the time), "mcts:Ts" (T seconds per
move, e.g. mcts:2s or mcts:0.5s), or a named strength level (LEVELS): easy, normal, hard.
"""
from __future__ import annotations

from rulelang.agents.base import Agent, HumanAgent, QuitGame, StateLike
from rulelang.agents.mcts import DEFAULT_ITERATIONS, DEFAULT_SECONDS, MCTSAgent
from rulelang.agents.random import RandomAgent
from rulelang.errors import Diagnostic, RulelangError, render

__all__ = ["Agent", "AGENT_NAMES", "LEVELS", "DEFAULT_ITERATIONS", "DEFAULT_SECONDS",
           "HumanAgent", "MCTSAgent",
           "QuitGame", "RandomAgent", "StateLike", "make_agent"]

MAX_PLAYOUTS = 1_000_000  # playouts per move of `mcts:N` (its time budget: at most an hour)
AGENT_NAMES = ("human", "random", "mcts", "mcts:N", "mcts:Ts", "easy", "normal", "hard")
# Named strength levels: (playouts, seconds) per move, whichever runs out first; the time cap
# keeps a long game (long playouts) from thinking for minutes.
LEVELS: dict[str, tuple[int, float]] = {"easy": (60, 1.0),
                                        "normal": (DEFAULT_ITERATIONS, DEFAULT_SECONDS),
                                        "hard": (4000, 10.0)}


def make_agent(name: str, seed: int = 0) -> HumanAgent | RandomAgent | MCTSAgent:
    """The agent called `name`; an unknown name is a RulelangError naming the choices."""
    kind, _, budget = name.strip().lower().partition(":")
    if kind == "human" and not budget:
        return HumanAgent()
    if kind == "random" and not budget:
        return RandomAgent(seed)
    if kind in LEVELS and not budget:
        playouts, seconds = LEVELS[kind]
        return MCTSAgent(playouts, seed, name=kind, seconds=seconds)
    if kind == "mcts" and budget.endswith("s"):
        return MCTSAgent(None, seed, name=name.strip().lower(), seconds=_seconds(name, budget))
    if kind == "mcts" and not budget:  # the default: capped in time as well
        return MCTSAgent(DEFAULT_ITERATIONS, seed, name="mcts", seconds=DEFAULT_SECONDS)
    if kind == "mcts":
        return MCTSAgent(_iterations(name, budget), seed, name=name.strip().lower())
    raise _error(f"unknown agent '{name}'")


def _iterations(name: str, budget: str) -> int:
    if not budget:
        return DEFAULT_ITERATIONS
    if budget.isascii() and budget.isdigit() and len(budget) <= 8 and \
            0 < int(budget) <= MAX_PLAYOUTS:
        return int(budget)
    raise _error(f"bad agent '{name}': the playout budget must be a whole number from 1 to "
                 f"{MAX_PLAYOUTS:,} (or a time: mcts:2s)")


def _seconds(name: str, budget: str) -> float:
    try:
        seconds = float(budget[:-1])
    except ValueError:
        seconds = 0.0
    if 0 < seconds <= 3600:
        return seconds
    raise _error(f"bad agent '{name}': the time budget is seconds, e.g. mcts:2s or mcts:0.5s")


def _error(message: str) -> RulelangError:
    help_ = f"agents are {', '.join(AGENT_NAMES)}"
    return RulelangError(render(Diagnostic("R412", message, None, help_)))
