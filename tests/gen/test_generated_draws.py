"""Playouts of a generated game whose menus try effects on scratch copies draw one option
without listing the menu (gen/draws.py): every option drawn is one the menu lists, and each
is as likely (rejection sampling over a lazy action's first values and their bounds)."""
from __future__ import annotations

import collections
import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical
from rulelang.gen.playout import Tried

# a lazy action whose values have more ways than their bound (a site listed twice): the
# whole menu is listed instead
TWICE = """use square
game "Twice"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
  choose site t in sites + sites where empty(t)
  require t != s
turn
  do place
end
  when turn >= 4
    draw
"""


# a lazy action whose effects empty two sites before its last choose, of empty sites: its
# bound is the empty sites then (gen/empties.py), two more than when it is drawn
CLEAR = """use square
game "Clear"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 20 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action clear
  choose site s in sites where occupied(s) and (count t in sites where occupied(t)) >= 2
  let b = top(s)
  remove b
  let c = top(first t in sites where occupied(t))
  remove c
  choose site d in sites where empty(d) and d != s
  put stone of mover at d
turn
  do place or clear
end
  when turn >= 40
    draw
"""


def _positions(game: Any, seeds: int) -> list[Any]:
    """States met in random games (each a copy)."""
    out, rng = [], random.Random(7)
    for seed in range(seeds):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            out.append(state.clone())
            state.apply_action(rng.randrange(len(state.legal_actions())))
    return out


def _drawn(game: Any, state: Any, rng: random.Random) -> Any:
    """A draw's option (the draws take random bits); where it comes with the copy the
    action was tried on (playout.Tried), that copy is the state the action leaves."""
    cls = game.state_class
    drawn = cls.draws[state.mover](state.clone(), rng.getrandbits)
    if isinstance(drawn, Tried):
        _same_as_acted(state, drawn)
        return tuple(drawn)
    return drawn


def _same_as_acted(state: Any, drawn: Tried) -> None:
    """act<m> given the option drawn, on its copy (as the playout's loop asks it), leaves
    the state the action leaves performed on the state drawn from, and lets the copy go;
    on any other state it performs the action."""
    acted, other, tried = state.clone(), state.clone(), drawn.state
    acted.acts[state.mover](acted, tuple(drawn))
    other.acts[state.mover](other, drawn)
    tried.acts[state.mover](tried, drawn)
    assert drawn.state is None
    for s in (tried, other):
        assert canonical(s.data) == canonical(acted.data)
        assert s._kept_now() == acted._kept_now() and s.moved == acted.moved


@pytest.mark.parametrize("name", ["spargo", "spyramid", "spought", "breakthrough"])
def test_options_drawn_are_on_the_menu_and_equally_likely(name: str) -> None:
    game = rulelang.load_game(name, mode="generated")
    assert isinstance(game, GenGame) and game.state_class.draws is not None
    rng = random.Random(1)
    positions = _positions(game, 2)
    for state in positions:
        assert _drawn(game, state, rng) in game.state_class.menus[state.mover](state.clone())
    state = max(positions, key=lambda s: len(s.legal_actions()))
    menu = game.state_class.menus[state.mover](state.clone())
    n = 300 * len(menu)
    counts = collections.Counter(menu.index(_drawn(game, state, rng)) for _ in range(n))
    expected, df = n / len(menu), len(menu) - 1
    chi2 = sum((counts[i] - expected) ** 2 / expected for i in range(len(menu)))
    assert chi2 < df + 6 * (2 * df) ** 0.5, (len(menu), chi2)  # (far off only when biased)


def test_a_value_past_its_bound_has_the_menu_listed(tmp_path: Path) -> None:
    path = tmp_path / "twice.rule"
    path.write_text(TWICE)
    game = rulelang.load_game(path, mode="generated")
    assert isinstance(game, GenGame) and game.state_class.draws is not None
    rng = random.Random(2)
    for state in _positions(game, 3):
        assert _drawn(game, state, rng) in game.state_class.menus[state.mover](state.clone())
    state = game.new_initial_state(0)
    state.play_out(rng, 100)
    assert state.is_terminal()


def _bounds_kept(game: Any, seen: list[tuple[int, int]], monkeypatch: Any) -> None:
    """Make the game's draws note each way found against its value's bound (and fail when
    one is past it), until the test ends (the module may be shared by later tests)."""
    import rulelang.gen.draws as draws
    space = game.state_class.draws[0].__globals__
    key = next(k for k, v in space.items() if v is draws.sample)

    def sample(s: Any, bits: Any, group: Any) -> Any:
        def bounded(rest: Any, bound: int) -> Any:
            def ways(s: Any, value: Any) -> Any:
                found = rest(s, value)
                seen.append((len(found), bound))
                assert len(found) <= bound, (len(found), bound)
                return found
            return ways
        return draws.sample(s, bits, tuple(
            (first, rest if rest is None else bounded(rest, bound), bound)
            for first, rest, bound in group))
    monkeypatch.setitem(space, key, sample)


@pytest.mark.parametrize("name", ["spyramid", "spline_plus", "clear"])
def test_a_choose_of_empty_sites_is_bound_by_the_empty_sites(name: str, tmp_path: Path,
                                                            monkeypatch: Any) -> None:
    """The bound of a value's ways is the empty sites after the effects before the choose
    (a remove: one more), less than the board's sites once it fills: every way found is
    within it, and the bound is below the board's size in some draws."""
    monkeypatch.setenv("RULELANG_NO_CACHE", "1")
    path = tmp_path / "clear.rule"
    path.write_text(CLEAR)
    game = rulelang.load_game(path if name == "clear" else name, mode="generated")
    seen: list[tuple[int, int]] = []
    _bounds_kept(game, seen, monkeypatch)
    n_sites = len(game.new_initial_state(0).at)  # type: ignore[attr-defined]
    for seed in range(6):
        game.new_initial_state(seed).play_out(random.Random(seed), 400)
    assert seen and max(ways for ways, _ in seen) >= 2
    assert any(bound < n_sites for _, bound in seen)


def test_one_lazy_action_draws_as_the_pool_of_every_group() -> None:
    """A group of one lazy action takes its first draw without making the pool (gen/draws.py
    `sample`): from the same bits, the same option as the pool of any group draws — the
    option a first draw lands on, or after a phantom (a value with fewer ways than its
    bound) the same draws again with that value's ways listed."""
    from rulelang.gen.draws import _pool, sample
    from rulelang.gen.playout import below
    rng = random.Random(5)
    phantoms = 0
    for case in range(2000):
        bound = rng.randint(1, 4)
        ways = {v: [(v, w) for w in range(rng.randint(0, bound))]
                for v in range(rng.randint(0, 6))}
        seed = rng.random()
        drawn = []
        for fast in (True, False):
            bits = random.Random(seed).getrandbits
            group = ((lambda s, w=ways: list(w), lambda s, v, w=ways: w[v], bound), )
            if fast:
                drawn.append(sample(None, bits, group))
            else:  # (the pool as a group of several entries makes it)
                drawn.append(_pool(None, bits, [(list(ways), group[0][1], bound)], [],
                                   len(ways) * bound))
        assert drawn[0] == drawn[1], case
        if ways:  # (did the first draw land on a phantom's place?)
            i, j = divmod(below(random.Random(seed).getrandbits, len(ways) * bound), bound)
            phantoms += j >= len(ways[i])
    assert phantoms > 100  # (the path after a phantom is taken)


# a `do` whose actions are counted in place (gen/draws.py write_direct): a kept query's
# sites while the supply lasts, an action without a choose under a require, and one
# tried only when the others have no way
PASSING = """use square
game "Passing"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 3 stone
def free = each s in sites where empty(s)
action place
  choose site s in free
  put stone of mover at s
action pass
  require last.action != "pass" else "no pass right after a pass"
action wait
  require turn >= 0
turn
  do place or pass otherwise wait
end
  when turn >= 14
    draw
"""


@pytest.mark.parametrize("name", ["passing", "passing first", "sponnect"])
def test_counted_draws_take_what_the_listed_menu_gives(name: str, tmp_path: Path) -> None:
    """Where every action's options are counted in place, a playout's draw is the listed
    menu's `rng.choice`: the same game as the reference's from the same generator."""
    path = tmp_path / "passing.rule"
    text = PASSING if name == "passing" else PASSING.replace("place or pass", "pass or place")
    path.write_text(text)
    where = path if name.startswith("passing") else name
    gen = rulelang.load_game(where, mode="generated")
    ref = rulelang.load_game(where, mode="interpreted")
    assert isinstance(gen, GenGame) and gen.state_class.draws is not None
    assert "menu0" not in gen.state_class.draws[0].__code__.co_names  # (not listed)
    taken: collections.Counter[str] = collections.Counter()
    for seed in range(12):
        g, r, rng = gen.new_initial_state(seed), ref.new_initial_state(seed), random.Random(seed)
        g.play_out(random.Random(seed), 10_000)
        while not r.is_terminal():
            r.apply_action(rng.choice(r.legal_actions()))
        assert g.history() == r.history() and g.returns() == r.returns()
        taken.update(a.split()[0] for a in g.history())
    if name != "sponnect":
        assert taken["place"] and taken["pass"] and taken["wait"], taken


# an effect between two chooses, nothing after the last: every option of a first value is
# tried on one copy, the state each of them leaves
LATER = """use square
game "Later"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 20 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
  choose site t in sites where empty(t) and t != s
  require (count u in sites where occupied(u)) < 9
turn
  do place
end
  when turn >= 5
    draw
"""


@pytest.mark.parametrize("name", ["spargo", "later", "spline_plus", "spyramid"])
def test_a_copy_the_draw_tried_the_action_on_is_the_state_it_leaves(name: str,
                                                                    tmp_path: Path) -> None:
    """A way found by running the whole action on a scratch copy is drawn with that copy
    (playout.Tried), and act<m> takes the copy's state: the state the action leaves; a
    playout so played is the reference's game (its history replayed there), also when it
    stops part-way, and its history's options act as options (no copy left in them). A
    walk that stops before the action's last effects (Spline+'s and Spyramid's
    `put b at dest`) draws no copy."""
    path = tmp_path / "later.rule"
    path.write_text(LATER)
    game = rulelang.load_game(path if name == "later" else name, mode="generated")
    ref = rulelang.load_game(path if name == "later" else name, mode="interpreted")
    rng, tried = random.Random(3), 0
    for state in _positions(game, 2):
        drawn = game.state_class.draws[state.mover](state.clone(), rng.getrandbits)
        if isinstance(drawn, Tried):
            _same_as_acted(state, drawn)
            tried += 1
    assert (tried > 0) == (name in ("spargo", "later"))
    for seed, limit in ((0, 10 ** 6), (1, 10 ** 6), (2, 2), (3, 5)):
        g, r = game.new_initial_state(seed), ref.new_initial_state(seed)
        g.play_out(random.Random(seed), limit)
        for action in g.history():
            r.apply_action(action)
        assert canonical(g.data) == canonical(r.data)
        assert g.is_terminal() == r.is_terminal() and g.returns() == r.returns()
        if not r.is_terminal():
            assert g.legal_actions() == r.legal_actions()
        assert all(getattr(o, "state", None) is None for e in g.hist for o in e[1])
