"""How a piece of a kind looks, when its `picture` is a record rather than lines of text:
`picture pine(t) = (glyph: "P" if t.standing else "p", colour: "red", shape: "triangle",
label: "red pine" if t.standing else "red pine sapling")` (docs/language.md, "Pictures").
The fields, the colours and the shapes every picture knows; the checker judges a written
value, the engine a value computed as the game runs (the same words)."""
from __future__ import annotations

import re
from typing import Any

FIELDS = ("glyph", "colour", "shape", "label")
ALIASES = {"color": "colour"}
# named colours a rulebook may write (a player named by one is drawn in it too), or #RGB /
# #RRGGBB; Okabe & Ito's palette where it has the colour
COLOURS = {"white": "#FFFFFF", "black": "#222222", "red": "#D55E00", "blue": "#0072B2",
           "green": "#009E73", "yellow": "#F0E442", "orange": "#E69F00",
           "purple": "#CC79A7", "pink": "#CC79A7", "brown": "#8B5A2B", "grey": "#999999",
           "gray": "#999999", "darkred": "#8B1A1A", "darkgreen": "#1E5631",
           "lightgreen": "#A8D5A2", "navy": "#1F3A68", "gold": "#D4A017", "tan": "#D2B48C",
           "olive": "#6B6B2A", "teal": "#2A7F7F", "sky": "#56B4E9", "cream": "#F3EBD8"}
SHAPES = ("circle", "square", "diamond", "triangle", "hexagon", "pentagon", "star", "octagon",
          "cross", "heptagon")
MAX_GLYPH = 3  # characters: a board cell shows the owner's mark and the glyph
MAX_LABEL = 40
_HEX = re.compile(r"#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})")


def field_name(name: str) -> str:
    return ALIASES.get(name, name)


def hex_colour(text: str) -> str | None:
    """A colour's #RRGGBB, or None when the text names no colour."""
    if _HEX.fullmatch(text):
        return text.upper() if len(text) == 7 else "#" + "".join(c * 2 for c in text[1:]).upper()
    return COLOURS.get(text.lower())


def wrong_value(field: str, value: Any) -> str | None:
    """What is wrong with one field's value (None: it can be drawn)."""
    if not isinstance(value, str):
        return f"a picture's {field} is a text, not {type(value).__name__}"
    if field == "colour" and hex_colour(value) is None:
        return f"\"{value}\" is not a colour: a name ({', '.join(list(COLOURS)[:8])} …) or " \
               f"#RRGGBB"
    if field == "shape" and value not in SHAPES:
        return f"\"{value}\" is not a shape: one of {', '.join(SHAPES)}"
    if field == "glyph" and not 1 <= len(value) <= MAX_GLYPH:
        return f"a glyph is 1 to {MAX_GLYPH} characters, not {len(value)}"
    if field == "glyph" and (not value.isprintable() or value != value.strip()):
        return "a glyph is printable characters, no spaces around it"
    if field == "label" and len(value) > MAX_LABEL:
        return f"a label is at most {MAX_LABEL} characters"
    return None


def look_of(fields: tuple[str, ...], values: tuple[Any, ...]) -> tuple[dict[str, str], str | None]:
    """The look a record value gives (field names normalised), and what is wrong with it."""
    look: dict[str, str] = {}
    for name, value in zip(fields, values, strict=True):
        name = field_name(name)
        if name not in FIELDS:
            return look, f"a picture has no field '{name}' (fields: {', '.join(FIELDS)})"
        wrong = wrong_value(name, value)
        if wrong is not None:
            return look, wrong
        look[name] = (hex_colour(value) or value) if name == "colour" else value
    return look, None
