"""The reference flow of play (the engine's protocol, library/decision.py Flow).

`setup` runs once. Then turns: the mover runs `turn`, the position is counted (for
`repeated`), `end` runs. A turn in which nobody decided anything is skipped; when every
player in a row is skipped the game is a draw. Without a `round` section the turn passes
round the table; with one, a round ends after every player has had a turn (or, with
`until`, after the first turn at whose end the condition holds); then `round` runs, `end`
again, the round count goes up and the next round begins with `starter`.
"""
from __future__ import annotations

from typing import Any

from rulelang.language.decisions import explain
from rulelang.library.decision import Decision, Flow, GameOver, Run
from rulelang.library.semantics import Ctx
from rulelang.reference.menus import Menus
from rulelang.reference.statements import Statements


class ReferenceFlow(Flow):
    def __init__(self, runtime: Any) -> None:
        self.rt = runtime
        self.program = runtime.program
        self.statements = Statements(runtime, Menus)

    def setup(self, c: Ctx) -> Run:
        block = self.program.sections.get("setup")
        if block is not None:
            yield from self.statements.run(block, c, {})
        if self.program.uses_repetition:
            self.rt.count_position(c.data, c.data.mover)

    def turn(self, c: Ctx) -> Run:
        run, sections, data = self.statements.run, self.program.sections, c.data
        before = len(data.history)
        yield from run(sections["turn"], c, {})
        if self.program.uses_repetition:
            self.rt.count_position(data, (data.mover + 1) % len(self.rt.players))
        end = sections.get("end")
        if end is not None:
            yield from run(end, c, {})
        if self.next_turn(c, decided=len(data.history) > before):
            yield from run(self.program.round.body, c, {})
            if end is not None:
                yield from run(end, c, {})
            data.round += 1
            data.round_turns = 0
            data.mover = data.starter

    def next_turn(self, c: Ctx, decided: bool) -> bool:
        """The next player, or True when the round ends."""
        data, players, rnd = c.data, len(self.rt.players), self.program.round
        data.idle = 0 if decided else data.idle + 1
        if data.idle >= players:
            raise GameOver([])  # nobody could do anything for a whole round
        data.turn += 1
        if rnd is not None:
            data.round_turns += 1
            ended = self.statements.value(rnd.until, c, {}) if rnd.until is not None \
                else data.round_turns >= players
            if ended:
                return True
        data.mover = (data.mover + 1) % players
        return False

    def explain(self, d: Decision, text: str, c: Ctx) -> str:
        return explain(self.program, d, text, c, self.statements.value,
                       self.statements.run_through)
