"""Boards: sites and named relations, collected as edge lists and frozen into tables (site
index -> tuple[Any, ...] of sites) that the hot path reads. `Board.graphs` gives each relation
as a networkx DiGraph for graph algorithms (drawing, matching); networkx is imported only
when that is asked for, so loading a game does not pay for it."""
from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelang.model.values import LineSet, Relation, Site, SiteSet

if TYPE_CHECKING:
    import networkx as nx

Coords = tuple[int, ...]


@dataclass
class Board:
    sites: tuple[Site, ...]
    by_coords: dict[Coords, Site]
    relations: dict[str, Relation] = field(default_factory=dict)
    regions: dict[str, tuple[Site, ...]] = field(default_factory=dict)
    lines: dict[str, LineSet] = field(default_factory=dict)
    layers: dict[int, str] = field(default_factory=dict)  # titles, by first coordinate
    layer_at: dict[int, tuple[int, int]] = field(default_factory=dict)  # (row, col) of grids
    # where each site is drawn in its grid (`draw at`): (row from the top, column in half sites)
    draw_at: dict[tuple[int, ...], tuple[int, int]] = field(default_factory=dict)

    def member(self, name: str) -> object | None:
        for table in (self.relations, self.regions, self.lines):
            if name in table:
                return table[name]
        return None

    @functools.cached_property
    def graphs(self) -> dict[str, nx.DiGraph]:
        """Each relation as a directed graph over site coordinates."""
        import networkx as nx
        graphs = {}
        for name, relation in self.relations.items():
            g = nx.DiGraph()
            g.add_nodes_from(s.coords for s in self.sites)
            g.add_edges_from((s.coords, t.coords) for s in self.sites
                             for t in relation.table[s.index])
            graphs[name] = g
        return graphs


class BoardBuilder:
    """Collects sites, relation edges, regions and lines, then freezes them."""

    def __init__(self) -> None:
        self.coords: list[Coords] = []
        self.names: list[str] = []
        self.edges: dict[str, dict[Coords, dict[Coords, None]]] = {}  # ordered sets
        self.regions: dict[str, list[Coords]] = {}
        self.lines: dict[str, list[list[Coords]]] = {}
        self.layers: dict[int, str] = {}
        self.layer_at: dict[int, tuple[int, int]] = {}
        self.draw_at: dict[tuple[int, ...], tuple[int, int]] = {}

    def add_site(self, coords: Coords, name: str) -> None:
        self.coords.append(coords)
        self.names.append(name)

    def add_relation(self, name: str, edges: Callable[[Coords], Iterable[Coords]]) -> None:
        known = set(self.coords)
        self.edges[name] = {c: dict.fromkeys(t for t in edges(c) if t in known and t != c)
                            for c in self.coords}

    def add_alias(self, name: str, parts: Iterable[tuple[bool, str]]) -> None:
        union: dict[Coords, dict[Coords, None]] = {c: {} for c in self.coords}
        for reverse, part in parts:
            for c, targets in self.edges[part].items():
                for t in targets:
                    if reverse:
                        union[t][c] = None
                    else:
                        union[c][t] = None
        self.edges[name] = union

    def freeze(self) -> Board:
        sites = tuple(Site(i, n, c) for i, (c, n) in enumerate(zip(self.coords, self.names,
                                                                    strict=True)))
        by_coords = {s.coords: s for s in sites}
        board = Board(sites, by_coords, layers=self.layers, layer_at=self.layer_at,
                      draw_at=self.draw_at)
        order = {c: i for i, c in enumerate(self.coords)}
        for name, edges in self.edges.items():
            # sites made after the relation (a later `sites` line) have no edges in it
            table = tuple(tuple(by_coords[t] for t in sorted(edges.get(c, ()),
                                                             key=order.__getitem__))
                          for c in self.coords)
            board.relations[name] = Relation(name, table)
        for name, members in self.regions.items():
            board.regions[name] = SiteSet(tuple(by_coords[c] for c in members))
        for name, lines in self.lines.items():
            board.lines[name] = _line_set(name, [tuple(by_coords[c] for c in ln) for ln in lines],
                                          sites)
        return board


def _line_set(name: str, lines: list[tuple[Site, ...]], sites: tuple[Site, ...]) -> LineSet:
    through: list[list[tuple[Site, ...]]] = [[] for _ in sites]
    for line in lines:
        for s in line:
            through[s.index].append(line)
    return LineSet(name, tuple(lines), tuple(tuple(t) for t in through))
