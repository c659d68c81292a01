"""The types the type checker gives a program's expressions, for the editor: the checker's own
StatementTypes run quietly over a declaration when the editor asks (a hover, an attribute's
uses), each expression's type and the locals' types where it was typed kept. Nothing here
decides a type: what the checker does not know is UNKNOWN, and shown as nothing."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulelang.language import ast
from rulelang.language import types as ty
from rulelang.language.program import Program
from rulelang.language.resolver import Checker
from rulelang.language.typecheck import Env
from rulelang.language.types import Type
from rulelang.language.typestmt import StatementTypes, rules_callees_first


class _Recording(StatementTypes):
    """The checker's typing, each expression's type and locals kept (by the node's identity,
    the node kept with them)."""
    seen: dict[int, tuple[ast.Expr, Type, Env]]

    def expr(self, e: ast.Expr | None, env: Env) -> Type:
        t = super().expr(e, env)
        if e is not None:
            self.seen[id(e)] = (e, t, dict(env))
        return t


class Typed:
    """A checked program's expression types, declaration by declaration, on request."""

    def __init__(self, program: Program) -> None:
        ck = Checker(program.loaded)
        ck.refs, ck.program = program.refs, program
        library = not any(isinstance(d, ast.Game) for d in program.loaded.game.decls)
        tc = self._tc = _Recording(ck, program, library)
        tc.seen = {}
        tc.quiet = 1  # (the check itself reported the mistakes)
        tc.def_keys = {id(d): key for key, d in program.defs.items()}
        rules_callees_first(program, program.refs, tc)  # every rule's result, as the check
        self._typed: set[int] = set()

    def decl(self, d: ast.Decl) -> None:
        """Type a declaration (once)."""
        if id(d) in self._typed:
            return
        self._typed.add(id(d))
        choices = self._tc.p.choice_types  # (the checker keeps each choose's type there)
        kept = dict(choices)
        try:
            self._tc.decl(d)
        finally:  # the program is left as its check made it
            choices.clear()
            choices.update(kept)

    @property
    def coordinates(self) -> list[str]:
        """The names of the sites' coordinates (of every geometry the program has)."""
        return list(self._tc.coords)

    def text(self, e: ast.Expr) -> str:
        return self._tc.text(e)

    def of(self, e: ast.Expr) -> Type | None:
        """An expression's type (None: its declaration was not typed, or it never was)."""
        kept = self._tc.seen.get(id(e))
        return kept[1] if kept is not None and kept[0] is e else None

    def local(self, d: ast.Decl, name: str, after: tuple[int, int]) -> Type | None:
        """A local's type where it is bound (at `after`, line and column): its type in the
        first expression of the declaration after that place that sees it."""
        self.decl(d)
        first: tuple[tuple[int, int], Type] | None = None
        for e in expressions(d):
            kept = self._tc.seen.get(id(e))
            where = (e.span.line, e.span.column)
            if kept is not None and kept[0] is e and where > after and name in kept[2] \
                    and (first is None or where < first[0]):
                first = (where, kept[2][name])
        return first[1] if first is not None else None

    def needs(self, d: ast.Def, index: int) -> str | None:
        """What a rule's body needs of a parameter of no written type (as the checker checks
        each call's argument against it): 'a site', 'a number' …"""
        key = self._tc.def_keys.get(id(d))
        need = self._tc.needs.get(key, {}).get(index) if key is not None else None
        return ty.expected(need[0]) if need is not None else None


def expressions(node: Any) -> Iterator[ast.Expr]:
    """Every expression inside a node, in source order, the `{…}` of its texts included."""
    todo = [node]
    while todo:
        item = todo.pop()
        if isinstance(item, tuple):
            todo.extend(reversed(item))
        elif isinstance(item, ast.Words):
            todo.extend(reversed([p for p in item.parts if isinstance(p, ast.Expr)]))
        elif isinstance(item, ast.Node):
            if isinstance(item, ast.Expr):
                yield item
            fields = [getattr(item, n) for n in item.__dataclass_fields__ if n != "span"]
            todo.extend(reversed([v for v in fields if isinstance(v, (tuple, ast.Node))]))


def shown(t: Type | None) -> str | None:
    """A type as the hover says it; None for what the checker does not know."""
    if t is None or not ty.known(t) and t.tag != "none":
        return None
    return str(t)
