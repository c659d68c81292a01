"""Game and State, shaped like OpenSpiel's: the engine advances until one player must decide,
offers the legal options as sorted ints with stable strings, and applies the choice.

What is played is the evaluator's Flow (library/decision.py): setup once, then turns, each a
generator segment; the engine keeps the segment's checkpoint and choices (for clone and
resample) and has no fast path of its own (a flow may offer some through its hooks).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rulelang.errors import (
    IllegalActionError,
    RulelangError,
    RuleRuntimeError,
)
from rulelang.game.action_space import NumberedActions, space_of
from rulelang.game.callchain import note_calls
from rulelang.game.pictures import by_piece, picture_fns
from rulelang.game.resample import resample
from rulelang.game.runtime import Runtime
from rulelang.language.decisions import DecisionAnalysis
from rulelang.library.decision import Decision, Flow, GameOver, Run
from rulelang.library.semantics import Ctx, charge, weight
from rulelang.model.state import GameData
from rulelang.model.values import Piece, Record, Site, ZoneRef, show
from rulelang.source import Span

TERMINAL = -4


class Game:
    def __init__(self, runtime: Runtime, path: str, source_hash: str) -> None:
        self.runtime = runtime
        self.flow: Flow = runtime.make_flow(runtime)  # the evaluator's flow of play
        program = runtime.program
        self.name = program.game.name
        self.path = path
        self.source_hash = source_hash
        self.options = dict(runtime.options)
        self.num_players = len(runtime.players)
        self.player_names = [p.name for p in runtime.players]
        self.player_range = (program.players.lo, program.players.hi)
        self.option_specs = {n: _spec(o) for n, o in program.options.items()}
        blocks = [*program.sections.values(), *(a.body for a in program.actions.values()),
                  *([program.round.body] if program.round is not None else [])]
        analysis = DecisionAnalysis(program)
        self.has_chance = any(analysis.chance(b) for b in blocks)
        self.has_hidden_information = any(z.visible != "everyone"
                                          for z in program.zones.values())
        self.pictures = picture_fns(runtime)  # how pieces are drawn (render.py)
        # the longest game, in plies (`end at most N plies`); a caller may lower it before
        # playing: a state that reaches it ends capped, with no result (State.capped)
        self.max_plies: int | None = program.max_plies

    def num_distinct_actions(self) -> int:
        """The size of the game's fixed action space (game/action_space.py; a
        RulebookError names a choose whose values cannot be numbered)."""
        return space_of(self).size

    def new_initial_state(self, seed: int = 0, rng: Any = None) -> State:
        """A new game; its chance drawn from `seed`, or from `rng` when given (a
        game/chance.ScriptedRng: the outcomes are given from outside)."""
        data = self.runtime.template.copy()
        data.rng.seed(seed)
        if rng is not None:
            data.rng = rng
        state = State(self, data)
        state._guard(state._begin, None)
        return state

    def __repr__(self) -> str:
        return f"<Game {self.name!r} players={self.num_players}>"


def _spec(o: Any) -> dict[str, Any]:
    """An option's default and values: a list of names, or a range of numbers (never made
    into a list: a rulebook may allow a billion values)."""
    if o.choices:
        return {"default": o.default, "choices": list(o.choices)}
    return {"default": o.default, "choices": range(o.lo, o.hi + 1)}


class State(NumberedActions):
    """One game in progress.

    A generator runs the segment of play (the flow's setup or one turn) and clone() replays
    the segment's choices from its checkpoint.
    """

    def __init__(self, game: Game, data: GameData) -> None:
        self.game = game
        self.ctx = Ctx(game.runtime, data)
        self._gen: Run | None = None
        self._decision: Decision | None = None
        self._index: dict[str, int] | None = None
        self._checkpoint: GameData | None = None  # data where the current segment began
        self._resampled = False  # made by resample(): cannot be cloned mid-segment
        self._trail: list[int] = []
        self._segment: Any = None
        self._views: Any = None  # resample.py: the player's views of the segment, kept

    @property
    def data(self) -> GameData:
        data: GameData = self.ctx.data
        return data

    @property
    def live_data(self) -> GameData:
        """What the state's rules read and change (its draws at random are made with it:
        library/effects.chance_watch); `data` is a copy where they do not read GameData."""
        return self.data

    # ---- running
    def _begin(self, _: Any) -> None:
        self._start(self.game.flow.setup)

    def _start(self, segment: Any) -> None:
        self._segment = segment
        self._checkpoint = self.ctx.data.copy()
        self._trail, self.ctx.log = [], []
        self._gen = segment(self.ctx)
        self._guard(self._advance, None)

    def _guard(self, step: Any, arg: Any) -> None:
        """Ends the game on a result; attaches sources to rule errors."""
        self.ctx.steps = 0
        try:
            step(arg)
        except GameOver as over:
            self._ended(over)
        except RecursionError as exc:
            err = too_deep(exc)
            note_calls(err, self.game.runtime.program.loaded)
            raise err from None
        except RulelangError as err:
            note_calls(err, self.game.runtime.program.loaded)
            raise

    def _ended(self, over: GameOver) -> None:
        """A result statement ended the game."""
        self.ctx.data.result = over.winners
        self.ended_by = over.span  # the result statement that ended the game, if any
        self._decision, self._gen, self._index = None, None, None

    def _advance(self, sent: Any) -> None:
        """Run the current generator segment, then the next ones, until a decision."""
        while self._gen is not None:
            try:
                self._decision = self._gen.send(sent)
                self._index = None
                return
            except StopIteration:
                pass
            sent = None
            self._segment = self.game.flow.turn
            self._checkpoint = self.ctx.data.copy()
            self._trail, self.ctx.log = [], []
            self._gen = self._segment(self.ctx)

    # ---- OpenSpiel-shaped API
    def current_player(self) -> int:
        d = self._decision
        return TERMINAL if d is None else d.player

    def is_terminal(self) -> bool:
        return self._decision is None

    def legal_actions(self) -> list[int]:
        d = self._decision
        return [] if d is None else list(range(d.count))

    def action_to_string(self, action: int) -> str:
        d = self._decision
        if d is None or not isinstance(action, int) or not 0 <= action < d.count:
            raise IllegalActionError(f"{action} is not a legal action now")
        return d.labels()[action]

    def string_to_action(self, text: str) -> int:
        d = self._decision
        if d is None:
            raise IllegalActionError("the game is over")
        if self._index is None:
            self._index = {lab: i for i, lab in enumerate(d.labels())}
        key = " ".join(str(text).split())
        if key in self._index:
            return self._index[key]
        raise IllegalActionError(self.game.flow.explain(d, key, self.ctx))

    def apply_action(self, action: int | str) -> None:
        if isinstance(action, str):
            action = self.string_to_action(action)
        d = self._decision
        if d is None:
            raise IllegalActionError("the game is over: no action can be applied")
        if not isinstance(action, int) or not 0 <= action < d.count:
            raise IllegalActionError(f"{action} is not a legal action now "
                                     f"(legal: 0..{d.count - 1})")
        self.ctx.data.history.append((d, action))
        self._trail.append(action)
        self._guard(self._advance, d.options[action])
        cap = self.game.max_plies
        if cap is not None and len(self.ctx.data.history) >= cap and self._decision is not None:
            self._cap()

    def play_out(self, rng: Any, limit: int) -> None:
        """Apply uniformly random legal actions until the game ends or `limit` are applied:
        a search's playout, the same as `apply_action(rng.choice(legal_actions()))` each
        time. The game's cap ends it as apply_action would."""
        for _ in range(limit):
            if self._decision is None:
                return
            self.apply_action(rng.randrange(self._decision.count))

    def _cap(self) -> None:
        """The game reached its longest length: it ends here, capped, with no result."""
        self.ctx.data.capped = True
        self.ctx.data.result = None
        self._decision, self._gen, self._index = None, None, None

    def capped(self) -> bool:
        """The game ended by reaching its longest length (Game.max_plies): terminal, with
        no winner (winners() is [], returns() are 0 for everyone)."""
        return bool(self.ctx.data.capped)

    def returns(self) -> list[float]:
        n = self.game.num_players
        winners = self.ctx.data.result
        if winners is None or not winners:
            return [0.0] * n
        if len(winners) == 1:
            return [1.0 if i in winners else -1.0 for i in range(n)]
        return [0.0 if i in winners else -1.0 for i in range(n)]

    def winners(self) -> list[int]:
        return list(self.ctx.data.result or [])

    def scores(self) -> list[float]:
        if not self.game.runtime.program.scores:
            return self.returns()
        return [float(t) for t in self.game.runtime.totals(self.ctx)]

    def score_breakdown(self, player: int, terms: Any = None) -> dict[str, float]:
        """Each score term's points for `player` (only the terms named in `terms`, when
        given: the others are not evaluated)."""
        return self.game.runtime.breakdown(self.ctx, player, terms)

    def history(self) -> list[str]:
        return [d.labels()[i] for d, i in self.ctx.data.history]

    def clone(self) -> State:
        if self._resampled and self._gen is not None:
            raise RulelangError("a resampled state cannot be cloned: clone the state first, "
                                "then resample the clone")
        if self._gen is None:  # terminal
            new = State.__new__(State)
            new._resampled = False
            new.game, new._index, new._segment = self.game, None, self._segment
            new.ctx = Ctx(self.game.runtime, self.ctx.data.copy())
            new._gen, new._decision, new._checkpoint, new._trail = None, self._decision, None, []
            new._views = None
            return new
        return self._replayed()

    def _replayed(self) -> State:
        """A copy of this state mid-segment: the segment replayed from its start with the
        same choices, each decision point given as it was logged (Ctx.log), so that no menu
        is made again."""
        new = self._at_segment_start(self.ctx.log)
        for action in self._trail:
            new._replay(action)
        assert not new.ctx.replay, "a replay met fewer decision points than were logged"
        new.ctx.replay = None
        return new

    def _at_segment_start(self, log: list[Any] | None = None,
                          data: GameData | None = None) -> State:
        """A copy at the start of the current segment, its first decision waiting; with the
        segment's `log`, its decision points are given from it (see _replayed: an exact
        replay). With `data`, the segment starts from it instead of its checkpoint (a
        resample: game/resample.py)."""
        assert self._checkpoint is not None
        new = State.__new__(State)
        new._resampled, new.game, new._index, new._segment = False, self.game, None, \
            self._segment
        new.ctx = Ctx(self.game.runtime, self._checkpoint.copy() if data is None else data)
        if log is not None:
            new.ctx.replay = log[::-1]
        new._checkpoint = self._checkpoint if data is None else data.copy()
        new._trail, new._views = [], None
        new._gen = self._segment(new.ctx)
        new._decision = next(new._gen)  # primes the segment: the same as send(None)
        return new

    def _replay(self, action: int) -> None:
        """Make choice `action` of the waiting decision, inside the segment."""
        d = self._decision
        assert d is not None and self._gen is not None
        self.ctx.data.history.append((d, action))
        self._trail.append(action)
        self._decision = self._gen.send(d.options[action])

    def observation(self, player: int) -> dict[str, Any]:
        try:
            return observe(self, player)
        except RulelangError as err:  # a picture's rule, or the budget
            note_calls(err, self.game.runtime.program.loaded)
            raise

    def resample(self, player: int, seed: int) -> State:
        """A copy in which what `player` cannot see is dealt or chosen again at random,
        consistent with everything the player has seen (game/resample.py): the pieces in
        the zones hidden from them, the others' secret choices of the current segment
        whose results they have not seen, and the chance generator. The copy can be played
        on but not cloned."""
        new: State = resample(self, player, seed)
        return new

    def __str__(self) -> str:
        return f"turn {self.ctx.data.turn}, to move: {self.current_player()}"


def too_deep(exc: RecursionError) -> RuleRuntimeError:
    """R302 for rules that call each other without end, at the call that recurs."""
    return RuleRuntimeError("rules call each other too deeply (endless recursion?)",
                            recurring_span(exc), "R302")


def recurring_span(exc: BaseException, span_of: Any = None) -> Span | None:
    """Where the endless recursion is: the span met most often among the innermost frames
    (span_of(frame), by default the rule call an interpreter frame holds: a call keeps its
    `span`, the interpreter its node, or its statement `s` for an effect's call)."""
    tb, frames = exc.__traceback__, []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    seen: Counter[Span] = Counter()
    for frame in frames[-300:]:
        found = (span_of or _frame_span)(frame)
        if isinstance(found, Span):
            seen[found] += 1
    return seen.most_common(1)[0][0] if seen else None


def _frame_span(frame: Any) -> Span | None:
    found = frame.f_locals.get("span")
    for name in ("node", "s"):  # an expression; the interpreter's statement `s`
        if not isinstance(found, Span):
            found = getattr(frame.f_locals.get(name), "span", None)
    return found if isinstance(found, Span) else None


def observe(state: State, player: int) -> dict[str, Any]:
    """What one player may see: nothing hidden from them, in any field."""
    try:
        return _observe(state, player)
    except RecursionError as exc:  # a picture's rule, or a shown value's, calling itself
        raise too_deep(exc) from None


def _observe(state: State, player: int) -> dict[str, Any]:
    rt, data = state.game.runtime, state.ctx.data
    names = [p.name for p in rt.players]
    program = rt.program

    pictures = state.game.pictures
    c = Ctx(rt, data)  # an observation has a step budget of its own: pictures, shown values

    columns: dict[str, list[tuple[str, list[Any]]]] = {}  # per kind: its attribute columns

    def piece_view(p: Piece) -> dict[str, Any]:
        owner = data.owner[p.id]
        mine = columns.get(p.kind)
        if mine is None:
            declared = {name for name, _ in program.pieces[p.kind].attrs}
            mine = columns[p.kind] = [(k, v) for k, v in data.attrs.items() if k in declared]
        attrs = {k: v[p.id] for k, v in mine if v[p.id] is not None}
        view = {"kind": p.kind, "owner": None if owner is None else names[owner],
                "attrs": {k: show(v) if not isinstance(v, (int, str, bool)) else v
                          for k, v in attrs.items()}}
        if p.kind in pictures:
            drawn = pictures[p.kind](c, p)
            if isinstance(drawn, dict):  # a record: the piece's look
                view["look"] = dict(drawn)
            else:
                view["picture"] = list(drawn)
        return view

    # the kinds whose view follows from a piece's kind, owner and attributes alone
    keyed = {k for k in program.pieces if k not in pictures or by_piece(pictures[k])}

    def zone_view(pieces: list[Piece]) -> list[dict[str, Any]]:
        """The pieces' views, a run of identical ones as one with a count; a piece of a keyed
        kind with the owner and attributes of the one before only adds to the count."""
        out: list[dict[str, Any]] = []
        last: tuple[Any, ...] | None = None
        owner = data.owner
        for p in pieces:
            mine = columns.get(p.kind) if p.kind in keyed else None
            key = None if mine is None else (p.kind, owner[p.id], *[v[p.id] for _, v in mine])
            if key is not None and key == last:
                out[-1]["count"] += 1
                continue
            last = key
            _add_to_runs(out, piece_view(p))
        return out
    board = [{"site": s.name, "coords": list(s.coords),
              "pieces": [piece_view(p) for p in data.at[s.index]]} for s in rt.board.sites]
    zones = []
    for ref, pieces in data.zones.items():
        seen = _zone_seen(program, ref, player)
        zones.append({"zone": ref.name, "owner": None if ref.owner is None else names[ref.owner],
                      "count": len(pieces),
                      "pieces": zone_view(pieces) if seen else None})
    counters = [{"counter": k, "owner": None if o is None else names[o], "value": v}
                for (k, o), v in data.counters.items()]
    variables = []
    for (k, o), v in data.vars.items():
        seen_var = _may_see(program.vars[k], k, o, player, data)
        variables.append({"var": k, "owner": None if o is None else names[o],
                          "value": _public(c, v, program.vars[k].span) if seen_var
                          else None})
        if not seen_var:  # a secret this player may not see (its value is not a none)
            variables[-1]["hidden"] = True
    history = shown_history(data.history, player)
    obs = {"game": state.game.name, "player": player, "players": names,
           "current_player": state.current_player(), "terminal": state.is_terminal(),
           "turn": data.turn, "board": board, "zones": zones, "counters": counters,
           "vars": variables, "history": history,
           "scores": state.scores() if program.scores and state.is_terminal() else None,
           "winners": state.winners() if state.is_terminal() else None}
    if data.capped:  # cut at the game's longest length: no result
        obs["capped"] = True
    if rt.board.layers:  # the titles of the board's layers, by first coordinate
        obs["layers"] = {str(z): t for z, t in rt.board.layers.items()}
    if rt.board.layer_at:  # and where each lies in the picture: [row, column]
        obs["layer_at"] = {str(z): list(at) for z, at in rt.board.layer_at.items()}
    if rt.board.draw_at:  # where each site is drawn: [row, column in half sites]
        obs["draw_at"] = {s.name: list(rt.board.draw_at[s.coords]) for s in rt.board.sites}
    if any(rt.view.values()):  # the rulebook's `view`: goals, hidden names, titles
        obs["view"] = rt.view
    return obs


SECRET = "(secret choice)"


def shown_history(made: list[tuple[Decision, int]], player: int) -> list[str]:
    """The history as `player` may know it: another player's secret choices read
    `(secret choice)`, and a run of them in a row (the same player's, nothing else between)
    is one entry, so that how many there were tells nothing of what they were about."""
    return [d.labels()[i] if shown else SECRET for d, i, shown in _shown(made, player)]


def shown_movers(made: list[tuple[Decision, int]], player: int) -> list[int | None]:
    """Who made each entry of shown_history(made, player): the deciding player, None for a
    run of another player's secret choices (said without a name)."""
    return [d.player if shown else None for d, _, shown in _shown(made, player)]


def _shown(made: list[tuple[Decision, int]], player: int
           ) -> list[tuple[Decision, int, bool]]:
    """The entries `player` may know of, each with whether it is shown (False: the first of
    a run of another player's secret choices, which stands for the whole run)."""
    out: list[tuple[Decision, int, bool]] = []
    last_secret: int | None = None  # the player of the run of secret choices just met
    for d, i in made:
        if d.secret and d.player != player:
            if last_secret != d.player:
                out.append((d, i, False))
                last_secret = d.player
            continue
        out.append((d, i, True))
        last_secret = None
    return out


def _zone_seen(program: Any, ref: ZoneRef, player: int) -> bool:
    visible = program.zones[ref.name].visible
    return bool(visible == "everyone" or (visible == "owner" and ref.owner == player))


def _add_to_runs(out: list[dict[str, Any]], v: dict[str, Any]) -> None:
    """Consecutive identical pieces of a zone as one entry with a count (a supply of 181
    stones is one line)."""
    if out and all(out[-1][k] == v[k] for k in v):
        out[-1]["count"] += 1
    else:
        out.append({**v, "count": 1})


def _may_see(decl: Any, name: str, owner: int | None, player: int, data: GameData) -> bool:
    return not decl.secret or owner == player or (name, owner) in data.revealed


def _public(c: Ctx, value: Any, span: Span | None) -> Any:
    """A var's value as an observation shows it, charged by its size (semantics.weight)."""
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    charge(c, weight(value), span)
    return _plain(value)


def _plain(value: Any) -> Any:
    if isinstance(value, (bool, int, str)) or value is None:
        return value
    if isinstance(value, Record):  # a record: its fields by name, in the order written
        return {k: _plain(v) for k, v in zip(value.fields, value, strict=True)}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return show(value)


__all__ = ["Game", "State", "TERMINAL", "RuleRuntimeError", "Site", "ZoneRef"]
