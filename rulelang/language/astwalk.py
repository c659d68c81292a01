"""Walking the AST generically: every node below a node, in source order."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar

from rulelang.language import ast

_FIELDS: dict[type, tuple[str, ...]] = {}  # a node class's fields but its span, reversed


def walk(node: Any) -> Iterator[ast.Node]:
    """The node itself (if it is one) and every node inside it, depth first; texts for the
    players (ast.Words) excepted, so no analysis of the rules sees them. (A loop over a
    stack, not nested generators: a node deep in the tree costs no more than one at the top.)"""
    todo = [node]
    pop, push = todo.pop, todo.append
    while todo:
        item = pop()
        if isinstance(item, tuple):
            todo.extend(reversed(item))
        elif isinstance(item, ast.Node) and not isinstance(item, ast.Words):
            yield item
            cls = type(item)
            names = _FIELDS.get(cls)
            if names is None:
                names = _FIELDS[cls] = tuple(
                    n for n in reversed(cls.__dataclass_fields__) if n != "span")
            for name in names:
                value = getattr(item, name)
                if isinstance(value, (tuple, ast.Node)):
                    push(value)


_NODES: dict[tuple[int, type], tuple[Any, tuple[Any, ...]]] = {}  # -> (node, its nodes)
_MAX_NODES = 20000
_N = TypeVar("_N", bound=ast.Node)


def nodes(node: Any, kind: type[_N]) -> tuple[_N, ...]:
    """walk(node)'s nodes of this kind, as a tuple kept for the node: the AST is frozen, and
    the parser hands the same declarations to every check of an unchanged file, so the
    language server's checks after an edit walk only what the edit changed."""
    kept = _NODES.get((id(node), kind))
    if kept is not None and kept[0] is node:
        return kept[1]
    found = tuple(n for n in walk(node) if isinstance(n, kind))
    if len(_NODES) >= _MAX_NODES:
        _NODES.clear()
    _NODES[(id(node), kind)] = (node, found)
    return found


def conjuncts(e: ast.Expr | None) -> list[ast.Expr]:
    """The tests of an `and` (of `and`s), in the order they are evaluated; [e] for any
    other expression, [] for none."""
    out: list[ast.Expr] = []
    todo = [] if e is None else [e]
    while todo:
        t = todo.pop()
        if isinstance(t, ast.BoolOp) and t.op == "and":
            todo += [t.right, t.left]
        else:
            out.append(t)
    return out
