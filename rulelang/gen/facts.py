"""What must hold of a whole game for the generator to take it (the sections it knows, a
decision in the turn), what it hides, whether its setup decides or draws by chance, and the bound
on the steps one action can take, which must lie far below the budget for generated code
to run without counting them. `scope` raises Unsupported at the construct in the way."""
from __future__ import annotations

from dataclasses import fields
from typing import Any

from rulelang.gen.code import Unsupported
from rulelang.language import ast
from rulelang.language.astwalk import nodes, walk
from rulelang.language.decisions import DecisionAnalysis
from rulelang.language.program import Program
from rulelang.library.semantics import STEP_BUDGET

# generated code counts no steps where one action can take at most this many (the bound
# the writer finds, each loop at its domain's largest size: half the budget leaves a margin
# for an error in it; tests/gen/test_generated_safety.py checks it against the reference's
# counts); elsewhere its loops charge their items as they start (gen/emit.py Writer.counting)
UNCOUNTED = STEP_BUDGET // 2
# where they are counted, a loop that takes at most SPARE steps, all told, charges none, if
# what one action leaves uncharged so stays below UNCHARGED (else every loop charges): the
# generated count may fall short of the reference's by that much, at most
SPARE, UNCHARGED = 32, STEP_BUDGET // 200


def reachable(program: Program) -> list[ast.Node]:
    """The parts of the game that can run: every declaration but its rules (defs and
    effects), and the rules those name, and the rules those name (a rule of a `use`d
    module that nothing names never runs; a table's values naming rules are named from
    the table's declaration)."""
    rules: dict[str, ast.Node] = {**program.defs, **program.effects}
    todo: list[Any] = [getattr(program, f.name) for f in fields(program)
                       if f.name not in ("loaded", "defs", "effects", "refs")]
    out: list[ast.Node] = []
    named: set[str] = set()
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, (tuple, ast.Node)):
            for node in nodes(item, ast.Node):  # (kept for the node: each writing asks)
                out.append(node)
                ref = program.refs.get(node)
                if ref is not None and ref[1] in rules and ref[1] not in named:
                    named.add(ref[1])
                    todo.append(rules[ref[1]])
    return out


def hides(program: Program) -> bool:
    """Does the game hide anything from some player (a zone or a secret var)?"""
    return any(z.visible != "everyone" for z in program.zones.values()) \
        or any(v.secret for v in program.vars.values())


def one_kind_zones(runtime: Any) -> dict[Any, str]:
    """The zones whose pieces at the start are all of one kind: each keeps to that kind if
    nothing the game does puts another piece in a zone (the writer checks that as it
    writes: Writer.fills_zones), the setup run by the reference leaves it so and a stated
    position too (GenGame checks their data: GenState.kinds_hold). None in a game that
    hides something (a resample deals pieces anew)."""
    setup = runtime.program.sections.get("setup")
    if hides(runtime.program) or (setup is not None and any(
            isinstance(n, (ast.Move, ast.CallStmt)) for n in walk(setup))):
        return {}  # (a setup that may move pieces to zones: none taken)
    out = {}
    for zone, pile in runtime.template.zones.items():
        kinds = {p.kind for p in pile}
        if len(kinds) == 1:
            out[zone] = kinds.pop()
    return out


def chance_in_setup(program: Program) -> bool:
    setup = program.sections.get("setup")
    return setup is not None and DecisionAnalysis(program).chance(setup)


def setup_decides(program: Program) -> bool:
    setup = program.sections.get("setup")
    return setup is not None and DecisionAnalysis(program).decides(setup)


def setup_machine(program: Program) -> bool:
    """Does the setup run as a machine (gen/turns.py) in each new game: where it asks for
    a decision or draws by chance (a setup that does neither is run once, by the
    reference, and its data kept)?"""
    setup = program.sections.get("setup")
    analysis = DecisionAnalysis(program)
    return setup is not None and (analysis.decides(setup) or analysis.chance(setup))


def scope(program: Program) -> ast.Block:
    """The turn section, when the game is one the generator takes."""
    for name in program.sections:
        if name not in ("setup", "turn", "end"):
            raise Unsupported(f"a '{name}' section", program.sections[name].span)
    analysis = DecisionAnalysis(program)
    turn = program.sections.get("turn")
    if turn is None or not analysis.decides(turn):
        raise Unsupported("a turn without a decision", turn.span if turn else None)
    ended = setup_result(program)
    if ended is not None:  # (the reference ends the game before its first turn)
        raise Unsupported("a result statement in the setup", ended.span)
    return turn


def setup_result(program: Program) -> ast.Node | None:
    """A result statement the setup can reach: its own, or one of an effect it calls (and
    of the effects those call)."""
    setup = program.sections.get("setup")
    return None if setup is None else DecisionAnalysis(program).result(setup)


def acts_before_deciding(program: Program, turn: ast.Block) -> bool:
    """May the turn change the game before its first decision (then a generated state keeps
    the turn's start: a stated position restarts the turn from it)?"""
    analysis = DecisionAnalysis(program)
    for s in turn.stmts:
        if isinstance(s, (ast.Do, ast.Choose)):
            return False
        if analysis.decides(s) or not isinstance(s, (ast.Let, ast.Require)):
            return True
    return False
