"""Boards: sites and named relations, built once per game with networkx, then frozen into
tables (site index -> tuple[Any, ...] of sites) that the hot path reads."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import networkx as nx

from rulelang.model.values import LineSet, Relation, Site, SiteSet


@dataclass
class Board:
    sites: tuple[Site, ...]
    by_coords: dict[tuple[int, ...], Site]
    relations: dict[str, Relation] = field(default_factory=dict)
    regions: dict[str, tuple[Site, ...]] = field(default_factory=dict)
    lines: dict[str, LineSet] = field(default_factory=dict)
    graphs: dict[str, nx.DiGraph] = field(default_factory=dict, repr=False)
    layers: dict[int, str] = field(default_factory=dict)  # titles, by first coordinate
    layer_at: dict[int, tuple[int, int]] = field(default_factory=dict)  # (row, col) of grids
    # where each site is drawn in its grid (`draw at`): (row from the top, column in half sites)
    draw_at: dict[tuple[int, ...], tuple[int, int]] = field(default_factory=dict)

    def member(self, name: str) -> object | None:
        for table in (self.relations, self.regions, self.lines):
            if name in table:
                return table[name]
        return None


class BoardBuilder:
    """Collects sites, relation edges, regions and lines, then freezes them."""

    def __init__(self) -> None:
        self.coords: list[tuple[int, ...]] = []
        self.names: list[str] = []
        self.graphs: dict[str, nx.DiGraph] = {}
        self.regions: dict[str, list[tuple[int, ...]]] = {}
        self.lines: dict[str, list[list[tuple[int, ...]]]] = {}
        self.layers: dict[int, str] = {}
        self.layer_at: dict[int, tuple[int, int]] = {}
        self.draw_at: dict[tuple[int, ...], tuple[int, int]] = {}

    def add_site(self, coords: tuple[int, ...], name: str) -> None:
        self.coords.append(coords)
        self.names.append(name)

    def add_relation(self, name: str,
                     edges: Callable[[tuple[int, ...]], Iterable[tuple[int, ...]]]) -> None:
        known = set(self.coords)
        g = nx.DiGraph()
        g.add_nodes_from(self.coords)
        for c in self.coords:
            g.add_edges_from((c, t) for t in edges(c) if t in known and t != c)
        self.graphs[name] = g

    def add_alias(self, name: str, parts: Iterable[tuple[bool, str]]) -> None:
        g = nx.DiGraph()
        g.add_nodes_from(self.coords)
        for reverse, part in parts:
            src = self.graphs[part]
            g.add_edges_from(src.reverse(copy=False).edges if reverse else src.edges)
        self.graphs[name] = g

    def freeze(self) -> Board:
        sites = tuple(Site(i, n, c) for i, (c, n) in enumerate(zip(self.coords, self.names,
                                                                    strict=True)))
        by_coords = {s.coords: s for s in sites}
        board = Board(sites, by_coords, graphs=self.graphs, layers=self.layers,
                      layer_at=self.layer_at, draw_at=self.draw_at)
        order = {c: i for i, c in enumerate(self.coords)}
        for name, g in self.graphs.items():
            table = tuple(tuple(by_coords[t] for t in sorted(g.successors(c),
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
