"""Walking the AST generically: every node below a node, in source order."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rulelang.language import ast


def walk(node: Any) -> Iterator[ast.Node]:
    """The node itself (if it is one) and every node inside it, depth first."""
    if isinstance(node, ast.Node):
        yield node
        for name in node.__dataclass_fields__:
            yield from walk(getattr(node, name))
    elif isinstance(node, tuple):
        for item in node:
            yield from walk(item)
