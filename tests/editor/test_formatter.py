"""`rulelang fmt`: the layout is canonical and idempotent, keeps every comment in its place and
never changes what a file means. The witnesses of meaning are independent of the formatter's
own check: the parse tree (rules and tokens) and the builder's AST, dumped field by field
without positions, must be equal before and after, for every bundled rulebook, stdlib module
and scenario file, every rulebook of the tests, the conformance corpus's rulebooks and the
hypothesis-written random rulebooks."""
from __future__ import annotations

import dataclasses
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulelang.editor import formatter
from rulelang.editor.formatter import LIMIT, FormatError, format_text
from rulelang.editor.layout import physical_lines
from rulelang.errors import RulebookError
from rulelang.language.builder import build
from rulelang.language.parser import keywords, parse, parse_scenarios
from rulelang.source import Source, Span
from rulelang.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from conformance import harness  # noqa: E402
from property.test_random_rulebooks import card_rulebook, flow_rulebook  # noqa: E402
from property.test_random_rulebooks import rulebook as random_rulebook  # noqa: E402

BUNDLED = sorted([*ROOT.glob("rulebooks/*.rule"), *ROOT.glob("stdlib/*.rule"),
                  *ROOT.glob("rulebooks/*.test")])


def _parses(path: Path) -> bool:
    try:
        _tree(path.read_text(encoding="utf-8"), str(path))
    except RulebookError:
        return False
    return True


def _tree(text: str, path: str) -> Any:
    parser = parse_scenarios if path.endswith(".test") else parse
    return parser(Source(path, text))


def _dump(node: Any) -> Any:
    """A tree (Lark's or the AST) as plain data, positions left out."""
    if hasattr(node, "data") and hasattr(node, "children"):  # a Lark tree
        return (str(node.data), [_dump(c) for c in node.children])
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        return (type(node).__name__, [(f.name, _dump(getattr(node, f.name)))
                                      for f in dataclasses.fields(node)
                                      if not isinstance(getattr(node, f.name), Span)
                                      and f.name not in ("span", "spans")])
    if isinstance(node, (tuple, list)):
        return [_dump(x) for x in node if not isinstance(x, Span)]
    if hasattr(node, "type") and isinstance(node, str):  # a token
        return (node.type, " ".join(node.split()))
    return node


def _meaning(text: str, path: str) -> Any:
    tree = _tree(text, path)
    if path.endswith(".test"):
        return _dump(tree)
    try:
        built = _dump(build(tree, Source(path, text)).decls)
    except RulebookError as err:  # parses, but does not build: the same errors
        built = [(d.code, d.message) for d in err.diagnostics]
    return _dump(tree), built


def _comments(text: str) -> list[tuple[str, str]]:
    """Every comment, in order, with the code it ends (empty: a line of its own)."""
    return [(" ".join(t.text for t in line.tokens), line.comment)
            for line in physical_lines(text) if line.comment is not None]


def assert_formats_well(text: str, path: str) -> str:
    out = format_text(text, path)
    if not path.endswith(".test"):  # (a scenario file's tree: format_text compared it)
        assert _meaning(out, path) == _meaning(text, path), path
    again = formatter._Formatter(keywords(path.endswith(".test"))).run(out)
    assert again == out, f"{path}: a second format changes it"
    assert _comments(out) == _comments(text), f"{path}: a comment moved"
    for line in physical_lines(out):
        end = line.tokens[-1].column + len(line.tokens[-1].text) - 1 if line.tokens else 0
        breakable = any(t.text in (",", "and", "or", "+") for t in line.tokens[1:-1])
        assert end <= LIMIT or not breakable, f"{path}:{line.number}: too long"
    assert all(line == line.rstrip() for line in out.splitlines()), f"{path}: trailing space"
    return out


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_bundled_file_is_formatted_and_any_layout_of_it_formats_back(path: Path) -> None:
    """The bundled files are in the canonical layout (after merging a change to one:
    `rulelang fmt rulebooks stdlib`), and the same file laid out otherwise formats back to it,
    its meaning kept."""
    text = path.read_text(encoding="utf-8")
    assert format_text(text, str(path)) == text, f"run: rulelang fmt {path}"
    assert assert_formats_well(_scramble(text, random.Random(path.name)), str(path)) == text


def test_every_rulebook_and_scenario_of_the_tests_keeps_its_meaning() -> None:
    files = sorted([*ROOT.glob("tests/**/*.rule"), *ROOT.glob("tests/**/*.test")])
    done = 0
    for path in files:
        text = path.read_text(encoding="utf-8")
        if not _parses(path):
            with pytest.raises(RulebookError):  # a file that does not parse is refused
                format_text(text, str(path))
            continue
        assert_formats_well(text, str(path))
        done += 1
    assert done > 50


def test_the_conformance_corpus_rulebooks_keep_their_meaning() -> None:
    for path in harness.corpus():
        runs = [c for c in harness.parse(path)
                if not (c.expect[0] == "error" and c.expect[1] < "R3")]  # (rulebooks that load)
        text = harness.rulebook(runs, runs[0].decls)
        out = format_text(text, f"{path.stem}.rule")  # its parse tree is checked the same
        assert formatter._Formatter(keywords()).run(out) == out
        assert _comments(out) == _comments(text)


@settings(max_examples=10, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(random_rulebook())
def test_random_rulebooks_keep_their_meaning_and_any_layout_gives_one(text: str) -> None:
    out = assert_formats_well(text, "random.rule")
    assert format_text(_scramble(text, random.Random(len(text))), "random.rule") == out


@settings(max_examples=5, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(flow_rulebook(), card_rulebook()))
def test_random_flow_and_card_rulebooks_keep_their_meaning(text: str) -> None:
    out = assert_formats_well(text, "random.rule")
    assert format_text(_scramble(text, random.Random(len(text))), "random.rule") == out


def _scramble(text: str, rng: random.Random) -> str:
    """The same rulebook laid out otherwise: blocks four spaces deeper per level, random
    spaces between tokens, trailing spaces, doubled blank lines."""
    out = []
    for line in physical_lines(text):
        parts = []
        for n, tok in enumerate(line.tokens):
            if n:
                prev = line.tokens[n - 1]
                glued = prev.kind == "op" or tok.kind == "op"
                parts.append(rng.choice(["", " ", "   "] if glued else [" ", "  "]))
            parts.append(tok.text)
        code = "".join(parts)
        indent = " " * (2 * len(line.indent.expandtabs(8)))
        comment = f"{' ' * rng.randint(1, 5)}{line.comment}" if line.comment else ""
        body = code + comment if code else (line.comment or "")
        out.append((indent + body if body else "") + " " * rng.randint(0, 2))
        if not body and rng.random() < 0.5:
            out.append("")
        if line.cont:
            out[-1] = out[-1].rstrip() + " \\"
    return "\n".join(out) + "\n"


def test_the_canonical_layout() -> None:
    text = ('game "T"   # the title\n'
            'players  A,B\n'
            'def f( x )=x*2+-1   # doubled\n'
            'def g(s) = s.z>=2 and  f (s.z)<  n-1 if 0..3 else stack[ 1 ]\n'
            'turn\n'
            '    do place\n'
            '        # inside\n'
            'end\n'
            '    when true\n'
            '        draw\n\n\n\n'
            'action place\n'
            '  let x = [1,\n'
            '       2 ,3]\n')
    assert format_text(text, "t.rule") == (
        'game "T"               # the title\n'
        'players A, B\n'
        'def f(x) = x * 2 + -1  # doubled\n'
        'def g(s) = s.z >= 2 and f(s.z) < n - 1 if 0..3 else stack[1]\n'
        '\n'
        'turn\n'
        '  do place\n'
        '  # inside\n'
        '\n'
        'end\n'
        '  when true\n'
        '    draw\n'
        '\n'
        'action place\n'
        '  let x = [1,\n'
        '           2, 3]\n')


def test_a_long_line_is_broken_before_the_loosest_operator_that_fits() -> None:
    body = " and ".join(f"occupied(site_number_{i})" for i in range(3))
    text = f'game "T"\nplayers A, B\ndef full = {body} or empty(site_number_0)\n'
    out = assert_formats_well(text, "t.rule")
    lines = out.splitlines()[2:]
    assert len(lines) == 2 and lines[0].endswith(" \\") and lines[1].startswith("    or ")
    inside = f'game "T"\nplayers A, B\ndef full = all([{", ".join(["occupied(s)"] * 12)}])\n'
    out = assert_formats_well(inside, "t.rule")
    second = out.splitlines()[3]
    assert second.startswith(" " * len("def full = all([")) and "\\" not in out


def test_comments_stay_where_they_were() -> None:
    text = ("# header\n\ngame \"T\"\nplayers A, B\nturn  # the turn\n  # before\n  do a\n"
            "  # after, in the block\n# before the action\naction a\n  put x at y  # here\n"
            "  require f(1,  # inside brackets\n    2)\n")
    out = assert_formats_well(text, "t.rule")
    assert "\n  # after, in the block\n\n# before the action\naction a\n" in out
    assert "  require f(1,  # inside brackets\n            2)\n" in out


def test_a_file_that_does_not_parse_is_refused_with_its_errors() -> None:
    with pytest.raises(RulebookError) as err:
        format_text('game "T"\nplayers A, B\ndef f = (1 +\n', "t.rule")
    assert err.value.diagnostics[0].code.startswith("R1")


def test_a_layout_that_would_change_the_tree_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """The formatter's own safety net: a (planted) wrong layout is caught, nothing returned."""
    monkeypatch.setattr(formatter._Formatter, "run", lambda self, text: text.replace("2", "3"))
    with pytest.raises(FormatError):
        format_text('game "T"\nplayers A, B\ndef f = 2\n', "t.rule")


def test_fmt_check_writes_nothing_and_fails_with_a_diff(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    messy = tmp_path / "messy.rule"
    messy.write_text('game "T"\nplayers A,B\n', encoding="utf-8")
    scenario = tmp_path / "sub" / "messy.test"
    scenario.parent.mkdir()
    scenario.write_text('rulebook "../messy.rule"\nscenario "s"\n    expect not  over\n')
    hidden = tmp_path / ".hidden" / "x.rule"
    hidden.parent.mkdir()
    hidden.write_text("players A,B\n")
    assert main(["fmt", "--check", str(tmp_path)]) == 1
    out = capsys.readouterr()
    assert "+players A, B" in out.out and "+  expect not over" in out.out
    assert "2 of 2 files would be reformatted" in out.err
    assert messy.read_text() == 'game "T"\nplayers A,B\n'
    assert main(["fmt", str(tmp_path)]) == 0
    assert messy.read_text() == 'game "T"\nplayers A, B\n'
    assert hidden.read_text() == "players A,B\n"
    assert main(["fmt", "--check", str(tmp_path)]) == 0


def test_fmt_reports_a_bad_file_and_a_missing_path(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.rule"
    bad.write_text('game "T"\nplayers A, B\nturn\ndo x\n')
    assert main(["fmt", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "bad.rule:4:1: error[R10" in err and "Traceback" not in err
    assert main(["fmt", str(tmp_path / "nowhere")]) == 1
    assert "error[R421]: no such file or folder" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["karesansui", "tatara", "spline_plus"])
def test_an_edited_file_parsed_a_declaration_at_a_time_gives_the_same_declarations(
        name: str) -> None:
    """The language server parses an edited file one top-level declaration at a time
    (loader.parse_pieces): the same AST as the whole file's."""
    from rulelang.language.loader import parse_pieces

    path = str(ROOT / "rulebooks" / f"{name}.rule")
    source = Source(path, (ROOT / "rulebooks" / f"{name}.rule").read_text(encoding="utf-8"))
    pieces = parse_pieces(source)
    assert pieces is not None
    whole = build(parse(source), source).decls
    assert _dump(pieces) == _dump(whole)
    assert [d.span for d in pieces] == [d.span for d in whole]
    assert parse_pieces(Source(path, source.text + "\ndef broken = (1 +\n")) is None

