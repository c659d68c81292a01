"""The argument that selects a clause (docs/language.md, "Rules written as clauses"), for the
type checker: a rule written as clauses without a catch-all takes a symbol of its
enumeration first; a text, a number, a symbol of another enumeration … is none (R251)."""
from __future__ import annotations

from typing import Any

from rulelang.language import ast, clauses
from rulelang.language import types as ty
from rulelang.language.resolver import qual, written
from rulelang.language.types import Type


def selector_argument(tc: Any, call: ast.Call, rule: ast.Def | ast.Effect | None, key: str,
                      args: list[Type]) -> None:
    """R251 for a first argument that no clause of the rule `key` can be for."""
    end = clauses.selector(rule) if rule is not None else None
    if end is None or not call.args or not args or not ty.known(args[0]):
        return
    t, arg = args[0], call.args[0]
    enum = qual(key.rpartition(".")[0], end.enum)
    if t.tag == "symbol" and t.name in (enum, ""):
        return
    if t.tag == "symbol":
        found = f"a symbol of '{t.name}'"
    elif t.tag in ty.TEXTUAL:
        found = "a text"
    else:
        found = str(t) if str(t).startswith(("a ", "an ")) else f"a value of type {t}"
    symbols = ", ".join(end.symbols)
    if isinstance(arg, ast.Const) and isinstance(arg.value, str) and arg.value in end.symbols:
        help = f"write the symbol without quotes: {arg.value}"
    elif isinstance(arg, ast.Const) and isinstance(arg.value, str):
        help = f"\"{arg.value}\" is not a symbol of '{end.enum}', which has {symbols}"
    else:
        help = f"its clauses are for {symbols}"
    tc.error("R251", f"{written(call.func)}(…) is written as clauses selected by a symbol of "
             f"'{end.enum}': its first argument is {found}", arg.span, help)
