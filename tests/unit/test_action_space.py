"""The fixed action space (game/action_space.py): derived from the rulebook alone, the same
ids in every mode, each legal option one id, and a clear error for a choose that has none."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.game.action_space import space_of

MODES = ["compiled", "interpreted"]


def _play_checked(game: rulelang.Game, seed: int, plies: int) -> list[int]:
    """A random game; at each state the ids are checked against the menu. The ids taken."""
    space, rng, taken = space_of(game), random.Random(seed), []
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal() and len(taken) < plies:
        ids = state.legal_action_ids()
        assert ids == sorted(set(ids)) and all(0 <= i < space.size for i in ids)
        mask = state.legal_actions_mask()
        assert len(mask) == game.num_distinct_actions() and sum(mask) == len(ids)
        assert all(mask[i] == 1 for i in ids)
        for a in state.legal_actions():
            i = state.action_id(a)
            assert state.action_from_id(i) == a
            assert space.describe(i) == state.action_to_string(a)
        a = rng.choice(state.legal_actions())
        taken.append(state.action_id(a))
        state.apply_action(a)
    return taken


@pytest.mark.parametrize(("name", "mode"), [
    (name, mode) for name in ("breakthrough", "karesansui", "muso_sakura") for mode in MODES
] + [("spice", "compiled")])  # (spice in both modes: test_the_modes_number_alike's kind)
def test_ids_follow_the_menus(name: str, mode: str) -> None:
    game = rulelang.load_game(name, {"size": 5} if name == "breakthrough" else {}, mode=mode)
    _play_checked(game, seed=3, plies=12)


def test_the_modes_number_alike() -> None:
    """The same game in two modes takes the same ids (the space is the rulebook's)."""
    a = _play_checked(rulelang.load_game("spline_plus"), 5, 16)
    b = _play_checked(rulelang.load_game("spline_plus", mode="interpreted"), 5, 16)
    assert a == b


def test_numbering_of_one_choose_over_sites() -> None:
    """An action with one choose over sites: its ids are the sites in board order."""
    game = rulelang.load_game("hex", {"size": 5})
    state = game.new_initial_state()
    assert game.num_distinct_actions() == 25
    sites = [s.name for s in game.runtime.board.sites]
    assert [space_of(game).describe(i) for i in range(25)] == [f"place {s}" for s in sites]
    assert state.legal_action_ids() == list(range(25))
    state.apply_action(state.action_from_id(7))
    assert 7 not in state.legal_action_ids() and len(state.legal_action_ids()) == 24


def test_products_then_and_optional_chooses() -> None:
    """Spice: `place` is a site and an optional second site; `remove` a site, then place."""
    space = space_of(rulelang.load_game("spice"))
    n = len(rulelang.load_game("spice").runtime.board.sites)
    assert [(b.action, b.size) for b in space.blocks] == [("place", n * (n + 1)),
                                                          ("remove", n * n * (n + 1))]
    assert space.describe(0) == "place 0a1"  # (the second choose's first value is none)
    assert space.describe(n * (n + 1)).startswith("remove 0a1 place 0a1")


def test_an_illegal_id_is_explained() -> None:
    game = rulelang.load_game("tic_tac_toe")
    state = game.new_initial_state()
    state.apply_action("place b2")
    with pytest.raises(rulelang.IllegalActionError, match="place b2.*not legal now"):
        state.action_from_id(space_of(game).blocks[0].encode(
            (game.runtime.board.sites[4],)) or 0)
    with pytest.raises(rulelang.IllegalActionError, match="not an action id"):
        state.action_from_id(9)


def test_lists_read_from_their_domains() -> None:
    """Muso Sakura's secret role: lists of at most 4 card names (`subsets(pool, min(4,
    …))`, the names an attribute declared of the enumeration card_name); the abilities
    chosen by hand: pairs (name, season) from `product([names, seasons])`."""
    game = rulelang.load_game("muso_sakura", {"abilities": "by_hand"})
    space = space_of(game)
    role = next(b for b in space.blocks if b.choose is not None and b.choose.var == "role_names")
    names = len(game.runtime.program.enums["card_name"].symbols)
    assert role.size == sum(names ** k for k in range(5))
    assert space.describe(role.start) == "()"
    assert space.describe(role.start + 1 + names + 2) == "(Someiyoshino, Kobukuzakura)"
    way = next(b for b in space.blocks if b.choose is not None and b.choose.var == "way")
    assert way.size == space.plain.size ** 2
    _play_checked(game, 2, 400)  # to the end: the roles and abilities are chosen


LISTS_GAME = """
use square
game "Lists"
players A, B
board square.grid(2, 2, 2)
piece stone
zone supply each player: 4 stone
action pick
  choose group in subsets(each s in sites where empty(s): s, size(sites))
  choose site s in sites where empty(s)
  put stone of mover at s
action also
  choose pair in [[1, 2], [3]]
turn
  do pick or also
end
  when turn >= 4
    draw
"""


def test_lists_of_no_bounded_length_are_refused_at_their_choose(tmp_path: Path) -> None:
    path = tmp_path / "lists.rule"
    path.write_text(LISTS_GAME)
    game = rulelang.load_game(path)
    with pytest.raises(rulelang.RulebookError) as info:
        game.num_distinct_actions()
    text = info.value.render()
    assert "lists.rule:9:3: error[R270]: the values of 'group' cannot be numbered: they " \
           "are lists, of no bounded number" in text
    assert "lists.rule:13:3: error[R270]: the values of 'pair'" in text  # all together


RANGE_GAME = """
use square
game "Pick"
players A, B
option top: 2..5 = 3
board square.grid(2, 2, 2)
piece stone
zone supply each player: 4 stone
counter total = 0
action pick
  choose number n in 1..top
  choose site s in sites where empty(s)
  increase total by n
  put stone of mover at s
turn
  do pick
end
  when total >= 6
    winner mover
"""


def test_numbers_of_a_range_with_constant_ends(tmp_path: Path) -> None:
    path = tmp_path / "pick.rule"
    path.write_text(RANGE_GAME)
    game = rulelang.load_game(path, {"top": 4})
    assert game.num_distinct_actions() == 4 * 4
    assert space_of(game).describe(5) == "pick 2 b1"
    _play_checked(game, 1, 10)


def test_numbers_of_no_known_range_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "pick.rule"
    path.write_text(RANGE_GAME.replace("1..top", "1..(total + 2)"))
    game = rulelang.load_game(path)
    with pytest.raises(rulelang.RulebookError) as info:
        game.num_distinct_actions()
    assert "pick.rule:11:3: error[R270]: the values of 'n' cannot be numbered: numbers, " \
           "and not of a range with constant ends" in info.value.render()


def test_the_documented_example_runs() -> None:
    """docs/action_space.md's example, as a doctest."""
    import doctest
    text = (Path(__file__).resolve().parents[2] / "docs" / "action_space.md").read_text()
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    test = doctest.DocTestParser().get_doctest(example, {}, "action_space.md", None, 0)
    runner = doctest.DocTestRunner()
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 5
