"""Parts of a loop's item test that no item changes, asked once: where a walked choose tests
each value (`choose site t in sites where t.c == site(marker).c`), a part of the test
that reads neither the chosen value nor anything bound within the test is written as a
local asked where the test first reaches it and kept for the loop's later values —
`(v if v is not UNASKED else (v := X))`, the local set to UNASKED before the loop. The
same order of evaluation, the same error at the same item, the same value: expressions
change nothing, and a walk tries its effects on copies, never on the state its loops read.

Only parts whose calls charge no steps as they run (`_QUIET`) are kept so: a part that
charges (a loop over a list made as the game runs, a builtin through the state's view, a
rule's function) is asked for every item, as the reference charges it."""
from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import rulelang.gen.helpers as H
from rulelang.gen.code import Code, Unsupported
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.library.builtins import UNASKED

# the helpers a kept part may call: none charges a step (an error is the same either way)
_QUIET = frozenset([H.site_of, H.attr, H.piece_attr, H.kind_at, H.attr_of])
_CALL = re.compile(r"\b([a-z]+)(\d*)\(")
_PARTS = (ast.Call, ast.Attr, ast.Index, ast.Of)
_NAMING = {ast.Call: ("func",), ast.Of: ("left",)}  # fields that are no values


def keep(w: Any, test: ast.Expr | None, var: str, env: dict[str, Code]) -> list[str]:
    """Mark the parts of `test` (of a loop over `var`'s values) to ask once (w.kept_parts,
    read by Writer.raw: the others too, as written here, so none is written twice); the
    locals to set to UNASKED before the loop."""
    locals_: list[str] = []
    for part in _parts(w, test, var) if test is not None else ():
        try:
            x = w.raw(part, env)
        except Unsupported:  # (as the test will write it: not asked once)
            continue
        if x.form.known or "(" not in x.src or not _quiet(w, x.src):
            w.kept_parts[id(part)] = x  # (the same code in the loop: it reads no item)
            continue
        v = w.fresh("v")
        w.kept_parts[id(part)] = Code(
            f"({v} if {v} is not {w.const(UNASKED)} else ({v} := {x.src}))", x.form, x.cost)
        locals_.append(v)
    return locals_


def _parts(w: Any, n: ast.Node, var: str) -> Iterator[ast.Node]:
    """The largest parts of the test that read no name bound by the loop or within the
    test; none inside a quantifier or a comprehension (a local set there would be theirs)."""
    if isinstance(n, (ast.Quant, ast.ListComp)):
        return
    if isinstance(n, _PARTS) and not any(
            isinstance(x, (ast.Name, ast.Quant, ast.ListComp))
            and (not isinstance(x, ast.Name) or w.refs.get(x, ("local", x.id)) == ("local", var))
            for x in walk(n)):
        yield n
        return
    for name in type(n).__dataclass_fields__:
        if name in _NAMING.get(type(n), ()):  # (what a call calls, what `of` names)
            continue
        for child in _nodes(getattr(n, name)):
            yield from _parts(w, child, var)


def _nodes(value: Any) -> Iterator[ast.Node]:
    """The nodes of a field's value (a node, or tuples of them), a player's text excepted."""
    if isinstance(value, tuple):
        for item in value:
            yield from _nodes(item)
    elif isinstance(value, ast.Node) and not isinstance(value, ast.Words):
        yield value


def _quiet(w: Any, src: str) -> bool:
    """Does the code call only Python's own functions and the quiet helpers?"""
    for m in _CALL.finditer(src):
        name = m[1] + m[2]
        if m[2] and (m[1] != "k" or w.constants.get(name) not in _QUIET):
            return False
    return True
