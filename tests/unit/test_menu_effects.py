"""The menu tries the effects that come before a later choose or `require` on a scratch copy
(docs/language.md, Flow). The generated code tries them on a scratch copy of its flat state —
effect calls (one calling itself), `while`, `for each`, `if`, `remove` — and must offer
exactly the reference's options, refuse with its messages and stop an endless loop at the
same place."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import IllegalActionError

BOOK = """use square
game "Sweep"
players A, B
board square.grid(3, 4, 2)
piece stone
zone supply each player: 7 stone
counter swept = 0
counter n = 0

# take every opposing stone next to s, counting them
effect sweep(s)
  for each t in square.orthogonal(s)
    if owner(t) == opponent
      remove top(t)
      increase swept by 1

# give k back, one call at a time
effect give_back(k)
  if k > 0
    decrease swept by 1
    give_back(k - 1)

# the stone on the first site next to s: there must be one
effect take_one(s)
  remove top(first t in square.orthogonal(s))

action put
  choose site s in sites where empty(s)
  set swept = 0
  put stone of mover at s
  sweep(s)
  while swept > 2
    decrease swept by 1
  give_back(swept - 1)
  require swept < 1 or count(each t in sites where owner(t) == mover) < 3 else "too greedy"
  choose site t in square.orthogonal(s) where empty(t) and n < 2
  put stone of mover at t
action grab
  choose site s in sites where empty(s)
  put stone of mover at s
  take_one(s)
  require count(each t in square.orthogonal(s) where empty(t)) > 0 else "no room"
action pass
turn
  do put or grab or pass
end
  when turn > 24
    draw
"""
MODES = ("interpreted", "compiled")


def load(tmp_path: Path, mode: str) -> rulelang.Game:
    path = tmp_path / f"sweep_{mode}.rule"
    path.write_text(BOOK, encoding="utf-8")
    return rulelang.load_game(path, mode=mode)


def refusal(state: rulelang.State, text: str) -> str | None:
    try:
        state.clone().apply_action(text)
    except IllegalActionError as err:
        return str(err)
    return None


@pytest.mark.parametrize("seed", range(6))
def test_the_menu_of_tried_effects_is_the_references(tmp_path: Path, seed: int) -> None:
    games = [load(tmp_path, mode) for mode in MODES]
    states = [g.new_initial_state(seed=seed) for g in games]
    rng, sites = random.Random(seed), [f"{c}{r}" for c in "abcd" for r in "123"]
    tried = 0
    while not states[0].is_terminal():
        menus = [s.legal_actions() for s in states]
        texts = [[s.action_to_string(a) for a in m] for s, m in zip(states, menus, strict=True)]
        assert texts[0] == texts[1]
        for text in (f"grab {rng.choice(sites)}", f"put {rng.choice(sites)} {rng.choice(sites)}"):
            found = [refusal(s, text) for s in states]
            assert found[0] == found[1], text
            tried += found[0] is not None
        action = rng.choice(menus[0])
        for s in states:
            s.apply_action(action)
    assert states[0].returns() == states[1].returns()
    assert tried > 0  # some ways were refused, by the tried effects or by the choose


def test_the_tried_effects_take_and_refuse(tmp_path: Path) -> None:
    # a grab needs a stone on the first site next to it: none on an empty board, some (the
    # same in both modes) once stones are down; an empty site without one is refused
    found = []
    for mode in MODES:
        state = load(tmp_path, mode).new_initial_state(seed=0)
        menu = [state.action_to_string(a) for a in state.legal_actions()]
        assert "pass" in menu and not [a for a in menu if a.startswith("grab")]
        state.apply_action("put b2 b1")
        grabs = {a for a in map(state.action_to_string, state.legal_actions())
                 if a.startswith("grab")}
        empty = {f"grab {s}" for s in ("a1", "a2", "a3", "b3", "c1", "c2", "c3", "d1", "d2",
                                       "d3")}
        assert grabs and grabs < empty
        refused = {g: refusal(state, g) for g in sorted(empty - grabs)}
        assert all(r is not None and "not a legal way to grab" in r for r in refused.values())
        found.append((grabs, refused))
    assert found[0] == found[1]


@pytest.mark.parametrize("mode", MODES)
def test_an_endless_loop_tried_by_the_menu_is_stopped_where_it_runs(tmp_path: Path,
                                                                     mode: str) -> None:
    book = BOOK.replace("  while swept > 2\n    decrease swept by 1\n",
                        "  while swept >= 0\n    increase n by size([k for k in 1..99])\n")
    path = tmp_path / "endless.rule"
    path.write_text(book, encoding="utf-8")
    game = rulelang.load_game(path, mode=mode)
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        game.new_initial_state(seed=0).legal_actions()
    d = info.value.diagnostic
    assert d.code == "R302" and "step budget" in d.message
    lines = book.splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "increase n by size" in t)
    column = lines[line - 1].index("[") + 1  # the list made on each turn of the loop
    assert d.span is not None and (d.span.line, d.span.column) == (line, column)


SWAP = """use square
game "Swap"
players A, B
board square.grid(2, 3, 2)
piece stone
zone supply each player: 2 stone

action place
  choose site s in sites where empty(s)
  put stone of mover at s
action swap
  choose site a in sites where owner(a) == mover
  remove top(a)
  then place
action pass
turn
  do place or swap or pass
end
  when turn > 12
    draw
"""


def test_a_put_of_an_action_gone_on_as_is_checked_there(tmp_path: Path) -> None:
    # `place`'s put is checked once for its own menu entry; walked after `swap … then
    # place` it must be checked there too: with an empty supply neither is offered
    path = tmp_path / "swap.rule"
    path.write_text(SWAP, encoding="utf-8")
    menus = []
    for mode in MODES:
        state = rulelang.load_game(path, mode=mode).new_initial_state(seed=0)
        for text in ("place a1", "place b1"):
            state.apply_action(text)
        assert any(a.startswith("swap a1 place") for a in
                   map(state.action_to_string, state.legal_actions()))  # one stone left
        for text in ("place a2", "place b2"):  # both supplies are now empty
            state.apply_action(text)
        menus.append(([state.action_to_string(a) for a in state.legal_actions()],
                      refusal(state, "swap a1 place a1")))
    assert menus[0] == menus[1] and menus[0][0] == ["pass"]
    assert menus[0][1] == "'swap' is not possible now: no way of taking it gets through its " \
        "conditions, requirements and effects"


RECURSIVE = """game "Rolls"
players A, B
counter n = 0
effect roll(k)
  if k > 0
    roll(k - 1)
  choose x in 1..2 at random
  increase n by x
effect ask(k)
  if k > 0
    ask(k - 1)
  choose y in 1..2 by opponent
action go
  roll(2)
turn
  do go
  ask(1)
end
  when turn > 3
    draw
"""


def test_what_an_effect_calling_itself_may_do_is_known_in_each_of_its_statements(
        tmp_path: Path) -> None:
    # the `if` that only calls the effect again draws at random / asks for a decision,
    # whichever statement is asked about first
    from rulelang.language.decisions import DecisionAnalysis
    path = tmp_path / "rolls.rule"
    path.write_text(RECURSIVE, encoding="utf-8")
    program = rulelang.load_game(path).runtime.program
    roll, ask = (program.effects[name].body for name in ("roll", "ask"))
    for first in ("body", "if"):
        analysis = DecisionAnalysis(program)
        if first == "body":
            assert analysis.chance(roll) and analysis.decides(ask)
        assert analysis.chance(roll.stmts[0]) and analysis.decides(ask.stmts[0])
        assert not analysis.decides(roll.stmts[0]) and not analysis.chance(ask.stmts[0])
    for mode in MODES:  # and both modes play it
        state = rulelang.load_game(path, mode=mode).new_initial_state(seed=3)
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert state.ctx.data.counters[("n", None)] >= 3
