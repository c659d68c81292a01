"""Kept groups (rulelang/fast/groups.py): `group(s, rel)` answered in the compiled mode from
components kept per state while the analysis proves that pieces only arrive on the board.
Every answer must be the search's (library/builtins.py: group), on the state, on its copies
and clones, and the kept path must be taken only where the analysis allows it."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from scenario_tools import load_text

import rulelang
from rulelang.fast.groups import _FOUND, GENERAL, found_group, kept_entries
from rulelang.language.analysis import pieces_only_arrive
from rulelang.library.builtins import group as search
from rulelang.library.semantics import Ctx
from rulelang.model.values import Relation

# Stones only arrive (two grey stones of nobody's in the setup); every turn records every
# site's group and the number of the mover's groups, and the end asks connection.joins.
ARRIVE = """
use hexgrid
use connection

game "Arrive"
players A, B
board hexgrid.rhombus(4, 4)
piece stone
zone supply each player: 16 stone
zone grey: 2 stone
var groups_now = none
var count_now = 0

setup
  put stone from grey at first s in sites where s.r == 1 and s.c == 1
  put stone from grey at first s in sites where s.r == 2 and s.c == 2

action place
  choose site s in sites where empty(s)
  put stone of mover at s

turn
  do place
  set groups_now = [group(s, hexgrid.neighbours) for s in sites]
  set count_now = size(connection.groups(mover, hexgrid.neighbours))

end
  when connection.joins(last.site, hexgrid.neighbours, hexgrid.north_edge, hexgrid.south_edge)
    winner mover
"""

# The same, but a mover may instead take an opponent's stone off the board: groups split.
TAKE = ARRIVE.replace("""  put stone of mover at s

turn
  do place
""", """  put stone of mover at s

action take
  choose site s in sites where owner(s) == opponent
  remove top(s)

turn
  do place or take
""").replace('"Arrive"', '"Take"').replace("16 stone", "40 stone").replace("""end
  when connection""", """end
  when turn > 40
    draw
  when connection""")

# Stones only arrive, but may cover another (stacks): the analysis allows the kept path, and
# the kept groups must see for themselves that a covered stone leaves its group.
COVER = ARRIVE.replace("choose site s in sites where empty(s)", "choose site s in sites") \
    .replace('"Arrive"', '"Cover"').replace("16 stone", "40 stone").replace("""end
  when connection""", """end
  when turn > 40
    draw
  when connection""")


# A second choice among the group of the stone just put: the menu tries the put on scratch
# copies of the state and asks for the group there.
MENU = ARRIVE.replace("""  put stone of mover at s
""", """  put stone of mover at s
  choose site t in group(s, hexgrid.neighbours)
  set picked = t
""").replace("var count_now = 0", "var count_now = 0\nvar picked = none").replace(
    '"Arrive"', '"Menu"')


def searched(state: Any) -> list[tuple[str, ...]]:
    """Every site's group on this state, by the builtin's search."""
    rt, data = state.game.runtime, state.ctx.data
    rel = rt.board.relations["neighbours"]
    c = Ctx(rt, data)
    return [tuple(t.name for t in search(c, s, rel)) for s in rt.board.sites]


def recorded(state: Any) -> Any:
    value = state.ctx.data.vars[("groups_now", None)]
    if value is None:
        return None
    return [tuple(t.name for t in g) for g in value]


def playout_agrees(folder: Path, text: str, seed: int) -> tuple[Any, Any]:
    """A random game played in both modes: the same menus and, after every move, the same
    groups of every site (and the search's on the compiled state)."""
    fast = load_text(folder, text, "closures", name="fast.rule")
    ref = load_text(folder, text, "interpreted", name="ref.rule")
    a, b = fast.new_initial_state(seed), ref.new_initial_state(seed)
    rng = random.Random(seed)
    while not a.is_terminal():
        names = [a.action_to_string(x) for x in a.legal_actions()]
        assert names == [b.action_to_string(x) for x in b.legal_actions()]
        pick = rng.choice(names)
        a.apply_action(pick)
        b.apply_action(pick)
        assert recorded(a) == recorded(b) == searched(a)
        assert a.ctx.data.vars[("count_now", None)] == b.ctx.data.vars[("count_now", None)]
    assert b.is_terminal() and a.returns() == b.returns()
    return fast, a


@pytest.mark.parametrize(("name", "arrive"), [("hex", True), ("sponnect", True),
                                              ("spargo", False)])
def test_the_analysis_of_bundled_games(name: str, arrive: bool) -> None:
    """Spargo captures through an effect of the stdlib, reached from its action."""
    assert pieces_only_arrive(rulelang.load_game(name).runtime.program) is arrive


def test_the_analysis_tells_arriving_pieces_from_leaving_ones(tmp_path: Path) -> None:
    assert pieces_only_arrive(load_text(tmp_path, ARRIVE).runtime.program)
    assert pieces_only_arrive(load_text(tmp_path, COVER).runtime.program)
    assert not pieces_only_arrive(load_text(tmp_path, TAKE).runtime.program)


def test_hex_takes_the_kept_path() -> None:
    game = rulelang.load_game("hex", {"size": 5}, mode="closures")
    state, rng = game.new_initial_state(3), random.Random(3)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    entries = kept_entries(state.ctx.data)
    assert [r.name for r in entries] == ["neighbours"]
    (entry,) = entries.values()
    assert entry is not GENERAL and entry[0] == len(state.ctx.data.changes)
    # the interpreter keeps nothing
    ref = rulelang.load_game("hex", {"size": 5}, mode="interpreted").new_initial_state(3)
    ref.apply_action(state.history()[0])
    assert kept_entries(ref.ctx.data) == {}


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_agree_on_every_group(tmp_path: Path, seed: int) -> None:
    fast, final = playout_agrees(tmp_path, ARRIVE, seed)
    entry = kept_entries(final.ctx.data)
    assert len(entry) == 1 and next(iter(entry.values())) is not GENERAL


@pytest.mark.parametrize("seed", range(3))
def test_menus_ask_for_groups_on_scratch_copies(tmp_path: Path, seed: int) -> None:
    fast, final = playout_agrees(tmp_path, MENU, seed)
    assert any(len(h.split()) == 3 and h.split()[1] != h.split()[2] for h in final.history())
    assert kept_entries(final.ctx.data)


@pytest.mark.parametrize("seed", range(4))
def test_not_taken_where_stones_leave_and_groups_split(tmp_path: Path, seed: int) -> None:
    fast, final = playout_agrees(tmp_path, TAKE, seed)
    assert kept_entries(final.ctx.data) == {}
    assert any(h.startswith("take") for h in final.history())


@pytest.mark.parametrize("seed", range(4))
def test_a_covered_stone_sends_the_state_to_the_search(tmp_path: Path, seed: int) -> None:
    fast, final = playout_agrees(tmp_path, COVER, seed)
    covered = any(len(stack) > 1 for stack in final.ctx.data.at)
    assert covered  # 40 turns on 16 sites
    assert list(kept_entries(final.ctx.data).values()) == [GENERAL]


def test_a_clone_and_its_parent_diverge_and_both_stay_right(tmp_path: Path) -> None:
    game = load_text(tmp_path, ARRIVE, "closures")  # (the closures' kept entries)
    rng = random.Random(7)
    parent = game.new_initial_state(7)
    for _ in range(4):
        parent.apply_action(rng.choice(parent.legal_actions()))
    states = [parent, parent.clone(), parent.clone()]
    shared = kept_entries(parent.ctx.data)
    assert shared == kept_entries(states[1].ctx.data)  # the copy shares the parent's entry
    for _ in range(6):  # each goes its own way, in turns
        for st in states:
            if not st.is_terminal():
                st.apply_action(rng.choice(st.legal_actions()))
                assert recorded(st) == searched(st)
    for st in states:
        assert recorded(st) == searched(st)
    assert len({tuple(st.history()) for st in states}) == 3


def test_a_copy_taken_between_changes_is_not_changed_by_its_parent(tmp_path: Path) -> None:
    """GameData.copy() between an update and the next: the parent then updates a copy of
    the lists, and the copy's own answers stay those of its own board."""
    game = load_text(tmp_path, ARRIVE, "closures")  # (the closures' kept entries)
    rng = random.Random(11)
    st = game.new_initial_state(11)
    for _ in range(3):
        st.apply_action(rng.choice(st.legal_actions()))
    child = st.clone()
    before = searched(child)
    (entry,) = kept_entries(child.ctx.data).values()
    labels = list(entry[1])
    for _ in range(5):
        st.apply_action(rng.choice(st.legal_actions()))
        assert recorded(st) == searched(st)
    assert entry[1] == labels and searched(child) == before == recorded(child)
    child.apply_action(rng.choice(child.legal_actions()))
    assert recorded(child) == searched(child)


# ---- where pieces may leave: each group found once per position (groups.found_group) ----

def found_entries(data: Any) -> dict[Relation, Any]:
    return {k[1]: v for k, v in data.cache.items() if type(k) is tuple and k[:1] == (_FOUND,)}


def counting(log: list[Any]) -> Any:
    def search_once(c: Any, x: Any, rel: Any) -> Any:
        log.append(x)
        return search(c, x, rel)
    return search_once


@pytest.mark.parametrize("seed", range(3))
def test_where_stones_leave_each_group_is_found_once_per_position(tmp_path: Path,
                                                                   seed: int) -> None:
    """In the Take game (playout_agrees above: both modes, every site's group after every
    move) the compiled state keeps the groups it found; asked for every site of a position,
    found_group searches once per group and empty site, answers as the search, and asked
    again at the same position searches nothing."""
    fast, final = playout_agrees(tmp_path, TAKE, seed)
    assert found_entries(final.ctx.data)
    rel, sites = fast.runtime.board.relations["neighbours"], fast.runtime.board.sites
    state, rng, spared = fast.new_initial_state(seed), random.Random(seed), 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        data, log = state.ctx.data.copy(), []
        data.cache.clear()
        group, c = found_group(counting(log)), Ctx(fast.runtime, data)
        answers = [group(c, s, rel) for s in sites]
        assert [tuple(t.name for t in g) for g in answers] == searched(state)
        groups = {g for g in answers if g}
        assert len(log) == len(groups) + sum(1 for g in answers if not g)
        spared += sum(1 for g in answers if g) - len(groups)
        again = len(log)
        assert [group(c, s, rel) for s in sites] == answers and len(log) == again
    assert spared > 0  # (groups of two sites or more were met)


def test_a_found_group_is_not_kept_past_a_change(tmp_path: Path) -> None:
    """The version, not the position's look, tells a group found: after a stone is taken
    its old group is searched again (a kept one would still hold the taken site)."""
    game = load_text(tmp_path, TAKE, "closures")
    rng = random.Random(5)
    state = game.new_initial_state(5)
    while not any(a.startswith("take") for a in map(state.action_to_string,
                                                     state.legal_actions())):
        state.apply_action(rng.choice(state.legal_actions()))
    take = next(a for a in map(state.action_to_string, state.legal_actions())
                if a.startswith("take"))
    state.apply_action(take)
    assert recorded(state) == searched(state)


def test_a_relation_that_is_not_symmetric_is_searched_every_time(tmp_path: Path) -> None:
    """Groups over a one-way relation are not components: each site is searched."""
    game = load_text(tmp_path, TAKE, "closures")
    state, rng = game.new_initial_state(2), random.Random(2)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    sites = game.runtime.board.sites
    full = game.runtime.board.relations["neighbours"].table
    one_way = Relation("one_way", tuple(tuple(t for t in row if t.index > s.index)
                                        for s, row in zip(sites, full, strict=True)))
    log: list[Any] = []
    group = found_group(counting(log))
    c = Ctx(game.runtime, state.ctx.data)
    answers = [group(c, s, one_way) for s in sites]
    assert len(log) == len(sites)
    assert answers == [search(c, s, one_way) for s in sites]
    assert any(len(g) > 1 for g in answers)


def test_clones_of_a_take_game_diverge_and_all_stay_right(tmp_path: Path) -> None:
    """A clone has its parent's version and shares the groups it found; each then changes
    (its own new versions) and answers for its own board."""
    game = load_text(tmp_path, TAKE, "closures")
    rng = random.Random(9)
    parent = game.new_initial_state(9)
    for _ in range(8):
        parent.apply_action(rng.choice(parent.legal_actions()))
    states = [parent, parent.clone(), parent.clone()]
    assert found_entries(states[1].ctx.data) == found_entries(parent.ctx.data) != {}
    for _ in range(8):
        for st in states:
            if not st.is_terminal():
                st.apply_action(rng.choice(st.legal_actions()))
                assert recorded(st) == searched(st)
    assert len({tuple(st.history()) for st in states}) == 3
