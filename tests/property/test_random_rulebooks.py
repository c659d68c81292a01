"""Hypothesis writes small games — a grid, stones in supplies, a counter per player, actions
to place, shift and take stones under random conditions, an end and score terms — and each
is played by the reference evaluator and in the compiled mode (the generated module of the
game where rulelang.gen takes it), move for move: the same options at every decision (as
action strings), the same moves, the same end, returns and scores, or the same runtime error
at the same ply. Derandomized: every run writes the same games."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rulelang
from rulelang.gen.bridge import canonical
from rulelang.gen.facts import hides

PLIES = 40


@st.composite
def number(draw: st.DrawFn, depth: int = 2) -> str:
    """A whole number read from the state (the mover's points, stones counted) or made of
    such numbers (with // and %, by a number that may be zero)."""
    leaves = st.sampled_from(["0", "1", "2", "3", "(points of mover)", "(points of opponent)",
                              "(count z in sites where owner(z) == mover)",
                              "(count z in sites where empty(z))", "turn"])
    if depth <= 0 or draw(st.integers(0, 2)) == 0:
        return draw(leaves)
    op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
    return f"({draw(number(depth - 1))} {op} {draw(number(depth - 1))})"


@st.composite
def about(draw: st.DrawFn, x: str, depth: int = 2) -> str:
    """A truth about the site named x (and the state)."""
    atoms = [f"empty({x})", f"occupied({x})", f"owner({x}) == mover",
             f"owner({x}) == opponent", f"{x}.r < {draw(st.integers(0, 3))}",
             f"{x}.c >= {draw(st.integers(0, 3))}", f"({x}.r + {x}.c) % 2 == 0",
             f"count(square.orthogonal({x})) > {draw(st.integers(1, 3))}",
             f"any y in square.orthogonal({x}): owner(y) == mover",
             f"all y in square.adjacent({x}): empty(y)",
             f"{draw(number(1))} {draw(st.sampled_from(['<', '<=', '==', '!=', '>']))} "
             f"{draw(number(1))}"]
    if depth <= 0 or draw(st.integers(0, 2)) == 0:
        return draw(st.sampled_from(atoms))
    shape = draw(st.integers(0, 2))
    if shape == 0:
        return f"not ({draw(about(x, depth - 1))})"
    op = "and" if shape == 1 else "or"
    return f"({draw(about(x, depth - 1))} {op} {draw(about(x, depth - 1))})"


def maybe(x: str, depth: int = 2) -> st.SearchStrategy[str]:
    """A condition that is often no condition at all (so that most games have moves)."""
    return st.one_of(st.just("true"), about(x, depth))


@st.composite
def rulebook(draw: st.DrawFn, build: bool = False) -> str:
    """A game; with build, one whose `build` action (always there) runs effects before its
    second choose, with few stones, so that the menu's trials meet an empty supply."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    stones = draw(st.integers(2, 5 if build else rows * cols))
    goal = draw(st.integers(2, 8))
    actions = ["place"] + draw(st.lists(st.sampled_from(["shift", "take", "build"]),
                                        unique=True))
    if build and "build" not in actions:
        actions.append("build")
    lines = ["use square", 'game "Random"', "players A, B",
             f"board square.grid({rows}, {cols}, 0)", "piece stone",
             f"zone supply each player: {stones} stone",
             f"counter points each player from -20 to 20 = {draw(st.integers(0, 2))}",
             "", "action place",
             f"  choose site s in sites where empty(s) and {draw(maybe('s'))}",
             "  put stone of mover at s",
             f"  if {draw(about('s'))}",
             f"    increase points of mover by {draw(number(1))}"]
    if "shift" in actions:
        lines += ["", "action shift", "  choose site a in sites where owner(a) == mover",
                  f"  choose site b in square.orthogonal(a) where empty(b) and "
                  f"{draw(maybe('b', 1))}",
                  "  move top(a) to b",
                  f"  require {draw(about('b', 1))} else \"not there\""]
    if "take" in actions:
        lines += ["", "action take",
                  f"  choose site a in sites where owner(a) == opponent and {draw(about('a', 1))}",
                  f"  require points of mover >= {draw(st.integers(0, 3))} else \"too poor\"",
                  "  remove top(a)", "  decrease points of mover by 1"]
    if "build" in actions:  # effects before a later choose: the menu tries them
        lines += ["", "effect spread(s)", "  for each y in square.orthogonal(s)",
                  f"    if {draw(about('y', 1))}", "      increase points of mover by 1",
                  "", "effect pay(k)", "  if k > 0 and points of mover > -20",
                  "    decrease points of mover by 1", "    pay(k - 1)",
                  "", "action build",
                  f"  choose site s in sites where empty(s) and {draw(maybe('s', 1))}",
                  "  put stone of mover at s", "  spread(s)",
                  f"  while points of mover > {draw(st.integers(2, 9))}",
                  "    decrease points of mover by 1",
                  f"  pay({draw(st.integers(0, 2))})",
                  f"  choose site t in square.orthogonal(s) where empty(t) and "
                  f"{draw(maybe('t', 1))}",
                  "  put stone of mover at t"]
        if draw(st.booleans()):
            lines += [f"  require {draw(about('t', 1))} else \"cramped\""]
    lines += ["", "turn", "  do " + " or ".join(actions), "", "end",
              f"  when points of mover >= {goal}", "    winner mover",
              f"  when turn >= {draw(st.integers(4, 16))}", "    highest score wins",
              "", "score points(p) = points of p",
              "score stones(p) = count s in sites where owner(s) == p"]
    return "\n".join(lines) + "\n"


def trajectory(path: Path, mode: str, seed: int, observe: bool = False) -> list[Any]:
    """What a seeded random game shows, decision by decision, in one mode (with observe,
    what the player to decide observes too), and its whole state (gen/bridge.py canonical)."""
    game = rulelang.load_game(path, mode=mode)
    rng, seen = random.Random(seed), []
    came = hides(game.runtime.program)
    try:  # (the first menu is made with the initial state: it may meet an error too)
        state = game.new_initial_state(seed=seed)
        for _ in range(PLIES):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            who = state.current_player()
            seen.append([who, [state.action_to_string(a) for a in legal],
                         repr(state.observation(who)) if observe else None,
                         canonical(state.data, came)])
            state.apply_action(rng.choice(legal))
        seen.append(["end", state.is_terminal(), state.returns(), state.scores()])
    except rulelang.RuleRuntimeError as exc:
        d = exc.diagnostic
        seen.append(["error", d.code, d.message, d.span])
    return seen


def _taken(path: Path) -> bool:
    """Does rulelang.gen take the game (and if not, for a reason, not a fault of its own)?"""
    from rulelang.gen import explain
    runtime = rulelang.load_game(path, mode="interpreted").runtime
    why = explain(runtime)
    assert why is None or not why.what.startswith("the generator failed"), why.what
    return rulelang.generated_state(runtime) is not None


SETTINGS = settings(derandomize=True, max_examples=20, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.function_scoped_fixture])


def play_alike(tmp_path_factory: pytest.TempPathFactory, text: str, seed: int,
               observe: bool = False) -> None:
    path = Path(tmp_path_factory.mktemp("game")) / "random.rule"
    path.write_text(text, encoding="utf-8")
    _taken(path)  # (not a fault of the generator)
    games = {mode: trajectory(path, mode, seed, observe) for mode in ("interpreted", "compiled")}
    reference = games["interpreted"]
    for mode, seen in games.items():
        assert seen == reference, f"{mode} differs from the reference on\n{text}"


def test_the_generator_takes_every_random_rulebook(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    """The compiled side is generated code for every game the tests write (an effect that
    calls itself, `pay`, too), of every kind below."""
    taken: list[bool] = []

    @SETTINGS
    @given(st.one_of(rulebook(), rulebook(build=True), flow_rulebook(), card_rulebook(),
                     link_rulebook()))
    def written(text: str) -> None:
        path = Path(tmp_path_factory.mktemp("game")) / "random.rule"
        path.write_text(text, encoding="utf-8")
        taken.append(_taken(path))

    written()
    assert len(taken) >= 20 and all(taken), taken


@SETTINGS
@given(rulebook(), st.integers(0, 1000))
def test_both_modes_play_random_rulebooks_move_for_move(
        tmp_path_factory: pytest.TempPathFactory,
        text: str, seed: int) -> None:
    play_alike(tmp_path_factory, text, seed)


@SETTINGS
@given(rulebook(build=True), st.integers(0, 1000))
def test_effects_tried_before_a_later_choose_play_alike(
        tmp_path_factory: pytest.TempPathFactory,
        text: str, seed: int) -> None:
    play_alike(tmp_path_factory, text, seed)


@st.composite
def flow_rulebook(draw: st.DrawFn) -> str:
    """A game of the flow's constructs: `optionally choose`, `then`, `repeat`, `let`, a put
    after the last choice, `require` before and after effects, `do … otherwise pass`, and
    after the mover's option a draw `at random` or a choice by the opponent."""
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 3))
    lines = ["use square", 'game "Flows"', "players A, B",
             f"board square.grid({rows}, {cols}, 0)", "piece stone",
             f"zone supply each player: {draw(st.integers(1, rows * cols))} stone",
             f"counter points each player from -20 to 20 = {draw(st.integers(0, 2))}",
             "", "action place",
             f"  choose site s in sites where empty(s) and {draw(maybe('s', 1))}",
             "  put stone of mover at s"]
    if draw(st.booleans()):
        lines += [f"  optionally choose site t in square.orthogonal(s) where empty(t) and "
                  f"{draw(maybe('t', 1))}", "  if t != none", "    put stone of mover at t"]
    actions = ["place"] + draw(st.lists(st.sampled_from(["lift", "grow", "swap"]),
                                        unique=True))
    if "lift" in actions:
        lines += ["", "action lift",
                  f"  require {draw(number(1))} >= {draw(st.integers(0, 3))} else \"stuck\"",
                  "  choose site a in sites where owner(a) == mover and "
                  f"{draw(maybe('a', 1))}",
                  draw(st.sampled_from(["  move top(a) to supply of mover", "  remove top(a)"])),
                  "  then place"]
    if "grow" in actions:
        lines += ["", "action grow", f"  choose n in 1..{draw(st.integers(1, 3))}",
                  "  let before = points of mover", "  repeat n times",
                  "    increase points of mover by 1",
                  f"  require points of mover - before < {draw(st.integers(1, 3))} or "
                  f"{draw(number(1))} > 2 else \"greedy\""]
    if "swap" in actions:
        lines += ["", "action swap",
                  f"  choose site a in sites where owner(a) == opponent and {draw(maybe('a', 1))}",
                  "  remove top(a)", "  put stone of mover at a"]
    lines += ["", "action pass", "", "turn",
              "  do " + " or ".join(actions) + (" otherwise pass" if draw(st.booleans())
                                               else " or pass")]
    after = draw(st.sampled_from(["", "random", "answer"]))
    if after == "random":
        lines += ["  choose x in 1..3 at random", "  if x == 3",
                  "    increase points of mover by 1"]
    elif after == "answer":
        lines += ['  choose answer in ["yes", "no"] by opponent', '  if answer == "yes"',
                  "    decrease points of mover by 1"]
    lines += ["", "end", f"  when points of mover >= {draw(st.integers(3, 8))}",
              "    winner mover", f"  when turn >= {draw(st.integers(4, 14))}",
              "    highest score wins", "", "score points(p) = points of p",
              "score stones(p) = count s in sites where owner(s) == p"]
    return "\n".join(lines) + "\n"


@SETTINGS
@given(flow_rulebook(), st.integers(0, 1000))
def test_the_flows_constructs_play_alike(
        tmp_path_factory: pytest.TempPathFactory,
        text: str, seed: int) -> None:
    play_alike(tmp_path_factory, text, seed)


@st.composite
def card_rulebook(draw: st.DrawFn) -> str:
    """A card game of the zones' constructs: a shuffled hidden deck, hands seen by their
    owners, pieces chosen from a hand (`optionally` too), a player chosen among the others,
    `then`, and after the option secret bids revealed together, the others' answers or a
    draw at random that shuffles again."""
    n = draw(st.integers(3, 9))
    players = draw(st.sampled_from(["A, B", "A, B, C"]))
    lines = ['game "Cards"', f"players {players}",
             "piece card with points = 1", "piece gem with points = 3",
             f"zone deck ordered visible to nobody: {n} card, {draw(st.integers(0, 3))} gem",
             "zone hand each player visible to owner", "zone table", "zone discard",
             "counter score each player from -30 to 30 = 0", "var bid each player secret = 0", "",
             "setup", "  shuffle deck"]
    if draw(st.booleans()):
        lines += ["  for each p in players", "    move first c in deck to hand of p"]
    lines += ["", "action take", "  require size(deck) > 0 else \"empty deck\"",
              "  let c = first c in deck", "  move c to hand of mover",
              f"  if c.points > {draw(st.integers(0, 3))}", "    increase score of mover by 1"]
    lines += ["", "action play", "  choose piece x in hand of mover"
              + (" where x.points >= 2" if draw(st.booleans()) else ""),
              "  move x to table", "  increase score of mover by x.points"]
    if draw(st.booleans()):
        lines += ["  optionally choose piece y in hand of mover", "  if y != none",
                  "    move y to discard", "    increase score of mover by 1"]
    acts = ["take", "play"]
    if draw(st.booleans()):
        lines += ["", "action trade", "  choose player q in others where size(hand of q) > 0",
                  "  let g = first g in hand of q", "  move g to hand of mover", "  then play"]
        acts.append("trade")
    lines += ["", "action pass", "", "turn",
              "  do " + " or ".join(acts) + draw(st.sampled_from([" otherwise pass", " or pass"]))]
    after = draw(st.sampled_from(["", "bid", "answer", "roll"]))
    if after == "bid":
        lines += ["  for each p in players", "    choose k in 1..3 secretly by p",
                  "    set bid of p = k", "  reveal bid", "  let top = max p in players: bid of p",
                  "  for each p in players where bid of p == top", "    increase score of p by 1"]
    elif after == "answer":
        lines += ["  for each p in others", '    choose a in ["keep", "give"] by p',
                  '    if a == "give" and size(hand of p) > 0',
                  "      move first c in hand of p to hand of mover"]
    elif after == "roll":
        lines += ["  choose r in 1..4 at random", "  if r == 4", "    shuffle deck"]
    lines += ["", "score points(p) = score of p", "score held(p) = size(hand of p)", "",
              "end", f"  when score of mover >= {draw(st.integers(4, 10))}", "    winner mover",
              f"  when turn >= {draw(st.integers(6, 20))}", "    highest score wins"]
    return "\n".join(lines) + "\n"


@SETTINGS
@given(card_rulebook(), st.integers(0, 1000))
def test_card_games_play_and_show_alike(
        tmp_path_factory: pytest.TempPathFactory,
        text: str, seed: int) -> None:
    play_alike(tmp_path_factory, text, seed, observe=True)


LINKS = ["true", "a.r == b.r or a.c == b.c", "empty(a) or a.r >= b.r",
         "(count t in square.orthogonal(b) where occupied(t)) >= 1"]


@st.composite
def link_rulebook(draw: st.DrawFn) -> str:
    """A game of the board's searches: `group` with and without a link rule (lone stones
    captured, small groups taken), `reach` with cost and stop rules moving stones, and
    `connection.joins`, `connection.groups` and groups in the end and the score terms."""
    rows, cols = draw(st.integers(3, 5)), draw(st.integers(3, 5))
    rel = draw(st.sampled_from(["square.orthogonal", "square.adjacent", "square.diagonal"]))
    cost = draw(st.sampled_from(["1", "2 if occupied(s) else 1", "s.r + 1"]))
    lines = ["use square", "use connection", 'game "Links"', "players A, B",
             f"board square.grid({rows}, {cols}, 3)", "piece stone",
             f"zone supply each player: {draw(st.integers(3, rows * cols))} stone",
             "counter points each player = 0", "",
             f"def linked(a, b) = {draw(st.sampled_from(LINKS))}",
             f"def cost(s) = none if owner(s) == opponent else ({cost})",
             "def stop(s) = empty(s)", "",
             "action place", f"  choose site s in sites where empty(s) and {draw(maybe('s', 1))}",
             "  put stone of mover at s"]
    if draw(st.booleans()):
        lines += [f"  for each t in {rel}(s)",
                  f"    if owner(t) == opponent and size(group(t, {rel})) == 1",
                  "      remove top(t)"]
    actions = ["place"]
    if draw(st.booleans()):
        lines += ["", "action walk", "  choose site a in sites where owner(a) == mover",
                  f"  choose site b in reach(a, square.orthogonal, {draw(st.integers(1, 3))}, "
                  "cost, stop)", "  move top(a) to b"]
        actions.append("walk")
    if draw(st.booleans()):
        lines += ["", "action take", "  choose site a in sites where owner(a) == opponent and "
                  f"size(group(a, {rel}, linked)) <= 2", "  remove top(a)"]
        actions.append("take")
    joins = f'last.action == "place" and connection.joins(last.site, {rel}, ' \
        "square.left_column, square.right_column)"
    lines += ["", "action pass", "", "turn", "  do " + " or ".join(actions) + " otherwise pass",
              "", "end", f"  when {joins if draw(st.booleans()) else 'false'}", "    winner mover",
              f"  when size(connection.groups(mover, {rel})) >= {draw(st.integers(3, 6))}",
              "    winner opponent", f"  when turn >= {draw(st.integers(8, 30))}",
              "    highest score wins", "",
              f"score big(p) = max(0, max s in sites where owner(s) == p: size(group(s, {rel})))",
              f"score linked(p) = count s in sites where owner(s) == p and "
              f"size(group(s, {rel}, linked)) > 1"]
    return "\n".join(lines) + "\n"


@SETTINGS
@given(link_rulebook(), st.integers(0, 1000))
def test_the_board_searches_play_alike(
        tmp_path_factory: pytest.TempPathFactory,
        text: str, seed: int) -> None:
    play_alike(tmp_path_factory, text, seed)
