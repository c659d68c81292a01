"""The board as its rules describe it, as lines of Rich text, from one observation.

Each layer of sites (the sites sharing a first coordinate on a board of three; the whole board
on a board of two) is one grid. A site is drawn where its geometry's `draw at` puts it (row 0
at the top, columns in half sites, so hexagonal rows can be offset); without it at (r, c).
The edges carry the coordinates that site names are made of: the part of the names that a
row of sites shares is written at both ends of the row, the part that changes along the row
above the top row and under the bottom one (names "a1" … "h8": rows 1-8, columns a-h; what a
whole layer shares, its level or board number, is its title). The last move's sites are
highlighted; pieces are coloured by owner.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from rulelang.tools.pictures.render import (
    PieceStyle,
    cell_lines,
    cell_text,
    owner_glyphs,
    piece_style,
)

Obs = dict[str, Any]
COLOURS = ("bold red", "bold blue", "bold green", "bold magenta", "bold cyan", "bold yellow")
LAST = "reverse"
_GAP = 4


def player_colours(players: list[str]) -> dict[str, str]:
    return {name: COLOURS[i % len(COLOURS)] for i, name in enumerate(players)}


@dataclass
class Layer:
    title: str
    sites: list[Obs]
    place: tuple[int, int] | None = None  # (row, column) of grids, from `layer … at`


def layers(obs: Obs) -> list[Layer]:
    """The board's layers, bottom (first coordinate) first."""
    sites = [s for s in obs["board"] if len(s["coords"]) in (2, 3)]
    if not sites:
        return []
    if len(sites[0]["coords"]) == 2:
        return [Layer("", sites)]
    by_z: dict[int, list[Obs]] = {}
    for s in sites:
        by_z.setdefault(int(s["coords"][0]), []).append(s)
    titles = obs.get("layers") or {}
    places = obs.get("layer_at") or {}
    return [Layer(titles.get(str(z)) or f"level {z}", by_z[z],
                  (places[str(z)][0], places[str(z)][1]) if str(z) in places else None)
            for z in sorted(by_z)]


def _tokens(name: str) -> list[str]:
    return re.findall(r"[A-Za-z]+|\d+|[^A-Za-z\d]+", name)


def _common(names: list[str]) -> list[str]:
    """The name parts (by position) that all names share: "a1", "b1" -> [None, "1"]."""
    split = [_tokens(n) for n in names]
    size = len(split[0])
    if any(len(t) != size for t in split):
        return []
    return [t if all(s[i] == t for s in split) else None  # type: ignore[misc]
            for i, t in enumerate(split[0])]


def _part(name: str, *shared: list[str]) -> str:
    """The parts of a name that none of the shared lists holds at their position."""
    toks = _tokens(name)
    return "".join(t for i, t in enumerate(toks)
                   if not any(i < len(s) and s[i] == t for s in shared))


class BoardPainter:
    def __init__(self, obs: Obs, last: set[str] | frozenset[str] = frozenset(),
                 colour: bool = True, bottom_edge: bool = True) -> None:
        self.obs, self.last, self.colour = obs, set(last), colour
        self.bottom_edge = bottom_edge  # the column names under the bottom row too
        self.glyphs = owner_glyphs(obs["players"])
        self.colours = player_colours(obs["players"])
        self.style: PieceStyle | None = piece_style(obs)
        self.boxed = any("picture" in p for s in obs["board"] for p in s["pieces"])
        self.draw_at = obs.get("draw_at") or {}
        self._cells: dict[str, list[Text]] = {}
        self._wide: int | None = None
        self._drawn: dict[bool, list[tuple[Layer, list[Text]]]] = {}

    # -- cells ----------------------------------------------------------------------------
    def cell(self, site: Obs) -> list[Text]:
        found = self._cells.get(site["site"])
        if found is None:
            found = self._cells[site["site"]] = self._cell(site)
        return [t.copy() for t in found]

    def _cell(self, site: Obs) -> list[Text]:
        pieces = site["pieces"]
        if self.boxed:
            lines = cell_lines(pieces, self.glyphs)
            if lines == ["."]:
                lines = []
        else:
            lines = [cell_text(pieces, self.glyphs, self.style)]
        owners = {p.get("owner") for p in pieces} - {None}
        style = self.colours.get(next(iter(owners))) if len(owners) == 1 else None
        looks = {(p.get("look") or {}).get("colour") for p in pieces}
        if not owners and len(looks) == 1 and None not in looks:  # the picture's colour
            style = next(iter(looks))
        out = [Text(line, style=style or "") for line in lines]
        if site["site"] in self.last:
            for t in out:
                t.stylize(LAST)
        return out

    def _pos(self, site: Obs) -> tuple[int, int]:
        at = self.draw_at.get(site["site"])
        if at is not None:
            return int(at[0]), int(at[1])
        r, c = site["coords"][-2:]
        return int(r), 2 * int(c)

    # -- one layer ------------------------------------------------------------------------
    def layer(self, layer: Layer) -> list[Text]:
        if self.boxed:
            return self._boxed(layer)
        names = [s["site"] for s in layer.sites]
        whole = _common(names)
        pos = {s["site"]: self._pos(s) for s in layer.sites}
        r0 = min(p[0] for p in pos.values())
        h0 = min(p[1] for p in pos.values())
        cells = {s["site"]: self.cell(s)[0] for s in layer.sites}
        w = max([c.cell_len for c in cells.values()] + [1])
        rows: dict[int, list[Obs]] = {}
        for s in layer.sites:
            rows.setdefault(pos[s["site"]][0] - r0, []).append(s)
        shared = {r: _common([s["site"] for s in sites]) for r, sites in rows.items()}
        row_label = {r: "".join(t for t, w_ in zip(shared[r], whole, strict=False)
                                if t is not None and t != w_) for r in rows}
        lw = max([len(x) for x in row_label.values()] + [0])

        def x_of(name: str) -> int:
            return lw + 1 + round((pos[name][1] - h0) * (w + 1) / 2)

        def edge(r: int) -> Text:
            line = Text()
            for s in sorted(rows[r], key=lambda s: pos[s["site"]][1]):
                label = _part(s["site"], whole, shared[r])
                x = x_of(s["site"]) + (w - len(label) + 1) // 2
                line.append(" " * max(0, x - line.cell_len) + label, style="dim")
            return line

        out = [Text(layer.title, style="bold")] if layer.title else []
        top, bottom = min(rows), max(rows)
        out.append(edge(top))
        for r in range(top, bottom + 1):
            line = Text()
            sites = sorted(rows.get(r, []), key=lambda s: pos[s["site"]][1])
            label = row_label.get(r, "")
            first = x_of(sites[0]["site"]) if sites else lw + 1
            line.append(" " * max(0, first - 1 - len(label)) + label, style="dim")
            for s in sites:
                x = x_of(s["site"])
                c = cells[s["site"]]
                line.append(" " * max(0, x - line.cell_len + (w - c.cell_len)))
                line.append_text(c)
            if sites:
                line.append(" " + label, style="dim")
            out.append(line)
        if bottom != top and self.bottom_edge:
            out.append(edge(bottom))
        return out

    def _boxed(self, layer: Layer, compact: bool = False) -> list[Text]:
        """Sites whose pieces have pictures: a grid of boxes, every box as wide as the widest
        picture on the board, each row as tall as its tallest; coordinates on the edges.
        Compact: one line per site (the middle line of its picture), no rules."""
        if self._wide is None:
            self._wide = max([t.cell_len for s in self.obs["board"] for t in self.cell(s)]
                             + [3])
        wide = self._wide
        whole = _common([s["site"] for s in layer.sites])
        grid = {self._pos(s): s for s in layer.sites}
        rows = sorted({r for r, _ in grid})
        cols = sorted({h for _, h in grid})
        row_names = {r: "".join(t for t, w_ in zip(
            _common([s["site"] for (rr, _), s in grid.items() if rr == r]), whole, strict=False)
            if t is not None and t != w_) for r in rows}
        lw = max([len(x) for x in row_names.values()] + [0])
        top_row = [grid.get((rows[0], h)) for h in cols]
        head = Text(" " * (lw + 1))
        for s in top_row:
            label = "" if s is None else _part(s["site"], whole, _common(
                [x["site"] for x in top_row if x is not None]))
            head.append(" " + label.center(wide), style="dim")
        rule = Text(" " * (lw + 1) + "+" + "+".join("-" * wide for _ in cols) + "+")
        out = [Text(layer.title, style="bold"), head] + ([] if compact else [rule])
        for r in rows:
            cells = [self.cell(grid[(r, h)]) if (r, h) in grid else None for h in cols]
            if compact:
                cells = [c if c is None else c[(len(c) - 1) // 2:][:1] for c in cells]
            height = max([len(c) for c in cells if c is not None] + [1])  # this row's
            for i in range(height):
                label = row_names[r] if i == (height - 1) // 2 else ""
                line = Text(label.rjust(lw) + " |", style="")
                for c in cells:
                    if c is None:
                        line.append("/" * wide)
                    else:
                        t = c[i] if i < len(c) else Text("")
                        pad = wide - t.cell_len
                        line.append(" " * (pad // 2))
                        line.append_text(t)
                        line.append(" " * (pad - pad // 2))
                    line.append("|")
                out.append(line)
            if not compact:
                out.append(rule.copy())
        return out

    # -- the whole board ------------------------------------------------------------------
    def lines(self, width: int = 80, height: int | None = None) -> list[Text]:
        """The board in `width` columns; pictured layers that would pass `height` rows are
        drawn compact, but for the one titled with the viewer's name."""
        key = self.bottom_edge
        if key not in self._drawn:  # a screen tries several layouts of one painter's board
            self._drawn[key] = [(ly, self.layer(ly)) for ly in layers(self.obs)]
        blocks = self._drawn[key]
        found = [ly for ly, _ in blocks]
        if self.boxed and height is not None and _tall(blocks, width) > height:
            players = self.obs["players"]
            me = players[self.obs["player"]] if 0 <= self.obs["player"] < len(players) else None
            blocks = [(ly, b if me is not None and me in ly.title.split()
                       else self._boxed(ly, compact=True)) for ly, b in blocks]
        gap = 2 if self.boxed else _GAP  # boxes have their own edges
        if any(ly.place is not None for ly in found):
            bands: dict[int, list[tuple[int, list[Text]]]] = {}
            for ly, block in blocks:
                row, col = ly.place or (len(found), 0)
                bands.setdefault(row, []).append((col, block))
            out: list[Text] = []
            for row in sorted(bands):
                out += flow([b for _, b in sorted(bands[row], key=lambda x: x[0])], width, gap)
            return out
        return flow([b for _, b in blocks], width, gap)


def _tall(blocks: list[tuple[Layer, list[Text]]], width: int) -> int:
    return len(flow([b for _, b in blocks], width, 2))


def flow(blocks: list[list[Text]], width: int, gap: int = _GAP) -> list[Text]:
    """Blocks side by side, a new band when the next would pass `width`."""
    out: list[Text] = []
    band: list[list[Text]] = []
    for block in blocks:
        if band and _width(band + [block], gap) > width:
            out += beside(band, gap)
            band = []
        band.append(block)
    return out + (beside(band, gap) if band else [])


def _width(band: list[list[Text]], gap: int) -> int:
    return sum(max([t.cell_len for t in b] + [0]) for b in band) + gap * (len(band) - 1)


def beside(band: list[list[Text]], gap: int = _GAP) -> list[Text]:
    widths = [max([t.cell_len for t in b] + [0]) for b in band]
    height = max(len(b) for b in band)
    rows = []
    for i in range(height):
        line = Text()
        for j, (b, w) in enumerate(zip(band, widths, strict=True)):
            t = b[i] if i < len(b) else Text("")
            line.append_text(t)
            if j < len(band) - 1:
                line.append(" " * (w - t.cell_len + gap))
        line.rstrip()
        rows.append(line)
    return rows
