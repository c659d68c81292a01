"""Rules written as clauses selected by a symbol (docs/language.md, "Rules written as
clauses"): `def worth(oak, n) = …`, `def worth(pine, n) = …`, and optionally a
catch-all `def worth(other, n) = …` last.

Before names are resolved, the clauses of one rule are checked (R260-R265) and merged into
one `def` or `effect` whose body picks the clause by its first argument: an `if` chain
comparing it with each clause's symbol, each branch carrying its clause's own positions
(for errors and for rule coverage), ending in the catch-all's body or in an ast.NoClause
(a value that no clause names: a positioned runtime error, R301).
"""
from __future__ import annotations

import re
from collections.abc import Mapping

from rulelang.errors import Diagnostic
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.source import Source, Span

Rule = ast.Def | ast.Effect
SUBJECT = "<symbol>"  # the first parameter of a merged rule: not a name one can write
_NAME = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")


def merge(decls: tuple[ast.Decl, ...], sources: Mapping[str, Source]
          ) -> tuple[tuple[ast.Decl, ...], list[Diagnostic]]:
    """The declarations of a module with each rule written as clauses merged into one, and
    the mistakes in the clauses."""
    symbols: dict[str, str] = {}  # symbol -> its enumeration
    for d in decls:
        if isinstance(d, ast.Enum):
            for s in d.symbols:
                symbols.setdefault(s, d.name)
    if not symbols:
        return decls, []
    groups: dict[str, list[Rule]] = {}
    for d in decls:
        if isinstance(d, (ast.Def, ast.Effect)):
            groups.setdefault(d.name, []).append(d)
    # a rule declared once is a plain rule, even with a parameter spelled like a symbol
    # (a local hides a symbol): clauses are only where a name is declared more than once
    selected = {name for name, rules in groups.items() if len(rules) > 1
                and any(r.params and r.params[0] in symbols for r in rules)}
    if not selected:
        return decls, []
    diags: list[Diagnostic] = []
    out: list[ast.Decl] = []
    for d in decls:
        if isinstance(d, (ast.Def, ast.Effect)) and d.name in selected:
            if d is groups[d.name][0]:
                merged = _Merge(d.name, groups[d.name], symbols, sources, diags).rule()
                if merged is not None:
                    out.append(merged)
            continue
        out.append(d)
    return tuple(out), diags


def is_no_clause(block: ast.Block) -> bool:
    """The block ending a rule written as clauses without a catch-all (never a branch one
    could enter on purpose: rule coverage leaves it out)."""
    if len(block.stmts) != 1:
        return False
    s = block.stmts[0]
    return isinstance(s, ast.Let) and isinstance(s.bindings[0][1], ast.NoClause) or \
        isinstance(s, ast.Return) and isinstance(s.value, ast.NoClause)


class _Merge:
    def __init__(self, name: str, rules: list[Rule], symbols: dict[str, str],
                 sources: Mapping[str, Source], diags: list[Diagnostic]) -> None:
        self.name, self.rules, self.symbols = name, rules, symbols
        self.sources, self.diags = sources, diags

    def error(self, code: str, msg: str, span: Span, help: str | None = None) -> None:
        self.diags.append(Diagnostic(code, msg, span, help))

    def header(self, r: Rule) -> Span:
        """The first line of a clause."""
        s = r.span
        src = self.sources.get(s.path)
        end = len(src.line(s.line)) + 1 if src is not None else s.end_column
        return Span(s.path, s.line, s.column, s.line, max(end, s.column + 1))

    def first_param(self, r: Rule) -> Span:
        """Where a clause's first parameter (its symbol) is written, else its first line."""
        s = self.header(r)
        src = self.sources.get(s.path)
        if src is not None:
            line = src.line(s.line)
            at = line.find("(", s.column - 1)
            m = _NAME.search(line, at + 1) if at >= 0 else None
            if m is not None and m.group() == (r.params or ("",))[0]:
                return Span(s.path, s.line, m.start() + 1, s.line, m.end() + 1)
        return s

    def where(self, r: Rule) -> str:
        return f"line {r.span.line}" if r.span.path == self.rules[0].span.path else \
            f"{r.span.path}:{r.span.line}"

    def rule(self) -> Rule | None:
        first_clause = next(r for r in self.rules if r.params and r.params[0] in self.symbols)
        what = "effect" if isinstance(first_clause, ast.Effect) else "def"
        kind = type(first_clause)
        arity = len(first_clause.params or ())
        enum = self.symbols[(first_clause.params or ("",))[0]]
        kept: list[Rule] = []
        for r in self.rules:
            if type(r) is not kind or not r.params:
                other = "an effect" if isinstance(r, ast.Effect) else (
                    "a def without parameters" if not r.params else "a def")
                self.error("R265", f"'{self.name}' is written as clauses selected by a symbol "
                           f"({self.where(first_clause)}) and as {other}", self.header(r),
                           f"give it another name, or write it as a clause: "
                           f"{what} {self.name}({', '.join(first_clause.params or ())})")
            elif len(r.params or ()) != arity:
                self.error("R260", f"the clauses of '{self.name}' have different numbers of "
                           f"parameters: {len(r.params or ())} here, {arity} at "
                           f"{self.where(first_clause)}", self.header(r))
            else:
                kept.append(r)
        clauses: list[tuple[str, Rule]] = []  # (symbol, clause)
        catch_all: Rule | None = None
        seen: dict[str, Rule] = {}
        for r in kept:
            sym = (r.params or ("",))[0]
            if catch_all is not None:
                self.error("R263", f"this clause of '{self.name}' comes after its catch-all "
                           f"clause ({self.where(catch_all)}): it would never run",
                           self.first_param(r), f"the catch-all clause, whose first parameter "
                           f"is a plain name ('{(catch_all.params or ('',))[0]}'), comes last")
                continue
            if sym not in self.symbols:
                catch_all = r
            elif self.symbols[sym] != enum:
                self.error("R261", f"the clauses of '{self.name}' are selected by symbols of "
                           f"'{enum}'; '{sym}' is a symbol of '{self.symbols[sym]}'",
                           self.first_param(r))
            elif sym in seen:
                self.error("R262", f"'{self.name}' has two clauses for '{sym}'",
                           self.first_param(r), f"the first is at {self.where(seen[sym])}")
            else:
                seen[sym] = r
                clauses.append((sym, r))
        all_symbols = [s for s, e in self.symbols.items() if e == enum]
        written = {r.params[0] for r in self.rules if r.params}  # wrong ones too: reported
        missing = [s for s in all_symbols if s not in written]
        if missing and catch_all is None:
            self.error("R264", f"'{self.name}' has no clause for "
                       f"{', '.join(repr(s) for s in missing)} (symbols of '{enum}')",
                       self.header(first_clause),
                       f"add a clause for each, or a catch-all clause last: "
                       f"{what} {self.name}(other{', …' if arity > 1 else ''})")
        return _build(self.name, clauses, catch_all, enum, tuple(all_symbols), first_clause)


def _build(name: str, clauses: list[tuple[str, Rule]], catch_all: Rule | None, enum: str,
           symbols: tuple[str, ...], first: Rule) -> Rule:
    """One rule whose body picks a clause by its first argument."""
    rules = [r for _, r in clauses] + ([catch_all] if catch_all is not None else [])
    rest = (first.params or ())[1:]
    same = all((r.params or ())[1:] == rest for r in rules)
    subject = SUBJECT
    if catch_all is not None:
        own = (catch_all.params or ("",))[0]
        used = {n.id for r in rules if r is not catch_all for n in _names(r.body)}
        if own in used or own in rest:
            same = False
        subject = own
    span = first.span
    if isinstance(first, ast.Def) and same and all(
            isinstance(r.body, ast.Expr) for r in rules):  # one expression: `if … else …`
        expr = catch_all.body if catch_all is not None else None
        if not isinstance(expr, ast.Expr):
            expr = ast.NoClause(ast.Name(subject, span=span), name, symbols, enum, span=span)
        for sym, r in reversed(clauses):
            if isinstance(r.body, ast.Expr):
                expr = ast.IfExpr(_is(subject, sym, r), r.body, expr, span=r.span)
        return ast.Def(name, (subject, *rest), expr, span=span)
    hidden = (SUBJECT, *(f"<{i}>" for i in range(1, len(rest) + 1)))  # bound by each clause
    params = (subject, *rest) if same else hidden

    def body(r: Rule) -> ast.Block:
        stmts: tuple[ast.Stmt, ...] = r.body.stmts if isinstance(r.body, ast.Block) else (
            ast.Return(r.body, span=r.body.span),)
        if not same:
            given = r.params or ()
            binds = tuple((own_name, ast.Name(p, span=r.span)) for own_name, p in zip(
                given, params, strict=True) if own_name != p and own_name not in symbols)
            if binds:
                stmts = (ast.Let(binds, span=r.span), *stmts)
        return ast.Block(stmts, span=r.body.span)

    branches = tuple((_is(params[0], sym, r), body(r)) for sym, r in clauses)
    if catch_all is not None:
        orelse = body(catch_all)
    else:
        fail = ast.NoClause(ast.Name(params[0], span=span), name, symbols, enum, span=span)
        orelse = ast.Block((ast.Return(fail, span=span) if isinstance(first, ast.Def) else
                            ast.Let(((SUBJECT + "!", fail),), span=span),), span=span)
    block = ast.Block((ast.If(branches, orelse, span=span),), span=first.body.span)
    if isinstance(first, ast.Def):
        return ast.Def(name, params, block, span=span)
    return ast.Effect(name, params, block, span=span)


def selector(rule: ast.Def | ast.Effect) -> ast.NoClause | None:
    """The end of a rule written as clauses without a catch-all: its enumeration and symbols
    (None for any other rule)."""
    body = rule.body
    while isinstance(body, ast.IfExpr):
        body = body.orelse
    if isinstance(body, ast.NoClause):
        return body
    if isinstance(body, ast.Block) and len(body.stmts) == 1 and \
            isinstance(body.stmts[0], ast.If) and body.stmts[0].orelse is not None and \
            is_no_clause(body.stmts[0].orelse):
        s = body.stmts[0].orelse.stmts[0]
        end = s.value if isinstance(s, ast.Return) else \
            s.bindings[0][1] if isinstance(s, ast.Let) else None
        return end if isinstance(end, ast.NoClause) else None
    return None


def _is(subject: str, sym: str, r: Rule) -> ast.Expr:
    """`subject == sym`, at the clause's first line."""
    return ast.Compare("==", ast.Name(subject, span=r.span), ast.Name(sym, span=r.span),
                       span=r.span)


def _names(node: object) -> list[ast.Name]:
    return [n for n in walk(node) if isinstance(n, ast.Name)]
