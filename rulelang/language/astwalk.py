"""Walking the AST generically: every node below a node, in source order."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulelang.language import ast


def walk(node: Any) -> Iterator[ast.Node]:
    """The node itself (if it is one) and every node inside it, depth first; texts for the
    players (ast.Words) excepted, so no analysis of the rules sees them."""
    if isinstance(node, ast.Words):
        return  # what players read: no rule reads it (the resolver visits it itself)
    if isinstance(node, ast.Node):
        yield node
        for name in node.__dataclass_fields__:
            yield from walk(getattr(node, name))
    elif isinstance(node, tuple):
        for item in node:
            yield from walk(item)
