"""Why a move typed at the prompt is not allowed, in the terms of the rules
(language/refusals.py: a `require … else` text as written, or what the condition that
refused the value tested, with the values of the position, never the name of an internal
rule), and the question a decision asks. It evaluates only the conditions of the mover's own
choice, on the position the mover sees, and falls back to the engine's message."""
from __future__ import annotations

from typing import Any

from rulelang.language import ast
from rulelang.language.refusals import Words
from rulelang.language.wording import fill


def why_illegal(game: Any, state: Any, text: str, message: str) -> str:
    found = _words(game, state).explain(getattr(state, "_decision", None), text) \
        if getattr(game, "runtime", None) is not None else None
    return found or _plain(message)


def _words(game: Any, state: Any) -> Words:
    from rulelang.reference.menus import Menus
    from rulelang.reference.statements import Statements

    statements = Statements(game.runtime, Menus)
    return Words(game.runtime.program, state.ctx, statements.value, statements.run_through)


def question(game: Any, state: Any) -> str:
    """What the player to decide is asked: the `ask "…"` of the `choose` or `do` (its `{…}`
    filled in with the locals where it asks), else, for a `choose`, the value asked for in
    words; "" for a menu with no `ask`."""
    d = getattr(state, "_decision", None)
    if d is None or getattr(game, "runtime", None) is None:
        return ""
    node = d.menu if d.menu is not None else d.choose
    words = getattr(node, "ask", None)
    if words is not None:
        env = dict(d.env) if isinstance(getattr(d, "env", None), dict) else {}
        return fill(words, lambda x: _eval(game, state, x, env))
    if d.menu is not None or d.choose is None:
        return ""
    what = d.choose.var.replace("_", " ")
    return f"Choose {what}" + (f", a {d.choose.kind}" if d.choose.kind else "")


def _plain(message: str) -> str:
    """The engine's message, without the text typed it repeats."""
    for cut in ("' is not a choice here: ", "' is not possible now: "):
        if cut in message and message.startswith("'"):
            return message.split(cut, 1)[1]
    return message


def _eval(game: Any, state: Any, expr: ast.Expr, env: dict[str, Any]) -> Any:
    return game.runtime.interp.eval(expr, state.ctx, dict(env))
