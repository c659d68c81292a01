"""Many games of one rulebook, played by agents, on a process pool: the engine room of
`rulelang evaluate` and `rulelang compare`.

Game `index` of a run with master seed S is played from seed `game_seed(S, index)` (the state's
seed; seat i's agent gets that seed + i + 1, as `rulelang play --seed` gives them), with the
agents rotated by `index` through the seats.  A game depends on nothing else, so the records
are the same for every number of worker processes; they come back ordered by index.  Each
worker loads a rulebook once and keeps it for every later game of the same setup.
"""
from __future__ import annotations

import gc
import hashlib
import multiprocessing
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rulelang.agents import make_agent
from rulelang.errors import RuleRuntimeError
from rulelang.library.decision import Decision, label
from rulelang.model.values import Site
from rulelang.tools.common import cap_game, load
from rulelang.tools.evidence.choices import (
    Watch,
    action_slots,
    value_text,
    written_counts,
)
from rulelang.tools.evidence.failures import failed_record

Record = dict[str, Any]
_GAMES: dict[tuple[str, str, str, int], Any] = {}  # per process: the loaded rulebooks
_MEMOS: dict[int, _Memo] = {}


@dataclass(frozen=True)
class Setup:
    """What a game needs besides its index: the rulebook, its options, the agents, the cap."""

    path: str
    options: tuple[tuple[str, Any], ...]
    agents: tuple[str, ...]
    seed: int
    max_plies: int
    mode: str = "compiled"
    fail_fast: bool = False  # a rule error ends the run (else the game is a failed record)

    def game(self) -> Any:
        key = (self.path, repr(self.options), self.mode, self.max_plies)
        if key not in _GAMES:
            game = _GAMES[key] = load(self.path, dict(self.options) or None, self.mode)
            # its states end capped there, or sooner at the rulebook's `end at most N plies`
            cap_game(game, self.max_plies)
        return _GAMES[key]


def game_seed(master: int, index: int) -> int:
    """The seed of game `index`: 31 bits of sha256 of the master seed and the index."""
    digest = hashlib.sha256(f"{master}:{index}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def seat_agents(agents: tuple[str, ...], players: int, index: int) -> list[str]:
    """The agent of each seat in game `index`. One agent: in every seat. One per seat: the
    list rotated by the index. Any other number, a ladder (`mcts:25,mcts:50,mcts:100`):
    game i plays step m = i mod (L-1), the list's agents m and m+1, in the seats by turns
    (seat s takes agent m + (s + t) mod 2, t = i div (L-1)), so that every step is played
    as often as the others and in both seat orders."""
    n = len(agents)
    if n == 1:
        return list(agents) * players
    if n == players:
        return [agents[(seat + index) % n] for seat in range(players)]
    step, turn = index % (n - 1), index // (n - 1)
    return [agents[step + (seat + turn) % 2] for seat in range(players)]


def ladder_step(agents: tuple[str, ...] | list[str], players: int, index: int) -> int | None:
    """The step of a ladder (seat_agents) that game `index` plays; None when the agents are
    not a ladder."""
    n = len(agents)
    return None if n in (1, players) else index % (n - 1)


def play_one(setup: Setup, index: int) -> Record:
    """Play game `index` to its end or to the cap, and return its record."""
    game = setup.game()
    return _play_index(setup, game, _memo(game), index)


def _play_index(setup: Setup, game: Any, memo: _Memo, index: int) -> Record:
    seed = game_seed(setup.seed, index)
    names = seat_agents(setup.agents, game.num_players, index)
    agents = [make_agent(name, seed + i + 1) for i, name in enumerate(names)]
    states: list[Any] = []
    try:
        if not game.has_chance:
            states.append(game.new_initial_state(seed=seed))
            return _play(game, memo, states[0], agents, index, seed, names, [])
        with Watch(True) as chance:
            states.append(game.new_initial_state(seed=seed))
            chance.keep(states[0])
            return _play(game, memo, states[0], agents, index, seed, names, chance.draws)
    except RuleRuntimeError as err:  # a failed game is a result (tools/evidence/failures.py)
        if setup.fail_fast:
            raise
        return failed_record(err, index, seed, names,
                             len(states[0].history()) if states else 0)


def _play(game: Any, memo: _Memo, state: Any, agents: list[Any], index: int, seed: int,
          names: list[str], draws: list[Any]) -> Record:
    """The game played as a bare playout would be (plus the score samples for lead changes);
    everything else is read from the state's history once the game is over. (The states end
    at the cap by themselves: Setup.game caps the game.)"""
    program = game.runtime.program
    scored = bool(program.scores)
    if scored:
        changes = _lead_changes(state, agents, program.round is not None, game.num_players)
    else:
        while not state.is_terminal():
            state.apply_action(agents[state.current_player()].choose(state))
    data = state.ctx.data
    actions, movers, taken, chosen, branching = _read(program, data.history, memo)
    capped = bool(data.capped)  # (State.capped; every state here is terminal)
    returns = state.returns()  # (a new list of floats each time, as winners() of ints)
    if scored:
        # (a player's score is the sum of its breakdown, as State.scores adds it; a term's
        # points are the lines of an itemised term summed: runtime.term_points gives both)
        found = [game.runtime.term_points(state.ctx, p) for p in range(game.num_players)]
        scores = [float(total) for total, _ in found]
        terms = [points for _, points in found]
    else:  # (State.scores is then State.returns; each player's breakdown is empty)
        scores, terms = returns[:], [{} for _ in returns]
    return {
        "index": index, "seed": seed, "agents": names, "plies": len(actions),
        "capped": capped, "winners": [] if capped else state.winners(),
        "returns": [] if capped else returns, "scores": scores,
        "turns": data.turn, "rounds": data.round if program.round is not None else None,
        "lead_changes": changes if scored else None, "terms": terms,
        "branching": branching,
        "action_counts": taken if len(taken) < 2 else dict(sorted(taken.items())),
        "actions": actions, "movers": movers,
        "choices": written_counts(program, chosen, draws, memo.slots),
    }


def _lead_changes(state: Any, agents: list[Any], rounds: bool, players: int) -> int:
    """Play the game out; return how often the sole leader by score changed, looked at when
    each round starts (in a game without rounds, when each cycle of as many turns as there
    are players starts: a leader looked at after every turn would mostly be whoever just
    moved). A tie keeps the last leader. Sampled no more often, since scoring may be
    costly."""
    at, leader, changes = None, None, 0
    while not state.is_terminal():
        data = state.live_data  # (its turn and round; ctx.data is a copy in generated mode)
        mark = data.round if rounds else data.turn // players
        if mark != at:
            at = mark
            scores = state.scores()
            best = max(scores)
            now = scores.index(best) if scores.count(best) == 1 else None
            if now is not None:
                if leader is not None and now != leader:
                    changes += 1
                leader = now
        state.apply_action(agents[state.current_player()].choose(state))
    return changes


def _read(program: Any, history: list[tuple[Decision, int]], memo: _Memo
          ) -> tuple[list[str], list[int], dict[str, int], dict[tuple[Any, Any], int],
                     dict[str, int]]:
    """From a game's decisions, in one pass: the string of each option taken, each mover,
    how often each action was taken (unsorted; a decision outside any action, such as a
    choose of the setup, counts for none), what the chooses took and the branching
    figures. What the chooses took is how often each (choose, value) pair was taken (a value
    that cannot be a key counted by how it is written, which writes it the same), for
    choices.written_counts.

    A string is d.labels()[k] (_label_at: with only the strings of the options before it
    that could be the same). The first word of a string is its option's action, when it has
    one (an action's name is one word)."""
    slots_of = memo.slots
    actions: list[str] = []
    movers: list[int] = []
    names: dict[str, int] = {}
    pairs: dict[tuple[Any, Any], int] = {}
    total, most, single = 0, 0, 0
    for d, k in history:
        movers.append(d.player)
        n = d.count
        total += n
        if n > most:
            most = n
        if n == 1:
            single += 1
        options = d.options
        option = options[k]
        text = _label_at(options, k, option)
        actions.append(text)
        if option[0] is not None:
            names[option[0]] = names.get(option[0], 0) + 1
        if d.menu is not None:
            slots = slots_of.get(option[0])
            if slots is None:
                slots = action_slots(program, option[0], slots_of)
            for slot, v in zip(slots, option[1], strict=False):
                _count(pairs, slot, v, 1)
        elif d.choose is not None:
            _count(pairs, d.choose, option[1][0], 1)
    return actions, movers, names, pairs, {
        "decisions": len(actions), "options": total, "max": most, "single": single}


def _count(pairs: dict[tuple[Any, Any], int], slot: Any, value: Any, n: int) -> None:
    key = (slot, value)
    try:
        pairs[key] = pairs.get(key, 0) + n
    except TypeError:  # a value that is no key: counted by how it is written
        key = (slot, value_text(value))
        pairs[key] = pairs.get(key, 0) + n


def _label_at(options: Any, k: int, option: Any) -> str:
    """d.labels()[k] of a menu, its option k being `option`, made without the strings of the
    options after it nor of those before it that cannot have the same string: an option of
    an action starts its string with the action's name (one word), so two options of
    different actions never have the same string."""
    text = label(option)
    first = option[0]
    same = 0  # earlier options with the same string (the engine numbers them: `#2`, ...)
    for other in options[:k]:
        if (first is None or other[0] is None or other[0] == first) and label(other) == text:
            same += 1
    return text if not same else f"{text} #{same + 1}"


def _text(v: Any) -> str:
    return v.name if type(v) is Site else str(v)


class _Memo:
    """What play_one works out once per loaded game."""

    def __init__(self, game: Any) -> None:
        self.game = game  # kept alive, so that its id stays its own
        self.slots: dict[Any, Any] = {}  # choices.py's


def _memo(game: Any) -> _Memo:
    if id(game) not in _MEMOS:
        _MEMOS[id(game)] = _Memo(game)
    return _MEMOS[id(game)]


def play_chunk(setup: Setup, indices: list[int]) -> list[Record]:
    game = setup.game()
    memo = _memo(game)
    return [_play_index(setup, game, memo, i) for i in indices]


Task = tuple[Setup, list[int]]


def chunks(setup: Setup, start: int, stop: int, size: int) -> Iterator[Task]:
    for low in range(start, stop, size):
        yield setup, list(range(low, min(stop, low + size)))


def run(tasks: Iterator[Task], jobs: int, on_chunk: Callable[[int], None] | None = None,
        ray_address: str | None = None) -> Iterator[list[Record]]:
    """The records of each task, in the order of the tasks; `jobs` > 1 plays them on a pool
    of that many processes (see _context), a few tasks ahead
    of the consumer, who may stop early (the rest is then cancelled). With `ray_address`
    (None: the local pool; "": a private Ray instance here) they run on Ray (cluster.py)."""
    if ray_address is not None:
        from rulelang.tools.evidence.cluster import run_on_ray
        yield from run_on_ray(play_chunk, tasks, jobs, on_chunk, ray_address or None)
        return
    if jobs <= 1:
        for setup, indices in tasks:
            done = play_chunk(setup, indices)
            if on_chunk:
                on_chunk(len(done))
            yield done
        return
    context = _context()
    first = context.get_start_method() == "fork"
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        pending: list[Future[list[Record]]] = []
        try:
            for task in tasks:
                if first:  # the workers are forked now, at the first task: with this
                    # process's objects out of their collector's sight, so that they need
                    # not copy the memory holding them
                    first = False
                    gc.freeze()
                    try:
                        pending.append(pool.submit(play_chunk, *task))
                    finally:
                        gc.unfreeze()
                else:
                    pending.append(pool.submit(play_chunk, *task))
                if len(pending) > 2 * jobs:
                    yield _take(pending, on_chunk)
            while pending:
                yield _take(pending, on_chunk)
        finally:
            for future in pending:
                future.cancel()


def _context() -> Any:
    """Where workers come from. On Linux, from a process with no other thread: forked from
    this one, so that they start at once with the rulebooks it has loaded (Setup.game; a
    game depends only on its setup and index, so what else a worker inherits changes no
    record). Else from a fork server where the system has one (a fresh process, started by
    the first pool and kept, that imports the package once; each worker is forked from it
    and loads the rulebook), else started with 'spawn' (each imports the package too)."""
    methods = multiprocessing.get_all_start_methods()
    if sys.platform == "linux" and "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([__name__])
        return context
    return multiprocessing.get_context("spawn")


def _take(pending: list[Future[list[Record]]],
          on_chunk: Callable[[int], None] | None) -> list[Record]:
    done = pending.pop(0).result()
    if on_chunk:
        on_chunk(len(done))
    return done
