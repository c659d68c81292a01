"""Agents' moves, worked out in a pool of processes, so that one table's search never holds
up the server's pages or another table (the event loop only waits for an answer).

A worker is asked with what makes the position (rulebook path, options, seed, the moves so
far) and keeps, per table, the state it reached last time: the next question of the same
table only plays the new moves. It answers with the move's label, or an error's text.
"""
from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from rulelang.errors import RulelangError

_GAMES: dict[tuple[str, str], Any] = {}
_STATES: dict[str, tuple[list[str], Any]] = {}
_KEEP = 64  # tables whose state a worker keeps


def think(table_id: str, path: str, options: dict[str, Any], seed: int, moves: list[str],
          agent: str, agent_seed: int) -> tuple[bool, str]:
    """(True, the agent's move) or (False, why it could not move)."""
    from rulelang.agents import make_agent
    from rulelang.tools.common import load
    try:
        key = (path, repr(sorted(options.items())))
        game = _GAMES.get(key)
        if game is None:
            game = _GAMES[key] = load(path, options)
        known, state = _STATES.pop(table_id, ([], None))
        if state is None or moves[: len(known)] != known:
            known, state = [], game.new_initial_state(seed=seed)
        for move in moves[len(known):]:
            state.apply_action(move)
        _STATES[table_id] = (list(moves), state)
        while len(_STATES) > _KEEP:
            del _STATES[next(iter(_STATES))]
        chosen = make_agent(agent, seed=agent_seed).choose(state.clone())
        return True, str(state.action_to_string(chosen))
    except RulelangError as exc:
        return False, f"the agent '{agent}' could not move: {exc.render()}"


class Pool:
    """`workers` processes (0: one thread of this process, for tests of the server alone)."""

    def __init__(self, workers: int) -> None:
        self.executor: Executor
        if workers > 0:
            self.executor = ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"))
        else:
            self.executor = ThreadPoolExecutor(1)

    async def move(self, *args: Any) -> tuple[bool, str]:
        loop = asyncio.get_running_loop()
        result: tuple[bool, str] = await loop.run_in_executor(self.executor, think, *args)
        return result

    def close(self) -> None:
        self.executor.shutdown(wait=True, cancel_futures=True)  # (a move being made ends)
