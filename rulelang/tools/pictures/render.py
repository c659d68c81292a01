"""A terminal picture of one player's observation, built from the observation alone.

Sites with three coordinates (z, r, c) are drawn as one grid per level, bottom level first,
titled by the geometry's `layer` (the observation's "layers") or "level z"; sites with two
coordinates as one grid; any others as a list.  A cell shows its pieces bottom to top: the
first letter of the owner's name (uppercase; another letter of the name when two players
share one) or, for a piece without owner, the first letter of its kind in lowercase.
A stack of more than three pieces shows as its height and top glyph ("5W"); an empty site is
'.', and a blank means there is no site there.  When site names are short, a key grid of
names follows the pictures so a player can find the sites that the moves mention.

When the board holds owned pieces of several kinds, or pieces with attributes, each piece
shows as its owner's glyph, then a letter for its kind (a distinct letter per kind, named in
the legend), in upper case when the first yes/no attribute that differs among the pieces of
that kind in the observation is true (a card face up, a piece standing), then the value of
each number attribute that differs among them (a side, a stage): "1c2" is Player1's c-kind
piece with value 2. The pieces of one site are then joined by '+' ("B+1p"). Players named
alike but for a trailing number (Player1, Player2 …) show as that number.
"""
from __future__ import annotations

import re
import textwrap
from collections import Counter
from typing import Any

Obs = dict[str, Any]
Block = list[str]
_WIDTH = 78
_GAP = 4
_MAX_KEY_NAME = 6  # longer site names make the key grid too wide to help


def render_state(state: Any, player: int) -> str:
    """The observation of `player` and, when it is that player's turn, the numbered moves."""
    text = render_observation(state.observation(player))
    if not state.is_terminal() and state.current_player() == player:
        text += "\n\nyour moves:\n" + render_moves(state)
    return text


def render_moves(state: Any, width: int = _WIDTH) -> str:
    """The legal moves numbered from 1, in columns."""
    items = [f"{i}. {state.action_to_string(a)}"
             for i, a in enumerate(state.legal_actions(), start=1)]
    return "\n".join(_columns(items, width))


def render_observation(obs: Obs, width: int = _WIDTH) -> str:
    glyphs = owner_glyphs(obs["players"])
    style = piece_style(obs)
    boxed = any("picture" in p for s in obs["board"] for p in s["pieces"]) or any(
        "picture" in p for z in obs["zones"] for p in z.get("pieces") or [])
    lines = [_header(obs), _legend(obs, glyphs, style),
             *_board(obs["board"], glyphs, width, style, boxed, obs.get("layers") or {},
                     obs.get("layer_at") or {}),
             *_zones(obs["zones"]), *_counters(obs["counters"]), *_vars(obs.get("vars", [])),
             *_scores(obs)]
    return "\n".join(lines)


# --- glyphs ------------------------------------------------------------------------------

def owner_glyphs(players: list[str]) -> dict[str, str]:
    """One distinct uppercase letter per player: the first letter of the name if free; the
    number of names that differ only by a trailing number (Player1, Player2 …)."""
    numbered = _numbered(players)
    if numbered:
        return numbered
    taken: dict[str, str] = {}
    for i, name in enumerate(players):
        free = [ch for ch in name.upper() if ch.isalnum() and ch not in taken.values()]
        taken[name] = free[0] if free else str(i + 1)
    return taken


def _numbered(players: list[str]) -> dict[str, str]:
    stems = {name.rstrip("0123456789") for name in players}
    ends = [name[len(name.rstrip("0123456789")):] for name in players]
    if len(players) < 2 or len(stems) != 1 or not all(len(e) == 1 for e in ends):
        return {}
    return dict(zip(players, ends, strict=True))


class PieceStyle:
    """How pieces show when kinds and attributes must be told apart (see the module doc):
    a letter per kind, the yes/no attribute shown by upper case, the number attributes shown
    as digits per kind."""

    def __init__(self, letters: dict[str, str], flags: dict[str, str],
                 numbers: dict[str, list[str]],
                 looks: dict[str, list[tuple[str, str]]] | None = None) -> None:
        self.letters, self.flags, self.numbers = letters, flags, numbers
        self.looks = looks or {}  # kind -> its (glyph, label) pairs in sight, by `picture`

    def token(self, piece: Obs, glyphs: dict[str, str]) -> str:
        kind, attrs = str(piece.get("kind", "")), piece.get("attrs") or {}
        owner = piece.get("owner")
        mark = "" if owner is None else (glyphs.get(owner) or str(owner)[:1].upper())
        glyph = (piece.get("look") or {}).get("glyph")
        if glyph:  # the rulebook's own glyph for this kind and state
            return mark + str(glyph)
        letter = self.letters.get(kind, kind[:1].lower() or "?")
        if kind in self.flags and attrs.get(self.flags[kind]) is True:
            letter = letter.upper()
        digits = "".join(str(attrs.get(a)) for a in self.numbers.get(kind, []))
        return mark + letter + digits

    def legend(self) -> list[str]:
        """The legend's items: a kind's glyphs and its shortest label ("r/R red pine") when
        its picture gives them, else its letter and name."""
        out = []
        for k, letter in self.letters.items():
            seen = self.looks.get(k)
            if seen:
                label = min((re.sub(r"\s*\(.*\)$", "", lab) for _, lab in seen), key=len)
                out.append("/".join(dict.fromkeys(g for g, _ in seen)) + " " + label)
            else:
                out.append(f"{letter} {k}")
        return out


def piece_style(obs: Obs) -> PieceStyle | None:
    """The style of the board's pieces, or None when an owner glyph (or, for pieces without
    owner, a kind letter) tells them apart."""
    on_board = [p for s in obs["board"] for p in s["pieces"]]
    owned = {p.get("kind") for p in on_board if p.get("owner") is not None}
    looked = any("look" in p for p in on_board)
    if len(owned) < 2 and not looked and not any(p.get("attrs") for p in on_board):
        return None
    kinds = sorted({str(p.get("kind")) for p in on_board})
    letters: dict[str, str] = {}
    for k in kinds:
        free = [ch for ch in k.lower() if ch.isalnum() and ch not in letters.values()]
        letters[k] = free[0] if free else "?"
    every = on_board + [p for z in obs["zones"] for p in (z.get("pieces") or [])]
    flags: dict[str, str] = {}
    numbers: dict[str, list[str]] = {}
    looks: dict[str, list[tuple[str, str]]] = {}
    for p in sorted(on_board, key=_look_order):  # each kind's looks, saplings first
        look = p.get("look") or {}
        if look.get("glyph"):
            pair = (look["glyph"], look.get("label") or str(p.get("kind")).replace("_", " "))
            if pair not in looks.setdefault(str(p.get("kind")), []):
                looks[str(p.get("kind"))].append(pair)
    for k in kinds:
        rows = [p.get("attrs") or {} for p in every if p.get("kind") == k]
        names = list(rows[0]) if rows else []
        bools = [a for a in names if _varies(rows, a, bool)]
        if bools:
            flags[k] = bools[0]
        numbers[k] = [a for a in names if _varies(rows, a, int)]
    return PieceStyle(letters, flags, numbers, looks)


def _look_order(piece: Obs) -> tuple[str, str]:
    glyph = (piece.get("look") or {}).get("glyph") or ""
    return str(piece.get("kind")), glyph.swapcase()  # small letters (a sapling) first


def _varies(rows: list[Obs], attr: str, kind: type) -> bool:
    values = {r.get(attr) for r in rows}
    return len(values) > 1 and all(type(v) is kind for v in values)


def piece_glyph(piece: Obs, glyphs: dict[str, str]) -> str:
    owner = piece.get("owner")
    if owner is not None:
        return glyphs.get(owner) or (str(owner)[:1].upper() or "?")
    return (str(piece.get("kind", "")).lower() or "?")[:1]


def cell_lines(pieces: list[Obs], glyphs: dict[str, str]) -> list[str]:
    """A cell whose pieces have pictures (`picture` declarations): each piece's lines,
    bottom piece first; a piece without a picture adds its glyph as one line."""
    if not any("picture" in p for p in pieces):
        return [cell_text(pieces, glyphs)]
    lines: list[str] = []
    for p in pieces:
        lines += p.get("picture") or [piece_glyph(p, glyphs)]
    return lines


def cell_text(pieces: list[Obs], glyphs: dict[str, str], style: PieceStyle | None = None) -> str:
    marks = [piece_glyph(p, glyphs) if style is None else style.token(p, glyphs) for p in pieces]
    if not marks:
        return "."
    joint = "" if style is None else "+"  # styled tokens have several characters
    return joint.join(marks) if len(marks) <= 3 else f"{len(marks)}{marks[-1]}"


# --- header and legend -------------------------------------------------------------------

def _header(obs: Obs) -> str:
    players, me, now = obs["players"], obs["player"], obs["current_player"]
    status = "game over" if obs["terminal"] else f"{_name(players, now)} to move"
    you = f" (you are {players[me]})" if 0 <= me < len(players) else ""
    return f"{obs['game']}: {status}{you}"


def _name(players: list[str], index: int) -> str:
    return players[index] if 0 <= index < len(players) else f"player {index}"


def _legend(obs: Obs, glyphs: dict[str, str], style: PieceStyle | None = None) -> str:
    marks = [f"{g} {name}" for name, g in glyphs.items()]
    if style is not None:
        marks += style.legend()
        flags = sorted({a for k, a in style.flags.items() if k not in style.looks})
        numbers = sorted({a for k, names in style.numbers.items() if k not in style.looks
                          for a in names})
        extra = ([f"upper case: {'/'.join(flags)}"] if flags else []) + \
                ([f"digits: {'/'.join(numbers)}"] if numbers else [])
        return "pieces: " + ", ".join(marks) + "".join(f"; {x}" for x in extra)
    kinds = sorted({str(p.get("kind")) for s in obs["board"] for p in s["pieces"]
                    if p.get("owner") is None})
    marks += [f"{piece_glyph({'kind': k}, glyphs)} {k}" for k in kinds]
    return "pieces: " + ", ".join(marks)


# --- board -------------------------------------------------------------------------------

def _board(sites: list[Obs], glyphs: dict[str, str], width: int,
           style: PieceStyle | None = None, boxed: bool = False,
           layers: dict[str, str] | None = None,
           places: dict[str, list[int]] | None = None) -> list[str]:
    by_dims: dict[int, list[Obs]] = {}
    for site in sites:
        by_dims.setdefault(len(site["coords"]), []).append(site)
    out: list[str] = []
    for dims in sorted(by_dims, reverse=True):
        group = by_dims[dims]
        out += (_grids(group, glyphs, width, style, boxed, layers or {}, places or {})
                if dims in (2, 3)
                else _site_list(group, glyphs, width, style))
    return out


def _grids(sites: list[Obs], glyphs: dict[str, str], width: int,
           style: PieceStyle | None = None, boxed: bool = False,
           layers: dict[str, str] | None = None,
           places: dict[str, list[int]] | None = None) -> list[str]:
    """One grid per layer (titled by the geometry's `layer`, else "level z"), then the site
    names in the same shape; layers placed by the geometry (`layer … at (row, column)`) are
    drawn in those rows, left to right by column."""
    layers, places = layers or {}, places or {}
    levels: dict[int, list[Obs]] = {}
    for site in sites:
        z = site["coords"][0] if len(site["coords"]) == 3 else 0
        levels.setdefault(z, []).append(site)
    layered = len(sites[0]["coords"]) == 3
    titles = {z: (layers.get(str(z)) or f"level {z}") if layered else "board" for z in levels}
    order = sorted(levels)
    if boxed:  # pieces have pictures: boxes of one size for every level
        cells = {z: {_rc(s): cell_lines(s["pieces"], glyphs) for s in levels[z]} for z in order}
        lines = [ls for z in order for ls in cells[z].values() if ls != ["."]]
        wide = max([len(x) for ls in lines for x in ls] + [1])
        tall = max([len(ls) for ls in lines] + [1])
        boxes = [_box_grid(titles[z], cells[z], wide, tall) for z in order]
        keys = [_grid(f"{titles[z]} names", {_rc(s): s["site"] for s in levels[z]})
                for z in order]
        return [""] + _placed(order, boxes, places, width) + [""] + \
            _placed(order, keys, places, width)
    pictures = [_grid(titles[z], {_rc(s): cell_text(s["pieces"], glyphs, style)
                                  for s in levels[z]})
                for z in order]
    if any(len(s["site"]) > _MAX_KEY_NAME for s in sites):
        return [""] + _flow(pictures, width)
    keys = [_grid(f"{titles[z] if layered else 'site'} names",
                  {_rc(s): s["site"] for s in levels[z]}) for z in order]
    if not layered:
        return [""] + _flow(pictures + keys, width)
    return [""] + _placed(order, pictures, places, width) + [""] + \
        _placed(order, keys, places, width)


def _placed(order: list[int], blocks: list[Block], places: dict[str, list[int]],
            width: int) -> list[str]:
    """The layers' blocks flowed in one band, or, when the geometry places them, one band per
    row of the picture, each in column order."""
    if not places:
        return _flow(blocks, width)
    rows: dict[int, list[tuple[int, Block]]] = {}
    for z, block in zip(order, blocks, strict=True):
        r, col = places.get(str(z), [len(order), z])  # unplaced: below the others
        rows.setdefault(r, []).append((col, block))
    out: list[str] = []
    for r in sorted(rows):
        out += ([""] if out else []) + _flow([b for _, b in sorted(rows[r], key=lambda x: x[0])],
                                             width)
    return out


def _rc(site: Obs) -> tuple[int, int]:
    r, c = site["coords"][-2:]
    return int(r), int(c)


def _grid(title: str, cells: dict[tuple[int, int], str]) -> Block:
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    w = max([len(t) for t in cells.values()] + [len(str(c)) for c in cols])
    rw = max(len(str(r)) for r in rows)
    head = " " * rw + "  " + " ".join(str(c).rjust(w) for c in cols)
    body = [str(r).rjust(rw) + "  " + " ".join(cells.get((r, c), "").rjust(w) for c in cols)
            for r in rows]
    return [title, head.rstrip()] + [line.rstrip() for line in body]


def _box_grid(title: str, cells: dict[tuple[int, int], list[str]], wide: int = 1,
              tall: int = 1) -> Block:
    """A grid of multi-line cells in boxes, at least `wide` characters wide and `tall` lines
    tall (more if a cell needs it); an empty site is blank, a missing one is shaded."""
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    cells = {rc: ([] if lines == ["."] else lines) for rc, lines in cells.items()}
    wide = max([len(line) for ls in cells.values() for line in ls] + [len(str(cols[-1])), wide])
    widths = {c: wide for c in cols}  # one width: the grid stays square
    rule = "+" + "+".join("-" * (widths[c] + 2) for c in cols) + "+"
    out = [title, " " + " ".join(str(c).center(widths[c] + 2) for c in cols).rstrip(), rule]
    for r in rows:
        height = max([len(cells.get((r, c), [])) for c in cols] + [tall])
        for i in range(height):
            parts = []
            for c in cols:
                lines = cells.get((r, c))
                text = "/" * widths[c] if lines is None else (lines[i] if i < len(lines) else "")
                parts.append(" " + text.center(widths[c]) + " ")
            out.append("|" + "|".join(parts) + "|" + (f" {r}" if i == 0 else ""))
        out.append(rule)
    return out


def _site_list(sites: list[Obs], glyphs: dict[str, str], width: int,
               style: PieceStyle | None = None) -> list[str]:
    items = [f"{s['site']}: {cell_text(s['pieces'], glyphs, style)}" for s in sites]
    return ["", "sites:"] + _wrap(items, width, indent="  ")


# --- zones, counters, scores -------------------------------------------------------------

def _zones(zones: list[Obs]) -> list[str]:
    return ["", "zones:"] + [f"  {_zone(z)}" for z in zones] if zones else []


def _zone(zone: Obs) -> str:
    label = zone["zone"] + (f" ({zone['owner']})" if zone.get("owner") else "")
    if zone.get("pieces") is None:
        return f"{label}: {zone['count']} hidden"
    if not zone["pieces"]:
        return f"{label}: empty"
    counts: Counter[str] = Counter()
    for p in zone["pieces"]:
        counts[_piece_label(p)] += p.get("count", 1)
    return f"{label}: " + ", ".join(k if n == 1 else f"{n} {k}" for k, n in counts.items())


def _piece_label(piece: Obs) -> str:
    """A piece by its picture, if it has one; a piece with a `name` attribute by its name and
    its other non-empty attribute values ("ember(red 5)"); any other by its kind
    and attributes."""
    lines = piece.get("picture")
    if lines:
        return lines[0] if len(lines) == 1 else "[" + " / ".join(x.strip() for x in lines) + "]"
    look = piece.get("look") or {}
    if look.get("label"):
        return str(look["label"])
    attrs = dict(piece.get("attrs") or {})
    if "name" in attrs:
        name = attrs.pop("name")
        rest = " ".join(str(v) for v in attrs.values() if v not in ("", None, [], ()))
        return f"{name}({rest})" if rest else str(name)
    inner = ", ".join(f"{k}={v}" for k, v in attrs.items())
    return f"{piece['kind']}({inner})" if inner else str(piece["kind"])


def _counters(counters: list[Obs]) -> list[str]:
    if not counters:
        return []
    items = [c["counter"] + (f" ({c['owner']})" if c.get("owner") else "") + f" {c['value']}"
             for c in counters]
    return ["", "counters: " + ", ".join(items)]


def _vars(variables: list[Obs]) -> list[str]:
    if not variables:
        return []
    items = [v["var"] + (f" ({v['owner']})" if v.get("owner") else "") + f" {_value(v['value'])}"
             for v in variables]
    return [""] + textwrap.wrap("vars: " + ", ".join(items), _WIDTH, subsequent_indent="  ")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(_value(v) for v in value) + ")"
    if isinstance(value, dict):  # a record, as an observation shows it
        return "(" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + ")"
    return "none" if value is None else str(value)


def _scores(obs: Obs) -> list[str]:
    scores = obs.get("scores")
    if scores is None:
        return []
    pairs = zip(obs["players"], scores, strict=False)
    return ["", "scores: " + ", ".join(f"{n} {s}" for n, s in pairs)]


# --- layout ------------------------------------------------------------------------------

def _flow(blocks: list[Block], width: int) -> list[str]:
    """Blocks side by side, starting a new band when the next one would pass `width`."""
    out: list[str] = []
    band: list[Block] = []
    for block in blocks:
        if band and _band_width(band + [block]) > width:
            out += _beside(band) + [""]
            band = []
        band.append(block)
    return out + _beside(band)


def _band_width(band: list[Block]) -> int:
    return sum(max(map(len, b)) for b in band) + _GAP * (len(band) - 1)


def _beside(band: list[Block]) -> list[str]:
    widths = [max(map(len, b)) for b in band]
    height = max(len(b) for b in band)
    rows = [[(b[i] if i < len(b) else "").ljust(w) for b, w in zip(band, widths, strict=True)]
            for i in range(height)]
    return [(" " * _GAP).join(row).rstrip() for row in rows]


def _wrap(items: list[str], width: int, indent: str = "") -> list[str]:
    lines, line = [], indent
    for item in items:
        if line.strip() and len(line) + 2 + len(item) > width:
            lines.append(line.rstrip())
            line = indent
        line += item + "  "
    return lines + ([line.rstrip()] if line.strip() else [])


def _columns(items: list[str], width: int) -> list[str]:
    """Items in as many columns as fit, read down each column."""
    if not items:
        return []
    colw = max(map(len, items)) + 2
    ncols = max(1, width // colw)
    nrows = -(-len(items) // ncols)
    rows = [items[r::nrows] for r in range(nrows)]
    return ["".join(item.ljust(colw) for item in row).rstrip() for row in rows]
