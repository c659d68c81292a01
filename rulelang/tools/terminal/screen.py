"""One screen of a game, as the player to see it may see it: a header, each player's colour
and goal (the rulebook's `view` goals), the board (board.py), then what lies beside it,
grouped: the viewer's own zones, counters and vars, each other player's, then the table's
(shared ones). Vars, counters and zones that the rulebook's `view` hides are left out, those
it titles (`show x as "…"`) are shown by that title; a piece in a zone is listed with its
attributes but those the `view` hides. A value the viewer may not see shows as
hidden, never as none. Zones named alike but for a number (stack1 … stack9) share one line.
A screen is fitted to its height by layout alone (`Screen.lines`): what lies beside the board
goes beside it where the board's rows leave room, before anything is drawn more compactly.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from rich.cells import cell_len
from rich.control import strip_control_codes
from rich.text import Text

from rulelang.tools.pictures.render import owner_glyphs, piece_style
from rulelang.tools.terminal.board import LAST, BoardPainter, player_colours

Obs = dict[str, Any]


def wrap(text: Text, width: int, indent: int = 2) -> list[Text]:
    """A text cut at spaces into lines of at most `width` cells, continued with an indent."""
    return wrap_items(Text(""), [text], width, indent)


def wrap_items(head: Text, items: list[Text], width: int, indent: int = 4,
               sep: str = " · ") -> list[Text]:
    """`head` then the items joined by `sep`, a new line (indented) where the next item
    would pass `width`; an item longer than a line is cut at its spaces."""
    pad, joint = Text(" " * indent), Text(sep, style="dim")
    words: dict[int, list[Text]] = {}
    out: list[Text] = []
    for plan, _ in _wrapped(head.plain, [t.plain for t in items], width, indent, sep):
        line = (head if plan[0] == _HEAD else pad).copy()
        for part in plan[1:]:
            if part == _SEP:
                line.append(joint)
            elif len(part) == 1:
                line.append(items[part[0]])
            else:
                i, k = part
                if i not in words:
                    words[i] = list(items[i].split(" ", include_separator=True))
                line.append(words[i][k])
        line.rstrip()
        out.append(line)
    return out


def wrap_plain(head: str, items: list[str], width: int, indent: int = 4,
               sep: str = " · ") -> list[str]:
    """The lines of `wrap_items` as plain text (no styles), made without rich's texts."""
    return [text.rstrip() for _, text in _wrapped(head, items, width, indent, sep)]


Part = tuple[int, ...]  # a line's part: _HEAD, _PAD, _SEP, (item,) or (item, word)
_HEAD: Part = (-1,)
_PAD: Part = (-2,)
_SEP: Part = (-3,)


def _wrapped(head: str, items: list[str], width: int, indent: int, sep: str
             ) -> list[tuple[list[Part], str]]:
    """Where wrap_items cuts: each line's parts and its plain text."""
    out: list[tuple[list[Part], str]] = []
    line: list[Part] = [_HEAD]
    text = head
    pad = " " * indent
    for i, item in enumerate(items):
        joined = bool(cell_len(text) > indent and text.strip() and text != head)
        if cell_len(text) + (cell_len(sep) if joined else 0) + cell_len(item) <= width:
            if joined:
                line.append(_SEP)
                text += sep
            line.append((i,))
            text += item
            continue
        if text.strip() and text != head:
            out.append((line, text))
            line, text = [_PAD], pad
        for k, word in enumerate(_words(item)):
            if cell_len(text) + cell_len(word) > width and text.strip():
                out.append((line, text))
                line, text = [_PAD], pad
            line.append((i, k))
            text += word
    if text.strip():
        out.append((line, text))
    return out


def _words(text: str) -> list[str]:
    """The text cut after each space (rich's `split(" ", include_separator=True)`)."""
    if " " not in text:
        return [text]
    parts = text.split(" ")
    return [p + " " for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


Item = tuple[tuple[str, str], ...]  # a group's item as (text, style) parts


def _text(item: Item) -> Text:
    """An item as rich text: its parts added up (the first part's style is the whole's)."""
    out = Text(item[0][0], style=item[0][1])
    for text, style in item[1:]:
        out = out + Text(text, style=style)
    return out


def _plain(item: Item) -> str:
    """An item's text, as `_text(item).plain` (control codes taken out, as rich does)."""
    return "".join(strip_control_codes(text) for text, _ in item)


class Screen:
    def __init__(self, obs: Obs, last: set[str] | frozenset[str] = frozenset(),
                 width: int = 80, height: int | None = None) -> None:
        self.obs, self.last, self.width, self.height = obs, last, width, height
        view = obs.get("view") or {}
        self.goals: dict[str, str] = view.get("goals") or {}
        self.hidden: set[str] = set(view.get("hidden") or [])
        self.labels: dict[str, str] = view.get("labels") or {}
        self.colours = player_colours(obs["players"])
        self.glyphs = owner_glyphs(obs["players"])
        self.painter = BoardPainter(obs, last)
        self.page = 0  # of a screen too tall for the terminal: which part is shown
        self.pages = 1  # how many parts it has (set by lines())

    # -- parts ----------------------------------------------------------------------------
    def header(self) -> Text:
        obs = self.obs
        players, me, now = obs["players"], obs["player"], obs["current_player"]
        t = Text(obs["game"], style="bold")
        if obs["terminal"]:
            t.append(" — game over")
            winners = obs.get("winners") or []
            if winners and not obs.get("capped"):
                t.append(": ")
                t.append(" and ".join(players[w] for w in winners) +
                         (" wins" if len(winners) == 1 else " win"),
                         style=self.colours[players[winners[0]]] if len(winners) == 1 else "")
        elif 0 <= now < len(players):
            t.append(" — ")
            t.append(players[now], style=self.colours[players[now]])
            t.append(" to move")
        if 0 <= me < len(players):
            t.append(" — you are ")
            t.append(players[me], style=self.colours[players[me]])
        if "turn" in obs:
            t.append(f" — turn {obs['turn']}", style="dim")
        return t

    def legend(self, width: int | None = None) -> list[Text]:
        """Each player's mark and goal (one line each when the rulebook states goals)."""
        width = width or self.width
        out: list[Text] = []
        players = self.obs["players"]
        everyone = self.goals.get("everyone")
        if any(p in self.goals for p in players):
            for p in players:
                t = Text("  ")
                t.append(self._mark(p), style=self.colours[p])
                if p in self.goals:
                    t.append(f": {self.goals[p]}")
                out += wrap(t, width, 6)
        else:
            out += wrap_items(Text("  "), [Text(self._mark(p), style=self.colours[p])
                                           for p in players], width, 2, sep="   ")
        style = piece_style(self.obs)
        pictured = any("picture" in p for s in self.obs["board"] for p in s["pieces"])
        if style is not None and not pictured:
            kinds = ", ".join(style.legend())
            flags = sorted({a for k, a in style.flags.items() if k not in style.looks})
            numbers = sorted({a for k, names in style.numbers.items() if k not in style.looks
                              for a in names})
            extra = (f"; capital: {'/'.join(flags)}" if flags else "") + \
                (f"; digits: {'/'.join(numbers)}" if numbers else "")
            out += wrap(Text(f"  pieces: {kinds}{extra}", style="dim"), width, 4)
        if everyone:
            out += wrap(Text(f"  goal: {everyone}"), width, 4)
        return out

    def _mark(self, player: str) -> str:
        glyph = self.glyphs[player]
        return player if glyph == player else f"{glyph} {player}"

    def board(self, compact: bool = False, bottom_edge: bool = True) -> list[Text]:
        """The board; compact: pictured layers one line a site, but for the viewer's;
        without the bottom edge: the column names above the top row only."""
        self.painter.bottom_edge = bottom_edge
        return self.painter.lines(self.width, 0 if compact else None)

    def groups(self, width: int | None = None) -> list[Text]:
        """The zones, counters and vars beside the board: the viewer's, each other player's,
        then the shared ones; one line (wrapped) per group."""
        return [line for head, items in self._groups()
                for line in wrap_items(_text(head), [_text(i) for i in items],
                                       width or self.width)]

    def group_lines(self, width: int | None = None) -> list[str]:
        """The lines of `groups` as plain text (for a picture: no styles, made faster)."""
        return [line for head, items in self._groups()
                for line in wrap_plain(_plain(head), [_plain(i) for i in items],
                                       width or self.width)]

    def _groups(self) -> list[tuple[Item, list[Item]]]:
        """Each group's head and items, in the order shown."""
        players, me = self.obs["players"], self.obs["player"]
        order = ([players[me]] if 0 <= me < len(players) else []) + \
            [p for p in players if 0 > me or p != players[me]]
        items: dict[str | None, list[Item]] = {p: [] for p in order}
        items[None] = []
        for owner, item in self._zone_items() + self._value_items():
            items.setdefault(owner, []).append(item)
        out: list[tuple[Item, list[Item]]] = []
        for owner in [*order, None]:
            if not items.get(owner):
                continue
            if owner is None:
                head: Item = (("table: ", "bold"),)
            else:
                who = "you" if 0 <= me < len(players) and owner == players[me] else owner
                head = ((f"{who}: ", "bold " + self.colours.get(owner, "")),)
            out.append((head, items[owner]))
        return out

    def scores(self, width: int | None = None) -> list[Text]:
        scores = self.obs.get("scores")
        if scores is None:
            return []
        t = Text("scores: ", style="bold")
        for i, (n, s) in enumerate(zip(self.obs["players"], scores, strict=False)):
            t.append((", " if i else "") + f"{n} {s:g}", style=self.colours.get(n, ""))
        return wrap(t, width or self.width, 4)

    # -- zones, counters, vars -------------------------------------------------------------
    def _title(self, name: str) -> str:
        return self.labels.get(name, name.replace("_", " "))

    def _zone_items(self) -> list[tuple[str | None, Item]]:
        zones = [z for z in self.obs["zones"] if z["zone"] not in self.hidden]
        out: list[tuple[str | None, Item]] = []
        runs: dict[tuple[str, Any], list[Obs]] = {}
        for z in zones:  # stack1 … stack9, or indexed zones stack[1] … stack[9]: one item
            stem = re.sub(r"\d+$|\[\d+\]$", "", z["zone"])
            if stem != z["zone"] and z["zone"] not in self.labels:
                bracket = "[" if z["zone"].endswith("]") else ""
                runs.setdefault((stem + bracket, z.get("owner")), []).append(z)
        merged = {id(z) for run in runs.values() if len(run) > 1 for z in run}
        empty: dict[str | None, list[str]] = {}
        for z in zones:
            if id(z) in merged:
                continue
            if z.get("pieces") is not None and not z["pieces"]:
                empty.setdefault(z.get("owner"), []).append(self._title(z["zone"]))
                continue
            out.append((z.get("owner"), ((f"{self._title(z['zone'])}: ", "bold"),
                                         (self._contents(z), ""))))
        for (stem, owner), run in runs.items():
            if len(run) < 2:
                continue
            counts = ", ".join(str(z["count"]) for z in run)
            hidden = all(z.get("pieces") is None for z in run)
            first = re.search(r"\d+(?=\]?$)", run[0]["zone"])
            last = re.search(r"\d+(?=\]?$)", run[-1]["zone"])
            lo, hi = first.group() if first else "", last.group() if last else ""
            span = f"{stem}{lo}..{hi}]" if stem.endswith("[") else f"{stem}{lo}-{hi}"
            if stem.endswith("[") and stem[:-1] in self.labels:  # `show stack as "Piles"`
                span = f"{self.labels[stem[:-1]]} {lo}..{hi}"
            out.append((owner, ((f"{span.replace('_', ' ')}: ", "bold"),
                                (f"{counts}" + (" hidden" if hidden else ""), ""))))
        for owner, names in empty.items():
            out.append((owner, (("empty: ", "dim"), (", ".join(names), "dim"))))
        return out

    def _contents(self, zone: Obs) -> str:
        if zone.get("pieces") is None:
            return f"{zone['count']} hidden"
        counts: Counter[str] = Counter()
        for p in zone["pieces"]:
            counts[self._label(p)] += p.get("count", 1)
        return ", ".join(k if n == 1 else f"{n} {k}" for k, n in counts.items())

    def _label(self, piece: Obs) -> str:
        """A piece by its picture, else by its name (`name` attribute) or kind, with its
        attributes but those the rulebook's `view` hides."""
        lines = piece.get("picture")
        if lines:
            return lines[0] if len(lines) == 1 else "[" + " / ".join(
                x.strip() for x in lines) + "]"
        if (piece.get("look") or {}).get("label"):  # the rulebook's word for it
            return str(piece["look"]["label"])
        attrs = {k: v for k, v in (piece.get("attrs") or {}).items() if k not in self.hidden}
        if "name" in attrs:  # a card by its name, then its other values: "Outou(桜桃 summer 3)"
            name = attrs.pop("name")
            rest = " ".join(str(v) for v in attrs.values() if v not in ("", None, [], ()))
            return f"{name}({rest})" if rest else str(name)
        base = str(piece.get("kind"))
        items = [_attr(k, v) for k, v in attrs.items() if v not in ("", None, [], ())]
        return f"{base} ({', '.join(items)})" if items else base

    def _value_items(self) -> list[tuple[str | None, Item]]:
        out: list[tuple[str | None, Item]] = []
        for c in self.obs["counters"]:
            if c["counter"] not in self.hidden:
                out.append((c.get("owner"), ((f"{self._title(c['counter'])} ", ""),
                                             (str(c["value"]), "bold"))))
        for v in self.obs.get("vars", []):
            if v["var"] in self.hidden:
                continue
            value = "hidden" if v.get("hidden") else value_text(v["value"])
            out.append((v.get("owner"), ((f"{self._title(v['var'])} ", ""),
                                         (value, "italic" if v.get("hidden") else "bold"))))
        return out

    # -- the whole screen -------------------------------------------------------------------
    def lines(self, notes: Side | None = None, tails: list[Side] | None = None
              ) -> list[Text]:
        """The header, the legend, the board and what lies beside it (the groups, the scores,
        then `notes(width)`: what the caller adds, such as the last moves), then a tail (the
        question and the moves, or the end: the first of `tails` that lets the screen fit,
        the later ones say less). In `height` rows when a layout can: the legend above the
        board and the rest below it; else both beside the board (where its lines leave room,
        so beside the short top rows of a slanted board too); else the tail beside it as
        well; else the same with the pictured layers made compact, or without the column
        names under the board."""
        legend = _remembered(self.legend)
        rest = _remembered(lambda w: [*self.groups(w), *self.scores(w),
                                      *(notes(w) if notes else [])])
        variants = [{}, {"compact": True} if self.painter.boxed else {"bottom_edge": False}]
        boards: dict[int, list[Text]] = {}
        best: list[Text] | None = None
        for whole in tails or [lambda w: []]:
            tail = _remembered(whole)
            for i, variant in enumerate(variants):
                if i not in boards:
                    boards[i] = self.board(**variant)
                for body in self._bodies(boards[i], legend, rest, tail):
                    if body is None:
                        continue
                    screen = [self.header(), *body]
                    if self.height is None or len(screen) < self.height:  # and the prompt
                        return screen
                    if best is None or len(screen) < len(best):
                        best = screen
        if best is not None and self.height is not None and len(best) >= self.height:
            last = boards[len(variants) - 1]
            side = _remembered(lambda w: legend(w) + rest(w))
            bodies = [b for b in (panel(last, side, self.width),
                                  legend(self.width) + last + rest(self.width)) if b]
            brief = (tails or [lambda w: []])[-1](self.width)
            return self._paged(min(bodies, key=len), brief, len(best) + 1)
        return best or [self.header()]

    def _paged(self, body: list[Text], tail: list[Text], needed: int) -> list[Text]:
        """A screen too tall for the terminal: the header, one page of the board and what
        lies beside it, a note saying so, and the tail (the question and the moves), so that
        the header and the prompt stay in sight. Pages hold whole parts (a layer, a group)
        where they fit; the first one shown is the page that matters most to the viewer
        (`_relevance`), and `more` (self.page) turns to the next, wrapping round."""
        assert self.height is not None
        room = max(1, self.height - 3 - len(tail))  # header, note, prompt
        pages = _pack(_parts(body), room)
        self.pages = len(pages)
        first = max(range(len(pages)), key=lambda i: (self._relevance(pages[i]), -i))
        page = (first + self.page) % self.pages
        note = Text(f"— page {page + 1}/{self.pages}, `more`: next · needs {needed} rows, "
                    f"the terminal has {self.height} —", style="dim")
        return [self.header(), *pages[page], note, *tail]

    def _relevance(self, lines: list[Text]) -> int:
        """How much a page matters to its viewer: the viewer's own part (a layer titled
        with their name, their group "you: …"), the last move's sites, their pieces."""
        players, me = self.obs["players"], self.obs["player"]
        name = players[me] if 0 <= me < len(players) else None
        mine = self.colours.get(name) if name else None
        score = 0
        for line in lines:
            plain = line.plain
            if _starts_part(line) and (plain.startswith("you:") or
                                       (name and re.search(rf"\b{re.escape(name)}\b",
                                                           plain.split(":")[0]))):
                score += 4
            styles = {str(span.style) for span in line.spans}
            score += 2 * any(LAST in st for st in styles)
            score += any(mine and st.endswith(mine) for st in styles)
        return score


    def _bodies(self, board: list[Text], legend: Side, rest: Side, tail: Side
                ) -> Iterator[list[Text] | None]:
        """The layouts of one board, each made only when the one before does not fit."""
        def side(width: int) -> list[Text]:
            return legend(width) + rest(width)

        def side_and_tail(width: int) -> list[Text]:
            return side(width) + tail(width)
        yield legend(self.width) + board + rest(self.width) + tail(self.width)
        yield _then(panel(board, side, self.width), tail(self.width))
        yield panel(board, side_and_tail, self.width)


def _remembered(fn: Side) -> Side:
    made: dict[int, list[Text]] = {}

    def remembered(width: int) -> list[Text]:
        if width not in made:
            made[width] = fn(width)
        return made[width]
    return remembered


def _then(lines: list[Text] | None, more: list[Text]) -> list[Text] | None:
    return None if lines is None else lines + more


Side = Callable[[int], list[Text]]
_NARROWEST = 24  # a side panel narrower than this is not drawn


def panel(board: list[Text], side: Side, width: int, gap: int = 3) -> list[Text] | None:
    """The board with the side text at its right, from its top: beside the fewest of the
    board's first rows that the text, wrapped to the room those rows leave, fits in (or the
    whole board, the text going on below it in the same column). None: no room."""
    if not board:
        return None
    widths = [t.cell_len for t in board]
    chosen: tuple[int, list[Text]] | None = None
    made: dict[int, list[Text]] = {}
    for k in range(1, len(board) + 1):
        col = max(widths[:k]) + gap
        if width - col < _NARROWEST:
            break
        if col not in made:
            made[col] = side(width - col)
        text = made[col]
        if any(t.cell_len > width - col for t in text):
            return None  # a table that does not wrap: no room
        if len(text) <= k or k == len(board):
            chosen = (col, text)
            break
    if chosen is None:
        return None
    col, text = chosen
    out = []
    for i in range(max(len(board), len(text))):
        line = board[i].copy() if i < len(board) else Text("")
        if i < len(text):
            line.append(" " * (col - line.cell_len))
            line.append_text(text[i])
        out.append(line)
    return out


def _attr(name: str, value: Any) -> str:
    if name == "name":
        return str(value)
    if value is True:
        return name.replace("_", " ")
    if value is False:
        return "not " + name.replace("_", " ")
    return f"{name.replace('_', ' ')} {value}"


def _sheet_points(v: Any) -> float | None:
    """The points of a score sheet's line, a (label, points) pair or record; else None."""
    if isinstance(v, dict) and set(v) == {"label", "points"}:
        v = (v["label"], v["points"])
    if isinstance(v, (list, tuple)) and len(v) == 2 and isinstance(v[1], (int, float)) \
            and not isinstance(v[1], bool):
        return v[1]
    return None


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        if not value:
            return "—"
        points = [_sheet_points(v) for v in value]
        if None not in points:  # a sheet: (label, points) pairs or records
            total = sum(p for p in points if p is not None)
            return f"{total:g} ({len(value)} lines)"
        return "(" + ", ".join(value_text(v) for v in value) + ")"
    if isinstance(value, dict):  # a record, as an observation shows it
        return "(" + ", ".join(f"{k}: {value_text(v)}" for k, v in value.items()) + ")"
    return "—" if value is None else str(value)


def _starts_part(line: Text) -> bool:
    """A line that begins a part of the screen: a layer's title or a group's head (bold,
    at the left edge)."""
    plain = line.plain
    if not plain or plain[0].isspace():
        return False
    return "bold" in str(line.style) or any(
        span.start == 0 and "bold" in str(span.style) for span in line.spans)


def _parts(body: list[Text]) -> list[list[Text]]:
    parts: list[list[Text]] = []
    for line in body:
        if not parts or _starts_part(line):
            parts.append([])
        parts[-1].append(line)
    return parts


def _pack(parts: list[list[Text]], room: int) -> list[list[Text]]:
    """Pages of at most `room` lines, a part kept whole when it fits on a page of its own."""
    pages: list[list[Text]] = [[]]
    for part in parts:
        if pages[-1] and len(pages[-1]) + len(part) > room:
            pages.append([])
        for line in part:
            if len(pages[-1]) >= room:
                pages.append([])
            pages[-1].append(line)
    return [p for p in pages if p] or [[]]
