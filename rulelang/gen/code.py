"""What the writer's stages pass each other: a written expression (`Code`: its source, its
form, a bound on its steps), the lines of a generated function (`Func`), a game's module
(`Generated`), and why a game is not generated (`Unsupported`, at the construct's span)."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rulelang.gen.forms import Form
from rulelang.source import Span

FILENAME = "<rulelang generated game>"
# Python's own functions the generated source may name (its globals hold them)
# a local of the writer's (or its item by a constant): read again for nothing, so a fast
# path may test it and read it (`x.kind if x.__class__ is Piece else kind_of(…, x)`)
READ_AGAIN = re.compile(r"[av]\d+(\[k\d+\])?")
ALLOWED: dict[str, Any] = {"len": len, "any": any, "all": all, "sum": sum, "tuple": tuple,
                           "bool": bool, "next": next, "iter": iter, "isinstance": isinstance,
                           "map": map, "range": range, "max": max}


class NotMasked(Exception):
    """A line read as bits is read otherwise: the loop over the lines is written again
    over the lines themselves."""


class Unsupported(Exception):
    """A construct the writer does not cover, at its span."""

    def __init__(self, what: str, span: Span | None) -> None:
        super().__init__(what)
        self.what, self.span = what, span


class Code(NamedTuple):
    src: str
    form: Form
    cost: int  # at most this many steps of the reference's budget
    shape: Any = None  # how it was made, where it can be written as statements (lower.py)


@dataclass
class Generated:
    """A game's module: its source, constants and, per function, the rulebook span it was
    written from (`compile --show`)."""
    source: str
    constants: dict[str, Any]
    origins: list[tuple[str, Span | None, str]] = field(default_factory=list)
    steps: int = 0  # the most steps one action (menu, effects, end) can take
    slots: tuple[str, ...] = ()  # the kept structures' slots (gen/layout.py)
    counting: bool = False  # are its steps counted as they run (its bound too high)?
    # do its menus try effects on scratch copies (gen/walk.py)? (a playout's draw then tries
    # only the options it draws: gen/draws.py)
    tries: bool = False
    adopts: bool = False  # … and may a draw give the copy it ran an action on (playout.Tried)?
    turn_slots: int = 0  # the turn's locals and loop positions (gen/turns.py: S.tl)
    # the turn's chooses by a player, in the order of their decision points (after the
    # `do`s), each with the slot its value goes to
    chooses: tuple[tuple[Any, int], ...] = ()
    choose_locals: tuple[dict[str, int], ...] = ()  # the locals' slots where each asks
    # the zones its code takes to hold one kind of piece (by zone), checked where a state is
    # made from data the writer did not see made (GenState.kinds_hold)
    one_kind: tuple[tuple[Any, str], ...] = ()
    # the calls of each rule's function (rule tracebacks: game/callchain.py)
    calls: dict[str, list[Span]] = field(default_factory=dict)
    step2: bool = False  # uses what compiled mode's step 2 added (gen/actions.py)
    dos: tuple[Any, ...] = ()  # the turn's `do`s (and its effects'), in their points' order
    option_slot: int | None = None  # the slot of an option the turn's machine performs


class Func:
    """The lines of one generated function."""

    def __init__(self, header: str) -> None:
        self.lines = [header]
        self.depth = 1

    def add(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)


def noting_call(method: Callable[..., Code]) -> Callable[..., Code]:
    """A Writer's method that writes the call `n` of a rule: the call's span is on the
    writer's stack of calls meanwhile (the positions of a rule written in place name it)."""
    def written(w: Any, key: str, args: list[Code], n: Any) -> Code:
        w.calls.append(n.span)
        try:
            return method(w, key, args, n)
        finally:
            w.calls.pop()
    return written
