"""Decisions: someone must choose among options. An option is (action name or None, values);
its string is made only when asked for, and strings are unique among a decision's options.

Also the protocol the engine runs (Flow), which the reference evaluator implements
(rulelang/reference/flow.py)."""
from __future__ import annotations

from collections.abc import Generator
from typing import Any

from rulelang.model.values import show

Run = Generator["Decision", "Option", None]
Option = tuple[Any, ...]  # (action name or None, chosen values): one way to decide



class Decision:
    """Someone must choose among options; the strings are made only when asked for."""

    __slots__ = ("player", "options", "secret", "menu", "choose", "count", "_labels", "env")

    def __init__(self, player: int, options: list[Option], secret: bool = False,
                 menu: Any = None, choose: Any = None, env: Any = None) -> None:
        """menu: the `do` statement (ast.Do) of a menu; choose: the `choose` (ast.Choose);
        env: the locals where a `choose` asks (read only to fill in its `ask` text)."""
        self.player, self.options, self.secret = player, options, secret
        self.menu, self.choose, self.env = menu, choose, env
        self.count = len(options)
        self._labels: list[str] | None = None

    def labels(self) -> list[str]:
        if self._labels is None:
            self._labels = unique_labels([label(o) for o in self.options])
        return self._labels


class Nothing:
    """The value of an `optionally choose` that took none: the local is then none, and the
    option's string leaves it out (a choice of its own reads "nothing")."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NOTHING"


NOTHING = Nothing()


class ThenMark:
    """In an option's values: the action goes on here as the named one (`then NAME`); the
    name is written in the option's string before that action's values."""

    __slots__ = ("action",)

    def __init__(self, action: str) -> None:
        self.action = action

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ThenMark) and other.action == self.action

    def __hash__(self) -> int:
        return hash(("then", self.action))

    def __repr__(self) -> str:
        return f"ThenMark({self.action!r})"


def bound(v: Any) -> Any:
    """The value a choose's local gets from an option's value."""
    return None if v is NOTHING else v


def label(option: Option) -> str:
    action, values = option
    words = [] if action is None else [action]
    for v in values:
        if v is NOTHING:
            if action is None:
                words.append("nothing")
        elif type(v) is ThenMark:
            words.append(v.action)
        else:
            words.append(show(v))
    return " ".join(words)


class GameOver(Exception):
    """A result: the winners, and where the result statement is (None: no statement, as
    when nobody could do anything for a whole round)."""

    def __init__(self, winners: list[int], span: Any = None) -> None:
        self.winners = winners
        self.span = span


class Flow:
    """The flow of a game as the engine (game/engine.py) runs it: segments of play, each a
    generator that yields a Decision whenever some player must choose and is sent the chosen
    option; a result raises GameOver. `setup` runs once, `turn` runs each turn with its `end`
    section and, after the last turn of a round, the `round` section."""

    def setup(self, c: Any) -> Run:
        raise NotImplementedError

    def turn(self, c: Any) -> Run:
        raise NotImplementedError

    def explain(self, d: Decision, text: str, c: Any) -> str:
        """Why `text` is not among the options of decision d."""
        raise NotImplementedError


def unique_labels(labels: list[str]) -> list[str]:
    """Labels must be unique among the options: number repeated ones."""
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        n = seen.get(lab, 0) + 1
        seen[lab] = n
        out.append(lab if n == 1 else f"{lab} #{n}")
    return out
