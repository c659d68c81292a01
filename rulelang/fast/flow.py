"""The fast flow: the engine's protocol (library/decision.py Flow) over the fast statement
evaluator, with the fast paths of play.

* The general segments (setup, turn) are generators, as in rulelang/reference/flow.py.
* Single-decision turns (most abstract games: one `do`, nothing decided after it) run
  without generators: the state holds the decision and applies the option directly
  (start, resume, apply).
* A setup without chance or choice is run once per game and copied (initial).
"""
from __future__ import annotations

from typing import Any

from rulelang.fast.executor import Executor
from rulelang.language import ast
from rulelang.language.decisions import explain
from rulelang.library.decision import Decision, Flow, GameOver, Option, Options, Run
from rulelang.library.semantics import Ctx
from rulelang.model.state import GameData


class FastFlow(Flow):
    def __init__(self, runtime: Any) -> None:
        self.rt = runtime
        self.executor = ex = Executor(runtime)
        program = runtime.program
        self.num_players = len(runtime.players)
        self._round = program.round
        self._setup_block = program.sections.get("setup")
        self._turn_block = program.sections["turn"]
        self._end = program.sections.get("end")
        self.simple = ex.single_decision_turns() and not (
            self._round is not None and ex.decides(self._round.body))
        self._turn_stmts = self._turn_block.stmts
        self.samples = self.simple  # play_out draws each option (sample)
        # a turn that is one `do` and nothing else: its decision is that menu's
        only = self._turn_stmts[0] if len(self._turn_stmts) == 1 else None
        self._only_do = only if type(only) is ast.Do else None
        do_at = next((i for i, s in enumerate(self._turn_stmts) if isinstance(s, ast.Do)),
                     len(self._turn_stmts))
        self._after_do_fns = ex.block_fns(self._turn_stmts[do_at + 1:]) if self.simple else ()
        self._end_fns = ex.block_fns(self._end.stmts) if self._end is not None else ()
        self._uses_repetition = program.uses_repetition
        setup = self._setup_block
        self._setup_decides = setup is not None and ex.decides(setup)
        self._setup_fixed = setup is None or not ex.chance(setup)
        self._start_cache: tuple[GameData, Decision | None] | None = None

    # ---- the general segments
    def setup(self, c: Ctx) -> Run:
        if self._setup_block is not None:
            yield from self.executor.run(self._setup_block, c, {})
        if self._uses_repetition:
            self.rt.count_position(c.data, c.data.mover)

    def turn(self, c: Ctx) -> Run:
        """The general turn: any number of decisions, by anyone."""
        before = len(c.data.history)
        run = self.executor.run
        yield from run(self._turn_block, c, {})
        self._record_position(c)
        end = self._end
        if end is not None:
            yield from run(end, c, {})
        if self._next_turn(c, len(c.data.history) > before):
            yield from run(self._round.body, c, {})
            if end is not None:
                yield from run(end, c, {})
            self._new_round(c)

    def explain(self, d: Decision, text: str, c: Ctx) -> str:
        return explain(self.rt.program, d, text, c, self.executor.value,
                       self.executor.execute)

    # ---- single-decision turns: no generators
    def initial(self, seed: int) -> tuple[GameData, Decision | None] | None:
        if self._start_cache is None:
            return None
        data0, decision = self._start_cache  # a setup without chance or choice: made once
        data = data0.copy()
        data.rng.seed(seed)
        return data, decision

    def start(self, c: Ctx) -> Decision | None:
        if not self.simple or self._setup_decides:
            return None
        if self._setup_block is not None:
            self.executor.run_plain(self._setup_block, c, {})
        if self._uses_repetition:
            self.rt.count_position(c.data, c.data.mover)
        decision = self._next_decision(c)
        if self._setup_fixed:
            self._start_cache = (c.data.copy(), decision)
        return decision

    def resume(self, c: Ctx) -> Decision | None:
        return self._next_decision(c) if self.simple else None

    def apply(self, option: Option, c: Ctx, decide: bool = True) -> Decision:
        """(With `decide` false: what `play` does, returning None.)"""
        self.executor.perform_plain(option, c)
        # _finish_simple_turn(c, decided=True), inlined on this hot path
        if self._after_do_fns:
            e: dict[str, Any] = {}
            for f in self._after_do_fns:
                f(c, e)
        if self._uses_repetition:
            self._record_position(c)
        if self._end_fns:
            env: dict[str, Any] = {}
            for f in self._end_fns:
                f(c, env)
        data = c.data
        if self._round is None:  # _next_turn(c, True), inlined: no round to end
            data.idle = 0
            data.turn += 1
            data.mover = (data.mover + 1) % self.num_players
            data.version += 1
        elif self._next_turn(c, True):
            self.executor.run_plain(self._round.body, c, {})
            for f in self._end_fns:
                f(c, {})
            self._new_round(c)
        if not decide:
            return None  # type: ignore[return-value]  # (play)
        if self._only_do is not None:  # _next_decision(c), its first turn inlined
            options = self.executor.menu(self._only_do, c)
            if options:
                return Decision(c.data.mover, options, menu=self._only_do)
            self._finish_simple_turn(c, decided=False)
        return self._next_decision(c)

    # ---- playouts: the next decision's option drawn without its whole menu
    def decide(self, c: Ctx) -> Decision:
        return self._next_decision(c)

    def sample(self, c: Ctx, rng: Any) -> tuple[Decision, Option]:
        while True:  # (as _next_decision: a turn without an option is skipped)
            do = self._turn_do(c)
            option = self.executor.sample(do, c, rng) if do is not None else None
            if option is not None:
                return Decision(c.data.mover, Options([(None, [option])]), menu=do), option
            self._finish_simple_turn(c, decided=False)

    def play(self, option: Option, c: Ctx) -> None:
        self.apply(option, c, False)

    def _next_decision(self, c: Ctx) -> Decision:
        """Turns until one offers a decision (a turn without one is skipped)."""
        while True:
            d = self._simple_decision(c)
            if d is not None:
                return d
            self._finish_simple_turn(c, decided=False)

    def _simple_decision(self, c: Ctx) -> Decision | None:
        """The one decision of a single-decision turn (see Executor.single_decision_turns)."""
        do = self._turn_do(c)
        if do is None:
            return None
        options = self.executor.menu(do, c)
        return Decision(c.data.mover, options, menu=do) if options else None

    def _turn_do(self, c: Ctx) -> ast.Do | None:
        """The turn's statements before its `do` run; the `do` (None: the turn has none)."""
        if self._only_do is not None:
            return self._only_do
        e: dict[str, Any] = {}
        execute = self.executor.execute
        for s in self._turn_stmts:
            if type(s) is ast.Do:
                return s
            execute(s, c, e)
        return None

    def _finish_simple_turn(self, c: Ctx, decided: bool) -> None:
        if self._after_do_fns:
            e: dict[str, Any] = {}
            for f in self._after_do_fns:
                f(c, e)
        if self._uses_repetition:
            self._record_position(c)
        if self._end_fns:
            env: dict[str, Any] = {}
            for f in self._end_fns:
                f(c, env)
        if self._next_turn(c, decided):
            self.executor.run_plain(self._round.body, c, {})
            for f in self._end_fns:
                f(c, {})
            self._new_round(c)

    # ---- between turns
    def _record_position(self, c: Ctx) -> None:
        if self._uses_repetition:
            data = c.data
            self.rt.count_position(data, (data.mover + 1) % self.num_players)

    def _next_turn(self, c: Ctx, decided: bool) -> bool:
        """After a turn and its end check: the next player, or True when a round ends (the
        caller then runs the `round` section, the end check, and _new_round)."""
        data = c.data
        data.idle = 0 if decided else data.idle + 1
        if data.idle >= self.num_players:
            raise GameOver([])  # nobody could do anything for a whole round
        data.turn += 1
        data.version += 1
        if self._round is not None:
            data.round_turns += 1
            until = self._round.until
            if (self.rt.fn(until)(c, {}) if until is not None
                    else data.round_turns >= self.num_players):
                return True
        data.mover = (data.mover + 1) % self.num_players
        return False

    def _new_round(self, c: Ctx) -> None:
        data = c.data
        data.round += 1
        data.round_turns = 0
        data.mover = data.starter
        data.version += 1
