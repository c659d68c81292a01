"""The compiled mode's generator: a checked program and its runtime -> one generated
Python module for the game, over a flat state, whose functions become the methods of the
game's State class (a subclass of rt.GenState).

Stages, one module each: facts.py (whether the generator takes the game, the bound on its
steps), forms.py (what is known of a value before the game runs), emit.py and actions.py
(the writer: expressions, then menus, effects and the end), library/pycode.py (the one
compile and exec), rt.py (the state and the helpers its code calls), bridge.py (to and
from the reference's GameData). A game the generator does not take runs on the closures,
whole; `explain` says which construct is in the way, at its file:line:col.
"""
from __future__ import annotations

from typing import Any

import rulelang.gen.bridge as bridge
import rulelang.gen.facts as facts
from rulelang.errors import RulelangError
from rulelang.game.callchain import ORIGINS, note_calls
from rulelang.game.engine import Game, observe
from rulelang.gen.actions import GameWriter
from rulelang.gen.code import ALLOWED, FILENAME, Generated, Unsupported
from rulelang.gen.emit import Writer
from rulelang.gen.layout import Layout
from rulelang.gen.rt import GenState
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.decision import Decision
from rulelang.library.pycode import run_source
from rulelang.library.semantics import Ctx
from rulelang.model.rng import Rng

GENERATOR_VERSION = 1
__all__ = ["generate", "GenGame", "Unsupported", "explain", "GENERATOR_VERSION"]


def write(runtime: Any) -> tuple[Generated, Any]:
    """The game's module (raises Unsupported) and the turn's `do`."""
    do = facts.scope(runtime.program)
    layout = Layout(runtime.program, runtime.board)
    GameWriter(Writer(runtime, layout), do).write()  # (finds the kept structures it reads)
    g = GameWriter(Writer(runtime, layout), do).write()
    if g.steps > facts.UNCOUNTED:  # its steps counted as they run, the loops charged
        g = GameWriter(Writer(runtime, layout, counting=True), do).write()
        g.counting = True
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
            "do_nodes": tuple(n for n in walk(do) if isinstance(n, ast.Do)),
            "acts": tuple(space[f"act{m}"] for m in movers),
            "ends": tuple(space[f"end{m}"] for m in movers),
            "draws": draws if all(draws) else None,
            "_touch": space["touch"], "_init_kept": space["init_kept"],
            "_copy_kept": space["copy_kept"], "_kept_now": space["kept_now"],
            "totals": space["totals"], "repetition": frozenset(runtime.program.repetition),
            "counting": g.counting,
            "rt": runtime,
            "players": runtime.players,
            "do_node": next(n for n in walk(do) if isinstance(n, ast.Do)),
            "piece_owner": [None if o is None else runtime.players[o] for o in owners],
            "generated": g}
    return type("GeneratedState", (State,), body)


def explain(runtime: Any) -> Unsupported | None:
    """Why the generator does not take this game (None: it does)."""
    try:
        write(runtime)
    except Unsupported as why:
        return why
    except RulelangError:
        raise
    except Exception as exc:  # noqa: BLE001 - a fault of the generator: said, not raised
        return failed(exc)
    return None


def failed(exc: Exception) -> Unsupported:
    """A fault of the generator itself, as why it does not take the game: the game then runs
    on the closures (a player never meets the traceback; the tests look for this text)."""
    return Unsupported(f"the generator failed ({type(exc).__name__}: {exc})", None)


class State(GenState):
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

    def restarted(self, data: Any) -> GenState:
        """A state of this game holding `data` (a stated position, game/position.py), its
        turn started anew."""
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
        do = self.do_nodes[self.point] if self.do_nodes else self.do_node
        return Decision(self.mover, list(self.menu), menu=do)

    def _explain(self, text: str) -> str:
        return bridge.explain(self, text)

    def observation(self, player: int) -> dict[str, Any]:
        try:
            return observe(self, player)  # type: ignore[arg-type]
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
        """Nothing is hidden in a generated game: a copy with the chance generator seeded
        anew, as game/resample.py seeds it."""
        import random
        new = self.clone()
        new.rng = Rng(random.Random(seed).getrandbits(63))
        return new


class GenGame(Game):
    """A game whose states are its generated State class."""

    def __init__(self, runtime: Any, path: str, source_hash: str, cls: type[GenState]) -> None:
        super().__init__(runtime, path, source_hash)
        self.state_class = cls
        self._start: GenState | None = None

    def new_initial_state(self, seed: int = 0) -> Any:
        if self._start is None:  # the setup (no choice, no chance) run once by the reference
            ref = Game(self.runtime, self.path, self.source_hash)
            ref.max_plies = None
            begun = ref.new_initial_state(seed)
            start = bridge.from_data(self.state_class, self, begun.data)
            start.hist = []
            self._start = start
        state = self._start.clone()
        state.rng = Rng(0)
        state.rng.seed(seed)
        state._guarded(lambda _: state._start(), None)
        return state
