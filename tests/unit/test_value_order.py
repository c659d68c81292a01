"""How the rules order sites, players and pieces (model/values.py: less, order, Ordered): by
board order, seat and id, lists and tuples item by item, never a site with a value of another
kind. The classes define no comparison method of their own, so that `==` and `in` on them stay
Python's identity test in C (the rules' `<`, sorted, best, max and min go through less where
Python's `<` cannot order them: tests/conformance/cases 02, 08 and 12 run those in every mode)."""
from __future__ import annotations

import pytest

from rulelang.model.values import Ordered, Piece, Player, Site, less, order

A, B = Player(0, "A"), Player(1, "B")
S0, S1, S2 = Site(0, "a1", (0, 0)), Site(1, "b1", (1, 0)), Site(2, "c1", (2, 0))
P3, P7 = Piece(3, "stone"), Piece(7, "stone")


def test_sites_players_and_pieces_have_no_comparison_of_their_own() -> None:
    for cls in (Site, Player, Piece):
        written = {"__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"} & set(vars(cls))
        assert not written, (cls.__name__, written)
        assert cls.__eq__ is object.__eq__
    assert S1 in (S0, S1) and S2 not in (S0, S1) and S0 == S0 and S0 != S1


def test_each_kind_is_ordered_by_its_number() -> None:
    assert less(S0, S2) and not less(S2, S0) and not less(S1, S1)
    assert less(A, B) and not less(B, A)
    assert less(P3, P7) and not less(P7, P3)
    assert less(1, 2) and less("a", "b") and not less(2, 1)


def test_lists_and_tuples_are_ordered_item_by_item() -> None:
    assert less((1, S0), (1, S1)) and not less((1, S1), (1, S0))
    assert less((S0,), (S0, S1)) and not less((S0, S1), (S0,))
    assert less([A, 2], [A, 3]) and not less([B], [A, 9])
    assert not less((S0, S1), (S0, S1))


def test_values_of_different_kinds_cannot_be_ordered() -> None:
    for a, b in ((S0, 1), (1, S0), (S0, A), (A, P3), ((1, S0), (1, A)), ([S0], (S0,))):
        with pytest.raises(TypeError):
            less(a, b)


@pytest.mark.parametrize(("op", "want"), [("<", [True, False, False]), ("<=", [True, True, False]),
                                          (">", [False, False, True]),
                                          (">=", [False, True, True])])
def test_order_gives_each_operator(op: str, want: list[bool]) -> None:
    assert [order(S1, op, x) for x in (S2, S1, S0)] == want


def test_ordered_keys_sort_and_rank_as_the_rules_do() -> None:
    assert sorted([S2, S0, S1], key=Ordered) == [S0, S1, S2]
    assert sorted([(2, B), (1, B), (2, A)], key=Ordered) == [(1, B), (2, A), (2, B)]
    assert max([S1, S2, S0], key=Ordered) is S2 and min([B, A], key=Ordered) is A
    # equal keys keep their order (a stable sort), as `sorted` promises
    first, second = [S0, 1], [S0, 1]
    ranked = sorted([[S1, 0], first, second], key=Ordered)
    assert ranked[0] is first and ranked[1] is second and ranked[2] == [S1, 0]
