"""Values the checker cannot type (here made by `hidden`, as data rows and untyped rules make
them) reach the compiled mode's fast paths — loops over sites, board tests, kept queries,
membership, full lines, site rules — with players, numbers, none, lists, pieces and records
where sites are wanted. Every combination gives the same outcome in both modes: the same
value, or the same error code and message."""
from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import rulelang
from conformance.harness import outcomes, parse

HEADER = """\
decl: def cell(name) = first s in sites where s.name == name
decl: def names(xs) = [s.name for s in xs]
decl: def not_c2(s) = s.name != "c2"
decl: def free_here(s) = empty(s)
decl: effect stones
      put stone of A at cell("a1")
      put stone of A at cell("b1")
      put stone of B at cell("c3")
before: stones
"""
DOMAINS = ['hidden(players)', 'hidden([A, cell("a1")])', 'hidden([cell("a1"), A])',
           'hidden([1, 2])', 'hidden([none])', 'hidden([cell("a1"), none])',
           'hidden([[cell("a1")]])', 'hidden([top(cell("a1"))])', 'hidden([(x: 1)])',
           'hidden(["a1"])', 'hidden(pieces(bag))', 'hidden([top(cell("a1")), 2])',
           'hidden([(points: 1), top(cell("c3"))])']
OVER_DOMAINS = [
    'any x in {}: occupied(x)', 'all x in {}: empty(x)', 'count x in {} where occupied(x)',
    'each x in {} where empty(x)', 'any x in {}: owner(x) == A',
    'all x in {}: owner(x) == none', 'each x in {} where owner(x) == B',
    'any x in {}: x in [cell("a1")]', 'each x in {} where x not in [cell("a1")]',
    'any l in [{}]: all x in l: owner(x) == A', 'each x in {}: top(x)', 'each x in {}: owner(x)',
    'any x in {}: any t in square.orthogonal(x): empty(t)',
    'count x in {} where x in square.bottom_row', 'first x in {} where occupied(x)',
    'any x in {}: moved(x)', 'each x in {}: pieces(x)',
    'sum x in {}: size(square.orthogonal(x))', 'each x in {}: x.name',
    'each x in {} where x.r == 0', 'each x in {}: group(x, square.orthogonal)',
    'any x in {}: x == cell("a1")', 'sum x in {}: x.points', 'each x in {}: x.points',
    'each x in {} where x.points == 1', 'any x in {}: x.points == 1', 'all x in {}: x.name != ""',
    'count x in {} where x.name == ""', 'max x in {}: x.points', 'each x in {}: kind(x)']
VALUES = ['hidden(A)', 'hidden(3)', 'hidden(none)', 'hidden(cell("a1"))', 'hidden([A])',
          'hidden(top(cell("a1")))', 'hidden({1: 2})']
WITH_VALUE = [
    'each s in sites where owner(s) == {}', 'count s in sites where owner(s) != {}',
    'any s in sites: owner(s) == {} and occupied(s)', 'first s in sites where owner(s) == {}',
    'max s in sites where owner(s) == {}: s.r', 'names(each s in sites where {} == owner(s))',
    'any l in square.in_a_row: all x in l: owner(x) == {}', 'each s in sites where s in {}',
    'count x in [cell("a1"), cell("b1")] where x not in {}', 'memo(not_c2, {})',
    'group({}, square.orthogonal)', 'occupied({})', 'owner({})', 'top({})', 'pieces({})',
    'size(square.orthogonal({}))', 'reach({}, square.orthogonal, 2, free_here)',
    'through(square.in_a_row, {})', 'hidden(cell("a1")) < {}', 'hidden(top(cell("a1"))) < {}',
    '{} > hidden(A)', 'max x in [hidden(cell("a1")), {}]: x', 'min x in [hidden(A), {}]: x']


def test_untyped_values_give_one_outcome_in_both_modes(tmp_path: Path) -> None:
    exprs = [t.format(d) for t in OVER_DOMAINS for d in DOMAINS] + \
            [t.format(v) for t in WITH_VALUE for v in VALUES]
    path = tmp_path / "untyped.cases"
    path.write_text(HEADER + "".join(f"{x} => 0\n" for x in exprs), encoding="utf-8")
    cases = parse(path)
    assert len(cases) == len(exprs)
    reference = outcomes(cases, "interpreted", tmp_path)
    compiled = outcomes(cases, "compiled", tmp_path)
    kinds = {kind for kind, _ in reference}
    assert kinds == {"value", "error"}, kinds  # (both kinds met: the combinations are apt)
    differ = [f"{x}: {a} / {b}" for x, a, b in zip(exprs, reference, compiled, strict=True)
              if a != b]
    assert not differ, "\n".join(differ[:10])


EFFECT_VALUES = VALUES[:-1] + ['hidden(cell("b2"))', 'hidden(bag)', 'hidden(supply of A)',
                          'hidden("x")']
EFFECTS = ['put stone of A at {}', 'put stone from bag at {}', 'move top(cell("a1")) to {}',
           'remove {}', 'move {} to cell("b2")', 'set n = {}', 'set free = {}',
           'set mark of {} = 1', 'increase n by {}', 'put stone from {} at cell("b2")',
           'move top({}) to hand of A', 'shuffle {}', 'for each x in {}\n    set out = x',
           'repeat {} times\n    set n = 1', 'if {}\n    set n = 1', 'winners {}',
           'set top(cell("a1")).points = {}', 'put {} at cell("b2")', 'decrease n by {}']


def test_untyped_values_in_effects_are_rule_errors_alike_in_both_modes(tmp_path: Path) -> None:
    """An effect given what it cannot take is a rule error with the same message in both
    modes — never a Python exception (a counter set to a player, a piece put from one, a
    `for each` or `winners` over what is no collection)."""
    blocks = [f"block: b\n  {t.format(v)}\n  set out = names(each s in sites where "
              f"occupied(s))\n=> 0\n" for t in EFFECTS for v in EFFECT_VALUES]
    path = tmp_path / "effects.cases"
    path.write_text(HEADER + "".join(blocks), encoding="utf-8")
    cases = parse(path)
    reference = outcomes(cases, "interpreted", tmp_path)
    compiled = outcomes(cases, "compiled", tmp_path)
    assert {kind for kind, _ in reference} == {"value", "error"}  # (no "crash")
    assert {kind for kind, _ in compiled} == {"value", "error"}
    differ = [f"{x.splitlines()[1]}: {a} / {b}"
              for x, a, b in zip(blocks, reference, compiled, strict=True) if a != b]
    assert not differ, "\n".join(differ[:10])
    messages = [v[1] for k, v in reference if k == "error"]
    assert not [m for m in messages if " object at 0x" in m], messages  # (no Python repr)


ACTION_VALUES = ['hidden(A)', 'hidden(3)', 'hidden(none)', 'hidden(cell("a1"))', 'hidden([A])',
                 'hidden(top(cell("a1")))', 'hidden(bag)', 'hidden(true)',
                 'hidden([cell("a1"), A])', 'hidden([cell("a1"), cell("b2")])']
ACTIONS = [
    'choose site s in {v}\n  put stone of mover at s',
    'choose x in {v}\n  set out = x',
    'require {v} else "no"\n  put stone of mover at cell("b2")',
    'choose site s in sites where empty(s) and s != {v}\n  put stone of mover at s',
    'choose x in [1, 2]\n  put stone of mover at {v}',
    'choose site s in sites where empty(s)\n  put stone of {v} at s',
    'optionally choose x in {v}\n  set out = x',
    'choose piece p in {v}\n  remove p',
    'choose x in {v} secretly by mover\n  set out = x',
    'choose x in {v} at random\n  set out = x',
    'choose site s in sites where empty(s)\n  put stone of mover at s\n  then\n'
    '    choose x in {v}\n    set out = x']
GAME = """use square
game "Untyped"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 5 stone
zone bag: 3 stone
var out = none
def hidden(x) = x
def cell(name) = first s in sites where s.name == name
action a
  {action}
turn
  do a
end
  when turn > 4
    draw
"""


def _played(path: Path, mode: str) -> tuple[Any, ...]:
    """The menus of a few turns (the first option taken each time), or the error."""
    try:
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        menus = []
        for _ in range(6):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            menus.append([state.action_to_string(a) for a in actions])
            state.apply_action(actions[0])
        return ("played", menus)
    except rulelang.RulebookError:
        return ("refused by the checker",)
    except rulelang.RulelangError as exc:  # (anything else fails the test: a Python error)
        return ("error", type(exc).__name__, str(exc))


def test_untyped_values_in_actions_play_alike_in_both_modes(tmp_path: Path) -> None:
    """Chooses, requires, puts and `then` given untyped values: the same menus or the same
    error in both modes, never a Python exception."""
    outcomes_seen = set()
    for k, (action, value) in enumerate(itertools.product(ACTIONS, ACTION_VALUES)):
        path = tmp_path / f"untyped{k}.rule"
        path.write_text(GAME.replace("{action}", action.format(v=value)), encoding="utf-8")
        reference, compiled = _played(path, "interpreted"), _played(path, "compiled")
        assert reference == compiled, (action, value, reference, compiled)
        assert " object at 0x" not in str(reference), reference
        outcomes_seen.add(reference[0])
    assert outcomes_seen == {"played", "error", "refused by the checker"}, outcomes_seen


SCORED = """use square
game "Untyped scores"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 5 stone
def hidden(x) = x
def cell(name) = first s in sites where s.name == name
action a
  choose site s in sites where empty(s)
  put stone of mover at s
turn
  do a
end
  when turn > {turns}
    {result}
{score}
"""
SCORE_VALUES = ['hidden(A)', 'hidden(none)', 'hidden(cell("a1"))', 'hidden(top(cell("a1")))',
                'hidden("x")', 'hidden(true)', 'hidden(-2)', 'hidden([(label: "x", points: 2)])',
                'hidden([(label: "x", points: A)])', 'hidden({1: 2})', 'hidden([1, 2])']
SCORE_PLACES = [("score t(p) = {v}", "draw"), ("score t(p) = {v} if p == A else 0", "draw"),
                ("def f = {v}\nscore t(p) = f", "highest score wins"),
                ("score t(p) = 1", "winner {v}"), ("score t(p) = 1", "winners {v}")]


def _scored(path: Path, mode: str) -> tuple[Any, ...]:
    try:
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        seen = []
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
            seen.append((state.scores(), state.score_breakdown(0), state.score_breakdown(1)))
        return ("played", seen, state.returns())
    except rulelang.RulebookError:
        return ("refused by the checker",)
    except rulelang.RulelangError as exc:  # (anything else fails the test: a Python error)
        return ("error", type(exc).__name__, str(exc))


def test_untyped_values_as_scores_and_results_alike_in_both_modes(tmp_path: Path) -> None:
    """A score term or a result given what is no number, no player: a rule error at the
    term (or result), the same in both modes, never a Python exception."""
    seen = set()
    for k, ((score, result), value) in enumerate(itertools.product(SCORE_PLACES, SCORE_VALUES)):
        path = tmp_path / f"scored{k}.rule"
        path.write_text(SCORED.format(turns=2, result=result.format(v=value),
                                      score=score.format(v=value)), encoding="utf-8")
        reference, compiled = _scored(path, "interpreted"), _scored(path, "compiled")
        assert reference == compiled, (score, result, value, reference, compiled)
        seen.add(reference[0])
    assert seen == {"played", "error"}, seen  # (both met: the values are apt)
