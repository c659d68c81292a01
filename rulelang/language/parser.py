"""The parse boundary: source text -> lark.Tree, syntax errors -> RulebookError (R1xx)."""
from __future__ import annotations

import difflib
import functools
from collections.abc import Callable
from pathlib import Path
from typing import cast

import lark
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter
from lark.lexer import PatternStr

import rulelang.limits as limits
from rulelang.errors import Diagnostic, RulebookError
from rulelang.language.cache import cache_folder
from rulelang.source import Source, Span, unprintable

# The language version: bumped when what a rulebook can say or what it means changes (each
# bump is a CHANGELOG.md entry); written into game records.
GRAMMAR_VERSION = 6


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@functools.cache
def _lark(grammar: str = "grammar.lark") -> Lark:
    text = (Path(__file__).parent / grammar).read_text(encoding="utf-8")
    start = ["start", "expr"] if grammar == "grammar.lark" else ["start"]  # expr: `{…}` in texts
    return Lark(text, parser="lalr", postlex=_Indenter(), propagate_positions=True,
                maybe_placeholders=False, cache=_cache_file(grammar), start=start)


def _cache_file(grammar: str) -> str | bool:
    """Where Lark keeps its analysis of a grammar (the slow half of a cold load; Lark rebuilds
    it when the grammar, its options or Lark change): the private cache folder."""
    folder = cache_folder()
    if folder is None:
        return False
    return str(folder / f"{Path(grammar).stem}-lark{lark.__version__}.cache")


def keywords(scenario: bool = False) -> frozenset[str]:
    """The words of a grammar (`turn`, `choose`, `where` …): its terminals that are plain
    words (for the formatter's spacing and the language server's completion)."""
    lark_ = _lark("scenario.lark" if scenario else "grammar.lark")
    return frozenset(t.pattern.value for t in lark_.terminals
                     if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha())


def expected_words(text: str, scenario: bool = False) -> tuple[frozenset[str], bool]:
    """What may follow `text` (a declaration written up to the cursor): the grammar's words
    that the parser would take next, and whether a name would do. Nothing when the text
    holds a mistake before its end. A word is put where the cursor is, so that the line's
    indentation counts as it would before a statement."""
    lark_ = _lark("scenario.lark" if scenario else "grammar.lark")
    words = {t.name: t.pattern.value for t in lark_.terminals
             if isinstance(t.pattern, PatternStr) and t.pattern.value.isalpha()}
    cursor = "cursor_" * 3
    interactive = lark_.parse_interactive(text + cursor, start="start")
    try:
        for token in interactive.iter_parse():
            if token == cursor and token.end_pos == len(text) + len(cursor):
                accepts = cast("Callable[[], set[str]]", interactive.accepts)
                accepted = accepts()
                return frozenset(words[t] for t in accepted if t in words), "NAME" in accepted
    except UnexpectedToken as exc:  # no name may come here: what may
        if exc.token == cursor and exc.token.start_pos == len(text):
            return frozenset(words[t] for t in exc.expected if t in words), False
    except (UnexpectedInput, DedentError):
        pass
    return frozenset(), False


def parse(source: Source) -> Tree[Token]:
    """Parse a rulebook. After a syntax error the declaration holding it is blanked out and
    the rest is parsed again, so that every syntax error of the file is reported at once."""
    return _parse(source, "grammar.lark")


def parse_expr(text: str) -> Tree[Token]:
    """Parse one expression on one line (the `{…}` of a text); raises lark's UnexpectedInput,
    positions counted from the fragment's first character."""
    return _lark("grammar.lark").parse(text, start="expr")


def parse_scenarios(source: Source) -> Tree[Token]:
    """Parse a scenario file (*.test, scenario.lark): the same layout, comments, strings and
    syntax errors as a rulebook, with its own declarations."""
    return _parse(source, "scenario.lark")


def _parse(source: Source, grammar: str) -> Tree[Token]:
    """Each syntax error costs a parse of the rest of the file: at most MAX_SYNTAX_ERRORS
    errors are reported, and no more than MAX_PARSE_WORK characters are parsed in all."""
    _refuse_control_characters(source)
    lines = source.text.splitlines()
    diagnostics: list[Diagnostic] = []
    work = 0
    while True:
        text = "\n".join(lines) + "\n"  # blank lines keep every position where it was
        work += len(text.lstrip("\n"))
        try:
            tree = _lark(grammar).parse(text, start="start")
        except UnexpectedInput as exc:
            diagnostics.append(_syntax_diagnostic(exc, source))
            line = exc.line if isinstance(exc.line, int) and exc.line > 0 else len(lines)
        except DedentError as exc:  # inconsistent dedent
            diagnostics.append(dedent_diagnostic(source, str(exc)))
            break
        else:
            if not diagnostics:
                _check_depth(tree, source)
                return tree
            break
        if not _blank_declaration(lines, line):
            break
        if len(diagnostics) >= limits.MAX_SYNTAX_ERRORS or work > limits.MAX_PARSE_WORK:
            diagnostics.append(Diagnostic(
                "R108", f"stopped after {len(diagnostics)} syntax errors: the rest of the "
                "file is not checked", source.span_at_end(), "correct these and check again"))
            break
    raise RulebookError(diagnostics, {source.path: source})


def _refuse_control_characters(source: Source) -> None:
    """A control character (NUL, ESC, a form feed, a bidirectional override …) in a file is
    refused before Lark reads it, each where it stands (at most MAX_SYNTAX_ERRORS of them):
    a terminal would act on it when a name or message holding it is shown."""
    found = unprintable(source.text)
    if not found:
        return
    diagnostics = []
    for offset in found[:limits.MAX_SYNTAX_ERRORS]:
        before = source.text[:offset]
        line = before.count("\n") + 1
        col = offset - (before.rfind("\n") + 1) + 1
        diagnostics.append(Diagnostic(
            "R101", f"a control character (U+{ord(source.text[offset]):04X}) cannot be "
            "written here", Span(source.path, line, col, line, col + 1),
            "remove it; in a text, write what it should show"))
    raise RulebookError(diagnostics, {source.path: source})


def _check_depth(tree: Tree[Token], source: Source) -> None:
    """Refuse a tree nested deeper than MAX_NESTING before anything walks it recursively
    (the builder, the checker, the evaluators). Walked with a stack of its own."""
    stack: list[tuple[Tree[Token] | Token, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            if node.type == "INT" and len(node) > limits.MAX_NUMBER_DIGITS:
                line, col = node.line or 1, node.column or 1
                raise RulebookError([Diagnostic(
                    "R108", f"a number of {len(node):,} digits (at most "
                    f"{limits.MAX_NUMBER_DIGITS})", Span(source.path, line, col, line, col + 1))],
                    {source.path: source})
            continue
        if depth > limits.MAX_NESTING:
            meta = node.meta
            line, col = (1, 1) if getattr(meta, "empty", True) else (meta.line, meta.column)
            raise RulebookError([Diagnostic(
                "R107", f"nested too deeply: more than {limits.MAX_NESTING} levels of "
                "expressions and blocks", Span(source.path, line, col, line, col + 1),
                "name the inner parts as rules (def) or write them one after another")],
                {source.path: source})
        stack.extend((child, depth + 1) for child in reversed(node.children))


def _blank_declaration(lines: list[str], line: int) -> bool:
    """Blank the top-level declaration around 1-based `line` and every line before it (they
    were parsed already: the next parse starts at the next declaration, so that each error
    costs a parse of the rest of the file only); False when nothing is left."""
    def top(i: int) -> bool:
        text = lines[i]
        return bool(text.strip()) and not text[0].isspace() and not text.startswith("#")
    i = min(line, len(lines)) - 1
    start = next((k for k in range(i, -1, -1) if top(k)), 0)
    end = next((k for k in range(i + 1, len(lines)) if top(k)), len(lines))
    if all(not lines[k].strip() for k in range(start, end)):
        return False
    for k in range(end):
        lines[k] = ""
    return end < len(lines)


# Friendly names for the terminals Lark reports as expected.
_TOKEN_NAMES = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a string", "LPAR": "'('", "RPAR": "')'",
    "LSQB": "'['", "RSQB": "']'", "COLON": "':'", "COMMA": "','", "EQUAL": "'='",
    "LBRACE": "'{'", "RBRACE": "'}'",
    "$END": "end of file", "COMP_OP": "a comparison", "QUANT": "a quantifier",
}


def _describe(tok: Token | str) -> str:
    name = tok.type if isinstance(tok, Token) else tok
    if name in _TOKEN_NAMES:
        return _TOKEN_NAMES[name]
    return f"'{name.lower()}'" if name.isalpha() else name


# The words a line of a rulebook starts with: a misspelt one gets a "did you mean"
_KEYWORDS = ("use", "game", "players", "option", "board", "piece", "zone", "counter", "var",
             "def", "effect", "action", "setup", "turn", "round", "end", "score", "geometry",
             "picture", "view", "enum", "table", "let", "require", "choose", "optionally",
             "put", "move", "remove", "set", "increase", "decrease", "if", "elif", "else",
             "for", "repeat", "while", "do", "then", "shuffle", "reveal", "return", "winner",
             "winners", "draw", "highest", "sites", "relation", "region", "layer", "lines",
             "name", "goal", "hide", "show")


def _syntax_diagnostic(exc: UnexpectedInput, source: Source) -> Diagnostic:
    found = _syntax_diagnostic_of(exc, source)
    line = getattr(exc, "line", None)
    words = source.line(line).split() if isinstance(line, int) and line > 0 else []
    first = words[0] if words else ""
    if first.isidentifier() and first not in _KEYWORDS:
        close = difflib.get_close_matches(first, _KEYWORDS, n=1, cutoff=0.75)
        if close and len(first) > 2:
            return Diagnostic(found.code, found.message, found.span,
                              f"did you mean '{close[0]}'? ('{first}' is no keyword)")
    return found


def _syntax_diagnostic_of(exc: UnexpectedInput, source: Source) -> Diagnostic:
    if isinstance(exc, UnexpectedCharacters):
        span = Span(source.path, exc.line, exc.column, exc.line, exc.column + 1)
        char = source.line(exc.line)[exc.column - 1: exc.column]
        if char == '"':
            return Diagnostic("R101", "unterminated string", span,
                              "close the string with \" on the same line")
        return Diagnostic("R101", f"unexpected character '{char}'", span)
    assert isinstance(exc, UnexpectedToken)
    tok = exc.token
    if tok.type == "$END" or tok.line is None:
        return Diagnostic("R102", "unexpected end of file", source.span_at_end(),
                          _expected_help(exc))
    if tok.type in ("_INDENT", "_DEDENT"):
        # the indenter's tokens borrow the newline's position: the line is where it ends
        line = tok.end_line or tok.line or 1
        col = len(source.line(line)) - len(source.line(line).lstrip()) + 1
        span = Span(source.path, line, col, line, col + 1)
        what = "unexpected indentation" if tok.type == "_INDENT" else "block ends too early"
        return Diagnostic("R103", what, span, _expected_help(exc))
    end = tok.end_column if tok.end_line == tok.line and tok.end_column else tok.column + 1
    span = Span(source.path, tok.line, tok.column, tok.line, end)
    if tok.type == "_NL":
        return Diagnostic("R102", "unexpected end of line", span, _expected_help(exc))
    before = source.line(tok.line)[: tok.column - 1].rstrip().rsplit(None, 1)
    if tok.type == "NAME" and before and before[-1] in _QUANTIFIERS:
        # `x == min q in players: …`: a quantifier there is read as the builtin `min(…)`
        return Diagnostic("R101", f"unexpected {_token_text(tok)}", span,
                          f"a quantifier inside a comparison or an operation is written in "
                          f"parentheses: ({before[-1]} {tok} in …)")
    return Diagnostic("R101", f"unexpected {_token_text(tok)}", span, _expected_help(exc))


_QUANTIFIERS = {"all", "any", "count", "first", "max", "min", "sum", "each", "best", "sorted"}


def _token_text(tok: Token) -> str:
    if tok.type == "NAME":
        return f"name '{tok}'"
    if tok.type == "INT":
        return f"number {tok}"
    if tok.type == "STRING":
        return f"string {tok}"
    return f"'{tok}'"


def _expected_help(exc: UnexpectedToken) -> str | None:
    """What the parser would have accepted here (the LALR state's real choices)."""
    try:
        # lark leaves accepts() unannotated; it returns the set of terminal names
        accepts = cast("Callable[[], set[str]]", exc.interactive_parser.accepts)
        accepted = accepts()
    except Exception:  # noqa: BLE001 - no parser state to ask: say nothing rather than guess
        return None
    expected = sorted({_describe(t) for t in accepted if not t.startswith("__")})
    if not expected or len(expected) > 6:
        return None
    head = ", ".join(expected[:-1])
    return "expected " + head + (" or " if head else "") + expected[-1]


def dedent_diagnostic(source: Source, message: str) -> Diagnostic:
    """Lark's indenter gives no position for a bad dedent: find the first line whose
    indentation matches no enclosing block."""
    levels = [0]
    depth = 0
    for n, raw in enumerate(source.text.splitlines(), start=1):
        text = raw.split("#", 1)[0]
        if not text.strip():
            continue
        if depth == 0:
            indent = len(raw.expandtabs(8)) - len(raw.expandtabs(8).lstrip())
            if indent > levels[-1]:
                levels.append(indent)
            else:
                open_levels = list(levels)
                while indent < levels[-1]:
                    levels.pop()
                if indent != levels[-1]:
                    col = len(raw) - len(raw.lstrip()) + 1
                    columns = " or ".join(str(x + 1) for x in open_levels)
                    return Diagnostic("R103", "this line's indentation matches no enclosing "
                                      "block", Span(source.path, n, col, n, col + 1),
                                      f"start it in column {columns}")
        depth += text.count("(") + text.count("[") - text.count(")") - text.count("]")
        depth = max(depth, 0)
    return Diagnostic("R103", f"bad indentation: {message.lower()}", source.span_at_end())
