"""Source text and positions: every AST node, diagnostic and runtime error carries a Span."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Span:
    path: str
    line: int  # 1-based, as lark.tree.Meta
    column: int
    end_line: int
    end_column: int  # exclusive

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True, eq=False)
class CalledSpan(Span):
    """A span of a rule's body that generated code holds once for each place the rule is
    written in (inlined): `calls` are the calls it was written for, outermost first (the
    rule tracebacks of game/callchain.py). Equal to the plain Span of the same position."""
    calls: tuple[Span, ...] = ()

    def plain(self) -> Span:
        return Span(self.path, self.line, self.column, self.end_line, self.end_column)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CalledSpan):
            return self.plain() == other.plain() and self.calls == other.calls
        return self.plain() == other if isinstance(other, Span) else NotImplemented

    def __hash__(self) -> int:
        return hash(self.plain())


def with_calls(span: Span, calls: list[Span]) -> Span:
    """The span as written in place of the calls (outermost first); itself when none."""
    if not calls:
        return span
    return CalledSpan(span.path, span.line, span.column, span.end_line, span.end_column,
                      tuple(calls))


@dataclass(frozen=True)
class Source:
    path: str  # as the user named it (shown in diagnostics)
    text: str
    _lines: list[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_lines", self.text.splitlines())

    def line(self, n: int) -> str:
        return self._lines[n - 1] if 0 < n <= len(self._lines) else ""

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.text.encode()).hexdigest()

    def span_at_end(self) -> Span:
        n = max(1, len(self._lines))
        col = len(self.line(n)) + 1
        return Span(self.path, n, col, n, col + 1)


# Characters a terminal would act on rather than show: C0 and C1 controls (but tab and new
# line), DEL, and the bidirectional overrides and isolates ("Trojan source"). Each becomes one
# visible character, so a caret under a quoted line stays in its column.
_UNPRINTABLE = {i: 0x2400 + i for i in range(0x20) if i not in (0x09, 0x0A)}
_UNPRINTABLE.update({0x7F: 0x2421, **{i: 0xFFFD for i in range(0x80, 0xA0)},
                     **{i: 0xFFFD for i in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}})


def unprintable(text: str) -> list[int]:
    """The offsets of the characters `printable` would replace."""
    return [i for i, ch in enumerate(text) if ord(ch) in _UNPRINTABLE and ch != "\r"]


def printable(text: str) -> str:
    """Text from a rulebook, a record or a scenario made safe to print: a control character
    is shown as its picture (NUL as ␀, ESC as ␛), never sent to the terminal."""
    return text.translate(_UNPRINTABLE)
