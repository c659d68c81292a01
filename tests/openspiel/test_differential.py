"""The classic rulebooks against OpenSpiel 2.0.2 (`pip install -e '.[test]'` installs it).

* `test_perft`: the game tree from the initial position, walked with clone/apply_action in
  both engines, has the same number of positions at every ply and the same terminal positions
  (ply and returns) — to the end of every game where that is affordable (tic-tac-toe: 255,168
  complete games; hex 3x3; breakthrough 3x3), else to a fixed depth (>= 4 in compiled mode).
  On a mismatch the test walks both trees in lockstep, breadth first, and reports the
  shallowest position where they differ.
* `test_random_games`: seeded random games played move for move in both engines. Moves are
  matched through board coordinates (tests/openspiel/mapping.py), never through action
  indices. At every step: the same player to move, the same terminal flag, the same SET of
  legal moves; the board is compared every few moves and at the end; at the end the same
  returns(). Every seed is played; the shortest diverging game is reported. The suite plays
  RANDOM_GAMES seeds per game and mode; `python bench/openspiel_games.py` plays the full
  soak (200 seeds per game, both modes) and prints the figures.

Sizes and depths keep the whole file well under three minutes: hex 11x11 has 121*120*119*118
~ 204M positions at depth 4, so depth 4 runs on 5x5 and 11x11 stops at depth 2 (depth 3 alone
is 1.7M positions, ~45 s in compiled mode).
"""
from __future__ import annotations

import functools
import random
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="open-spiel is not installed: pip install -e '.[test]'")

import rulelang  # noqa: E402
from openspiel.mapping import (  # noqa: E402
    PAIRS,
    Pair,
    openspiel_moves,
    render,
    rulelang_board,
    rulelang_moves,
)

# (game, size option or None, depth or None for the whole tree, mode); the whole trees of
# tic-tac-toe and 3x3 Hex are walked by `python bench/openspiel_games.py --deep-perft`
PERFT = [
    ("tic_tac_toe", None, 6, "compiled"),
    ("tic_tac_toe", None, 4, "interpreted"),
    ("connect_four", None, 5, "compiled"),        # no game ends before ply 7; depth 6:
                                                  # bench/openspiel_games.py --deep-perft
    ("connect_four", None, 4, "interpreted"),
    ("hex", 3, 6, "compiled"),
    ("hex", 5, 3, "compiled"),
    ("hex", 11, 2, "compiled"),
    ("hex", 4, 3, "interpreted"),
    ("breakthrough", 3, None, "compiled"),        # all 2,300 games on 3x3
    ("breakthrough", 4, 5, "compiled"),           # first wins at ply 5
    ("breakthrough", 6, 3, "compiled"),           # captures from ply 3
    ("breakthrough", 8, 3, "compiled"),           # depth 4 on 8x8: bench/openspiel_games.py
    ("breakthrough", 6, 2, "interpreted"),
]
# OpenSpiel's own figures, pinned so that a change of OpenSpiel shows up as such
OPENSPIEL_PERFT = {
    ("tic_tac_toe", None, None): 255168,          # complete games
    ("connect_four", None, 5): 16807,
    ("connect_four", None, 6): 117649,
    ("hex", 3, None): 257760,
    ("hex", 5, 4): 303600,
    ("hex", 11, 2): 14520,
    ("breakthrough", 3, None): 2300,
    ("breakthrough", 4, 5): 46350,
    ("breakthrough", 6, 3): 4308,
    ("breakthrough", 6, 4): 71478,
    ("breakthrough", 8, 4): 256036,
}
RANDOM_GAMES = {"compiled": 25, "interpreted": 5}  # the full 200: bench/openspiel_games.py
BOARD_EVERY = 8          # compare whole boards every N moves (and at the end)


@functools.cache
def rulelang_game(name: str, size: int | None, mode: str) -> rulelang.Game:
    pair = PAIRS[name]
    return rulelang.load_game(pair.path, options=pair.options(size), mode=mode)


@functools.cache
def openspiel_game(name: str, size: int | None) -> Any:
    pair = PAIRS[name]
    return pyspiel.load_game(pair.openspiel, pair.params(size))


def returns(state: Any) -> tuple[float, ...]:
    return tuple(float(x) for x in state.returns())


# -- perft ------------------------------------------------------------------------------------
def tree_counts(root: Any, depth: int | None) -> Counter[Any]:
    """{ply: positions at that ply, (ply, returns): terminal positions}, walking every legal
    action with clone()/apply_action() down to `depth` plies (None: to the end). The same code
    runs on a rulelang and on a pyspiel state: both have the OpenSpiel methods it calls."""
    counts: Counter[Any] = Counter()

    def walk(state: Any, ply: int) -> None:
        counts[ply] += 1
        if state.is_terminal():
            counts[(ply, returns(state))] += 1
            return
        if ply == depth:
            return
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            walk(child, ply + 1)

    walk(root, 0)
    return counts


def leaf_count(counts: Counter[Any], depth: int | None) -> int:
    if depth is None:
        return sum(n for key, n in counts.items() if isinstance(key, tuple))
    return counts[depth]


# -- one position in both engines -----------------------------------------------------------
@dataclass
class Divergence:
    """The first position where the engines disagree, with the moves that lead to it."""

    label: str
    moves: list[str]
    problem: str
    picture: str = ""
    seed: int | None = None
    extra: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        seed = "" if self.seed is None else f" (seed {self.seed})"
        return (f"{self.label}{seed}: after {len(self.moves)} moves {self.moves}: {self.problem}\n"
                f"OpenSpiel's board:\n{self.picture}")


Moves = dict[str, int]  # rulebook action string -> action of one engine


def compare(pair: Pair, mine: Any, theirs: Any) -> tuple[str | None, Moves, Moves]:
    """(None when both positions agree, else what differs; rulelang's and OpenSpiel's legal
    moves as {rulebook action string: action})."""
    if mine.is_terminal() != theirs.is_terminal():
        return (f"terminal: rulelang {mine.is_terminal()} (returns {returns(mine)}), "
                f"OpenSpiel {theirs.is_terminal()} (returns {returns(theirs)})"), {}, {}
    if theirs.is_terminal():
        if returns(mine) != returns(theirs):
            return f"returns: rulelang {returns(mine)}, OpenSpiel {returns(theirs)}", {}, {}
        if mine.current_player() != rulelang.TERMINAL:
            return f"terminal but current_player() is {mine.current_player()}", {}, {}
        return None, {}, {}
    if mine.current_player() != theirs.current_player():
        return (f"player to move: rulelang {mine.current_player()}, "
                f"OpenSpiel {theirs.current_player()}"), {}, {}
    ours, other = rulelang_moves(mine), openspiel_moves(pair, theirs)
    if set(ours) != set(other):
        return (f"legal moves differ: rulelang only {sorted(set(ours) - set(other))}, "
                f"OpenSpiel only {sorted(set(other) - set(ours))} "
                f"(rulelang {len(ours)}, OpenSpiel {len(other)})"), ours, other
    return None, ours, other


def compare_boards(pair: Pair, mine: Any, theirs: Any) -> str | None:
    ours, other = rulelang_board(mine), pair.read_board(str(theirs))
    if ours == other:
        return None
    return f"boards differ: rulelang {render(ours)} | OpenSpiel {render(other)}"


def first_difference(name: str, size: int | None, mode: str,
                     depth: int | None) -> Divergence | None:
    """Walk both trees in lockstep, breadth first: the shallowest position that differs."""
    pair = PAIRS[name]
    queue = deque([(rulelang_game(name, size, mode).new_initial_state(),
                    openspiel_game(name, size).new_initial_state(), [])])
    while queue:
        mine, theirs, moves = queue.popleft()
        problem, ours, other = compare(pair, mine, theirs)
        problem = problem or compare_boards(pair, mine, theirs)
        if problem:
            return Divergence(pair.label(size), moves, problem, str(theirs))
        if depth is not None and len(moves) == depth:
            continue
        for move in sorted(ours):
            a, b = mine.clone(), theirs.clone()
            a.apply_action(ours[move])
            b.apply_action(other[move])
            queue.append((a, b, [*moves, move]))
    return None


@pytest.mark.parametrize("name, size, depth, mode", PERFT,
                         ids=[f"{g}-{s or ''}-d{d or 'all'}-{m}" for g, s, d, m in PERFT])
def test_perft(name: str, size: int | None, depth: int | None, mode: str) -> None:
    theirs = tree_counts(openspiel_game(name, size).new_initial_state(), depth)
    if (name, size, depth) in OPENSPIEL_PERFT:
        assert leaf_count(theirs, depth) == OPENSPIEL_PERFT[(name, size, depth)]
    mine = tree_counts(rulelang_game(name, size, mode).new_initial_state(), depth)
    if mine != theirs:
        where = first_difference(name, size, mode, depth)
        diff = sorted((str(k), mine[k], theirs[k]) for k in set(mine) | set(theirs)
                      if mine[k] != theirs[k])
        pytest.fail(f"perft differs (key, rulelang, OpenSpiel): {diff[:10]}\n"
                    f"first difference: {where}")


# -- random games -----------------------------------------------------------------------------
def play(name: str, size: int | None, mode: str, seed: int) -> Divergence | None:
    """One seeded random game in both engines; the first divergence, or None."""
    pair = PAIRS[name]
    rng = random.Random(seed)
    mine = rulelang_game(name, size, mode).new_initial_state(seed=seed)
    theirs = openspiel_game(name, size).new_initial_state()
    moves: list[str] = []
    while True:
        problem, ours, other = compare(pair, mine, theirs)
        if problem is None and (theirs.is_terminal() or len(moves) % BOARD_EVERY == 0):
            problem = compare_boards(pair, mine, theirs)
        if problem:
            return Divergence(pair.label(size), moves, problem, str(theirs), seed)
        if theirs.is_terminal():
            return None
        move = rng.choice(sorted(ours))
        mine.apply_action(ours[move])
        theirs.apply_action(other[move])
        moves.append(move)


RANDOM = [(name, mode) for name in PAIRS for mode in RANDOM_GAMES]


@pytest.mark.parametrize("name, mode", RANDOM, ids=[f"{g}-{m}" for g, m in RANDOM])
def test_random_games(name: str, mode: str) -> None:
    found = [d for seed in range(RANDOM_GAMES[mode])
             if (d := play(name, None, mode, seed)) is not None]
    if found:
        shortest = min(found, key=lambda d: len(d.moves))
        pytest.fail(f"{len(found)} of {RANDOM_GAMES[mode]} games diverge; the shortest:\n"
                    f"{shortest}")


def test_mapping_round_trip() -> None:
    """Every OpenSpiel action of the first position maps to a distinct rulebook move, and
    the rulebook parses each of them back (string_to_action)."""
    for name, pair in PAIRS.items():
        theirs = openspiel_game(name, None).new_initial_state()
        mine = rulelang_game(name, None, "compiled").new_initial_state()
        for move in openspiel_moves(pair, theirs):
            assert mine.action_to_string(mine.string_to_action(move)) == move
