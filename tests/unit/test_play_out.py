"""State.play_out: a search's playout. Each legal action as likely as with
`apply_action(rng.choice(legal_actions()))`; an option whose effects may refuse it is tried
only when drawn, and where none needs trying the draws are the same ones; in both modes."""
from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from scenario_tools import legal, load_text

import rulelang
from rulelang.gen.playout import below, random_bits

ROOT = Path(__file__).resolve().parents[2]
# a stone may not be put between two others: that is only known once it is put (crowd, then
# the require), so every `put` option must be tried
CROWDING = """use square
game "Crowding"
players A, B
board square.grid(1, {width}, 2)
piece stone
zone supply each player: 20 stone
counter crowded = 0
effect crowd(s)
  set crowded = count t in square.orthogonal(s) where occupied(t)
action put
{guard}
  choose site s in sites where empty(s)
  put stone of mover at s
  crowd(s)
  require crowded < 2 else "the stone would be shut in"
action pass
turn
  do put {joiner} pass
end at most {cap} plies
"""


# two stones side by side: a first site, then one of its empty neighbours (after the first
# stone is put, so every first site must be tried, and has 0, 1 or 2 ways)
PAIRS = """use square
game "Pairs"
players A, B
board square.grid(1, {width}, 2)
piece stone
zone supply each player: 20 stone
action put2
  require mover == A
  choose site s in sites where empty(s)
  put stone of mover at s
  choose site t in {second}
  put stone of mover at t
action pass
turn
  do put2 or pass
end at most 60 plies
"""


def pairs(tmp_path: Path, second: str = "square.orthogonal(s) where empty(t)",
          width: int = 6) -> Any:
    return load_text(tmp_path, PAIRS.format(width=width, second=second), "compiled")


def crowding(tmp_path: Path, mode: str = "compiled", width: int = 9, joiner: str = "or",
             cap: int = 60, guard: str = "") -> Any:
    text = CROWDING.format(width=width, joiner=joiner, cap=cap, guard=guard)
    return load_text(tmp_path, text, mode)


def looped(state: Any, rng: random.Random, limit: int) -> None:
    """The playout play_out stands for."""
    for _ in range(limit):
        if state.is_terminal():
            return
        state.apply_action(rng.choice(state.legal_actions()))


def replayed(game: Any, state: Any) -> Any:
    """A new game given the history of `state` as action strings: each must be legal."""
    again = game.new_initial_state(seed=0)
    for text in state.history():
        assert text in legal(again), f"{text!r} was not legal"
        again.apply_action(text)
    return again


def assert_drawn_evenly(state: Any, options: set[str], rng: random.Random, n: int) -> None:
    """n playouts of 2 actions from `state` (whose decision is listed): the second, drawn by
    play_out, takes each of `options` within 5 sigma of n / len(options) times."""
    drawn: Counter[str] = Counter()
    for _ in range(n):
        copy = state.clone()
        copy.play_out(rng, 2)
        drawn[copy.history()[-1]] += 1
    assert set(drawn) == options
    share = 1 / len(options)
    sigma = (n * share * (1 - share)) ** 0.5
    for text in options:
        assert abs(drawn[text] - n * share) < 5 * sigma, drawn


def test_each_legal_option_is_as_likely(tmp_path: Path) -> None:
    game = crowding(tmp_path, guard="  require mover == A")  # B can only pass
    state = game.new_initial_state(seed=0)
    for text in ("put b1", "pass", "put d1", "pass", "put f1", "pass", "put h1"):
        state.apply_action(text)  # c1, e1 and g1 are shut in
    assert legal(state) == {"pass"}
    after = state.clone()
    after.apply_action("pass")
    options = legal(after)
    assert options == {"put a1", "put i1", "pass"}  # 5 `put` to try: 3 refused
    # B's decision is listed; the one after it is drawn by play_out
    # (a draw that went on to the next value after a refused one would take `put i1` 4
    # times in 6)
    assert_drawn_evenly(state, options, random.Random(7), 6000)


def test_each_way_of_two_chooses_is_as_likely(tmp_path: Path) -> None:
    game = pairs(tmp_path)
    state = game.new_initial_state(seed=0)
    state.apply_action("pass")  # (A may pass too)
    state.apply_action("pass")  # B can only pass
    state.apply_action("put2 a1 b1")
    assert legal(state) == {"pass"}  # B's: A's decision after it is drawn by play_out
    after = state.clone()
    after.apply_action("pass")
    options = legal(after)
    # c1 and f1 have one way each, d1 and e1 two: seven options with pass
    assert options == {"put2 c1 d1", "put2 d1 c1", "put2 d1 e1", "put2 e1 d1",
                       "put2 e1 f1", "put2 f1 e1", "pass"}
    # (a first site drawn as likely as pass, then one of its ways, would give `put2 c1 d1`
    # 1/5 and `put2 d1 c1` 1/10)
    assert_drawn_evenly(state, options, random.Random(11), 7000)


@pytest.mark.parametrize("guard", ["", "  let me = mover\n  require me == A"])
def test_a_played_out_game_replays_move_for_move(tmp_path: Path, guard: str) -> None:
    game = crowding(tmp_path, guard=guard)  # (a let and a require before the choose)
    for seed in range(30):
        state = game.new_initial_state(seed=0)
        state.play_out(random.Random(seed), 500)
        assert state.is_terminal()
        again = replayed(game, state)
        assert again.is_terminal() and again.returns() == state.returns()
        assert again.capped() == state.capped()
        assert again.observation(0) == state.observation(0)


@pytest.mark.parametrize("stem", ["spargo", "spyramid", "spline_plus"])
def test_a_bundled_game_with_refusals_replays(stem: str) -> None:
    game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", mode="compiled")
    for seed in range(3):
        state = game.new_initial_state(seed=0)
        state.play_out(random.Random(seed), 5000)
        assert state.is_terminal()
        again = replayed(game, state)
        assert again.returns() == state.returns()
        assert again.observation(1) == state.observation(1)


@pytest.mark.parametrize("stem,options", [("tic_tac_toe", None), ("connect_four", None),
                                          ("sponnect", None), ("splice", None),
                                          ("karesansui", {"players": 2}),
                                          ("muso_sakura", {"players": 3})])
def test_where_nothing_is_tried_the_draws_are_the_same(stem: str, options: Any) -> None:
    game = rulelang.load_game(ROOT / "rulebooks" / f"{stem}.rule", options, mode="compiled")
    if stem in ("sponnect", "splice"):  # (a `do` of two actions: its menu listed, drawn)
        assert game.state_class.draws is not None  # type: ignore[attr-defined]
    for seed in range(4):
        a, b = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        looped(a, random.Random(seed), 5000)
        b.play_out(random.Random(seed), 5000)
        assert a.history() == b.history()
        assert a.returns() == b.returns()


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_limit_leaves_the_next_decision_whole(tmp_path: Path, mode: str) -> None:
    game = crowding(tmp_path, mode)
    for limit in (1, 2, 5):
        state = game.new_initial_state(seed=0)
        state.play_out(random.Random(limit), limit)
        assert len(state.history()) == limit and not state.is_terminal()
        again = replayed(game, state)
        assert legal(state) == legal(again)
        assert state.current_player() == again.current_player()
        state.apply_action(sorted(legal(state))[0])  # it plays on as any state does
        again.apply_action(sorted(legal(again))[0])
        assert state.observation(0) == again.observation(0)


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_cap_ends_a_played_out_game(tmp_path: Path, mode: str) -> None:
    game = crowding(tmp_path, mode, width=20, cap=7)
    state = game.new_initial_state(seed=0)
    state.play_out(random.Random(3), 100)
    assert state.is_terminal() and state.capped()
    assert len(state.history()) == 7 and state.returns() == [0.0, 0.0]


def test_otherwise_draws_from_the_first_group_with_a_way(tmp_path: Path) -> None:
    game = crowding(tmp_path, width=3, joiner="otherwise", guard="  require mover == A")
    state = game.new_initial_state(seed=0)
    state.apply_action("put a1")  # B can only pass; A's decision after it is drawn
    seen = set()
    for seed in range(40):
        copy = state.clone()
        copy.play_out(random.Random(seed), 2)
        seen.add(copy.history()[-1])
    assert seen == {"put b1", "put c1"}  # never `pass` while a put has a way
    state.apply_action("pass")
    state.apply_action("put c1")  # b1 is now shut in: only pass is left for A
    for seed in range(5):
        copy = state.clone()
        copy.play_out(random.Random(seed), 2)
        assert copy.history()[-2:] == ["pass", "pass"]


def test_mcts_plays_out_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.agents import make_agent
    calls: list[int] = []
    game = crowding(tmp_path)
    state = game.new_initial_state(seed=0)
    original = type(state).play_out

    def counted(self: Any, rng: Any, limit: int) -> None:
        calls.append(limit)
        original(self, rng, limit)
    monkeypatch.setattr(type(state), "play_out", counted)
    action = make_agent("mcts:20", 1).choose(state)
    assert action in state.legal_actions() and len(calls) == 20


# A runs out of stones first: its turns are skipped while B plays on; with both out (or the
# row full) nobody can do anything for a whole round, and the game is over
SKIPPED = """use square
game "Skipped"
players A, B
board square.grid(1, {width}, 2)
piece stone
zone supply each player: {b} stone
zone out
setup
  repeat {b} - {a} times
    move top(supply of A) to out
def free = each s in sites where empty(s)
action put
  choose site s in free
  put stone of mover at s
turn
  do put
"""


@pytest.mark.parametrize("width,a,b", [(9, 2, 5), (6, 1, 9), (4, 3, 3)])
def test_turns_without_an_option_are_skipped_as_apply_action_skips_them(
        tmp_path: Path, width: int, a: int, b: int) -> None:
    game = load_text(tmp_path, SKIPPED.format(width=width, a=a, b=b), "compiled")
    for seed in range(4):
        played, applied = game.new_initial_state(seed=seed), game.new_initial_state(seed=seed)
        played.play_out(random.Random(seed), 500)
        looped(applied, random.Random(seed), 500)
        assert played.is_terminal() and applied.is_terminal()
        assert played.history() == applied.history()
        assert played.returns() == applied.returns()
        assert played.observation(0) == applied.observation(0)  # (its turn count too)


def test_numbers_from_random_bits_are_the_generators_own_randrange() -> None:
    mine, python = random.Random(5), random.Random(5)
    bits = random_bits(mine)
    ns = [1, 2, 3, 7, 8, 9, 100, 121, 1000, 5000]
    assert [below(bits, n) for n in ns * 30] == [python.randrange(n) for n in ns * 30]


class _Dice:
    """A generator with only a randrange (no random bits of its own)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def randrange(self, n: int) -> int:
        return self.rng.randrange(n)


class _OwnRandom(random.Random):
    """Python's randrange over its own random(): not over getrandbits."""

    def random(self) -> float:
        return super().random()


@pytest.mark.parametrize("make", [_Dice, _OwnRandom])
def test_a_generator_of_any_kind_plays_legal_games(make: Any) -> None:
    game = rulelang.load_game(ROOT / "rulebooks" / "connect_four.rule", mode="compiled")
    bits = random_bits(make(1))
    counts = Counter(below(bits, 6) for _ in range(6000))
    assert sorted(counts) == list(range(6)) and min(counts.values()) > 800
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        state.play_out(make(seed), 10 ** 6)
        assert state.is_terminal()
        again = game.new_initial_state(seed=seed)
        for label in state.history():
            again.apply_action(label)  # (each one legal where it was taken)
        assert again.returns() == state.returns()
