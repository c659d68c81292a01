"""Site predicates (fast/site_code.py): the condition of a kept site query generated as a
function of a site with Python locals. With incremental.CHECK every value of a generated
condition is computed by its closure too and both the value and the steps it took must be
the same; the games below play with it on."""
from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.fast import codegen, incremental

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("spyramid", "spargo", "spline_plus", "connect_four", "hex", "tic_tac_toe", "tatara")


def _alike(game: rulelang.Game, reference: rulelang.Game, seed: int,
           rng_seed: int | None = None) -> Iterator[tuple[Any, Any]]:
    """A random game of both, the same moves, the menus compared before each: the two
    states after each move; once it is over, both are, with the same returns."""
    a, b = game.new_initial_state(seed=seed), reference.new_initial_state(seed=seed)
    rng = random.Random(seed if rng_seed is None else rng_seed)
    while not a.is_terminal():
        names = [a.action_to_string(x) for x in a.legal_actions()]
        assert names == [b.action_to_string(x) for x in b.legal_actions()]
        move = rng.choice(names)
        a.apply_action(move)
        b.apply_action(move)
        yield a, b
    assert b.is_terminal() and a.returns() == b.returns()


def _play(name: str, folder: Path, seeds: int = 2, plies: int = 150,
          head: str = "def f(c, s0):") -> list[str]:
    """Random games of a bundled rulebook, compiled afresh (a copy with a comment of its
    own: no runtime of an earlier test); the site predicates generated meanwhile (of two
    sites with head="def f(c, s0, s1):")."""
    text = (ROOT / "rulebooks" / f"{name}.rule").read_text(encoding="utf-8")
    path = folder / f"{name}.rule"
    path.write_text(f"# a copy made by {folder.name}\n{text}", encoding="utf-8")
    for data in (ROOT / "rulebooks").glob(f"{name}_*"):  # its data files and modules
        (folder / data.name).write_bytes(data.read_bytes())
    with codegen.watching() as sources:
        game = rulelang.load_game(path, mode="closures")
        for seed in range(seeds):
            rng, state = random.Random(seed), game.new_initial_state(seed=seed)
            for _ in range(plies):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
    return [s for s in sources if s.startswith(head)]


@pytest.mark.parametrize("name", GAMES)
def test_generated_conditions_agree_with_their_closures(
        name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(incremental, "CHECK", True)
    assert _play(name, tmp_path), "no condition of a site was generated"


def _planted(monkeypatch: pytest.MonkeyPatch,
             fault: Callable[[Callable[..., bool]], Callable[..., bool]]) -> None:
    made = codegen.Generator.site_predicate

    def site_predicate(self: Any, cond: Any, *args: Any, **kwargs: Any) -> Any:
        fn = made(self, cond, *args, **kwargs)
        return None if fn is None else fault(fn)
    monkeypatch.setattr(codegen.Generator, "site_predicate", site_predicate)
    monkeypatch.setattr(incremental, "CHECK", True)


def test_a_generated_condition_with_another_value_is_caught(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _planted(monkeypatch, lambda fn: lambda c, s: fn(c, s) if s.index else not fn(c, s))
    with pytest.raises(AssertionError):
        _play("spyramid", tmp_path)


def _more(fn: Callable[..., bool]) -> Callable[..., bool]:
    def stepped(c: Any, *sites: Any) -> bool:
        c.steps += 1
        return fn(c, *sites)
    return stepped


def test_a_generated_condition_that_takes_another_step_is_caught(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _planted(monkeypatch, _more)
    with pytest.raises(AssertionError):
        _play("spyramid", tmp_path)


# ---- rules of two sites kept per pair (site_rules.py): Spargo's and Spaiji's
# visibly_linked(a, b), a count over a relation's row with a membership in another's

@pytest.mark.parametrize("name", ["spargo", "spaiji"])
def test_rules_of_two_sites_agree_with_their_closures(
        name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(incremental, "CHECK", True)
    made = _play(name, tmp_path, head="def f(c, s0, s1):")
    assert any("for v" in m and ".index in k" in m for m in made)  # (and chooses' conditions)


def _pair_fault(fn: Callable[..., bool]) -> Callable[..., bool]:
    def flipped(c: Any, *sites: Any) -> bool:
        got = fn(c, *sites)
        return not got if len(sites) == 2 and sites[0].index == 0 else got
    return flipped


@pytest.mark.parametrize("fault", [_pair_fault, _more])
def test_a_rule_of_two_sites_with_another_value_or_step_is_caught(
        fault: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def only_pairs(fn: Callable[..., bool]) -> Callable[..., bool]:
        planted = fault(fn)
        return lambda c, *sites: planted(c, *sites) if len(sites) == 2 else fn(c, *sites)
    _planted(monkeypatch, only_pairs)
    with pytest.raises(AssertionError):
        _play("spargo", tmp_path, seeds=4)


def test_what_it_covers_is_generated_and_the_rest_keeps_its_closure(tmp_path: Path) -> None:
    """A rule of a site written in place, and/or/not, a coordinate, a relation's row, an
    owner against the mover; a condition reading a counter is left to its closure; the
    game plays as the reference's."""
    (tmp_path / "rows.rule").write_text('''use square
game "Rows"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
counter k = 0
def held(s) = occupied(s) and all t in square.north(s): empty(t)
def low = each s in sites where empty(s) and (s.r == 0 or not held(s))
def mine = each s in sites where owner(s) == mover
def later = each s in sites where empty(s) and k < 2
action place
  choose site s in low
  put stone of mover at s
  increase k by size(mine)
turn
  do place
end
  when size(low) == 0 or size(later) > 8
    draw
''', encoding="utf-8")
    with codegen.watching() as sources:
        game = rulelang.load_game(tmp_path / "rows.rule", mode="closures")
        reference = rulelang.load_game(tmp_path / "rows.rule", mode="interpreted")
        for _ in _alike(game, reference, 0, rng_seed=1):
            pass
    predicates = [s for s in sources if s.startswith("def f(c, s0):")]
    made = sorted(set(predicates), key=len)  # `mine` (kept per mover) and `low`, each
    assert len(made) == 2  # made where it is used; `later` reads a counter: its closure
    assert "c.data.owner[" in made[0] and ".coords[" in made[1] and "for v" in made[1]


CHAIN = "\n".join(["def r0(s) = empty(s)"]
                  + [f"def r{i}(s) = r{i - 1}(s) or false" for i in range(1, 12)])


def test_rules_written_in_place_eight_deep_at_most_as_the_closures_inline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The closures inline rules eight calls deep, then call the rule: deeper, the condition
    keeps its closure (its steps would not be the closures'); CHECK holds all the way."""
    monkeypatch.setattr(incremental, "CHECK", True)
    for depth in (6, 11):
        (tmp_path / f"chain{depth}.rule").write_text(f'''use square
game "Chain"
players A, B
board square.grid(2, 2, 2)
piece stone
zone supply each player: 4 stone
{CHAIN}
def open = each s in sites where r{depth}(s)
action place
  choose site s in open
  put stone of mover at s
turn
  do place
''', encoding="utf-8")
        with codegen.watching() as sources:
            game = rulelang.load_game(tmp_path / f"chain{depth}.rule", mode="closures")
            state = game.new_initial_state(seed=0)
            while not state.is_terminal():
                state.apply_action(state.legal_actions()[0])
        made = [s for s in sources if s.startswith("def f(c, s0):")]
        assert len(made) == (1 if depth == 6 else 0), depth


LINKS = '''use square
game "Links"
players A, B
board square.grid(4, 4, 0)
piece stone
zone supply each player: 40 stone
var sizes = none
# a link rule of two sites: loops over a relation's row with a condition, a body, both,
# and a site in (or not in) another row
def bridged(a, b) = count t in square.adjacent(a) where t in square.adjacent(b) and occupied(t)
def lifted(a, b) = count t in square.adjacent(b): occupied(t) and t.r > a.r
def linked(a, b) = (bridged(a, b) < 2 or a.r == b.r) and lifted(a, b) <= 3 \\
  and (all t in square.orthogonal(b) where t not in square.orthogonal(a): \\
         empty(t) or owner(t) == owner(b)) \\
  and not (any t in square.north(a) where occupied(t): owner(t) != owner(a) and t == b)
def big(s) = size(group(s, square.orthogonal, linked))

action place
  choose site s in sites where empty(s)
  put stone of mover at s

action take
  choose site s in sites where owner(s) == opponent
  remove top(s)

turn
  do place or take
  set sizes = [big(s) for s in sites]

end
  when turn > 40
    draw
'''


def test_a_rule_of_two_sites_plays_as_the_reference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each loop form of the writer in a link rule of `group`: generated (as one function of
    two sites), checked against its closure on every value, and the game, with every
    group's size after every turn, the reference's move by move."""
    monkeypatch.setattr(incremental, "CHECK", True)
    (tmp_path / "links.rule").write_text(LINKS, encoding="utf-8")
    sizes: set[int] = set()
    with codegen.watching() as sources:
        game = rulelang.load_game(tmp_path / "links.rule", mode="closures")
        reference = rulelang.load_game(tmp_path / "links.rule", mode="interpreted")
        for seed in range(3):
            for a, b in _alike(game, reference, seed):
                got = a.ctx.data.vars[("sizes", None)]
                assert got == b.ctx.data.vars[("sizes", None)]
                sizes.update(got)
    assert max(sizes) >= 3  # (groups were linked)
    (made,) = {s for s in sources if s.startswith("def f(c, s0, s1):")}
    assert made.count("for v") == 4 and " not in k" in made


@pytest.mark.parametrize("name", ["spyramid", "spaiji", "breakthrough"])
def test_conditions_of_chooses_agree_with_their_closures(
        name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`choose site dest in D where C`, C of dest and of one more site (`src`): generated as
    one function of the two sites (Spyramid's reads which balls fell: moved)."""
    monkeypatch.setattr(incremental, "CHECK", True)
    made = _play(name, tmp_path, head="def f(c, s0, s1):")
    assert made
    if name == "spyramid":
        assert any("c.data.moved" in m for m in made)


@pytest.mark.parametrize("fault", [_pair_fault, _more])
def test_a_condition_of_a_choose_with_another_value_or_step_is_caught(
        fault: Callable[..., Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def only_pairs(fn: Callable[..., bool]) -> Callable[..., bool]:
        planted = fault(fn)
        return lambda c, *sites: planted(c, *sites) if len(sites) == 2 else fn(c, *sites)
    _planted(monkeypatch, only_pairs)
    with pytest.raises(AssertionError):
        _play("spyramid", tmp_path, seeds=3)


PUSH = '''use square
game "Push"
players A, B
board square.grid(3, 4, 0)
piece stone
zone supply each player: 20 stone
counter pushes = 0

action place
  choose site s in sites where empty(s)
  put stone of mover at s

# push one of your stones a step, then put a stone beside it: in line with where it came
# from, or where no stone that moved is north of it
action push
  choose site src in sites where owner(src) == mover
  choose site mid in square.orthogonal(src) where empty(mid)
  move top(src) to mid
  choose site dest in square.orthogonal(mid) where empty(dest) and dest != src \\
      and (dest.r == src.r or not any t in square.north(dest): moved(t))
  put stone of mover at dest
  increase pushes by 1

turn
  do push or place

end
  when turn > 14
    draw
'''


def test_a_condition_of_a_choose_plays_as_the_reference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A choose's condition of its site, another site chosen before it and which stones
    moved in this action: generated, checked against its closure on every value, and the
    game the reference's, menu by menu."""
    monkeypatch.setattr(incremental, "CHECK", True)
    (tmp_path / "push.rule").write_text(PUSH, encoding="utf-8")
    pushes = 0
    with codegen.watching() as sources:
        game = rulelang.load_game(tmp_path / "push.rule", mode="closures")
        reference = rulelang.load_game(tmp_path / "push.rule", mode="interpreted")
        for seed in range(4):
            *_, (last, _) = _alike(game, reference, seed)  # (played to the end)
            pushes += last.ctx.data.counters[("pushes", None)]
    assert pushes >= 4
    made = {s for s in sources if s.startswith("def f(c, s0, s1):")}
    assert any("c.data.moved" in m and ".coords[" in m for m in made)


HOP = '''use square
game "Hop"
players A, B
board square.grid(5, 5, 0)
piece stone
zone supply each player: 20 stone

setup
  for each s in sites where s.r == 0
    put stone of A at s
  for each s in sites where s.r == 4
    put stone of B at s

# a stone steps to an empty neighbour, not straight back up (a where of two sites)
action hop
  choose site src in sites where owner(src) == mover
  choose site dest in square.orthogonal(src) where empty(dest) \\
      and (dest.r >= src.r or dest.c != src.c)
  move top(src) to dest

# a new stone, naming one of yours or none (a where of a site and a site or none)
action drop
  optionally choose site n in sites where owner(n) == mover
  choose site d in sites where empty(d) and not moved(d) and d != n
  put stone of mover at d

turn
  do hop or drop

end
  when turn > 16
    draw
'''


def test_the_options_of_two_chooses_of_sites_are_listed_in_one_loop(tmp_path: Path) -> None:
    """`choose src …; choose dest in D(src) where C(dest, src)`: the second's values for
    each first value in one loop (the second's closure, fast/choice_fns.py site_pairs), the
    same options at the same steps as the choose asked for each first value, and the game
    the reference's; a first value that is no site (none: optionally) takes the closure's
    loop."""
    (tmp_path / "hop.rule").write_text(HOP, encoding="utf-8")
    game = rulelang.load_game(tmp_path / "hop.rule", mode="closures")
    reference = rulelang.load_game(tmp_path / "hop.rule", mode="interpreted")
    executor = game.flow.executor
    checked = 0
    for seed in range(3):
        for state, _ in _alike(game, reference, seed):
            if state.is_terminal():
                break
            do = game.flow._only_do
            executor.menu(do, state.ctx)  # (the menu's plans made)
            fused = {plan: plan.pairs_var for plan in executor._choice_plans.values()
                     if getattr(plan, "pairs_var", None) is not None}
            assert sorted(fused.values()) == ["n", "src"]
            found = []
            for loop in (True, False):  # the one loop, then the choose asked per value
                for plan, var in fused.items():
                    plan.pairs_var = var if loop else None
                c = state.ctx
                before = c.steps
                found.append((list(executor.menu(do, c)), c.steps - before))
            for plan, var in fused.items():
                plan.pairs_var = var
            assert found[0] == found[1]
            checked += 1
    assert checked >= 20
