"""rulelang/errors.py: the one renderer (header, source line, caret, help) and the error tree."""
from __future__ import annotations

from rulelang.errors import Diagnostic, RulebookError, RuleRuntimeError, diagnostic_error, render
from rulelang.source import Source, Span

PATH = "books/t.rule"
TEXT = "game \"T\"\nplayers A, B\n\tput ball at s\nrequire turn >\t1\n"
SOURCES = {PATH: Source(PATH, TEXT)}


def span(line: int, column: int, end_column: int, end_line: int | None = None) -> Span:
    return Span(PATH, line, column, line if end_line is None else end_line, end_column)


def lines(d: Diagnostic, sources: dict[str, Source] | None = SOURCES) -> list[str]:
    return render(d, sources).split("\n")


def caret_line(d: Diagnostic) -> str:
    return lines(d)[3]


def test_layout_header_gutter_source_and_caret() -> None:
    assert lines(Diagnostic("R201", "unknown name 'A2'", span(2, 12, 13))) == [
        "books/t.rule:2:12: error[R201]: unknown name 'A2'",
        "  |",
        "2 | players A, B",
        "  |            ^",
    ]


def test_caret_width_is_span_width() -> None:
    assert caret_line(Diagnostic("R1", "m", span(2, 1, 8))) == "  | ^^^^^^^"
    assert caret_line(Diagnostic("R1", "m", span(2, 9, 13))) == "  |         ^^^^"


def test_empty_span_still_gets_one_caret() -> None:
    assert caret_line(Diagnostic("R1", "m", span(2, 5, 5))) == "  |     ^"


def test_span_over_several_lines_is_underlined_to_the_end_of_its_first_line() -> None:
    assert caret_line(Diagnostic("R1", "m", span(1, 6, 3, end_line=2))) == "  |      ^^^"


def test_leading_tab_is_expanded_in_the_line_and_the_caret_padding() -> None:
    out = lines(Diagnostic("R1", "m", span(3, 2, 5)))
    assert out[2] == "3 |         put ball at s"
    assert out[3] == "  |         ^^^"
    assert out[2].index("put") == out[3].index("^")


def test_tab_inside_the_span_widens_the_caret() -> None:
    """`turn >\t1` shows as `turn >  1` (9 columns), so 9 carets, not 8 characters' worth."""
    out = lines(Diagnostic("R1", "m", span(4, 9, 17)))
    assert out[2] == "4 | require turn >  1"
    assert out[3] == "  |         ^^^^^^^^^"


def test_help_line_uses_the_gutter_width() -> None:
    out = lines(Diagnostic("R1", "m", span(2, 1, 8), "did you mean 'B'?"))
    assert out[-1] == "  = help: did you mean 'B'?"
    many = Source(PATH, "\n" * 11 + "turn\n")
    deep = render(Diagnostic("R1", "m", span(12, 1, 5), "add a block"), {PATH: many})
    assert deep.split("\n") == ["books/t.rule:12:1: error[R1]: m", "   |", "12 | turn",
                                "   | ^^^^", "   = help: add a block"]


def test_span_at_end_of_file_points_just_past_the_last_character() -> None:
    src = Source(PATH, "game \"T\"\nturn")
    end = src.span_at_end()
    assert (end.line, end.column) == (2, 5)
    assert render(Diagnostic("R102", "unexpected end of file", end), {PATH: src}).split("\n") \
        == ["books/t.rule:2:5: error[R102]: unexpected end of file", "  |", "2 | turn",
            "  |     ^"]


def test_span_at_end_of_a_file_ending_in_newline_and_of_an_empty_file() -> None:
    assert Source(PATH, "turn\n").span_at_end() == Span(PATH, 1, 5, 1, 6)
    empty = Source(PATH, "")
    assert empty.span_at_end() == Span(PATH, 1, 1, 1, 2)
    assert render(Diagnostic("R209", "m", empty.span_at_end()), {PATH: empty}).split("\n")[3] \
        == "  | ^"


def test_diagnostic_without_span() -> None:
    assert render(Diagnostic("R205", "unknown option 'x'", None)) == \
        "error[R205]: unknown option 'x'"
    assert render(Diagnostic("R205", "unknown option 'x'", None, "options: players")) == \
        "error[R205]: unknown option 'x'\n  = help: options: players"


def test_span_in_a_file_without_source_gives_the_header_and_help_only() -> None:
    d = Diagnostic("R1", "m", span(2, 1, 3), "h")
    assert render(d, {}) == "books/t.rule:2:1: error[R1]: m\n  = help: h"
    assert render(d) == "books/t.rule:2:1: error[R1]: m\n  = help: h"


def test_rulebook_error_sorts_by_position_and_renders_all() -> None:
    late = Diagnostic("R201", "late", span(4, 1, 2))
    early = Diagnostic("R202", "early", span(2, 1, 2))
    same_place = Diagnostic("R201", "same place, lower code", span(2, 1, 2))
    other_file = Diagnostic("R207", "other file", Span("a.rule", 9, 1, 9, 2))
    nowhere = Diagnostic("R205", "nowhere", None)
    err = RulebookError([late, early, nowhere, other_file, same_place], SOURCES)
    assert err.diagnostics == [nowhere, other_file, same_place, early, late]
    assert str(err).split("\n") == ["nowhere", "other file", "same place, lower code",
                                    "early", "late"]
    assert err.render() == "\n".join(render(d, SOURCES) for d in err.diagnostics)


def test_rulebook_error_renders_once_sources_are_attached() -> None:
    err = diagnostic_error("R201", "unknown name 'x'", span(2, 1, 8), "did you mean 'y'?")
    assert err.render().split("\n") == ["books/t.rule:2:1: error[R201]: unknown name 'x'",
                                         "  = help: did you mean 'y'?"]
    err.sources = dict(SOURCES)
    assert err.render().split("\n")[2] == "2 | players A, B"


def test_runtime_error_renders_with_its_span() -> None:
    err = RuleRuntimeError("'top' failed: no piece", span(3, 2, 5))
    err.sources = dict(SOURCES)
    assert err.diagnostic.code == "R301"
    assert err.render().split("\n")[0] == "books/t.rule:3:2: error[R301]: 'top' failed: no piece"
    assert str(err) == "'top' failed: no piece"
