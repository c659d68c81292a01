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
