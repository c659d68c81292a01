"""A heatmap of the sites played in many games, drawn with the same picture as `rulelang
render` (picture.py): the board at the start, each site shaded by how often the games'
actions named it. Action strings name the sites they use ("place 0a1", "move a2 a3"), so a
site is counted once for every action string that names it; no game is replayed."""
from __future__ import annotations

from collections import Counter
from typing import Any

from rulelang.tools.picture import board_shape, drawing
from rulelang.tools.svg import Node

HEAT = "#D55E00"  # the palette's vermilion (colour-blind safe), more opaque where played more


def site_counts(game: Any, records: list[dict[str, Any]]) -> dict[str, int]:
    """site name -> how many actions of the records named it (every site of the board)."""
    names = [s["site"] for s in game.new_initial_state(0).observation(0).get("board", [])]
    known = set(names)
    counts: Counter[str] = Counter()
    for record in records:
        for action in record["actions"]:
            counts.update(word for word in set(str(action).split()) if word in known)
    return {name: counts[name] for name in names}


def heatmap_svg(game: Any, counts: dict[str, int]) -> str | None:
    """The SVG heatmap of `counts` on the starting board, or None for a game without one."""
    obs = game.new_initial_state(0).observation(0)
    if not obs.get("board"):
        return None
    root = drawing(obs, board_shape(game))
    root.set(class_="rulelang-board heatmap")
    top = max(counts.values(), default=0) or 1
    for node in _sites(root):
        n = counts.get(node.attrs["data-site"], 0)
        node.set(data_count=n)
        cell = next((c for c in node.children if c.attrs.get("class") == "cell"), None)
        if cell is not None and n:  # the cell's shape again, over it, in the heat colour
            heat = Node(cell.tag, class_="heat")
            heat.attrs.update({k: v for k, v in cell.attrs.items() if k != "class"})
            heat.set(fill=HEAT, fill_opacity=0.15 + 0.75 * n / top)
            node.children.insert(node.children.index(cell) + 1, heat)
        node.add(Node("title", f"{node.attrs['data-site']}: {n}"))
    return root.to_string()


def _sites(node: Node) -> list[Node]:
    found = [node] if "data-site" in node.attrs else []
    for child in node.children:
        found += _sites(child)
    return found
