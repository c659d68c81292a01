"""`rulelang fmt`: one layout for rulebooks and scenario files.

Two spaces per block level; one space around binary operators and after commas and colons,
none inside brackets, around `.` and `..`, before a call's `(` or an index's `[`, or after
a unary minus; lines that go on inside brackets aligned after the bracket (or four spaces in
when the bracket ends its line), after a backslash four spaces in; a line over 100
characters broken before the loosest operator (or after a comma) that makes it fit; a blank
line around every top-level declaration that has a block, at most one blank line anywhere;
trailing comments of neighbouring lines aligned (as far as the width allows). Comments stay
where they are: on their line, or on a line of their own at the nearest block level.

Only a file that parses is formatted, and the result is parsed again: its syntax tree must be
the same, else the file is left as it was (FormatError). So formatting never changes what a
file means, and formatting twice changes nothing (tests/editor/test_formatter.py).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from lark import Token as LarkToken
from lark import Tree

from rulelang.editor.layout import (
    CLOSERS,
    OPENERS,
    LayoutError,
    Line,
    Logical,
    Token,
    logical_lines,
    physical_lines,
    width,
)
from rulelang.errors import RulelangError
from rulelang.language.parser import keywords, parse, parse_scenarios
from rulelang.source import Source

LIMIT = 100  # the longest line, as the project's Python code
_STEP = "  "  # one block level
_VALUE_WORDS = {"true", "false", "none", "sites", "players", "player", "lines", "name",
                "round", "score"}  # words of the grammar that are also values
# classes of break points, loosest first: a line is broken at the loosest that fits
_BREAKS = {",": 0, "where": 1, "if": 1, "else": 1, "or": 2, "and": 3, "==": 4, "!=": 4,
           "<": 4, ">": 4, "<=": 4, ">=": 4, "+": 5, "-": 5, "*": 6, "//": 6, "%": 6}


class FormatError(RulelangError):
    """The layout would change the file's syntax tree (a bug of rulelang): nothing is
    written."""


def is_scenario(path: str) -> bool:
    return path.endswith(".test")


def format_text(text: str, path: str = "<text>", scenario: bool | None = None) -> str:
    """The file in the canonical layout; RulebookError when it does not parse."""
    scenario = is_scenario(path) if scenario is None else scenario
    parser = parse_scenarios if scenario else parse
    before = parser(Source(path, text))
    try:
        out = _Formatter(keywords(scenario)).run(text)
    except LayoutError as exc:  # (the parser accepted it: a bug of the layout)
        raise FormatError(f"{path}: cannot format: {exc}") from None
    if out != text and not same_tree(before, parser(Source(path, out))):
        raise FormatError(f"{path}: formatting would change the rules' meaning: left as it "
                          "is (a bug of rulelang: please report it)")
    return out


def same_tree(a: Tree[LarkToken] | LarkToken, b: Tree[LarkToken] | LarkToken) -> bool:
    """Two parse trees are the same: the same rules and tokens, positions aside (a comparison
    written as `not   in` is the same as `not in`). Walked with a stack of its own."""
    todo = [(a, b)]
    while todo:
        x, y = todo.pop()
        if isinstance(x, Tree) and isinstance(y, Tree):
            if x.data != y.data or len(x.children) != len(y.children):
                return False
            todo.extend(zip(x.children, y.children, strict=True))
        elif isinstance(x, LarkToken) and isinstance(y, LarkToken):
            if x.type != y.type or " ".join(x.split()) != " ".join(y.split()):
                return False
        else:
            return False
    return True


@dataclass
class _Row:
    """An output line: indentation, code (may be empty) and a trailing comment."""
    indent: str
    code: str
    comment: str | None = None
    level: int = 0
    top: bool = False  # the first line of a top-level declaration

    @property
    def text(self) -> str:
        return self.indent + self.code


@dataclass
class _Seg:
    tokens: list[Token]
    comment: str | None
    cont: bool = False


@dataclass
class _Open:
    column: int  # where the bracket is, 0-based
    hanging: bool  # nothing follows it on its line
    indent: int  # the indentation of its line


@dataclass
class _Entry:
    kind: str  # code, comment, blank
    level: int = 0
    rows: list[_Row] = field(default_factory=list)
    block: bool = False  # top-level code followed by an indented block


class _Formatter:
    def __init__(self, words: frozenset[str]) -> None:
        self.words = words

    def run(self, text: str) -> str:
        entries = self._entries(logical_lines(physical_lines(text)))
        entries = _spaced(entries)
        rows = [r for e in entries for r in (e.rows or [_Row("", "")])]
        _align_comments(rows)
        out = [(r.text + ("  " + r.comment if r.comment and r.code else r.comment or "")
                if r.code else r.indent + (r.comment or "")).rstrip() for r in rows]
        return "\n".join(out) + "\n" if out else ""

    # ---- levels
    def _entries(self, logicals: list[Logical]) -> list[_Entry]:
        stack = [0]
        entries: list[_Entry] = []
        for i, logical in enumerate(logicals):
            first = logical.first
            if first.blank and len(logical.lines) == 1:
                entries.append(_Entry("blank"))
            elif not logical.code:
                level = _comment_level(width(first.indent), stack, _next_width(logicals, i))
                entries.append(_Entry("comment", level, [_Row(_STEP * level, "", first.comment,
                                                              level)]))
            else:
                w = width(first.indent)
                if w > stack[-1]:
                    stack.append(w)
                while w < stack[-1] and len(stack) > 1:
                    stack.pop()
                level = len(stack) - 1
                entries.append(_Entry("code", level, self._code(logical, level)))
        return entries

    # ---- one statement, over its lines
    def _code(self, logical: Logical, level: int) -> list[_Row]:
        segs = _segments(logical.lines)
        rows: list[_Row] = []
        opened: list[_Open] = []
        prev: Token | None = None
        base = len(_STEP) * level
        i = 0
        while i < len(segs):
            seg = segs[i]
            if not seg.tokens:
                rows.append(_Row(" " * self._indent(opened, base, None), "", seg.comment, level))
                i += 1
                continue
            indent = self._indent(opened, base, seg.tokens[0], head=i == 0)
            placed = self._place(seg.tokens, indent, prev, head=i == 0)
            end = indent + sum(len(g) + len(t.text) for g, t in placed)
            if end > LIMIT:
                cut = self._cut(seg, placed, indent, len(opened))
                if cut is not None:
                    head = _Seg(seg.tokens[:cut], None, cont=True)
                    segs[i:i + 1] = [head, _Seg(seg.tokens[cut:], seg.comment, seg.cont)]
                    continue
            code = "".join(g + t.text for g, t in placed)
            column = indent
            for g, t in placed:
                column += len(g)
                if t.text in OPENERS:
                    opened.append(_Open(column, False, indent))
                elif t.text in CLOSERS and opened:
                    opened.pop()
                column += len(t.text)
            if opened and opened[-1].column + 1 == column:
                opened[-1].hanging = True
            if seg.cont and not opened and i + 1 < len(segs):
                code += " \\"
            rows.append(_Row(" " * indent, code, seg.comment, level))
            prev = seg.tokens[-1]
            i += 1
        rows[0].top = level == 0
        return rows

    def _indent(self, opened: list[_Open], base: int, first: Token | None,
                head: bool = False) -> int:
        if not opened:
            return base if head else base + 4  # after a backslash
        top = opened[-1]
        if top.hanging:
            return top.indent if first is not None and first.text in CLOSERS else top.indent + 4
        return top.column + 1

    def _place(self, tokens: list[Token], indent: int, prev: Token | None,
               head: bool) -> list[tuple[str, Token]]:
        placed: list[tuple[str, Token]] = []
        unary = False
        before = prev
        for n, tok in enumerate(tokens):
            gap = "" if n == 0 else self._gap(before, tok, unary)
            if head and n == 1 and tokens[0].text in self.words:
                gap = " "  # `sites (z, r, c) for …`: a declaration's word, not a call
            unary = tok.text == "-" and not self._operand_end(before)
            placed.append((gap, tok))
            before = tok
        return placed

    def _operand_end(self, tok: Token | None) -> bool:
        if tok is None:
            return False
        if tok.kind in ("int", "string") or tok.text in CLOSERS:
            return True
        return tok.kind == "name" and (tok.text not in self.words or tok.text in _VALUE_WORDS)

    def _gap(self, a: Token | None, b: Token, a_unary: bool) -> str:
        if a is None:
            return ""
        if b.text in CLOSERS or b.text in (",", ":") or a.text in OPENERS or a_unary:
            return ""
        if a.text in (".", "..") or b.text in (".", ".."):
            return ""
        if b.text in ("(", "[") and self._operand_end(a):
            return ""
        return " "

    def _cut(self, seg: _Seg, placed: list[tuple[str, Token]], indent: int,
             depth0: int) -> int | None:
        """Where to break a line too long: before token j (None: nowhere). At the outermost
        bracket depth that has a break point: the loosest point whose line fits (the
        rightmost of these), else the first point there (the line is broken again inside)."""
        points: list[tuple[int, int, int, bool]] = []  # depth, class, j, fits
        depth, column = depth0, indent
        for j, (gap, tok) in enumerate(placed):
            before = placed[j - 1][1] if j else None
            cls = self._break_class(before, tok, placed[j - 2][1] if j > 1 else None)
            if cls is not None and not (tok.text in ("if", "else") and j < 2):
                points.append((depth, cls, j, column + (2 if depth == 0 else 0) <= LIMIT))
            column += len(gap) + len(tok.text)
            if tok.text in OPENERS:
                depth += 1
            elif tok.text in CLOSERS:
                depth -= 1
        if not points:
            return None
        outer = min(p[0] for p in points)
        fitting = [p for p in points if p[0] == outer and p[3]]
        if fitting:
            return min(fitting, key=lambda p: (p[1], -p[2]))[2]
        return min(p[2] for p in points if p[0] == outer)

    def _break_class(self, before: Token | None, tok: Token, earlier: Token | None) -> int | None:
        """A line may be broken before `tok`: after a comma, or before a binary operator."""
        if before is None:
            return None
        if before.text == ",":
            return _BREAKS[","]
        if tok.text == "," or before.text == "not":  # (`not in` is one operator)
            return None
        if tok.text == "-" and not self._operand_end(before):
            return None  # a unary minus
        if before.text == "-" and not self._operand_end(earlier):
            return None
        return _BREAKS.get(tok.text)


def _segments(lines: list[Line]) -> list[_Seg]:
    """The physical lines of a statement as segments (blank lines inside brackets dropped)."""
    return [_Seg(list(line.tokens), line.comment, line.cont) for line in lines
            if not line.blank]


def _next_width(logicals: list[Logical], i: int) -> int | None:
    for logical in logicals[i + 1:]:
        if logical.code:
            return width(logical.first.indent)
    return None


def _comment_level(w: int, stack: list[int], following: int | None) -> int:
    """A comment line goes to the deepest block level at or left of where it was written:
    an open block's, or the next line's when that opens a block."""
    levels = list(stack)
    if following is not None and following > stack[-1]:
        levels.append(following)
    level = 0
    for n, at in enumerate(levels):
        if at <= w:
            level = n
    return level


def _spaced(entries: list[_Entry]) -> list[_Entry]:
    """At most one blank line, none at the ends; one around each top-level declaration with
    a block (with the comment lines right above it)."""
    for n, e in enumerate(entries):
        if e.kind == "code" and e.level == 0:
            nxt = next((x for x in entries[n + 1:] if x.kind == "code"), None)
            e.block = nxt is not None and nxt.level > 0
    out: list[_Entry] = []
    last_top: _Entry | None = None
    for e in entries:
        if e.kind == "blank":
            if out and out[-1].kind != "blank":
                out.append(e)
            continue
        if e.kind == "code" and e.level == 0:
            start = len(out)
            while start > 0 and out[start - 1].kind == "comment" and out[start - 1].level == 0:
                start -= 1
            if last_top is not None and (last_top.block or e.block) and start > 0 \
                    and out[start - 1].kind != "blank":
                out.insert(start, _Entry("blank"))
            last_top = e
        out.append(e)
    while out and out[-1].kind == "blank":
        out.pop()
    return out


def _align_comments(rows: list[_Row]) -> None:
    """Trailing comments of neighbouring lines (no blank or comment line between) start in
    one column, two spaces after the longest code, as long as every line fits the width."""
    run: list[_Row] = []
    for row in [*rows, _Row("", "")]:
        if row.code and row.comment:
            run.append(row)
        elif not row.code:
            _align_run(run)
            run = []
    _align_run(run)


def _align_run(run: list[_Row]) -> None:
    group: list[_Row] = []
    column = 0
    for row in run:
        alone = len(row.text) + 2
        if alone + len(row.comment or "") > LIMIT:
            _pad(group, column)
            _pad([row], alone)
            group, column = [], 0
            continue
        wider = max(column, alone)
        if group and any(wider + len(m.comment or "") > LIMIT for m in [*group, row]):
            _pad(group, column)
            group, column = [row], alone
        else:
            group.append(row)
            column = wider
    _pad(group, column)


def _pad(group: list[_Row], column: int) -> None:
    for row in group:
        row.code = row.code + " " * (column - len(row.text) - 2)
