"""The error tree and the one renderer used for syntax, check and runtime errors.

Codes are stable: R1xx syntax, R2xx check, R3xx runtime, R4xx records and command line.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulelang.source import Source, Span, printable


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    message: str
    span: Span | None
    help: str | None = None

    def sort_key(self) -> tuple[str, int, int, str]:
        s = self.span
        return (s.path, s.line, s.column, self.code) if s else ("", 0, 0, self.code)


def render(d: Diagnostic, sources: Mapping[str, Source] | None = None) -> str:
    """gcc-style header, the source line and a caret under the span, an optional help line;
    every control character shown by its picture (printable)."""
    return printable(_render(d, sources))


def _render(d: Diagnostic, sources: Mapping[str, Source] | None) -> str:
    s = d.span
    if s is None:
        out = [f"error[{d.code}]: {d.message}"]
        if d.help:
            out.append(f"  = help: {d.help}")
        return "\n".join(out)
    head = f"{s.path}:{s.line}:{s.column}: error[{d.code}]: {d.message}"
    src = (sources or {}).get(s.path)
    if src is None:
        return head + (f"\n  = help: {d.help}" if d.help else "")
    raw = src.line(s.line)
    end = s.end_column if s.end_line == s.line else len(raw) + 1
    pad = len(raw[: s.column - 1].expandtabs())
    width = len(raw[: end - 1].expandtabs()) - pad  # tabs inside the span widen the caret
    g = " " * len(str(s.line))
    out = [head, f"{g} |", f"{s.line} | {raw.expandtabs()}",
           f"{g} | {' ' * pad}{'^' * max(1, width)}"]
    if d.help:
        out.append(f"{g} = help: {d.help}")
    return "\n".join(out)


class RulelangError(Exception):
    """Base of every error rulelang raises on purpose; any other exception is a bug."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.sources: dict[str, Source] = {}

    def render(self) -> str:
        return str(self)


class RulebookError(RulelangError):
    """A rulebook that does not parse or check: carries every diagnostic, sorted by position."""

    def __init__(self, diagnostics: Iterable[Diagnostic],
                 sources: Mapping[str, Source] | None = None) -> None:
        self.diagnostics = sorted(diagnostics, key=Diagnostic.sort_key)
        super().__init__("\n".join(d.message for d in self.diagnostics))
        self.sources = dict(sources or {})

    def render(self) -> str:
        return "\n".join(render(d, self.sources) for d in self.diagnostics)


class RuleRuntimeError(RulelangError):
    """A rule failed while the game was played (R3xx)."""

    def __init__(self, message: str, span: Span | None, code: str = "R301") -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic(code, message, span)
        # the rule calls that led here, outermost first, the error's own position last:
        # (position, rule's name) each; None until the engine names them
        # (game/callchain.py), () when the error is not inside a called rule
        self.calls: tuple[tuple[Span, str], ...] | None = None

    def render(self) -> str:
        return render(self.diagnostic, self.sources) + render_calls(self.calls or (),
                                                                    self.sources)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled whole (a worker process's error reaches the parent with its position)."""
        return (_rebuilt, (type(self), str(self), self.__dict__))


def _rebuilt(cls: type[RuleRuntimeError], message: str,
             state: dict[str, object]) -> RuleRuntimeError:
    err = cls.__new__(cls)
    Exception.__init__(err, message)
    err.__dict__.update(state)
    return err


_CALLS_SHOWN = (2, 5)  # a longer chain shows its outermost 2 and innermost 5 calls


def render_calls(calls: tuple[tuple[Span, str], ...],
                 sources: Mapping[str, Source] | None = None) -> str:
    """The rule traceback under an error: each call's file:line:col, the rule it is in and
    its source line, innermost last ("" when the error is not inside a called rule)."""
    if not calls:
        return ""
    head, tail = _CALLS_SHOWN
    shown: list[tuple[Span, str] | int] = list(calls)
    if len(calls) > head + tail + 1:
        shown = [*calls[:head], len(calls) - head - tail, *calls[-tail:]]
    out = ["", "  = rule calls (innermost last):"]
    for item in shown:
        if isinstance(item, int):
            out.append(f"      … {item} more")
            continue
        span, name = item
        src = (sources or {}).get(span.path)
        text = src.line(span.line).strip() if src else ""
        out.append(f"      {span} in {name}" + (f": {text}" if text else ""))
    return printable("\n".join(out))


class Refusal(RuleRuntimeError):
    """The rules say this cannot happen now: a `require` that fails, a `put` with no piece
    left to put, a `move` or `remove` of no piece, a piece sent nowhere (none). While a menu
    is made, a refusal makes a way of acting illegal; any other RuleRuntimeError raised there
    is a mistake in the rules and is reported. Outside a menu, a refusal is reported as any
    rule error is (same code, message and position)."""


class StatedChanceError(RuleRuntimeError):
    """A draw met an outcome stated for it (a scenario's `chance`) that it cannot give;
    `stated_at` is where that outcome was stated."""

    def __init__(self, message: str, span: Span | None, stated_at: Span | None) -> None:
        super().__init__(message, span)
        self.stated_at = stated_at


class IllegalActionError(RulelangError):
    """An action that is not legal now; the message says why."""


class RecordError(RulelangError):
    """A game record that cannot be read or does not replay (R4xx)."""


def diagnostic_error(code: str, message: str, span: Span | None,
                     help: str | None = None) -> RulebookError:
    return RulebookError([Diagnostic(code, message, span, help)])
