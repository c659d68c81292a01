"""Wrapping a group's items (tools/terminal/screen.py): `wrap_items` cuts where rich's texts
added one by one would (the algorithm below, kept as the reference), styles included, and
`wrap_plain` / `Screen.group_lines` give the same lines as plain text without rich. The
pictures' panel takes the plain lines; `_one_line` and `needed` (pictures) give what
textwrap and a plain scan give."""
from __future__ import annotations

import random
import textwrap

import pytest
from rich.text import Text

import rulelang
from rulelang.tools.pictures.fonts import needed
from rulelang.tools.pictures.picture import _WRAP, _one_line
from rulelang.tools.terminal.screen import Screen, wrap_items, wrap_plain

WORDS = ["a", "ab", "abcd", "abcdef", "hand:", "Outou(桜桃", "summer", "3)", "", "long" * 15,
         "\x07bell", "x\ty", "tail ", " lead", "two  spaces", "Ζευς", "👍🏽", "e\u0301"]


def _reference(head: Text, items: list[Text], width: int, indent: int = 4,
               sep: str = " · ") -> list[Text]:
    """wrap_items as it was written with rich's `+` (the behaviour to keep)."""
    out: list[Text] = []
    line = head.copy()
    pad = Text(" " * indent)
    for item in items:
        joint = Text(sep, style="dim") if line.cell_len > len(pad) and line.plain.strip() \
            and line.plain != head.plain else Text("")
        if line.cell_len + joint.cell_len + item.cell_len <= width:
            line = line + joint + item
            continue
        if line.plain.strip() and line.plain != head.plain:
            out.append(line)
            line = pad.copy()
        for word in item.split(" ", include_separator=True):
            if line.cell_len + word.cell_len > width and line.plain.strip():
                out.append(line)
                line = pad.copy()
            line = line + word
    if line.plain.strip():
        out.append(line)
    for t in out:
        t.rstrip()
    return out


def _shape(t: Text) -> tuple[str, str, list[tuple[int, int, str]]]:
    return t.plain, str(t.style), [(s.start, s.end, str(s.style)) for s in t.spans]


def _item(rng: random.Random) -> Text:
    text = Text(" ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 6))),
                style=rng.choice(["", "bold", "dim"]))
    if rng.random() < 0.5:
        text = text + Text(rng.choice(WORDS), style="italic")
    return text


@pytest.mark.parametrize("seed", range(4))
def test_wrap_cuts_as_rich_texts_added_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        head = Text(rng.choice(["", "you: ", "table: ", "  ", "a long head of a group: "]),
                    style=rng.choice(["", "bold red"]))
        items = [_item(rng) for _ in range(rng.randrange(0, 8))]
        width, indent = rng.choice([8, 20, 40, 58, 80]), rng.choice([2, 4, 6])
        sep = rng.choice([" · ", "; ", "   "])
        want = _reference(head, items, width, indent, sep)
        got = wrap_items(head, items, width, indent, sep)
        assert [_shape(t) for t in got] == [_shape(t) for t in want]
        assert wrap_plain(head.plain, [t.plain for t in items], width, indent, sep) == \
            [t.plain for t in want]


@pytest.mark.parametrize("name, options", [("muso_sakura", {"players": 4}),
                                           ("tatara", {"players": 2})])
def test_the_plain_group_lines_are_the_groups(name: str, options: dict[str, int]) -> None:
    game = rulelang.load_game(name, options)
    state, rng = game.new_initial_state(seed=2), random.Random(2)
    for ply in range(40):
        if state.is_terminal():
            break
        if ply % 8 == 0:
            for seat in [*range(game.num_players), -1]:
                screen = Screen(state.observation(seat))
                for width in (30, _WRAP, 80):
                    assert screen.group_lines(width) == \
                        [t.plain for t in screen.groups(width)]
        state.apply_action(rng.choice(state.legal_actions()))


def test_a_short_line_is_what_textwrap_gives() -> None:
    texts = ["players", "you: hand: 3 hidden", "    continued", "", " ", "ends with ",
             "a  b", "tab\there", "x" * _WRAP, "x" * (_WRAP + 1), "桜" * 40, "nbsp\xa0",
             "\x0bvt", "-" * 70, "word " * 12, "  lead and tail  "]
    for text in texts:
        if _one_line(text):
            assert textwrap.wrap(text, _WRAP, subsequent_indent="    ") == [text], text
    assert _one_line("you: hand: 3 hidden") and not _one_line("x" * (_WRAP + 1))


def test_needed_finds_the_characters_beyond_latin() -> None:
    texts = ["Outou(桜桃 summer 3)", "Ζευς — ◀ ✓", "plain ascii", "e\u0301 ĳ \u0370\u036f",
             "\u3000ideographic space\u200b", "😀 \U0001F3FD", "\u2bff\u2c00"]
    want = sorted({ch for t in texts for ch in t if ord(ch) >= 0x370
                   and not 0x2000 <= ord(ch) <= 0x2BFF and ch.isprintable()
                   and not ch.isspace()})
    assert needed(texts) == tuple(want)
    assert "桜" in want and "Ζ" in want and "\u2c00" in want and "◀" not in want
