"""UCT Monte-Carlo tree search with uniformly random playouts, for any number of players.

Each node stores the reward of the player who moved into it, taken from `returns()` at the end
of a playout, so every seat maximises its own return.  Moves are kept by their action strings.

It does not look at what its player cannot see: when the state offers `resample(player, seed)`
(rulelang's State does), every playout starts from a fresh resample (the cards hidden from the
player dealt again, the chance generator seeded anew: determinization), and a node's moves
that are not legal in that deal are left aside for that playout.  Otherwise it searches clones
of the state as it is.

Budget: `DEFAULT_ITERATIONS` = 400 playouts per move. At the 1,000-3,000 random playouts
per second of a small abstract board game that is about 0.13-0.4 s per move; ask for more
with the agent name `mcts:N`. The agent named `mcts` also stops after `DEFAULT_SECONDS`
(2 s) where playouts are slow (a long game: 400 can take 5-7 s); `mcts:N` is exactly N
playouts, for reproducible strength. A time budget (`seconds`, agent name `mcts:2s`) stops
the search when it runs out, whatever the playouts; with both, the first to run out ends
it. A time budget makes the agent's choices depend on the machine's speed (the game itself
stays determined by its actions, which the record keeps). `progress(playouts, seconds)`,
when given, is called every few playouts (a thinking indicator).
"""
from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rulelang.agents.base import StateLike

DEFAULT_ITERATIONS = 400
DEFAULT_SECONDS = 2.0  # the agent "mcts": at most this long a move (mcts:N has no time cap)
_MAX_PLAYOUT = 5000  # moves; a playout that runs longer is scored as a draw


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a search runs, as `timeit` does while it
    times: a search makes many short-lived states and no reference cycles, and the
    collector's passes over every object alive cost 2-7 % of it. It is on again after, as
    it was found (another thread's search ending first may turn it on sooner: harmless)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _legal(state: StateLike) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


class _Node:
    __slots__ = ("parent", "action", "mover", "untried", "children", "visits", "total")

    def __init__(self, state: StateLike, parent: _Node | None, action: str, mover: int,
                 rng: random.Random) -> None:
        self.parent, self.action, self.mover = parent, action, mover
        self.untried = [] if state.is_terminal() else _legal(state)
        rng.shuffle(self.untried)
        self.children: list[_Node] = []
        self.visits = 0
        self.total = 0.0

    def best_uct(self, children: list[_Node], c: float) -> _Node:
        log_n = math.log(self.visits)
        return max(children, key=lambda ch: ch.total / ch.visits
                   + c * math.sqrt(log_n / ch.visits))

    def most_visited(self) -> _Node:
        return max(self.children, key=lambda ch: (ch.visits, ch.total / max(1, ch.visits)))


class MCTSAgent:
    is_human = False

    def __init__(self, iterations: int | None = DEFAULT_ITERATIONS, seed: int = 0,
                 c: float = 1.4, name: str = "mcts", seconds: float | None = None) -> None:
        self.name = name
        self.iterations = None if iterations is None else max(1, iterations)
        self.seconds = seconds
        self.c = c
        self._rng = random.Random(seed)
        self.progress: Callable[[int, float], None] | None = None
        self.playouts = 0  # of the last search

    def choose(self, state: StateLike) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        me = state.current_player()
        resample = getattr(state, "resample", None)
        root = _Node(state, None, "", -1, self._rng)
        start = time.monotonic()
        done = 0
        with _collector_paused():
            while self.iterations is None or done < self.iterations:
                sample = resample(me, self._rng.getrandbits(32)) if resample else state.clone()
                self._iterate(root, sample)
                done += 1
                if self.seconds is not None or self.progress is not None:
                    elapsed = time.monotonic() - start
                    if self.progress is not None and done % 8 == 0:
                        self.progress(done, elapsed)
                    if self.seconds is not None and elapsed >= self.seconds:
                        break
        self.playouts = done
        best = root.most_visited().action
        return next(a for a in legal if state.action_to_string(a) == best)

    def _iterate(self, root: _Node, state: StateLike) -> None:
        node = root
        while not state.is_terminal():
            legal = set(_legal(state))
            fresh = [a for a in node.untried if a in legal]
            if fresh:
                node.untried.remove(fresh[-1])
                node = self._expand(node, state, fresh[-1])
                break
            children = [ch for ch in node.children if ch.action in legal]
            if not children:
                break
            node = node.best_uct(children, self.c)
            state.apply_action(node.action)
        self._backpropagate(node, self._playout(state))

    def _expand(self, node: _Node, state: StateLike, action: str) -> _Node:
        mover = state.current_player()
        state.apply_action(action)
        child = _Node(state, node, action, mover, self._rng)
        node.children.append(child)
        return child

    def _playout(self, state: StateLike) -> list[float] | None:
        play_out = getattr(state, "play_out", None)
        if play_out is not None:  # rulelang's State: what may be refused is tried when drawn
            play_out(self._rng, _MAX_PLAYOUT)
        else:
            for _ in range(_MAX_PLAYOUT):
                if state.is_terminal():
                    break
                state.apply_action(self._rng.choice(state.legal_actions()))
        return list(state.returns()) if state.is_terminal() else None

    @staticmethod
    def _backpropagate(node: _Node | None, rewards: list[float] | None) -> None:
        while node is not None:
            node.visits += 1
            if rewards is not None and node.mover >= 0:
                node.total += rewards[node.mover]
            node = node.parent
