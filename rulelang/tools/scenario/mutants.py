"""Single-point mutants of a rulebook, for `rulelang test --mutate` (mutate.py): each is one
small change of the text at one place, found from the checked program (so every change is
at a node's own position) and written as text (a mutant is a rulebook like any other):

* a whole number one more and one less;
* a comparison negated (`==` and `!=`, `<` and `>=`, `>` and `<=`, `in` and `not in`);
* `and` for `or` and `or` for `and`;
* an `if`, `elif` or end rule's (`when`) condition negated;
* a statement removed (its lines left blank, so every other position stays);
* a relation (a direction) named in place of another of the board's;
* an enumeration's symbol in place of another of the same enumeration;
* a number of a data file (YAML) one more.

A change that no longer checks is made anyway: the runner counts it as invalid, not as a
mutant to kill."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.source import Source, Span

_NEGATED = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
            "in": "not in", "not in": "in"}
_YAML_NUMBER = re.compile(r"(?<=:\s)(-?\d+)\s*(?:#.*)?$")


@dataclass(frozen=True)
class Mutant:
    path: str  # the file changed (as the loaded program names it)
    line: int
    column: int
    kind: str  # number, comparison, and/or, condition, statement, relation, symbol, data
    before: str  # the text changed …
    after: str  # … and what it became
    text: str  # the whole file, changed

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


def mutants(program: Any, paths: set[str], relations: list[str]) -> list[Mutant]:
    """Every mutant of the files `paths` of a checked program, in file and text order."""
    out: list[Mutant] = []
    for module in [program.loaded.game, *program.loaded.modules.values()]:
        source = module.source
        if source.path in paths:
            out.extend(_Maker(program, source, relations).all(module.decls))
    return sorted(out, key=lambda m: (m.path, m.line, m.column, m.kind, m.after))


def data_mutants(path: str, text: str) -> list[Mutant]:
    """A number of a data file one more: one mutant per `key: number` line."""
    out = []
    lines = text.split("\n")
    for i, line in enumerate(lines):
        found = _YAML_NUMBER.search(line)
        if found is None:
            continue
        value = found.group(1)
        changed = line[:found.start(1)] + str(int(value) + 1) + line[found.end(1):]
        new = "\n".join([*lines[:i], changed, *lines[i + 1:]])
        out.append(Mutant(path, i + 1, found.start(1) + 1, "data", value,
                          str(int(value) + 1), new))
    return out


class _Maker:
    def __init__(self, program: Any, source: Source, relations: list[str]) -> None:
        self.program, self.source, self.relations = program, source, relations
        self.offsets = [0]
        for line in source.text.split("\n"):
            self.offsets.append(self.offsets[-1] + len(line) + 1)

    def all(self, decls: tuple[ast.Decl, ...]) -> list[Mutant]:
        out: list[Mutant] = []
        for decl in decls:
            if isinstance(decl, (ast.Use, ast.Game, ast.Players, ast.Option, ast.View)):
                continue
            for node in walk(decl):
                out.extend(self.of(node))
        return out

    def of(self, node: ast.Node) -> list[Mutant]:
        if isinstance(node, ast.Const) and type(node.value) is int:
            return [m for d in (1, -1) if (m := self.number(node, d)) is not None]
        if isinstance(node, ast.Compare):
            return self.between(node.left.span, node.right.span, node.op, _NEGATED[node.op],
                                "comparison")
        if isinstance(node, ast.BoolOp):
            other = "or" if node.op == "and" else "and"
            return self.between(node.left.span, node.right.span, node.op, other, "and/or")
        if isinstance(node, ast.If):
            return [self.replace(cond.span, f"not ({self.text(cond.span)})", "condition")
                    for cond, _ in node.branches if not _made(cond)]
        if isinstance(node, ast.Block) and len(node.stmts) > 1:
            return [m for s in node.stmts if (m := self.removed(s)) is not None]
        if isinstance(node, (ast.Name, ast.Attr)):
            return self.named(node)
        return []

    # ---- the changes
    def number(self, node: ast.Const, delta: int) -> Mutant | None:
        before = self.text(node.span)
        if not re.fullmatch(r"-?\d+", before):
            return None
        return self.replace(node.span, str(int(before) + delta), "number")

    def between(self, left: Span, right: Span, op: str, new: str, kind: str) -> list[Mutant]:
        """The operator written between two operands (`a == b`): changed in place."""
        start, stop = self.offset(left.end_line, left.end_column), \
            self.offset(right.line, right.column)
        gap = self.source.text[start:stop]
        found = re.search(r"(?<![\w=<>!])" + re.escape(op).replace(r"\ ", r"\s+")
                          + r"(?![\w=<>])", gap)
        if found is None:
            return []
        at = start + found.start()
        return [self._at(at, at + len(found.group(0)), new, kind)]

    def removed(self, s: ast.Stmt) -> Mutant | None:
        """The statement's lines left blank, when it has them to itself (its span runs on to
        the next statement: the blank and comment lines at its end are not its own)."""
        sp = self.source
        if sp.line(s.span.line)[:s.span.column - 1].strip():
            return None
        own = self.text(s.span).split("\n")
        while len(own) > 1 and not own[-1].split("#")[0].strip():
            own.pop()
        last = s.span.line + len(own) - 1
        start, stop = self.offset(s.span.line, 1), self.offset(last, len(sp.line(last)) + 1)
        before = " ".join(sp.line(n).split("#")[0].strip() for n in range(s.span.line, last + 1))
        if not before.strip():
            return None  # (a statement the text does not hold: made by `extends`)
        return Mutant(sp.path, s.span.line, s.span.column, "statement", before.strip(),
                      "(removed)", sp.text[:start] + "\n" * (last - s.span.line) + sp.text[stop:])

    def named(self, node: ast.Name | ast.Attr) -> list[Mutant]:
        ref = self.program.refs.get(node)
        if ref is None:
            return []
        cat, key = ref
        name = node.id if isinstance(node, ast.Name) else node.name
        if not self.text(node.span).endswith(name):
            return []  # (a name the text does not hold there: a clause's symbol, _made)
        if cat == "relation" and len(self.relations) > 1 and name in self.relations:
            i = self.relations.index(name)
            return [self.last_word(node.span, name, self.relations[(i + 1) % len(
                self.relations)], "relation")]
        if cat == "symbol":
            enum = self.program.enums.get(self.program.symbols.get(key, ""))
            if enum is not None and len(enum.symbols) > 1 and name in enum.symbols:
                i = enum.symbols.index(name)
                return [self.last_word(node.span, name,
                                       enum.symbols[(i + 1) % len(enum.symbols)], "symbol")]
        return []

    def last_word(self, span: Span, old: str, new: str, kind: str) -> Mutant:
        stop = self.offset(span.end_line, span.end_column)
        start = stop - len(old)
        return self._at(start, stop, new, kind)

    # ---- text
    def offset(self, line: int, column: int) -> int:
        return self.offsets[line - 1] + column - 1

    def text(self, span: Span) -> str:
        return self.source.text[self.offset(span.line, span.column):
                                self.offset(span.end_line, span.end_column)]

    def replace(self, span: Span, new: str, kind: str) -> Mutant:
        return self._at(self.offset(span.line, span.column),
                        self.offset(span.end_line, span.end_column), new, kind)

    def _at(self, start: int, stop: int, new: str, kind: str) -> Mutant:
        text = self.source.text
        line = text.count("\n", 0, start) + 1
        column = start - self.offsets[line - 1] + 1
        return Mutant(self.source.path, line, column, kind, text[start:stop], new,
                      text[:start] + new + text[stop:])


def _made(cond: ast.Expr) -> bool:
    """A condition the text does not hold: which clause of a rule written as clauses
    (`effect ability(Jozan, p)`) runs, `subject == Jozan`, both sides at the clause's span."""
    return isinstance(cond, ast.Compare) and cond.left.span == cond.right.span


def shown(path: str, root: Path) -> str:
    """A path as the report shows it: relative to `root` when inside it."""
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return path
