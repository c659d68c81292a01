"""What must hold of a whole game for the generator to take it (step 1 of the compiled
mode: one decision per turn, everything visible, no chance after the setup), and the bound
on the steps one action can take, which must lie far below the budget for generated code
to run without counting them. `scope` raises Unsupported at the construct in the way."""
from __future__ import annotations

from rulelang.gen.code import Unsupported
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.language.decisions import DecisionAnalysis
from rulelang.language.program import Program
from rulelang.library.semantics import STEP_BUDGET

# generated code counts no steps where one action can take at most this many; elsewhere
# its loops charge their items as they start (gen/emit.py Writer.counting)
UNCOUNTED = STEP_BUDGET // 10


def scope(program: Program) -> ast.Block:
    """The turn section, when the game is one the generator takes."""
    for name in program.sections:
        if name not in ("setup", "turn", "end"):
            raise Unsupported(f"a '{name}' section", program.sections[name].span)
    if program.round is not None:
        raise Unsupported("rounds", program.round.span)
    for zone in program.zones.values():
        if zone.visible != "everyone":
            raise Unsupported("a zone hidden from some player", zone.span)
    setup = program.sections.get("setup")
    analysis = DecisionAnalysis(program)
    if setup is not None and (analysis.chance(setup) or analysis.decides(setup)):
        raise Unsupported("a setup with a choice or chance", setup.span)
    turn = program.sections.get("turn")
    if turn is None or not any(isinstance(n, ast.Do) for n in walk(turn)):
        raise Unsupported("a turn without a 'do'", turn.span if turn else None)
    return turn
