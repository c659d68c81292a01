"""The library's reach (Dial's buckets for whole costs within a whole budget, else
Dijkstra's heap) against the reference's meaning (networkx's cheapest paths) on random
relations: the same sites, each cost asked once and of the same sites."""
from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rulelang.library import builtins
from rulelang.model.values import Relation, Site
from rulelang.reference import graphs

COSTS = st.sampled_from([None, 0, 1, 1, 2, 2, 3, 1.5])  # (none: it cannot be entered)
BUDGETS = st.sampled_from([-1, 0, 1, 2, 3, 5, 8, 2.5, 100])


@st.composite
def boards(draw: Any) -> tuple[tuple[Site, ...], Relation, list[Any]]:
    n = draw(st.integers(2, 12))
    sites = tuple(Site(i, f"s{i}", (i,)) for i in range(n))
    rows = [draw(st.lists(st.integers(0, n - 1), max_size=4, unique=True)) for _ in range(n)]
    rel = Relation("step", tuple(tuple(sites[j] for j in row if j != i)
                                 for i, row in enumerate(rows)))
    return sites, rel, [draw(COSTS) for _ in range(n)]


@settings(max_examples=300, deadline=None)
@given(boards(), BUDGETS, st.integers(0, 11), st.booleans())
def test_reach_is_the_cheapest_paths_within_the_budget(
        board: tuple[tuple[Site, ...], Relation, list[Any]], budget: Any, first: int,
        stops: bool) -> None:
    sites, rel, costs = board
    start = sites[first % len(sites)]
    context = SimpleNamespace(game=SimpleNamespace(board=SimpleNamespace(sites=sites)))
    found = []
    for search in (builtins.reach, graphs.reach):
        asked: list[int] = []

        def cost(s: Site, asked: list[int] = asked) -> Any:
            asked.append(s.index)
            return costs[s.index]
        stop = (lambda s: s.index % 2 == 0) if stops else None
        found.append((search(context, start, rel, budget, cost, stop), sorted(asked)))
    (library, asked), (reference, reference_asked) = found
    assert library == reference
    assert asked == reference_asked and len(set(asked)) == len(asked)


def test_whole_costs_go_by_buckets_and_others_by_the_heap(monkeypatch: Any) -> None:
    sites = tuple(Site(i, f"s{i}", (i,)) for i in range(4))
    rel = Relation("step", ((sites[1],), (sites[2],), (sites[3],), ()))
    context = SimpleNamespace(game=SimpleNamespace(board=SimpleNamespace(sites=sites)))
    used = []
    for name in ("_by_buckets", "_by_heap"):
        real = getattr(builtins, name)
        monkeypatch.setattr(builtins, name,
                            lambda *a, real=real, name=name: used.append(name) or real(*a))
    assert builtins.reach(context, sites[0], rel, 3, lambda s: 1) == sites[1:]
    assert used == ["_by_buckets"]
    # a cost that is not a whole number: the heap takes over, nothing asked twice
    asked: list[int] = []
    costs = {1: 1, 2: 0.5, 3: 1}
    assert builtins.reach(context, sites[0], rel, 2, lambda s: asked.append(s.index)
                          or costs[s.index]) == sites[1:3]
    assert used == ["_by_buckets", "_by_buckets", "_by_heap"] and asked == [1, 2, 3]


@settings(max_examples=300, deadline=None)
@given(boards(), BUDGETS, st.integers(0, 11), st.lists(st.booleans(), min_size=12,
                                                        max_size=12))
def test_costs_kept_from_an_earlier_search_give_the_same_sites(
        board: tuple[tuple[Site, ...], Relation, list[Any]], budget: Any, first: int,
        known: list[bool]) -> None:
    """A rule's values kept by the caller (`by_site`: some asked by an earlier search,
    whole or not, true among them) are read, not asked again; the others are asked once."""
    sites, rel, costs = board
    costs = [True if c == 1 and k else c for c, k in zip(costs, known, strict=False)]
    start = sites[first % len(sites)]
    context = SimpleNamespace(game=SimpleNamespace(board=SimpleNamespace(sites=sites)))
    kept = [c if k else builtins.UNASKED for c, k in zip(costs, known, strict=False)]
    asked: list[int] = []
    rule = SimpleNamespace(by_site=kept, rule=lambda s: asked.append(s.index) or costs[s.index])
    found = builtins.reach(context, start, rel, budget, rule)
    assert found == graphs.reach(context, start, rel, budget, lambda s: costs[s.index])
    assert len(set(asked)) == len(asked) and not any(known[i] for i in asked)
