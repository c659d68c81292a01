"""Reading scenario files (*.test): the parse tree of language/scenario.lark into scenarios.

rulelang/tools/scenario/scenarios.py runs them; docs/language.md, "Testing your rules", describes
them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lark import Token, Tree

from rulelang.errors import Diagnostic, RulebookError
from rulelang.language.loader import load_source
from rulelang.language.parser import parse_scenarios
from rulelang.limits import RULEBOOK_SUFFIX, Refused, check_name, inside
from rulelang.limits import shown as limits_shown
from rulelang.source import Source, Span

MODES = ("compiled", "interpreted")


@dataclass(frozen=True)
class Step:
    """One line of a scenario: a `given` fact, a `when` or one expectation."""
    kind: str
    span: Span
    text: str  # the line as written, shown when it fails
    args: tuple[Any, ...]


@dataclass
class Scenario:
    name: str
    span: Span
    options: dict[str, Any]
    options_span: Span | None = None
    mode: str | None = None
    seed: int = 0
    steps: list[Step] = field(default_factory=list)


@dataclass
class ScenarioFile:
    path: str
    source: Source
    rulebook: Path
    options: dict[str, Any]
    scenarios: list[Scenario]


class Mistake(Exception):
    """A scenario that cannot be run as written (R420): its diagnostic, with a position."""

    def __init__(self, span: Span | None, message: str, help_: str | None = None) -> None:
        super().__init__(message)
        self.diagnostic = Diagnostic("R420", message, span, help_)


# ---- reading -----------------------------------------------------------------------------

def read(path: str | Path) -> ScenarioFile:
    """Parse a scenario file; RulebookError carries every mistake with its position."""
    shown = str(path)
    source = load_source(path)
    tree = parse_scenarios(source)
    header = _child(tree, "header")
    book_token = header.children[-1]
    assert isinstance(book_token, Token)
    name = _string(book_token)
    try:  # a scenario file names a rulebook beside it or below, as a rulebook names its data
        check_name(name, (RULEBOOK_SUFFIX,))
        if not inside(Path(path).parent / name, [Path(path).parent.resolve()]):
            raise Refused("it lies outside this file's folder (through a symbolic link)")
    except Refused as exc:
        raise RulebookError([Diagnostic("R420", f"rulebook '{limits_shown(name)}' is refused: "
                                        f"{exc}", _token_span(shown, book_token))],
                            {shown: source}) from None
    rulebook = Path(path).parent / name
    if not rulebook.exists():
        raise RulebookError([Diagnostic("R420", f"no rulebook '{_string(book_token)}' beside "
                                        "this file", _token_span(shown, book_token),
                                        f"the name is relative to {Path(path).parent}/")],
                            {shown: source})
    top = _child(tree, "s_options", None)
    options = _options(top) if top is not None else {}
    scenarios = [_scenario(shown, source, t, options) for t in tree.children
                 if isinstance(t, Tree) and t.data == "scenario"]
    return ScenarioFile(shown, source, rulebook, options, scenarios)


def _child(tree: Tree[Token], name: str, default: Any = ...) -> Any:
    for c in tree.children:
        if isinstance(c, Tree) and c.data == name:
            return c
    if default is ...:
        raise AssertionError(name)
    return default


def _string(tok: Token) -> str:
    return str(tok)[1:-1]


def _token_span(path: str, tok: Token) -> Span:
    return Span(path, tok.line or 1, tok.column or 1, tok.end_line or tok.line or 1,
                tok.end_column or (tok.column or 1) + 1)


def _span(path: str, tree: Tree[Token]) -> Span:
    m = tree.meta
    return Span(path, m.line, m.column, m.end_line, m.end_column)


def _options(tree: Tree[Token]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in tree.children:
        assert isinstance(item, Tree)
        name, value = (str(c) for c in item.children)
        out[name] = int(value) if value.isdigit() else value
    return out


def _scenario(path: str, source: Source, tree: Tree[Token],
              defaults: dict[str, Any]) -> Scenario:
    name = tree.children[0]
    assert isinstance(name, Token)
    sc = Scenario(_string(name), _span(path, tree), dict(defaults))
    for step in tree.children[1:]:
        assert isinstance(step, Tree)
        if step.data == "s_options":
            sc.options.update(_options(step))
            sc.options_span = _span(path, step)
        elif step.data == "s_mode":
            mode = str(step.children[0])
            if mode not in MODES:
                raise RulebookError([Diagnostic("R420", f"unknown mode '{mode}'",
                                                _span(path, step), "compiled or interpreted")],
                                    {path: source})
            sc.mode = mode
        elif step.data in ("given", "given_one"):
            for fact in step.children:
                assert isinstance(fact, Tree)
                if fact.data == "g_seed":
                    sc.seed = int(str(fact.children[0]))
                else:
                    sc.steps.append(_step(path, source, fact))
        elif step.data in ("expect_block",):
            sc.steps.extend(_step(path, source, c) for c in step.children
                            if isinstance(c, Tree))
        elif step.data == "expect":
            check = step.children[0]
            assert isinstance(check, Tree)
            sc.steps.append(_step(path, source, check, _span(path, step)))
        else:
            sc.steps.append(_step(path, source, step))
    return sc


def _step(path: str, source: Source, tree: Tree[Token], span: Span | None = None) -> Step:
    span = span or _span(path, tree)
    text = source.line(span.line)[span.column - 1:].split("#", 1)[0].strip()
    if text.endswith("\\") or text.count("[") > text.count("]"):  # it goes on below
        text = text.rstrip("\\").rstrip() + " ..."
    return Step(tree.data, span, text, tuple(_value(c) for c in tree.children))


def _value(node: Token | Tree[Token]) -> Any:
    if isinstance(node, Token):
        if node.type == "STRING":
            return _string(node)
        return int(node) if node.type == "INT" else str(node)
    if node.data == "list_value":
        return [_value(c) for c in node.children]
    if node.data == "record_value":  # a record: its fields in order (a dict, as observed)
        items = [c for c in node.children if isinstance(c, Tree)]
        return {str(i.children[0]): _value(i.children[1]) for i in items}
    if node.data in ("true", "false"):
        return node.data == "true"
    if node.data == "strings":
        return tuple(_string(t) for t in node.children if isinstance(t, Token))
    if node.data == "owned":  # a name and its player, or None
        name, rest = str(node.children[0]), node.children[1:]
        if rest and isinstance(rest[0], Tree):  # one of indexed zones: stack[1]
            name += f"[{rest[0].children[0]}]"
            rest = rest[1:]
        return (name, str(rest[0]) if rest else None)
    if node.data == "number":
        return -int(str(node.children[-1])) if len(node.children) == 2 \
            else int(str(node.children[0]))
    return (str(node.data), *(_value(c) for c in node.children))
