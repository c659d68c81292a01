"""Site predicates (fast/site_code.py): the condition of a kept site query generated as a
function of a site with Python locals. With incremental.CHECK every value of a generated
condition is computed by its closure too and both the value and the steps it took must be
the same; the games below play with it on."""
from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.fast import codegen, incremental

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("spyramid", "spargo", "spline_plus", "connect_four", "hex", "tic_tac_toe", "tatara")


def _play(name: str, folder: Path, seeds: int = 2, plies: int = 150) -> list[str]:
    """Random games of a bundled rulebook, compiled afresh (a copy with a comment of its
    own: no runtime of an earlier test); the site predicates generated meanwhile."""
    text = (ROOT / "rulebooks" / f"{name}.rule").read_text(encoding="utf-8")
    path = folder / f"{name}.rule"
    path.write_text(f"# a copy made by {folder.name}\n{text}", encoding="utf-8")
    for data in (ROOT / "rulebooks").glob(f"{name}_*"):  # its data files and modules
        (folder / data.name).write_bytes(data.read_bytes())
    with codegen.watching() as sources:
        game = rulelang.load_game(path, mode="compiled")
        for seed in range(seeds):
            rng, state = random.Random(seed), game.new_initial_state(seed=seed)
            for _ in range(plies):
                if state.is_terminal():
                    break
                state.apply_action(rng.choice(state.legal_actions()))
    return [s for s in sources if s.startswith("def f(c, s0):")]


@pytest.mark.parametrize("name", GAMES)
def test_generated_conditions_agree_with_their_closures(
        name: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(incremental, "CHECK", True)
    assert _play(name, tmp_path), "no condition of a site was generated"


def _planted(monkeypatch: pytest.MonkeyPatch,
             fault: Callable[[Callable[[Any, Any], bool]], Callable[[Any, Any], bool]]) -> None:
    made = codegen.Generator.site_predicate

    def site_predicate(self: Any, cond: Any, var: str) -> Any:
        fn = made(self, cond, var)
        return None if fn is None else fault(fn)
    monkeypatch.setattr(codegen.Generator, "site_predicate", site_predicate)
    monkeypatch.setattr(incremental, "CHECK", True)


def test_a_generated_condition_with_another_value_is_caught(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _planted(monkeypatch, lambda fn: lambda c, s: fn(c, s) if s.index else not fn(c, s))
    with pytest.raises(AssertionError):
        _play("spyramid", tmp_path)


def test_a_generated_condition_that_takes_another_step_is_caught(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def more(fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
        def stepped(c: Any, s: Any) -> bool:
            c.steps += 1
            return fn(c, s)
        return stepped
    _planted(monkeypatch, more)
    with pytest.raises(AssertionError):
        _play("spyramid", tmp_path)


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
        game = rulelang.load_game(tmp_path / "rows.rule", mode="compiled")
        reference = rulelang.load_game(tmp_path / "rows.rule", mode="interpreted")
        a, b = game.new_initial_state(seed=0), reference.new_initial_state(seed=0)
        rng = random.Random(1)
        while not a.is_terminal():
            assert [a.action_to_string(x) for x in a.legal_actions()] == \
                [b.action_to_string(x) for x in b.legal_actions()]
            move = rng.choice(a.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        assert b.is_terminal() and a.returns() == b.returns()
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
            state = rulelang.load_game(tmp_path / f"chain{depth}.rule").new_initial_state(seed=0)
            while not state.is_terminal():
                state.apply_action(state.legal_actions()[0])
        made = [s for s in sources if s.startswith("def f(c, s0):")]
        assert len(made) == (1 if depth == 6 else 0), depth
