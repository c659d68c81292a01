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
from rulelang.library.decision import Decision, Options, label
from rulelang.model.values import Site
from rulelang.tools.common import cap_game, load
from rulelang.tools.evidence.choices import (
    Counts,
    Watch,
    action_slots,
    value_text,
    where_of,
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
    actions, movers, taken, chosen, branching = (_read_sites(program, data.history, memo)
                                                 or _read(program, data.history, memo))
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
        "choices": written_counts(program, chosen[1], draws, memo.slots, chosen[0])
        if chosen[1] or draws else chosen[0],
    }


def _lead_changes(state: Any, agents: list[Any], rounds: bool, players: int) -> int:
    """Play the game out; return how often the sole leader by score changed, looked at when
    each round starts (in a game without rounds, when each cycle of as many turns as there
    are players starts: a leader looked at after every turn would mostly be whoever just
    moved). A tie keeps the last leader. Sampled no more often, since scoring may be
    costly."""
    at, leader, changes = None, None, 0
    while not state.is_terminal():
        data = state.ctx.data
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
          ) -> tuple[list[str], list[int], dict[str, int],
                     tuple[Counts, dict[tuple[Any, Any], int]], dict[str, int]]:
    """From a game's decisions, in one pass: the string of each option taken, each mover,
    how often each action was taken (unsorted; a decision outside any action, such as a
    choose of the setup, counts for none), what the chooses took and the branching
    figures. What the chooses took is the counts
    (choices.written_counts) of the common decision below, and how often each other
    (choose, value) pair was taken (a value that cannot be a key counted by how it is
    written, which writes it the same), still to be added to them.

    A string is d.labels()[k] (_label_at: with only the strings of the options before it
    that could be the same), made alone when no other option of the menu can have the
    same string, so that none is numbered. That is so for a menu
    kept as one segment of values (`action value`) whose values are all different and of
    one type whose strings tell them apart (sites, when the board names each site once;
    whole numbers; texts); and for one kept as several such segments of different
    actions. The first word of a string is its option's action, when it has one (an
    action's name is one word).

    The most common decision, a `do` menu of one action's values whose strings cannot
    repeat, is only counted by (action, value) in the pass (its value goes to the action's
    first choose), and written at the end. (All in one function and few objects: this runs
    after each game, when little of it is still at hand in the processor's caches.)"""
    once, slots_of, distinct, texts, board = (memo.sites_named_once, memo.slots,
                                              memo.distinct, memo.texts, memo.board)
    actions: list[str] = []
    movers: list[int] = []
    names: dict[str, int] = {}
    pairs: dict[tuple[Any, Any], int] = {}
    plain: dict[tuple[str, Any], int] = {}  # (action, value) -> times: the common decision
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
        if type(options) is Options:
            segments = options.segments
            if len(segments) == 1 and segments[0][0] is not None:  # the most common menu
                action, values = segments[0]
                v = values[k]
                if type(v) is Site:  # menus of sites recur: their verdicts are kept
                    try:
                        apart = distinct.get(values)
                    except TypeError:  # (values that cannot be a key, lists say)
                        apart = False
                    if apart is None:
                        apart = distinct[values] = _distinct(values, once, board)
                        if len(distinct) > 100_000:
                            distinct.clear()
                    if apart:  # (one string object per action and site, kept: the
                        # records of many games then hold no copies of it)
                        named = texts.get(action)
                        if named is None:
                            named = texts[action] = {}
                        text = named.get(v)
                        if text is None:
                            text = f"{action} {v.name}"
                            if len(named) < 100_000:
                                named[v] = text
                    else:
                        text = _label_at(segments, k, (action, (v,)))
                else:
                    text = (f"{action} {v}" if _distinct(values, once, board)
                            else _label_at(segments, k, (action, (v,))))
                actions.append(text)
                if d.menu is not None:
                    key = (action, v)
                    try:
                        plain[key] = plain.get(key, 0) + 1
                        continue
                    except TypeError:  # (a value that is no key: counted below)
                        pass
                names[action] = names.get(action, 0) + 1
                option: Any = (action, (v,))
            else:
                option = options[k]
                action = option[0]
                if all(a is not None for a, _ in segments) and _apart(segments, once):
                    text = f"{action} {_text(option[1][0])}"
                else:
                    text = _label_at(segments, k, option)
                actions.append(text)
                if action is not None:  # (a choose outside any action is no action)
                    names[action] = names.get(action, 0) + 1
        else:
            option = options[k]
            text = _label_at(((None, options),), k, option)
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
    counts: Counts = {}
    last, run, counted = None, 0, None
    for (action, v), n in plain.items():
        if action is not last:  # (one action's values mostly come together)
            if last is not None:
                names[last] = names.get(last, 0) + run
            last, run, slots = action, 0, slots_of.get(action)
            if slots is None:
                slots = action_slots(program, action, slots_of)
            if slots:
                where = slots_of.get(slots[0])
                if where is None:
                    where = where_of(program, slots[0], slots_of)
                counted = counts.get(where)
                if counted is None:
                    counted = counts[where] = {}
            else:
                counted = None
        run += n
        if counted is not None:
            text = v.name if type(v) is Site else value_text(v)
            counted[text] = counted.get(text, 0) + n
    if last is not None:
        names[last] = names.get(last, 0) + run
    return actions, movers, names, (counts, pairs), {
        "decisions": len(actions), "options": total, "max": most, "single": single}


def _read_sites(program: Any, history: list[tuple[Decision, int]], memo: _Memo) -> Any:
    """What _read gives, for the most common game only (None for any other): every decision
    a `do` menu of one and the same action, kept as one segment of sites of the board, all
    different (a verdict kept per menu, as _read keeps its own), when the board names each
    site once. Each string is then "action site" (kept per action and site), the action's
    count is the number of decisions and its first choose took each decision's site. The
    pass only keeps each decision's site, mover and number of options; the rest is read
    from them with builtins (a loop in C each)."""
    if not history or not memo.sites_named_once:
        return None
    known, board = memo.on_board, memo.board
    first = history[0][0].options
    action = first.segments[0][0] if type(first) is Options and first.segments else None
    if action is None:
        return None
    texts = memo.site_texts.get(action)  # each site's string, by the site's index
    if texts is None:
        texts = memo.site_texts[action] = [f"{action} {name}" for name in memo.names]
    names: list[str] = []  # the name of each site taken
    site_names = memo.names
    actions: list[str] = []
    movers: list[int] = []
    counts: list[int] = []
    try:
        for d, k in history:
            if d.menu is None:  # (a decision of its own)
                return None
            # (AttributeError: a menu kept as a plain list; ValueError: more segments)
            [(name, values)] = d.options.segments  # type: ignore[union-attr]
            apart = known.get(values)  # (TypeError: values that cannot be a key)
            if apart is None:  # all sites of the board, all different (a site equals
                # only itself: as many sites of the board among them as values)
                apart = known[values] = len(board.intersection(values)) == len(values)
                if len(known) > 100_000:
                    known.clear()
            if not apart or name != action:
                return None
            i = values[k].index  # (a site of the board)
            actions.append(texts[i])
            names.append(site_names[i])
            movers.append(d.player)
            counts.append(d.count)
    except (AttributeError, ValueError, TypeError):
        return None
    chosen: Counts = {}
    if action in memo.first_choose:
        where = memo.first_choose[action]
    else:
        slots = action_slots(program, action, memo.slots)
        where = memo.first_choose[action] = (where_of(program, slots[0], memo.slots)
                                             if slots else None)
    if where is not None:
        counted = chosen[where] = dict.fromkeys(names, 1)
        if len(counted) < len(names):  # a site taken more than once: counted one by one
            counted.clear()
            for name in names:
                counted[name] = counted.get(name, 0) + 1
    return actions, movers, {action: len(actions)}, (chosen, {}), {
        "decisions": len(actions), "options": sum(counts), "max": max(counts),
        "single": counts.count(1)}


def _count(pairs: dict[tuple[Any, Any], int], slot: Any, value: Any, n: int) -> None:
    key = (slot, value)
    try:
        pairs[key] = pairs.get(key, 0) + n
    except TypeError:  # a value that is no key: counted by how it is written
        key = (slot, value_text(value))
        pairs[key] = pairs.get(key, 0) + n


def _label_at(segments: Any, k: int, option: Any) -> str:
    """d.labels()[k] of a menu kept as `segments` (Options.segments), its option k being
    `option`, made without the strings of the options after it nor of those before it that
    cannot have the same string: an option of an action starts its string with the action's
    name (one word), so two options of different actions never have the same string."""
    text = label(option)
    first = option[0]
    same = 0  # earlier options with the same string (the engine numbers them: `#2`, ...)
    left = k
    for action, values in segments:
        if left <= 0:
            break
        if action is not None:  # (action, v) for each value v
            if first is None or action == first:
                for v in values[:left]:
                    if label((action, (v,))) == text:
                        same += 1
        else:
            for other in values[:left]:
                if (first is None or other[0] is None or other[0] == first) \
                        and label(other) == text:
                    same += 1
        left -= len(values)
    return text if not same else f"{text} #{same + 1}"


def _text(v: Any) -> str:
    return v.name if type(v) is Site else str(v)


def _distinct(values: Any, sites_named_once: bool, board: frozenset[Site]) -> bool:
    """Whether the values of a segment are all different and of one type whose strings tell
    them apart, so that no two are written the same. (A verdict on sites is kept by the
    tuple of values: a tuple equal to it holds the same sites, as a site equals only
    itself.) Sites of the board, the common case, are told by a test in C: `board` holds
    them, and a site equals only itself."""
    try:
        if sites_named_once and board.issuperset(values):
            return len(set(values)) == len(values)
    except TypeError:  # (values that cannot be a key: not sites)
        pass
    kinds = set(map(type, values))
    if len(kinds) > 1 or not (kinds <= _TEXTS or (kinds == _SITES and sites_named_once)):
        return False
    return len(set(values)) == len(values)


def _apart(segments: list[tuple[Any, ...]], sites_named_once: bool) -> bool:
    names = [action for action, _ in segments]
    if len(set(names)) != len(names):
        return False
    for action, values in segments:
        if action is None:
            return False
        kinds = set(map(type, values))
        if len(kinds) > 1:
            return False
        if kinds and not (kinds <= _TEXTS or (kinds == _SITES and sites_named_once)):
            return False
        if len(set(values)) != len(values):
            return False
    return True


_TEXTS, _SITES = frozenset((int, str)), frozenset((Site,))


class _Memo:
    """What play_one works out once per loaded game."""

    def __init__(self, game: Any) -> None:
        self.game = game  # kept alive, so that its id stays its own
        self.slots: dict[Any, Any] = {}  # choices.py's
        self.distinct: dict[Any, bool] = {}  # _read's verdicts, per tuple of values
        self.texts: dict[str, dict[Site, str]] = {}  # _read's strings: action -> site -> it
        sites = getattr(game.runtime.board, "sites", ())
        names = [site.name for site in sites]
        self.sites_named_once = len(set(names)) == len(names)
        self.board = frozenset(sites)  # _distinct's
        self.names: list[str] = [""] * (1 + max((site.index for site in sites), default=-1))
        for site in sites:  # _read_sites': each site's name by its index
            self.names[site.index] = site.name
        self.site_texts: dict[str, list[str]] = {}  # _read_sites': action -> by index
        self.on_board: dict[Any, bool] = {}  # _read_sites' verdicts, per tuple of values
        self.first_choose: dict[str, str | None] = {}  # _read_sites': action -> its place


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
