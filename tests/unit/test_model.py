"""The generic model: the seeded generator, boards built from geometries, piece moves."""
from __future__ import annotations

from pathlib import Path

import rulelang
from rulelang.model.rng import Rng

RULES = Path(__file__).parent / "rules"


def test_rng_is_deterministic_and_copies_independently() -> None:
    a, b = Rng(7), Rng(7)
    assert [a.randrange(100) for _ in range(50)] == [b.randrange(100) for _ in range(50)]
    c = a.copy()
    assert [a.randrange(10**9) for _ in range(5)] == [c.randrange(10**9) for _ in range(5)]
    assert Rng(1).randrange(1000) != Rng(2).randrange(1000) or \
        Rng(1).randrange(10**9) != Rng(2).randrange(10**9)


def test_rng_covers_its_range_and_shuffles_every_item() -> None:
    r = Rng(3)
    seen = {r.randrange(6) for _ in range(300)}
    assert seen == set(range(6))
    items = list(range(20))
    r.shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


def test_rng_shuffle_is_fisher_yates_on_its_own_numbers() -> None:
    """The shuffle swaps item i with item randrange(i + 1), from the last: the same order
    and the same state after as those calls make (games shuffled in any version agree)."""
    for seed in range(40):
        for size in (0, 1, 2, 7, 80):
            mine, theirs = Rng(seed * 7919), Rng(seed * 7919)
            items, expected = list(range(size)), list(range(size))
            mine.shuffle(items)
            for i in range(size - 1, 0, -1):
                j = theirs.randrange(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected and mine.state == theirs.state, (seed, size)


def test_board_relations_aliases_and_regions() -> None:
    board = rulelang.load_game(RULES / "line.rule").runtime.board
    names = [s.name for s in board.sites]
    assert names == [f"s{i}" for i in range(7)]
    beside = board.relations["beside"]
    assert [t.name for t in beside.table[0]] == ["s1"]
    assert [t.name for t in beside.table[3]] == ["s2", "s4"]
    assert beside.indices[3] == (2, 4)


def test_put_stack_lift_and_zone_order() -> None:
    game = rulelang.load_game(RULES / "line.rule", mode="interpreted")  # (GameData's own)
    state = game.new_initial_state(0)
    data = state.ctx.data
    supply = next(z for z in data.zones if z.owner == 0)
    first_top = data.zones[supply][-1]
    state.apply_action("place s0")
    assert data.at[0] == (first_top,) and data.loc[first_top.id] is game.runtime.board.sites[0]
    assert data.zones[supply][-1] is not first_top
    assert data.changes == [0]


def test_zones_are_interned_through_copies_and_pickles() -> None:
    """A zone equals only itself (it hashes by identity): each (name, owner) is made once,
    and a copy or a pickle of it comes back as that one object, so a state's zones are found
    by a zone from anywhere (a worker's pickled record, a deep copy)."""
    import copy
    import pickle

    from rulelang.model.values import zone_ref
    hand = zone_ref("hand", 1)
    assert zone_ref("hand", 1) is hand and zone_ref("hand", 0) is not hand
    assert zone_ref("hand", None) is not hand
    assert pickle.loads(pickle.dumps(hand)) is hand
    assert copy.deepcopy({hand: [1]}) == {hand: [1]} and copy.copy(hand) is hand
    assert repr(hand) == "hand of player 1" and repr(zone_ref("deck", None)) == "deck"
