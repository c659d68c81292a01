"""A heatmap of the sites played in many games, drawn with the same picture as `rulelang
render` (picture.py): the board at the start, each site shaded by how often the games'
actions named it. Action strings name the sites they use ("place 0a1", "move a2 a3"), so a
site is counted once for every action string that names it; no game is replayed."""
from __future__ import annotations

from collections import Counter
from typing import Any

from rulelang.tools.pictures.picture import board_shape, drawing
from rulelang.tools.pictures.svg import Node

HEAT = "#D55E00"  # the palette's vermilion (colour-blind safe), reached by the most played site
NEUTRAL = "#EEEEEE"  # every cell of the board, light and dark alike: no pattern under the heat


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
        node.attrs["class"] = str(node.attrs["class"]).replace(" dark", " light")
        cell = next((c for c in node.children if c.attrs.get("class") == "cell"), None)
        if cell is not None and n:  # the cell's shape again, over it, in the heat colour
            heat = Node(cell.tag, class_="heat")
            heat.attrs.update({k: v for k, v in cell.attrs.items() if k != "class"})
            heat.set(fill=heat_colour(n / top))
            node.children.insert(node.children.index(cell) + 1, heat)
        node.add(Node("title", f"{node.attrs['data-site']}: {n}"))
    _legend(root, top)
    return root.to_string()


def _legend(root: Node, top: int) -> None:
    """Below the board: the colour of 0 and of a few counts up to the most played site's."""
    width, height = float(root.attrs["width"]), float(root.attrs["height"])
    root.set(height=height + 30, viewBox=f"0 0 {width:g} {height + 30:g}")
    y = height + 4
    legend = Node("g", class_="heat-legend")
    legend.add(Node("text", "actions that named the site:", x=16, y=y + 13, class_="legend",
                    font_size=11))
    steps = [0, *sorted({max(1, round(top * k / 4)) for k in range(1, 5)})]
    for i, n in enumerate(steps):
        x = 190 + 58 * i
        legend.add(Node("rect", x=x, y=y, width=16, height=16, stroke="#777",
                        fill=NEUTRAL if n == 0 else heat_colour(n / top)))
        legend.add(Node("text", str(n), x=x + 20, y=y + 13, font_size=11))
    root.add(legend)


def heat_colour(share: float) -> str:
    """An opaque colour from the neutral cell's towards HEAT: every channel falls as the share
    grows, so a site played more is always darker (a site played once already shows)."""
    t = 0.12 + 0.88 * max(0.0, min(1.0, share))
    low, high = _rgb(NEUTRAL), _rgb(HEAT)
    return "#" + "".join(f"{round(a + (b - a) * t):02X}" for a, b in zip(low, high,
                                                                          strict=True))


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _sites(node: Node) -> list[Node]:
    found = [node] if "data-site" in node.attrs else []
    for child in node.children:
        found += _sites(child)
    return found
