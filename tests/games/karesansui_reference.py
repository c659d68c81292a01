"""An independent scorer for Karesansui gardens, written straight from the rules text (spec
section 8, seed ⑧ ⑨ aside from virtue) in plain Python over the tile catalogue: the scoring
tests compare the rulebook with it on random gardens."""
from __future__ import annotations

from itertools import combinations
from typing import Any

import networkx as nx

Tile = dict[str, Any]  # a row of karesansui_tiles.yaml
Grid = list[list[Any]]  # 3 rows of 5 cells, None for nothing


def score(tiles: Grid, stones: Grid, card: dict[str, Any] | None) -> dict[str, int]:
    return {"sand": sand(tiles), "moss": 2 * sum(1 for t in _cells(tiles) if t["moss"]),
            "symmetry": 5 * sum(1 for row in tiles if _symmetric(row)),
            "vortices": vortices(tiles), "ripples": ripples(tiles),
            "stone_kinds": 2 * len({s for s in _cells(stones)}),
            "arrangements": pairs(stones) + bonuses(tiles, stones),
            "famous": famous(stones, card)}


def _cells(grid: Grid) -> list[Any]:
    return [x for row in grid for x in row if x is not None]


def sand(tiles: Grid) -> int:
    best = 0
    for r1 in range(3):
        for r2 in range(r1, 3):
            for c1 in range(5):
                for c2 in range(c1, 5):
                    cells = [tiles[r][c] for r in range(r1, r2 + 1) for c in range(c1, c2 + 1)]
                    if all(t is not None and not t["moss"] for t in cells):
                        best = max(best, len(cells))
    return best


def _symmetric(row: list[Tile | None]) -> bool:
    if any(t is None for t in row):
        return False
    return all(row[c]["mirror"] == row[4 - c]["look"] for c in (0, 1)) and row[2]["symmetric"]


def vortices(tiles: Grid) -> int:
    v = [[t["vortex"] if t else None for t in row] for row in tiles]
    total = sum(1 for x in _cells(v) if x == "one")
    for r in range(3):
        for c in range(4):
            if (v[r][c], v[r][c + 1]) in (("HL", "HR"), ("VL", "VR")):
                total += 2
            if r < 2 and (v[r][c], v[r][c + 1], v[r + 1][c], v[r + 1][c + 1]) == \
                    ("QA", "QB", "QC", "QD"):
                total += 8
    return total


def ripples(tiles: Grid) -> int:
    broken = 0
    for r in range(3):
        for c in range(5):
            t = tiles[r][c]
            if t is None:
                continue
            if c < 4 and tiles[r][c + 1] is not None and t["e"] != tiles[r][c + 1]["w"]:
                broken += 1
            if r < 2 and tiles[r + 1][c] is not None and t["s"] != tiles[r + 1][c]["n"]:
                broken += 1
    if broken:
        return -2 * broken
    return 7 if _cells(tiles) else 0


def pairs(stones: Grid) -> int:
    at = [(r, c) for r in range(3) for c in range(5) if stones[r][c] is not None]
    g = nx.Graph()
    for (r1, c1), (r2, c2) in combinations(at, 2):
        dr, dc = abs(r1 - r2), abs(c1 - c2)
        points = 5 if {dr, dc} == {1, 2} else 7 if dr == dc == 2 else 0
        inside = [(r, c) for r, c in at if min(r1, r2) <= r <= max(r1, r2)
                  and min(c1, c2) <= c <= max(c1, c2)]
        if points and len(inside) == 2:
            g.add_edge((r1, c1), (r2, c2), weight=points)
    return sum(g[a][b]["weight"] for a, b in nx.max_weight_matching(g))


def bonuses(tiles: Grid, stones: Grid) -> int:
    top = [stones[0][c] if tiles[0][c] is not None and tiles[0][c]["moss"] else None
           for c in range(5)]
    horai = any(top[c] == top[c + 1] == "T" for c in range(4))
    sanzon = any(top[c:c + 3] == ["s", "T", "s"] for c in range(3))
    fuseishi = sum(1 for r in range(3) if stones[r][2] == "F")
    funaishi = "B" in stones[2]
    return 10 * horai + 15 * sanzon + 3 * fuseishi + 3 * funaishi


def famous(stones: Grid, card: dict[str, Any] | None) -> int:
    if card is None:
        return 0
    for r, row in enumerate(card["grid"]):
        for c, mark in enumerate(row):
            if mark == "*" and stones[r][c] is None:
                return 0
            if mark not in "*." and stones[r][c] != mark:
                return 0
    return int(card["points"])
