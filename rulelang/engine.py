"""Game and State, shaped like OpenSpiel's: the engine advances until one player must decide,
offers the legal options as sorted ints with stable strings, and applies the choice.

Flow: setup once, then turns in seat order. After each turn the `end` section is checked.
A turn with no possible decision is skipped; when every player in a row is skipped, the
game ends in a draw.
"""
from __future__ import annotations

from typing import Any

from .errors import IllegalActionError, RuleRuntimeError, RulelangError
from .executor import Decision, Executor, GameOver, Run
from .interpreter import Ctx
from .model.state import GameData
from .model.values import Piece, Site, ZoneRef, show
from .runtime import Runtime

TERMINAL = -4


class Game:
    def __init__(self, runtime: Runtime, path: str, source_hash: str) -> None:
        self.runtime = runtime
        self.executor = Executor(runtime)
        program = runtime.program
        self.name = program.game.name
        self.path = path
        self.source_hash = source_hash
        self.options = dict(runtime.options)
        self.num_players = len(runtime.players)
        self.player_names = [p.name for p in runtime.players]
        self.player_range = (program.players.lo, program.players.hi)
        self.option_specs = {n: _spec(o) for n, o in program.options.items()}
        self.has_chance = _has_chance(program)
        self.has_hidden_information = any(z.visible != "everyone"
                                          for z in program.zones.values())

    def new_initial_state(self, seed: int = 0) -> State:
        data = self.runtime.template.copy()
        data.rng.seed(seed)
        state = State(self, data)
        state._start(self._setup)
        return state

    def _setup(self, c: Ctx) -> Run:
        block = self.runtime.program.sections.get("setup")
        if block is not None:
            yield from self.executor.run(block, c, {})
        if self.runtime.program.uses_repetition:
            key = self.runtime.position_key(c.data, c.data.mover)
            c.data.positions[key] = 1

    def _turn(self, c: Ctx) -> Run:
        data = c.data
        data.turn += 1
        decisions_before = len(data.history)
        yield from self.executor.run(self.runtime.program.sections["turn"], c, {})
        if self.runtime.program.uses_repetition:
            key = self.runtime.position_key(data, (data.mover + 1) % self.num_players)
            data.positions[key] = data.positions.get(key, 0) + 1
        end = self.runtime.program.sections.get("end")
        if end is not None:
            yield from self.executor.run(end, c, {})
        data.idle = data.idle + 1 if len(data.history) == decisions_before else 0
        if data.idle >= self.num_players:
            raise GameOver([])
        data.mover = (data.mover + 1) % self.num_players

    def __repr__(self) -> str:
        return f"<Game {self.name!r} players={self.num_players}>"


def _spec(o: Any) -> dict[str, Any]:
    if o.choices:
        return {"default": o.default, "choices": list(o.choices)}
    return {"default": o.default, "choices": list(range(o.lo, o.hi + 1))}


def _has_chance(program: Any) -> bool:
    from . import ast
    found = False

    def visit(node: Any) -> None:
        nonlocal found
        if isinstance(node, (ast.Shuffle,)) or (isinstance(node, ast.Choose)
                                                 and node.mode == "random"):
            found = True
    for block in [*program.sections.values(), *(a.body for a in program.actions.values()),
                  *(f.body for f in program.effects.values())]:
        _walk_stmts(block, visit)
    return found


def _walk_stmts(node: Any, visit: Any) -> None:
    visit(node)
    for value in getattr(node, "__dataclass_fields__", {}):
        child = getattr(node, value)
        for item in child if isinstance(child, tuple) else (child,):
            if hasattr(item, "__dataclass_fields__"):
                _walk_stmts(item, visit)
            elif isinstance(item, tuple):
                for sub in item:
                    if hasattr(sub, "__dataclass_fields__"):
                        _walk_stmts(sub, visit)


class State:
    """One game in progress. Its generator is rebuilt from a checkpoint on clone()."""

    def __init__(self, game: Game, data: GameData) -> None:
        self.game = game
        self.ctx = Ctx(game.runtime, data)
        self._gen: Run | None = None
        self._decision: Decision | None = None
        self._labels: dict[str, int] | None = None
        self._checkpoint: GameData | None = None  # data where the current segment began
        self._trail: list[int] = []
        self._segment: Any = None

    @property
    def data(self) -> GameData:
        return self.ctx.data

    # ---- the run loop
    def _start(self, segment: Any) -> None:
        self._segment = segment
        self._checkpoint = self.ctx.data.copy()
        self._trail = []
        self._gen = segment(self.ctx)
        self._advance(None)

    def _advance(self, sent: Any) -> None:
        self.ctx.steps = 0
        while True:
            try:
                self._decision = self._gen.send(sent)  # type: ignore[union-attr]
                self._labels = None
                return
            except StopIteration:
                pass
            except GameOver as over:
                self.ctx.data.result = over.winners
                self._decision, self._gen = None, None
                return
            except RulelangError as err:
                err.sources = self.game.runtime.program.loaded.sources
                raise
            sent = None
            self._segment = self.game._turn
            self._checkpoint = self.ctx.data.copy()
            self._trail = []
            self._gen = self._segment(self.ctx)

    # ---- OpenSpiel-shaped API
    def current_player(self) -> int:
        d = self._decision
        return TERMINAL if d is None else d.player

    def is_terminal(self) -> bool:
        return self._decision is None

    def legal_actions(self) -> list[int]:
        d = self._decision
        return [] if d is None else list(range(len(d.options)))

    def action_to_string(self, action: int) -> str:
        d = self._decision
        if d is None or not 0 <= action < len(d.options):
            raise IllegalActionError(f"{action} is not a legal action now")
        return d.options[action].label

    def string_to_action(self, text: str) -> int:
        d = self._decision
        if d is None:
            raise IllegalActionError("the game is over")
        if self._labels is None:
            self._labels = {o.label: i for i, o in enumerate(d.options)}
        key = " ".join(str(text).split())
        if key in self._labels:
            return self._labels[key]
        raise IllegalActionError(self.game.executor.explain(d, key, self.ctx))

    def apply_action(self, action: int | str) -> None:
        if isinstance(action, str):
            action = self.string_to_action(action)
        d = self._decision
        if d is None:
            raise IllegalActionError("the game is over: no action can be applied")
        if not isinstance(action, int) or not 0 <= action < len(d.options):
            raise IllegalActionError(f"{action} is not a legal action now "
                                     f"(legal: 0..{len(d.options) - 1})")
        option = d.options[action]
        self.ctx.data.history.append((d.player, option.label, d.secret))
        self._trail.append(action)
        self._advance(option)

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

    def score_breakdown(self, player: int) -> dict[str, float]:
        return self.game.runtime.breakdown(self.ctx, player)

    def history(self) -> list[str]:
        return [label for _, label, _ in self.ctx.data.history]

    def clone(self) -> State:
        new = State.__new__(State)
        new.game = self.game
        new._labels = None
        if self._gen is None:
            new.ctx = Ctx(self.game.runtime, self.ctx.data.copy())
            new._gen, new._decision, new._checkpoint = None, None, None
            new._trail, new._segment = [], None
            return new
        assert self._checkpoint is not None
        new.ctx = Ctx(self.game.runtime, self._checkpoint.copy())
        new._segment, new._checkpoint, new._trail = self._segment, self._checkpoint, []
        new._gen = self._segment(new.ctx)
        new._decision = None
        history = new.ctx.data.history
        new._advance_replay(self._trail, history)
        return new

    def _advance_replay(self, trail: list[int], history: list) -> None:
        self._trail = []
        first = True
        self.ctx.steps = 0
        self._decision = self._gen.send(None)  # type: ignore[union-attr]
        for action in trail:
            first = False
            d = self._decision
            assert d is not None
            self.ctx.data.history.append((d.player, d.options[action].label, d.secret))
            self._trail.append(action)
            self._decision = self._gen.send(d.options[action])  # type: ignore[union-attr]
        del first, history

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    def __str__(self) -> str:
        return f"turn {self.ctx.data.turn}, to move: {self.current_player()}"


def observe(state: State, player: int) -> dict[str, Any]:
    """What one player may see: nothing hidden from them, in any field."""
    rt, data = state.game.runtime, state.ctx.data
    names = [p.name for p in rt.players]
    program = rt.program

    def piece_view(p: Piece) -> dict[str, Any]:
        owner = data.owner[p.id]
        attrs = {k: v[p.id] for k, v in data.attrs.items() if v[p.id] is not None}
        return {"kind": p.kind, "owner": None if owner is None else names[owner],
                "attrs": {k: show(v) if not isinstance(v, (int, str, bool)) else v
                          for k, v in attrs.items()}}
    board = [{"site": s.name, "coords": list(s.coords),
              "pieces": [piece_view(p) for p in data.at[s.index]]} for s in rt.board.sites]
    zones = []
    for ref, pieces in data.zones.items():
        visible = program.zones[ref.name].visible
        seen = visible == "everyone" or (visible == "owner" and ref.owner == player)
        zones.append({"zone": ref.name, "owner": None if ref.owner is None else names[ref.owner],
                      "count": len(pieces),
                      "pieces": [piece_view(p) for p in pieces] if seen else None})
    counters = [{"counter": k, "owner": None if o is None else names[o], "value": v}
                for (k, o), v in data.counters.items()]
    history = [label if not secret or who == player else f"{names[who]}: (secret choice)"
               for who, label, secret in data.history]
    return {"game": state.game.name, "player": player, "players": names,
            "current_player": state.current_player(), "terminal": state.is_terminal(),
            "turn": data.turn, "board": board, "zones": zones, "counters": counters,
            "history": history,
            "scores": state.scores() if program.scores and state.is_terminal() else None,
            "winners": state.winners() if state.is_terminal() else None}


__all__ = ["Game", "State", "TERMINAL", "RuleRuntimeError", "Site", "ZoneRef"]
