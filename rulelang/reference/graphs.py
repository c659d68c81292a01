"""The reference meaning of connectivity, stated with networkx over the board's relation
graphs: `group` is the set of sites reachable from a start in the subgraph of its owner's
pieces (with a `link` rule, of the steps it allows), `reach` the sites whose cheapest path
lies within a budget. The library's searches (rulelang/library/builtins.py) and the
generated code's union-find and bitsets are proven equal to these by the side-by-side
runs of the modes. networkx is imported on the first use, so loading a game never pays."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.errors import RulelangError
from rulelang.library.builtins import entry_cost
from rulelang.library.semantics import charge_items
from rulelang.model.values import Relation, Site, show

if TYPE_CHECKING:
    import networkx as nx

_GRAPHS: dict[int, tuple[Relation, nx.DiGraph]] = {}  # id(relation) -> its graph over indices


def graph(rel: Relation) -> nx.DiGraph:
    """The relation as a directed graph over site indices (made once per relation)."""
    known = _GRAPHS.get(id(rel))
    if known is not None and known[0] is rel:
        return known[1]
    import networkx as nx
    g = nx.DiGraph()
    g.add_nodes_from(range(len(rel.indices)))
    g.add_edges_from((i, j) for i, row in enumerate(rel.indices) for j in row)
    _GRAPHS[id(rel)] = (rel, g)
    return g


def group(c: Any, s: Site | Any, rel: Relation, link: Any = None) -> tuple[Site, ...]:
    """The sites reachable from s (or from any site of a collection) through rel, stepping
    only onto sites whose top piece has the start's owner, and only where link(a, b) holds."""
    import networkx as nx
    at, owners, sites = c.data.at, c.data.owner, c.game.board.sites
    starts = (s,) if isinstance(s, Site) else tuple(s)
    if not isinstance(s, Site):
        charge_items(c, starts)
    by_owner: dict[Any, list[int]] = {}
    for x in starts:
        if not isinstance(x, Site):
            raise RulelangError(f"group: {show(x)} is not a site")
        stack = at[x.index]
        if stack:
            by_owner.setdefault(owners[stack[-1].id], []).append(x.index)
    found: set[int] = set()
    for who, first in by_owner.items():
        def owned(i: int, who: Any = who) -> bool:
            stack = at[i]
            return bool(stack) and owners[stack[-1].id] == who
        step = None if link is None else (lambda a, b: bool(link(sites[a], sites[b])))
        view = nx.subgraph_view(graph(rel), filter_node=owned,
                                **({} if step is None else {"filter_edge": step}))
        for i in first:
            found |= {i} | nx.descendants(view, i)
    return tuple([sites[i] for i in sorted(found)])


def reach(c: Any, start: Site, rel: Relation, budget: int, cost: Any,
          stop: Any = None) -> tuple[Site, ...]:
    """The sites other than start whose cheapest path along rel costs at most budget, where
    entering a site costs cost(site) (none: it cannot be entered); with stop, only the sites
    where stop(site) holds."""
    import networkx as nx
    sites = c.game.board.sites
    asked: dict[int, Any] = {}  # entering each site costs, asked once

    def entering(_u: int, v: int, _d: Any) -> Any:
        if v not in asked:
            asked[v] = entry_cost(sites[v], cost(sites[v]))
        return asked[v]

    lengths = nx.single_source_dijkstra_path_length(graph(rel), start.board_index,
                                                     cutoff=budget, weight=entering)
    ends = [sites[i] for i in sorted(lengths) if i != start.board_index]
    return tuple([x for x in ends if stop is None or stop(x)])


MEANINGS = {"group": group, "reach": reach}
