"""A position as SVG, drawn from one player's observation and the board's static shape.

`board_shape(game)` reads the geometry once (never the state): how the rows run (a relation
`north` or `up` towards higher rows puts row 0 at the bottom), whether the grid is
hexagonal (neighbours at (-1, +1) and (+1, -1) but not on the other diagonal: each row lies
half a site further east than the one above), and, for boards of three coordinates, whether
the layers are stacked levels (relations between layers z and z-1 that stay within a cell:
each level lies over the one below at the mean offset of those edges, as on a pyramid) or
separate grids (placed by the geometry's `layer … at (row, column)`, else side by side).

`draw(obs, shape)` draws only what the observation holds, so nothing hidden from its player
can appear: the sites with their pieces (a disc per owned piece in the owner's colour and
letter, a square plate with its edge labels as coloured edges and its `picture` lines), then beside
the board the players, the zones (a hidden zone as its count), the counters, the variables
and the scores. Every site is a `<g class="site …" data-site="a1">`, every piece a
`<g class="piece kind-K owner-P" data-piece="K">`, for styling and tests.
"""
from __future__ import annotations

import functools
import json
import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

from rulelang.language.looks import COLOURS
from rulelang.language.looks import SHAPES as BODIES
from rulelang.tools.pictures.fonts import FAMILY, fallback, needed
from rulelang.tools.pictures.render import (
    PieceStyle,
    owner_glyphs,
    piece_style,
)
from rulelang.tools.pictures.svg import Node, document, slug
from rulelang.tools.terminal.board import _common as name_parts
from rulelang.tools.terminal.board import _part as other_part

Obs = dict[str, Any]
Point = tuple[float, float]

# Okabe & Ito's palette, safe for the common kinds of colour blindness; the owner's letter is
# written on each piece as well, so colour is never the only clue
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442",
           "#000000")
_NEUTRAL = "#BBBBBB"
_EDGE_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#F0E442",
                 "#555555")
_SQRT3 = 3 ** 0.5
_ROOM = 18  # layers side by side in rows of at most this many cells
# a picture is made to be read at this size: no wider or taller, so that its smallest text
# (12 px) stays at least 12 px on a 1200 x 900 screen
_SCREEN = (1200.0, 900.0)
_SMALLEST = 12
CSS = """
text { font-family: sans-serif; }
.site > .cell { stroke: #777; stroke-width: 1; }
.site.light > .cell { fill: #EEEEEE; } .site.dark > .cell { fill: #C8C8C8; }
.site.upper > .cell { fill: none; stroke-dasharray: 3 3; }
.site.lastmove > .cell { stroke: #D55E00; stroke-width: 3; }
.site.upper.lastmove > .cell { stroke-dasharray: none; }
.piece .body { stroke: #222; stroke-width: 1.5; }
.piece .plate { fill: #F3EBD8; stroke: #8A7A5A; }
.panel text { font-size: 13px; fill: #222; }
.panel .font-note text { fill: #8A3B00; }
.panel .head { font-weight: bold; }
.layer-title { font-size: 13px; fill: #444; }
.coordinate { font-size: 12px; fill: #666; }
"""


@dataclass(frozen=True)
class Shape:
    """How the board lies (see the module doc); the same for every position of a game."""
    hexagonal: bool = False
    upward: bool = False  # row 0 at the bottom
    levels: dict[int, Point] = field(default_factory=dict)  # stacked: offset (dr, dc) per z
    dims: int = 2


def board_shape(game: Any) -> Shape:
    board = game.runtime.board
    if not board.sites:
        return Shape()
    dims = len(board.sites[0].coords)
    flat: set[Point] = set()
    down: dict[int, list[Point]] = {}
    upward = False
    for name, graph in board.graphs.items():
        for a, b in graph.edges:
            if len(a) < 2:
                continue
            dr, dc = b[-2] - a[-2], b[-1] - a[-1]
            if len(a) == 2 or a[0] == b[0]:
                flat.add((dr, dc))
                upward = upward or (name in ("north", "up") and dr > 0)
            elif len(a) == 3 and b[0] == a[0] - 1 and abs(dr) <= 1 and abs(dc) <= 1:
                down.setdefault(a[0], []).append((dr, dc))
    hexagonal = {(-1, 1), (1, -1)} <= flat and not {(1, 1), (-1, -1)} & flat
    levels: dict[int, Point] = {}
    if dims == 3 and down and not board.layer_at:
        zs = sorted({s.coords[0] for s in board.sites})
        levels[zs[0]] = (0.0, 0.0)
        for below, z in zip(zs, zs[1:], strict=False):
            edges = down.get(z) or [(0, 0)]
            r0, c0 = levels[below]
            # a site of level z lies over the mean of the sites it rests on
            levels[z] = (r0 + sum(e[0] for e in edges) / len(edges),
                         c0 + sum(e[1] for e in edges) / len(edges))
    return Shape(hexagonal, upward, levels, dims)


# --- drawing -----------------------------------------------------------------------------

# a player named by a colour is drawn in it (White in white, Black in black …)
NAMED_COLOURS = COLOURS
_DARK = {"#0072B2", "#009E73", "#D55E00", "#000000", "#CC79A7", "#222222", "#8B5A2B",
         "#8B1A1A", "#1E5631", "#1F3A68", "#6B6B2A", "#2A7F7F"}
# the body of a piece of each kind, in turn, when the board holds several kinds
SHAPES = BODIES


def player_colours(players: list[str]) -> dict[str, str]:
    """Each player's colour: the colour their name says, else the next of the palette that
    no player's name took."""
    named = {p: NAMED_COLOURS[p.lower()] for p in players if p.lower() in NAMED_COLOURS}
    free = iter([c for c in PALETTE if c not in named.values()] * 2)
    return {p: named.get(p) or next(free) for p in players}


@dataclass
class _Ctx:
    obs: Obs
    shape: Shape
    cell: float
    colours: dict[str, str]
    glyphs: dict[str, str]
    last: frozenset[str]
    titles: list[Node] = field(default_factory=list)
    style: PieceStyle | None = None  # a letter per kind and state (as the terminal shows)
    shapes: dict[str, str] = field(default_factory=dict)  # kind -> body shape
    shown: Any = None  # the terminal's Screen of obs: what the rulebook's `view` shows
    note: str = ""  # the font missing for some names (fonts.py), at the panel's foot


def draw(obs: Obs, shape: Shape, last: frozenset[str] | set[str] = frozenset(),
         fonts: bool = True) -> str:
    """The SVG text of an observation; `last` names the sites the last move changed; with
    `fonts`, the glyphs of its names beyond Latin are embedded (or a note names the font
    missing: fonts.py)."""
    return drawing(obs, shape, last, fonts).to_string()


def drawing(obs: Obs, shape: Shape, last: frozenset[str] | set[str] = frozenset(),
            fonts: bool = False) -> Node:
    if obs.get("draw_at"):  # the geometry says where each site is drawn: as the terminal does
        shape = Shape(hexagonal=shape.hexagonal, dims=shape.dims)
    players = list(obs["players"])
    colours = player_colours(players)
    pictured = any("picture" in p for s in obs["board"] for p in s["pieces"])
    ctx = _Ctx(obs, shape, 96.0 if pictured else 56.0, colours, owner_glyphs(players),
               frozenset(last))
    from rulelang.tools.terminal.screen import Screen  # (rich: only when drawing)

    ctx.shown = Screen(obs, width=_WRAP)
    found = None
    if fonts:  # the glyphs of the names beyond Latin, or a note of the font missing
        found = fallback(needed([json.dumps(obs, ensure_ascii=False)]))
        ctx.note = found.note()
    ctx.style = piece_style(obs)
    if ctx.style is not None:  # every kind in sight, so a kind keeps its shape all game
        every = [p for s in obs["board"] for p in s["pieces"]] + \
            [p for z in obs["zones"] for p in z.get("pieces") or []]
        declared = {(p.get("look") or {}).get("shape") for p in every} - {None}
        kinds = sorted({str(p.get("kind")) for p in every})
        free = [x for x in SHAPES if x not in declared] or list(SHAPES)
        ctx.shapes = {k: free[i % len(free)] for i, k in enumerate(kinds)}
    margin = 16.0
    top = margin + 24
    for scale in (1.0, 0.85, 0.72, 0.62):  # smaller sites where the board leaves no room
        ctx.cell = (96.0 if pictured else 56.0) * scale
        ctx.titles = []
        board = Node("g", class_="board", transform=f"translate({margin},{top})")
        width, height = _board(ctx, board) if obs["board"] else (0.0, 0.0)
        panel, right, bottom = _placed_panel(ctx, width, height, margin, top)
        if right + margin <= _SCREEN[0] and bottom + margin <= _SCREEN[1]:
            break
    header = Node("text", _status(obs), x=margin, y=margin + 8, class_="status")
    header.set(font_size=16, font_weight="bold")
    total_w, total_h = right + margin, bottom + margin
    css = CSS
    if found is not None and found.css:
        css = found.css + CSS + f'text {{ font-family: "{FAMILY}", sans-serif; }}\n'
    root = document(round(total_w), round(total_h), [
        Node("rect", x=0, y=0, width=round(total_w), height=round(total_h), fill="#FFFFFF",
             class_="background"), header, board, panel], css=css, class_="rulelang-board")
    root.set(data_game=str(obs["game"]), data_player=str(obs["player"]))
    return root


def _placed_panel(ctx: _Ctx, width: float, height: float, margin: float, top: float
                  ) -> tuple[Node, float, float]:
    """The panel beside the board, or below it when there is no room beside: the panel,
    and the right and bottom edges of board and panel."""
    panel_x = margin + width + (24 if width else 0)
    panel = Node("g", class_="panel", transform=f"translate({panel_x:.1f},{top})")
    panel_w, panel_h = _panel(ctx, panel, _SCREEN[1] - top - margin - 8)
    right, bottom = panel_x + panel_w, top + max(height, panel_h)
    if width and right + margin > _SCREEN[0]:  # no room beside the board: below it
        below = top + height + 24
        panel = Node("g", class_="panel", transform=f"translate({margin},{below:.1f})")
        panel_w, panel_h = _panel(ctx, panel, max(_SCREEN[1] - below - margin - 8, 300.0))
        right, bottom = max(margin + width, margin + panel_w), below + panel_h
    return panel, right, bottom


def _status(obs: Obs) -> str:
    players, me, now = obs["players"], obs["player"], obs["current_player"]
    if obs["terminal"]:
        status = "game over"
        winners = obs.get("winners") or []
        if winners:
            status += ": " + " and ".join(players[w] for w in winners) + \
                (" wins" if len(winners) == 1 else " win")
    else:
        status = (players[now] if 0 <= now < len(players) else "chance") + " to move"
    you = f" (as {players[me]})" if 0 <= me < len(players) else ""
    return f"{obs['game']}: {status}{you}"


def _board(ctx: _Ctx, out: Node) -> Point:
    sites = ctx.obs["board"]
    dims = len(sites[0]["coords"])
    if dims == 3 and not ctx.shape.levels:
        return _layers(ctx, out, sites)
    if dims in (2, 3):
        return _grid(ctx, out, sites, 0.0, 0.0)
    per_row = 10  # a board without rows and columns: its sites in rows of ten
    spots = {s["site"]: (float(i // per_row), float(i % per_row)) for i, s in enumerate(sites)}
    return _cells(ctx, out, sites, spots, 0.0, 0.0)


def _layers(ctx: _Ctx, out: Node, sites: list[Obs]) -> Point:
    """Separate grids, one per first coordinate, placed as the geometry says."""
    by_z: dict[int, list[Obs]] = {}
    for s in sites:
        by_z.setdefault(int(s["coords"][0]), []).append(s)
    titles = ctx.obs.get("layers") or {}
    places = ctx.obs.get("layer_at") or {}
    zs = sorted(by_z)
    sizes = {z: _extent(ctx, by_z[z]) for z in zs}
    cell_w = max(w for w, _ in sizes.values())
    labelled = {z: bool(_coordinates(ctx, by_z[z], _spots(ctx, by_z[z]))) for z in zs}
    banded = any(labelled.values())
    if places:
        per_row = max(int(p[1]) for p in places.values()) + 1
    elif ctx.obs.get("draw_at"):  # side by side, as many in a row as the room holds
        bare = cell_w - (_BAND if banded else 0.0)  # (without the coordinates)
        per_row = max(1, int((_ROOM + 0.5) * ctx.cell // (bare + 0.5 * ctx.cell)))
    else:
        per_row = 3
    spot = {z: tuple(places.get(str(z), (i // per_row, i % per_row))) for i, z in enumerate(zs)}
    title_h = 20.0 if titles else 0.0
    cell_h = max(h for _, h in sizes.values()) + title_h
    gap = ctx.cell * (0.15 if places else 0.5)  # joined boards lie edge to edge
    width = height = 0.0
    for z in zs:
        row, col = spot[z]
        x, y = col * (cell_w + gap), row * (cell_h + gap)
        if titles:
            out.add(Node("text", titles.get(str(z), f"level {z}"), x=x, y=y + 14,
                         class_="layer-title", data_layer=z))
        group = out.add(Node("g", class_="layer", data_layer=z))
        shift = _BAND if banded and not labelled[z] else 0.0  # aligned with named grids
        right, bottom = _grid(ctx, group, by_z[z], x + shift, y + title_h + shift)
        width, height = max(width, right), max(height, bottom)
    return width, height


def _extent(ctx: _Ctx, sites: list[Obs]) -> Point:
    spots = _spots(ctx, sites)
    rows = [r for r, _ in spots.values()]
    cols = [c for _, c in spots.values()]
    band = _BAND if _coordinates(ctx, sites, spots) else 0.0
    return ((max(cols) - min(cols) + 1) * ctx.cell + band, (max(rows) - min(rows) + 1) *
            ctx.cell * (_SQRT3 / 2 if ctx.shape.hexagonal else 1.0) +
            (ctx.cell * 0.3 if ctx.shape.hexagonal else 0) + band)


def _spots(ctx: _Ctx, sites: list[Obs]) -> dict[str, Point]:
    """Each site's (row, column) in cells from the top left, before hexagonal squeezing:
    where the geometry's `draw at` puts it (columns in half sites), else from its coordinates
    and the board's shape."""
    top = max(int(s["coords"][-2]) for s in sites)
    spots: dict[str, Point] = {}
    draw_at = ctx.obs.get("draw_at") or {}
    for s in sites:
        at = draw_at.get(s["site"])
        if at is not None:
            spots[s["site"]] = (float(at[0]), float(at[1]) / 2)
            continue
        r, c = int(s["coords"][-2]), int(s["coords"][-1])
        dr, dc = ctx.shape.levels.get(int(s["coords"][0]), (0.0, 0.0)) \
            if len(s["coords"]) == 3 else (0.0, 0.0)
        row = (top - r) if ctx.shape.upward else float(r)
        spots[s["site"]] = (row + dr, c + dc + (r * 0.5 if ctx.shape.hexagonal else 0.0))
    low_r = min(r for r, _ in spots.values())
    low_c = min(c for _, c in spots.values())
    return {k: (r - low_r, c - low_c) for k, (r, c) in spots.items()}


def _grid(ctx: _Ctx, out: Node, sites: list[Obs], x: float, y: float) -> Point:
    spots = _spots(ctx, sites)
    if ctx.shape.levels:  # lower levels first, so that upper pieces lie on top
        sites = sorted(sites, key=lambda s: int(s["coords"][0]))
    return _cells(ctx, out, sites, spots, x, y)


def _cells(ctx: _Ctx, out: Node, sites: list[Obs], spots: dict[str, Point], x: float,
           y: float) -> Point:
    size = ctx.cell
    squeeze = _SQRT3 / 2 if ctx.shape.hexagonal else 1.0
    labels = _coordinates(ctx, sites, spots)
    band = _BAND if labels else 0.0  # room for the coordinates above and left of the cells
    width = height = 0.0
    centre: dict[str, Point] = {}
    for s in sites:
        r, c = spots[s["site"]]
        cx = x + band + (c + 0.5) * size
        cy = y + band + (r * squeeze + 0.5 + (0.15 if squeeze < 1 else 0)) * size
        centre[s["site"]] = (cx, cy)
        out.add(_site(ctx, s, cx, cy))
        width, height = max(width, cx + size / 2 - x), max(height, cy + size / 2 - y)
    if labels:
        g = out.add(Node("g", class_="coordinates"))
        for name, text, side in labels:
            cx, cy = centre[name]
            if side == "column":
                g.add(Node("text", text, x=cx, y=cy - size / 2 - 3, text_anchor="middle",
                           class_="coordinate"))
            else:
                g.add(Node("text", text, x=cx - size / 2 - 3, y=cy + 4, text_anchor="end",
                           class_="coordinate"))
    return x + width, y + height


_BAND = 16.0  # the coordinates' band above and left of a grid


def _coordinates(ctx: _Ctx, sites: list[Obs], spots: dict[str, Point]
                 ) -> list[tuple[str, str, str]]:
    """The column names over the top row's sites and the row names left of each row's
    first site (the parts of the site names that differ, as the terminal shows them):
    (site, text, "column" | "row") each; only the lowest level of stacked levels is named,
    and nothing when the names have no such parts of at most 4 characters."""
    if ctx.shape.levels:
        low = min(int(s["coords"][0]) for s in sites)
        sites = [s for s in sites if int(s["coords"][0]) == low]
    names = [s["site"] for s in sites]
    return _named(tuple(names), tuple(spots[n] for n in names))


@functools.lru_cache(maxsize=64)  # (the same board at every drawing: worked out once)
def _named(names: tuple[str, ...], at: tuple[Point, ...]) -> list[tuple[str, str, str]]:
    spots = dict(zip(names, at, strict=True))
    whole = name_parts(list(names)) if names else []
    if not whole:
        return []
    rows: dict[float, list[str]] = {}
    for name in names:
        rows.setdefault(round(spots[name][0], 2), []).append(name)
    out: list[tuple[str, str, str]] = []
    for i, r in enumerate(sorted(rows)):
        row = sorted(rows[r], key=lambda n: spots[n][1])
        shared = name_parts(row)
        if i == 0:
            out += [(n, other_part(n, whole, shared), "column") for n in row]
        label = "".join(t for t, w in zip(shared, whole, strict=False)
                        if t is not None and t != w)
        out.append((row[0], label, "row"))
    if any(not 0 < len(text) <= 4 for _, text, _ in out):
        return []
    return out


def _site(ctx: _Ctx, site: Obs, cx: float, cy: float) -> Node:
    coords = [int(v) for v in site["coords"]]
    level = coords[0] if ctx.shape.levels else 0
    shade = "light" if sum(coords[-2:]) % 2 == 0 else "dark"
    classes = ["site", shade if not ctx.shape.hexagonal else "light"]
    if ctx.shape.levels:
        classes += [f"level-{level}"] + (["upper"] if level > 0 else [])
    if not site["pieces"]:
        classes.append("empty")
    if site["site"] in ctx.last:
        classes.append("lastmove")
    g = Node("g", class_=" ".join(classes), data_site=site["site"],
             data_coords=",".join(map(str, coords)))
    size = ctx.cell
    if ctx.shape.hexagonal:
        radius = size / _SQRT3
        corners = [(cx + radius * _cos(a), cy + radius * _sin(a)) for a in range(30, 390, 60)]
        g.add(Node("polygon", class_="cell",
                   points=" ".join(f"{px:.1f},{py:.1f}" for px, py in corners)))
    elif ctx.shape.levels:
        g.add(Node("circle", class_="cell", cx=cx, cy=cy, r=size * (0.46 if level else 0.48)))
    else:
        g.add(Node("rect", class_="cell", x=cx - size / 2, y=cy - size / 2, width=size,
                   height=size))
    g.add(Node("title", site["site"]))
    pieces = site["pieces"]
    shown = pieces[-3:]
    for i, piece in enumerate(shown):
        scale = 1.0 - 0.28 * i if len(shown) > 1 else 1.0
        g.add(_piece(ctx, piece, cx, cy, size * scale, level, on_top=i == len(shown) - 1))
    if len(pieces) > 3:
        g.add(Node("text", f"{len(pieces)}", x=cx + size * 0.38, y=cy - size * 0.3,
                   font_size=11, text_anchor="end", class_="height"))
    return g


def _cos(deg: int) -> float:
    return math.cos(math.radians(deg))


def _sin(deg: int) -> float:
    return math.sin(math.radians(deg))


def _piece(ctx: _Ctx, piece: Obs, cx: float, cy: float, size: float, level: int,
           on_top: bool) -> Node:
    kind, owner = str(piece.get("kind", "")), piece.get("owner")
    attrs = piece.get("attrs") or {}
    classes = ["piece", f"kind-{slug(kind)}", f"owner-{slug(owner)}" if owner else "unowned"]
    classes += [slug(k) for k, v in attrs.items() if v is True]
    g = Node("g", class_=" ".join(classes), data_piece=kind, data_owner=owner)
    g.add(Node("title", ctx.shown._label(piece) + (f" ({owner})" if owner else "")))
    fill = ctx.colours.get(str(owner), _NEUTRAL) if owner else _NEUTRAL
    lines = piece.get("picture")
    edges = all(k in attrs for k in ("n", "e", "s", "w"))
    if lines or edges:  # a plate: a square with its edges and its picture
        half = size * 0.46
        g.add(Node("rect", class_="body plate" if owner is None else "body", x=cx - half,
                   y=cy - half, width=2 * half, height=2 * half, rx=size * 0.06,
                   fill=None if owner is None else fill))
        if edges:
            g.children += _edges(attrs, cx, cy, half)
        texts = list(lines or [kind])
        if edges and len(texts) == 3:  # the picture's edge lines are drawn as edges
            words = texts[1].split(" ")
            ends = [str(attrs["w"]), str(attrs["e"])]
            texts = [" ".join(words[1:-1]) if [words[0], words[-1]] == ends else texts[1]]
        font = max(min(size * 0.8 / max(len(texts), 1), size * 1.6 / max(map(len, texts)), 16),
                   _SMALLEST)
        top = cy - font * (len(texts) - 1) / 2
        for i, text in enumerate(texts):
            g.add(Node("text", text, x=cx, y=top + i * font * 1.1 + font * 0.35,
                       font_size=round(font, 1), text_anchor="middle", class_="label"))
        return g
    radius = size * 0.36
    look = piece.get("look") or {}
    body = look.get("shape") or ctx.shapes.get(kind, "circle")
    g.set(data_shape=body)
    flag = ctx.style.flags.get(kind) if ctx.style is not None else None
    dashed = flag is not None and attrs.get(flag) is not True  # a sapling, a card face down
    ring = None
    if look.get("colour"):  # the picture's colour: the body's, or its ring when owned
        fill, ring = (fill, look["colour"]) if owner else (look["colour"], None)
    shaped = _body(body, cx, cy, radius, fill, (3.5 if ring else 1.5) + level, dashed)
    if ring:  # (a style: the sheet's stroke would win over an attribute)
        shaped.set(style=f"stroke: {ring}")
    g.add(shaped)
    mark = ctx.glyphs.get(str(owner), "?") if owner else kind[:1].lower()
    if ctx.style is not None:  # the owner's glyph, the kind's letter, its state
        mark = ctx.style.token(piece, ctx.glyphs)
    g.set(data_label=mark)
    if on_top:
        font = min(radius, radius * 2.4 / max(len(mark), 1))
        g.add(Node("text", mark, x=cx, y=cy + font * 0.35, font_size=round(max(font, 12), 1),
                   text_anchor="middle", fill=_ink(fill),
                   class_="label"))
    return g


def _ink(fill: str) -> str:
    """White on a dark body, black on a light one."""
    if fill in _DARK:
        return "#FFFFFF"
    try:
        r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#000000"
    return "#FFFFFF" if 0.299 * r + 0.587 * g + 0.114 * b < 110 else "#000000"


def _body(shape: str, cx: float, cy: float, r: float, fill: str, stroke: float,
          dashed: bool) -> Node:
    """A piece's body: a circle, or a regular polygon (a star for "star")."""
    style = {"stroke_dasharray": "4 3"} if dashed else {}
    if shape == "circle":
        return Node("circle", class_="body", cx=cx, cy=cy, r=r, fill=fill,
                    stroke_width=stroke, **style)
    if shape == "square":
        return Node("rect", class_="body", x=cx - r * 0.9, y=cy - r * 0.9, width=r * 1.8,
                    height=r * 1.8, fill=fill, stroke_width=stroke, **style)
    if shape == "cross":  # a plus sign: twelve corners
        a, b = r * 0.95, r * 0.35
        corners = [(-b, -a), (b, -a), (b, -b), (a, -b), (a, b), (b, b), (b, a), (-b, a),
                   (-b, b), (-a, b), (-a, -b), (-b, -b)]
        return Node("polygon", class_="body", fill=fill, stroke_width=stroke, **style,
                    points=" ".join(f"{cx + x:.1f},{cy + y:.1f}" for x, y in corners))
    sides = {"diamond": 4, "triangle": 3, "hexagon": 6, "pentagon": 5, "star": 10,
             "octagon": 8, "heptagon": 7}[shape]
    points = []
    for i in range(sides):
        angle = math.pi * 2 * i / sides - math.pi / 2
        k = r * (0.5 if shape == "star" and i % 2 else 1.05)
        points.append(f"{cx + k * math.cos(angle):.1f},{cy + k * math.sin(angle):.1f}")
    return Node("polygon", class_="body", points=" ".join(points), fill=fill,
                stroke_width=stroke, **style)


def _edges(attrs: dict[str, Any], cx: float, cy: float, half: float) -> list[Node]:
    """A plate's four edge labels as coloured bars along its sides, with the label."""
    out = []
    inset = half * 0.82
    sides = {"n": (cx - inset, cy - half, cx + inset, cy - half, cx, cy - half * 0.72),
             "s": (cx - inset, cy + half, cx + inset, cy + half, cx, cy + half * 0.9),
             "w": (cx - half, cy - inset, cx - half, cy + inset, cx - half * 0.7, cy + 4),
             "e": (cx + half, cy - inset, cx + half, cy + inset, cx + half * 0.7, cy + 4)}
    for side, (x1, y1, x2, y2, tx, ty) in sides.items():
        label = str(attrs[side])
        colour = _EDGE_COLOURS[sum(map(ord, label)) % len(_EDGE_COLOURS)]
        out.append(Node("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=5,
                        class_=f"edge edge-{side}", data_edge=label))
        out.append(Node("text", label, x=tx, y=ty, font_size=_SMALLEST, text_anchor="middle",
                        class_="edge-label"))
    return out


# --- beside the board --------------------------------------------------------------------

_LINE = 17.0
_WRAP = 58


def _panel(ctx: _Ctx, out: Node, tallest: float = 1e9) -> Point:
    """The players, then the groups of the `view`, then the scores; in columns of at most
    `tallest` pixels. Its width and height."""
    obs = ctx.obs
    y = 0.0
    x = 0.0  # the column's left
    column = 240.0  # the column's width
    top = 0.0

    def line(text: str, cls: str, **data: str | None) -> None:
        nonlocal y, x, column, top
        pieces = [text] if _one_line(text) else \
            textwrap.wrap(text, _WRAP, subsequent_indent="    ") or [""]
        g = out.add(Node("g", class_=cls, **{f"data_{k}": v for k, v in data.items()}))
        for piece in pieces:
            if y + _LINE > tallest:  # a new column
                x, top, y, column = x + column + 24, max(top, y), 0.0, 240.0
            y += _LINE
            g.add(Node("text", piece, x=x, y=y, class_="head" if cls == "head" else None))
            column = max(column, len(piece) * 7.2)

    line("players", "head")
    for i, name in enumerate(obs["players"]):
        y += _LINE
        g = out.add(Node("g", class_="player" + (" to-move" if i == obs["current_player"]
                                                 else ""), data_player=name))
        g.add(Node("circle", cx=7, cy=y - 4, r=7, fill=ctx.colours[name], stroke="#222",
                   class_="swatch"))
        marker = " ◀" if i == obs["current_player"] and not obs["terminal"] else ""
        g.add(Node("text", f"{ctx.glyphs[name]}  {name}{marker}", x=20, y=y))
    groups = ctx.shown.group_lines(_WRAP)  # the zones, counters and vars the `view` shows
    if groups:
        y += 6
        for text in groups:
            head = text.split(": ", 1)[0] if not text.startswith(" ") else None
            line(text, "group", owner=head)
    if obs.get("scores") is not None:
        y += 6
        line("scores", "head")
        for name, score in zip(obs["players"], obs["scores"], strict=False):
            line(f"{name}: {score:g}", "score", player=name)
    if ctx.note:
        y += 6
        line(ctx.note, "font-note")
    return x + column, max(top, y) + 6


def _one_line(text: str) -> bool:
    """Whether textwrap.wrap(text, _WRAP) gives [text] (a short line, no whitespace to
    change or drop): the wrapping skipped, the same lines."""
    return len(text) <= _WRAP and text.isprintable() and text.strip(" ") != "" \
        and not text.endswith(" ")
