"""The texts a rulebook gives its players (`ask "…"`, `require … else "…"`, `choose … else
"…"`), filled in: each `{expr}` is replaced by its value, as the player reads it. The rules
never read these texts; the tools that speak to players (the terminal, the explanations of a
refused move) fill them in with the values they have at hand."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError
from rulelang.language import ast
from rulelang.model.values import Record, show


def fill(words: ast.Words, value: Callable[[ast.Expr], Any]) -> str:
    """The text with each `{expr}` replaced by `value(expr)` in words; a value that cannot be
    found here (a name with no value at this point) shows as "…"."""
    out = []
    for part in words.parts:
        if isinstance(part, str):
            out.append(part)
            continue
        try:
            out.append(say(value(part)))
        except (RulelangError, LookupError, TypeError, ValueError, AttributeError):
            out.append("…")
    return "".join(out)


def say(value: Any) -> str:
    """A value in a sentence: a list as "a, b and c", nothing as "none", the rest as in the
    action strings."""
    if isinstance(value, (list, tuple, frozenset, set)) and not isinstance(value, Record):
        items = [say(v) for v in value]
        if isinstance(value, (frozenset, set)):
            items.sort()
        if not items:
            return "none"
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    return show(value)
