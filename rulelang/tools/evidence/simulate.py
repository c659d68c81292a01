"""`rulelang check --simulate N`: random games with the model's invariants checked after every
action, for a designer who wants to know that a rulebook plays before anyone plays it.

After each action: every piece is in one place and its location says so; every counter is
within its bounds; and after actions 1, 2, 4, 8 … each player's observation is compared with
the observation of a copy whose pieces hidden from that player are dealt again (game/
resample.py `deal_again`): a difference means the observation depends on something the
player may not see. Reported besides: rule errors, games
cut by the cap, positions that recur (the same position three times in one game), and turns
skipped because nobody had an option. Each finding names the game's seed: `rulelang play PATH
--seed S --agents random,...` plays the same game (the agents get the seeds `play` gives them).
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulelang.agents import make_agent
from rulelang.errors import RulelangError
from rulelang.game.resample import deal_again
from rulelang.library.semantics import Ctx
from rulelang.model.values import Site, ZoneRef
from rulelang.tools.evidence.failures import replay_command
from rulelang.tools.evidence.playout import game_seed

RECURS = 3  # a position seen this often in one game is reported
PROBLEMS = ("piece", "counter", "observation", "error", "capped")  # these fail the check


@dataclass(frozen=True)
class Finding:
    kind: str  # piece | counter | observation | error | capped | recurs | skipped
    seed: int
    ply: int
    message: str
    calls: str = ""  # an error's rule calls (errors.RuleRuntimeError.calls), outermost first


@dataclass
class Simulation:
    games: int = 0
    plies: int = 0
    ended: int = 0
    findings: list[Finding] = field(default_factory=list)
    players: int = 0

    @property
    def failed(self) -> bool:
        return any(f.kind in PROBLEMS for f in self.findings)

    def counts(self) -> Counter[str]:
        return Counter(f.kind for f in self.findings)


def simulate(game: Any, games: int, seed: int = 0, max_plies: int = 2000,
             progress: Callable[[int], None] | None = None) -> Simulation:
    out = Simulation(players=game.num_players)
    for index in range(games):
        _one(game, game_seed(seed, index), max_plies, out)
        if progress is not None:
            progress(index + 1)
    return out


def _one(game: Any, seed: int, max_plies: int, out: Simulation) -> None:
    out.games += 1
    agents = [make_agent("random", seed + i + 1) for i in range(game.num_players)]
    state = game.new_initial_state(seed=seed)
    seen: Counter[Any] = Counter()
    reported: set[str] = set()

    def note(kind: str, ply: int, message: str, calls: str = "") -> None:
        if kind not in reported:  # the first of each kind in a game
            reported.add(kind)
            out.findings.append(Finding(kind, seed, ply, message, calls))

    ply = 0
    try:
        while not state.is_terminal() and ply < max_plies:
            mover = state.current_player()
            turn = state.data.turn
            state.apply_action(agents[mover].choose(state))
            ply += 1
            data = state.data
            for kind, message in _invariants(game, state):
                note(kind, ply, message)
            if data.turn > turn + 1:  # a turn passed in which nobody had an option
                note("skipped", ply, "a turn was skipped: nobody could decide anything")
            key = game.runtime.position_key(data, data.mover) if data.turn != turn else None
            seen[key] += 1  # positions between turns only
            if key is not None and seen[key] == RECURS:
                note("recurs", ply, f"the same position occurred {RECURS} times")
            if game.has_hidden_information and ply & (ply - 1) == 0:
                for kind, message in _observations(game, state, seed + ply):
                    note(kind, ply, message)
    except RulelangError as err:  # in the action after the last one played
        calls = getattr(err, "calls", None) or ()
        note("error", ply + 1, err.render().splitlines()[0],  # where, code and message
             " > ".join(f"{span} in {name}" for span, name in calls))
        out.plies += ply
        return
    out.plies += ply
    if state.is_terminal() and not state.capped():
        out.ended += 1
    elif state.is_terminal():  # cut by the rulebook's own `end at most N plies`
        note("capped", ply, f"capped by the rulebook after {ply} actions")
    else:
        note("capped", ply, f"not over after {max_plies} actions")


def _invariants(game: Any, state: Any) -> list[tuple[str, str]]:
    data, rt = state.data, game.runtime
    found: list[tuple[str, str]] = []
    places: Counter[int] = Counter()
    for site, stack in zip(rt.board.sites, data.at, strict=True):
        for piece in stack:
            places[piece.id] += 1
            if data.loc[piece.id] is not site:
                found.append(("piece", f"{piece.label} is on {site.name}, but its location "
                                       f"says {_where(data.loc[piece.id], game)}"))
    for ref, pile in data.zones.items():
        for piece in pile:
            places[piece.id] += 1
            if data.loc[piece.id] is not ref:
                found.append(("piece", f"{piece.label} is in {_where(ref, game)}, but its "
                                       f"location says {_where(data.loc[piece.id], game)}"))
    for pid, n in places.items():
        if n > 1:
            found.append(("piece", f"a {rt.pieces[pid].label} is in {n} places at once"))
    for pid, where in enumerate(data.loc):
        if where is not None and places[pid] == 0:
            found.append(("piece", f"a {rt.pieces[pid].label} is in no place, but its "
                                   f"location says {_where(where, game)}"))
    c = Ctx(rt, data)
    for decl in rt.program.counters.values():
        if decl.lo is None and decl.hi is None:
            continue
        lo, hi = rt.counter_bounds(decl.name, c)
        for (name, _owner), value in data.counters.items():
            if name == decl.name and ((lo is not None and value < lo)
                                      or (hi is not None and value > hi)):
                found.append(("counter", f"counter {name} is {value}, outside {lo}..{hi}"))
    return found


def _observations(game: Any, state: Any, seed: int) -> list[tuple[str, str]]:
    found = []
    for p in range(game.num_players):
        if state.observation(p) != _dealt(game, state, p, seed).observation(p):
            found.append(("observation", f"{game.player_names[p]}'s observation changes when "
                          "what they may not see is dealt again: it shows something hidden"))
    return found


def _dealt(game: Any, state: Any, player: int, seed: int) -> Any:
    """A copy of `state` whose pieces hidden from `player` are dealt again (not a resample,
    which refuses a deal that `player` would see, and so would hide the leak)."""
    other = state.clone()
    if game.has_hidden_information:
        deal_again(other.live_data, game.runtime.program, player, random.Random(seed))
    return other


def _where(where: Any, game: Any) -> str:
    if isinstance(where, Site):
        return where.name
    if isinstance(where, ZoneRef):
        return where.name if where.owner is None else \
            f"{where.name} of {game.player_names[where.owner]}"
    return "nowhere"


def summary(path: str, sim: Simulation, limit: int = 5,
            options: dict[str, Any] | None = None) -> list[str]:
    """The lines `check --simulate` prints (a rule error with its rule calls and the command
    that replays its game, as `evaluate` reports a failed game: tools/evidence/failures.py)."""
    lines = [f"{path}: {sim.games} random games, {sim.ended} ended, "
             f"{sim.plies / max(sim.games, 1):.1f} actions on average"]
    counts = sim.counts()
    for kind in (*PROBLEMS, "recurs", "skipped"):
        if counts[kind]:
            mark = "problem" if kind in PROBLEMS else "note"
            lines.append(f"  {mark}: {_TITLES[kind]} in {counts[kind]} game(s)")
            for f in [f for f in sim.findings if f.kind == kind][:limit]:
                lines.append(f"    seed {f.seed}, action {f.ply}: {f.message}")
                if f.calls:
                    lines.append(f"      rule calls: {f.calls}")
                if kind == "error":
                    record = {"seed": f.seed, "agents": ["random"] * sim.players}
                    lines.append("      replay: " + replay_command(path, record, options or {},
                                                                   None, "compiled"))
    if not sim.findings:
        lines.append("  every invariant held")
    return lines


_TITLES = {"piece": "a piece in the wrong place", "counter": "a counter out of bounds",
           "observation": "an observation showing something hidden",
           "error": "a rule failed", "capped": "the game did not end",
           "recurs": "a position recurred", "skipped": "a turn skipped for want of options"}
