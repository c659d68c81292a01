"""The lexical layout of a rulebook or scenario file, as the formatter sees it: tokens with
their place, physical lines, and logical lines (a statement that goes on inside brackets or
after a backslash). Comments and blank lines are kept, which the parser drops.

The tokens are those of grammar.lark and scenario.lark (names, numbers, strings, operators,
comments); the formatter only reads the text of a file that parses, and checks its result
by parsing it again, so this module never decides what a file means.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_TOKEN = re.compile(r"""
    (?P<space>[ \t]+)
  | (?P<cont>\\[ \t]*(?:\r?\n|$))
  | (?P<nl>\r?\n)
  | (?P<comment>\#[^\r\n]*)
  | (?P<string>"[^"\r\n]*")
  | (?P<name>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<int>[0-9]+)
  | (?P<op>==|!=|<=|>=|\.\.|->|//|[-<>+*%=.,:()\[\]{}])
""", re.VERBOSE)
OPENERS = {"(": ")", "[": "]", "{": "}"}
CLOSERS = set(OPENERS.values())


class LayoutError(Exception):
    """A character no token starts with (only in a file that does not parse)."""


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # name, int, string, op
    text: str
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class Line:
    """One physical line: its indentation as written, its tokens and its trailing comment;
    `cont` when it ends with a backslash."""
    number: int
    indent: str
    tokens: list[Token] = field(default_factory=list)
    comment: str | None = None
    cont: bool = False

    @property
    def blank(self) -> bool:
        return not self.tokens and self.comment is None


@dataclass
class Logical:
    """A statement or declaration line with the physical lines it goes on over (inside
    brackets, or after a backslash); a comment-only or blank line is one of its own."""
    lines: list[Line]

    @property
    def first(self) -> Line:
        return self.lines[0]

    @property
    def code(self) -> bool:
        return bool(self.first.tokens)


def physical_lines(text: str) -> list[Line]:
    lines: list[Line] = []
    current = Line(1, "")
    at_start = True
    pos = line_start = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            line = len(lines) + 1
            raise LayoutError(f"unexpected character {text[pos]!r} on line {line}")
        kind, value = m.lastgroup or "", m.group()
        pos = m.end()
        if kind == "space":
            if at_start:
                current.indent = value
        elif kind in ("nl", "cont"):
            current.cont = kind == "cont"
            lines.append(current)
            current, at_start, line_start = Line(len(lines) + 1, ""), True, pos
            continue
        elif kind == "comment":
            current.comment = value.rstrip()
        else:
            current.tokens.append(Token(kind, value, current.number, m.start() - line_start + 1))
        at_start = at_start and kind == "space"
    if current.tokens or current.comment is not None or current.indent:
        lines.append(current)
    return lines


def logical_lines(lines: list[Line]) -> list[Logical]:
    """Group physical lines: a line goes on while a bracket is open or it ends with a
    backslash."""
    out: list[Logical] = []
    group: list[Line] = []
    depth = 0
    for line in lines:
        group.append(line)
        for tok in line.tokens:
            if tok.text in OPENERS:
                depth += 1
            elif tok.text in CLOSERS:
                depth = max(0, depth - 1)
        if depth == 0 and not line.cont:
            out.append(Logical(group))
            group = []
    if group:
        out.append(Logical(group))
    return out


def width(indent: str) -> int:
    """An indentation's width, a tab counting 8 as the parser's indenter counts it."""
    return len(indent.expandtabs(8))
