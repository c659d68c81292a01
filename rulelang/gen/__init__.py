"""The compiled mode's generator: a checked program and its runtime -> one generated
Python module for the game, over a flat state, whose functions become the methods of the
game's State class (a subclass of rt.GenState).

Stages, one module each: facts.py (whether the generator takes the game, the bound on its
steps), forms.py (what is known of a value before the game runs), emit.py and actions.py
(the writer: expressions, then menus, effects and the end), library/pycode.py (the one
compile and exec), rt.py (the state and the helpers its code calls), bridge.py (to and
from the reference's GameData). A game the generator does not take runs on the reference
evaluator, whole; `explain` says which construct is in the way, at its file:line:col.
"""
from __future__ import annotations

from typing import Any

import rulelang.game.engine as engine
import rulelang.gen.bridge as bridge
import rulelang.gen.cache as cache
import rulelang.gen.facts as facts
from rulelang.errors import RulelangError
from rulelang.game.action_space import NumberedActions
from rulelang.game.callchain import ORIGINS, note_calls
from rulelang.game.engine import Game, too_deep
from rulelang.gen.actions import GameWriter
from rulelang.gen.code import ALLOWED, FILENAME, Generated, Unsupported
from rulelang.gen.emit import Writer
from rulelang.gen.layout import Layout
from rulelang.gen.playout import SETUP, TURN
from rulelang.gen.resample import resample as segment_resample
from rulelang.gen.rt import GenState, zone_bits
from rulelang.library.decision import Decision
from rulelang.library.pycode import run_source
from rulelang.library.semantics import Ctx
from rulelang.model.rng import Rng

GENERATOR_VERSION = 1
__all__ = ["generate", "GenGame", "Unsupported", "explain", "GENERATOR_VERSION"]


def write(runtime: Any) -> tuple[Generated, Any]:
    """The game's module (raises Unsupported) and the turn's `do`. A setup that draws by
    chance runs as a machine in each new game, or, where the writer does not take it and it
    asks nothing, by the reference (GenGame._set_up)."""
    found = cache.found(runtime)
    if found is not None:
        return found, facts.scope(runtime.program)
    try:
        g, do = _write(runtime, facts.setup_machine(runtime.program))
    except Unsupported:
        if not facts.setup_machine(runtime.program) or facts.setup_decides(runtime.program):
            raise
        g, do = _write(runtime, False)
    cache.keep(runtime, g)
    return g, do


def _write(runtime: Any, setup: bool) -> tuple[Generated, Any]:
    do = facts.scope(runtime.program)
    layout = Layout(runtime.program, runtime.board)
    first = Writer(runtime, layout)
    found = GameWriter(first, do, setup).write()  # (finds the kept structures)
    # (zones kept to one kind only where no put or move of the game can fill a zone; steps
    # counted as they run where the first writing's bound is too high: the next writing's
    # is the same in every bundled game, and one it would find lower only counts steps
    # needlessly, the same steps: a writing spared for a counted game)
    kinds, counting = not first.fills_zones, found.steps > facts.UNCOUNTED
    spare = facts.SPARE
    while True:
        w, moved = Writer(runtime, layout, counting, kinds, spare), layout.moved_tops
        g = GameWriter(w, do, setup).write()
        if w.fills_zones and g.one_kind:
            kinds = False
        elif layout.moved_tops and not moved:  # (found late: each action's start forgets it)
            continue
        elif g.steps > facts.UNCOUNTED and not counting:  # its steps counted as they run
            counting = True
        elif counting and spare and g.steps > facts.UNCHARGED:  # every loop charged
            spare = 0
        else:
            break
    g.counting = counting
    g.slots = layout.slots
    return g, do


def generate(runtime: Any) -> type[GenState]:
    """The game's State class (raises Unsupported)."""
    g, do = write(runtime)
    origins = {name: (span, tuple(g.calls.get(name, ()))) for name, span, _ in g.origins}
    space = run_source(g.source, FILENAME, {"__builtins__": {}, **ALLOWED, **g.constants,
                                            ORIGINS: origins})
    owners = runtime.template.owner
    movers = range(len(runtime.players))
    draws = tuple(space.get(f"draw{m}") for m in movers)
    machine = "turn0" in space  # a turn of several decisions (gen/turns.py)
    body = {"__slots__": g.slots,
            "menus": () if machine else tuple(space[f"menu{m}"] for m in movers),
            "steppers": tuple(space[f"turn{m}"] for m in movers) if machine else None,
            "rounders": tuple(space[f"round{m}"] for m in movers) if "round0" in space
            else None,
            "untils": tuple(space[f"until{m}"] for m in movers) if "until0" in space else (),
            "setupper": staticmethod(space[f"setup{runtime.template.mover}"])
            if f"setup{runtime.template.mover}" in space else None,
            "do_nodes": g.dos,
            "acts": tuple(space[f"act{m}"] for m in movers),
            "ends": tuple(space[f"end{m}"] for m in movers),
            "draws": draws if all(draws) else None, "adopts": g.adopts,
            "_touch": space["touch"], "_init_kept": space["init_kept"],
            "_copy_kept": space["copy_kept"], "_kept_now": space["kept_now"],
            "totals": space["totals"], "repetition": frozenset(runtime.program.repetition),
            "option_slot": g.option_slot,
            "changing": tuple(sorted(set(runtime.template.attrs) - runtime.template.fixed)),
            "counting": g.counting, "hides": facts.hides(runtime.program),
            "one_kind": g.one_kind,
            "chooses": g.chooses, "choose_locals": g.choose_locals, "turn_slots": g.turn_slots,
            # the turn's start kept (a resample's, a stated position's)
            "keeps_segment": machine and (facts.hides(runtime.program)
                                          or facts.acts_before_deciding(runtime.program, do)),
            "rt": runtime,
            "players": runtime.players,
            "do_node": g.dos[0] if g.dos else None,
            "piece_owner": [None if o is None else runtime.players[o] for o in owners],
            "pile_keys": {}, "pile_codes": {}, "pile_parts": [],  # (bits.pile_code)
            "zone_bit": zone_bits(runtime.template.zones),
            "generated": g}
    return type("GeneratedState", (State,), body)


def explain(runtime: Any) -> Unsupported | None:
    """Why the generator does not take this game (None: it does: its module is written and
    compiled, as load_game makes it)."""
    try:
        generate(runtime)
    except Unsupported as why:
        return why
    except RulelangError:
        raise
    except Exception as exc:  # noqa: BLE001 - a fault of the generator: said, not raised
        return failed(exc)
    return None


def failed(exc: Exception) -> Unsupported:
    """A fault of the generator itself, as why it does not take the game: the game then runs
    on the reference evaluator (a player never meets the traceback; the tests look for this
    text)."""
    return Unsupported(f"the generator failed ({type(exc).__name__}: {exc})", None)


class State(GenState, NumberedActions):
    """The public State of a generated game: the engine's contract (game/engine.py State),
    the rest of it over the reference's data, off the hot path."""

    __slots__ = ()
    generated: Generated

    @property
    def data(self) -> Any:
        return bridge.to_data(self)

    @property
    def ctx(self) -> Ctx:
        return Ctx(self.rt, bridge.to_data(self))

    def turn_start_data(self) -> Any:
        """The data the current turn began with (a stated position restarts the turn from
        it), or None in the middle of a turn or during the setup (none may be stated)."""
        if self.steppers is None:  # (one decision a turn: nothing but requires before it)
            return self.data
        if self.phase != TURN or self.decided:
            return None
        start = self._segment_start() if self.keeps_segment else None  # (kept where the turn
        return bridge.to_data(start if start is not None else self)  # acts before deciding)

    def restarted(self, data: Any) -> Any:
        """A state of this game holding `data` (a stated position, game/position.py), its
        turn started anew (the reference's, where the data breaks a fact the code takes)."""
        if not bridge.kinds_hold(type(self), data):  # (a position the code does not take)
            return self.game.reference_state(data, True)
        new = bridge.from_data(type(self), self.game, data)
        new._guarded(lambda _: new._start(), None)
        return new

    def _verify_kept(self) -> None:
        fresh = bridge.from_data(type(self), self.game, bridge.to_data(self))
        if self._kept_now() != fresh._kept_now():
            raise AssertionError("a kept structure of the generated state differs from one "
                                 f"made anew, after action {len(self.hist)}")

    @property
    def _decision(self) -> Decision | None:
        """The decision open now, as the engine's State holds it (the terminal's
        explanations read it)."""
        if self.menu is None:
            return None
        entry = (self.current_player(), list(self.menu), 0) if self.steppers is None else \
            (self.current_player(), list(self.menu), 0, self.point)
        return bridge.decision(self, entry)

    def history(self) -> list[str]:
        return [d.labels()[k] for d, k in bridge.history(self)]

    def _explain(self, text: str) -> str:
        return bridge.explain(self, text)

    def observation(self, player: int) -> dict[str, Any]:
        try:
            return engine.observe(self, player)  # type: ignore[arg-type]
        except RulelangError as err:
            note_calls(err, self.rt.program.loaded)
            raise

    def scores(self) -> list[float]:
        if not self.rt.program.scores:
            return self.returns()
        try:
            return [float(t) for t in self.totals()]
        except RulelangError as err:
            note_calls(err, self.rt.program.loaded)
            raise

    def score_breakdown(self, player: int, terms: Any = None) -> dict[str, float]:
        out: dict[str, float] = self.rt.breakdown(self.ctx, player, terms)
        return out

    def resample(self, player: int, seed: int) -> GenState:
        """A copy in which what `player` cannot see is dealt and chosen again
        (game/resample.py): in the middle of a turn, the reference's procedure on the flat
        state (gen/resample.py); elsewhere (a game over, a turn of one decision) the
        reference's resample of the same position, played again here from the start it
        dealt."""
        import random
        if not self.hides:
            new = self.clone()
            new.rng = Rng(random.Random(seed).getrandbits(63))
            return new
        if self.keeps_segment and self.menu is not None and self._segment_start() is not None:
            return segment_resample(self, player, seed)
        setup = self.phase == SETUP
        ref = self.game.reference_state(bridge.to_data(self), self.menu is not None, setup)
        dealt = ref.resample(player, seed)
        if dealt._checkpoint is None:  # the game is over: its data dealt again
            new = bridge.from_data(type(self), self.game, dealt.ctx.data)
            new.result, new.menu, new.ended_by = self.result, None, self.ended_by
            return new
        new = bridge.from_data(type(self), self.game, dealt._checkpoint.copy())
        new.phase = SETUP if setup else TURN
        new._guarded(lambda _: new._start(), None)
        for action in dealt._trail:
            new.apply_action(action)
        new.rng = dealt.ctx.data.rng.copy()
        new.stated_chance = ()
        return new


class GenGame(Game):
    """A game whose states are its generated State class."""

    def __init__(self, runtime: Any, path: str, source_hash: str, cls: type[GenState]) -> None:
        super().__init__(runtime, path, source_hash)
        self.state_class = cls
        self._start: GenState | None = None
        # … and, where a one-decision game's first menu is listed without chance, with it
        self._first: GenState | None = None
        self._chance = facts.chance_in_setup(runtime.program)  # (the setup draws by chance)

    def new_initial_state(self, seed: int = 0, rng: Any = None) -> Any:
        """A new game; its chance drawn from `seed`, or from `rng` when given (a
        game/chance.ScriptedRng: the outcomes are given from outside)."""
        chance, fixed = self._chance, False  # (fixed: the same start for every seed)
        if self.state_class.setupper is not None:  # the setup's machine, from the template
            data = self.runtime.template.copy()
            start = bridge.from_data(self.state_class, self, data)
            start.hist, start._made, start.phase = [], [], SETUP
        elif chance:  # (a setup the writer does not take, run by the reference)
            data = self._set_up(seed, rng)
            if not bridge.kinds_hold(self.state_class, data):
                return self.reference_state(data, True)
            start = bridge.from_data(self.state_class, self, data)
            start.hist, start._made = [], []
        else:  # the same setup for every seed: run once, by the reference
            if self._start is None:
                data = self._set_up(0)
                if not bridge.kinds_hold(self.state_class, data):
                    return self.reference_state(self._set_up(seed), True)
                self._start = bridge.from_data(self.state_class, self, data)
                self._start.hist, self._start._made = [], []
            if rng is None and self._first is not None:  # (its first menu listed once)
                start = self._first.clone()
                start.rng = Rng(seed)
                return start
            start, fixed = self._start.clone(), rng is None
        if rng is not None:  # (the given generator itself, as the engine keeps it)
            start.rng = rng
        elif not chance or start.phase == SETUP:
            start.rng = Rng(seed)
        turn = start.turn
        start._guarded(lambda _: start._start(), None)
        if fixed and start.steppers is None and start.menu is not None and start.turn == turn:
            self._first = start.clone()  # (a one-decision game's first menu: no turn skipped)
        return start

    def reference_state(self, data: Any, turn: bool, setup: bool = False) -> Any:
        """The reference engine's state holding `data` (a turn's start, or the setup's):
        its turn (or setup) begun when `turn` (resample plays the segment there)."""
        from rulelang.game.engine import State as Engine
        ref = Engine(Game(self.runtime, self.path, self.source_hash), data)
        if turn:
            flow = ref.game.flow
            ref._guard(ref._start, flow.setup if setup else flow.turn)
        else:
            ref._decision = None
        return ref

    def _set_up(self, seed: int, rng: Any = None) -> Any:
        """The data the setup leaves (run by the reference's flow; it has no decision)."""
        data = self.runtime.template.copy()
        data.rng.seed(seed)
        if rng is not None:
            data.rng = rng
        try:
            for _ in Game(self.runtime, self.path, self.source_hash).flow.setup(
                    Ctx(self.runtime, data)):
                raise AssertionError("a decision in a setup the generator takes")
        except RecursionError as exc:  # (a rule of the setup calling itself: R302)
            err = too_deep(exc)
            note_calls(err, self.runtime.program.loaded)
            raise err from None
        except RulelangError as err:
            note_calls(err, self.runtime.program.loaded)
            raise
        return data
