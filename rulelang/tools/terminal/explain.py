"""Why a move typed at the prompt is not allowed, in the terms of the rules: a `require …
else` text as written, or what the condition that refused the value tested, with the values
of the position ("0d1 is not empty", "e6 is occupied by White"), never the name of an
internal rule. It evaluates only the conditions of the mover's own choice, on the position
the mover sees (the board, which is public), and falls back to the engine's message."""
from __future__ import annotations

from typing import Any

from rulelang.errors import RulelangError
from rulelang.language import ast
from rulelang.language.decisions import later_refusal, refusal, source_text
from rulelang.language.wording import fill, say
from rulelang.model.values import Site, action_words, show

_PHRASES = {"empty": "is occupied", "occupied": "is empty"}  # a failed `empty(s)` reads …


def why_illegal(game: Any, state: Any, text: str, message: str) -> str:
    try:
        found = _explain(game, state, text)
    except (RulelangError, LookupError, TypeError, ValueError, AttributeError):
        found = None
    return found or _plain(message)


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
    """The engine's message, without the names of rules in parentheses."""
    return message.split(" (from ")[0]


def _explain(game: Any, state: Any, text: str) -> str | None:
    d = getattr(state, "_decision", None)
    rt = getattr(game, "runtime", None)
    if rt is None:
        return None
    program = rt.program
    words = action_words(text)
    if d is not None and d.menu is None and d.choose is not None and words:
        choices = sorted({" ".join(show(v) for v in o[1]) for o in d.options})
        env = dict(d.env) if isinstance(getattr(d, "env", None), dict) else {}
        return _refused(game, state, d.choose, " ".join(words), env, choices)
    if d is None or d.menu is None or not words or words[0] not in d.menu.actions:
        return None  # (the engine names the actions there are)
    return _walk(game, state, program.actions[words[0]], words,
                 [o for o in d.options if o[0] == words[0]])


def _walk(game: Any, state: Any, action: ast.Action, words: list[str],
          options: list[Any]) -> str | None:
    """Through the action's statements as far as its chooses go, with the values typed: the
    first requirement or choose that refuses them says why."""
    env: dict[str, Any] = {}
    offered = bool(options)
    k = 0
    for s in action.body.stmts:
        if isinstance(s, ast.Let):
            for name, expr in s.bindings:
                env[name] = _eval(game, state, expr, env)
        elif isinstance(s, ast.Require):
            if not _eval(game, state, s.cond, env):
                return refusal(game.runtime.program, s,
                               lambda x: _eval(game, state, x, env)) if s.reason else \
                    _why_false(game, state, s.cond, env) or None
        elif isinstance(s, ast.Choose) and s.mode == "mover":
            got = words[k + 1] if k + 1 < len(words) else None
            shown = sorted({show(o[1][k]) for o in options if len(o[1]) > k})
            if got is None:
                if shown:
                    return f"say which {s.var}: " + _some(shown)
                got = next((show(v) for v in _members(game, state, s.domain, env)), None)
                if got is None:
                    return _refused(game, state, s, "", env, [])
            match = [o for o in options if len(o[1]) > k and show(o[1][k]) == got]
            if match:
                env[s.var], options = match[0][1][k], match
            else:
                if offered and k == _last_choose(action):
                    later = _later_refusal(game, state, action, words)
                    if later:
                        return later
                value = _value_of(game, state, s, got, env)
                if value is None or not _offers(game, state, s, value, env):
                    return _refused(game, state, s, got, env, shown)
                env[s.var], options = value, []
            k += 1
        elif isinstance(s, (ast.Choose, ast.Do, ast.Then)):
            break
        elif not options:
            break  # effects: a `require` after them is found on a scratch copy (above)
    if k + 1 < len(words) and options:
        return "too many words: " + _some([" ".join([words[0], *map(show, o[1])])
                                           for o in options])
    return None


def _last_choose(action: ast.Action) -> int:
    return sum(1 for s in action.body.stmts if isinstance(s, ast.Choose) and
               s.mode == "mover") - 1


def _eval(game: Any, state: Any, expr: ast.Expr, env: dict[str, Any]) -> Any:
    return game.runtime.interp.eval(expr, state.ctx, dict(env))


def _members(game: Any, state: Any, domain: ast.Expr, env: dict[str, Any]) -> list[Any]:
    found = _eval(game, state, domain, env)
    return list(found) if isinstance(found, (tuple, list, frozenset, set)) or \
        hasattr(found, "__iter__") else []


def _value_of(game: Any, state: Any, s: ast.Choose, got: str, env: dict[str, Any]) -> Any:
    """The value a typed word names: a site, or a member of the choose's domain."""
    sites = {x.name: x for x in game.runtime.board.sites}
    if got in sites:
        return sites[got]
    return next((v for v in _members(game, state, s.domain, env) if show(v) == got), None)


def _offers(game: Any, state: Any, s: ast.Choose, value: Any, env: dict[str, Any]) -> bool:
    """Does the choose offer this value (in its domain, through its `where`)?"""
    if value not in _members(game, state, s.domain, env):
        return False
    return s.cond is None or bool(_eval(game, state, s.cond, {**env, s.var: value}))


def _later_refusal(game: Any, state: Any, action: ast.Action, words: list[str]) -> str | None:
    """The `require` after the action's effects that refuses these values ("suicide" in a
    game of capture), found by running the action on a scratch copy of the position."""
    from rulelang.reference.menus import Menus
    from rulelang.reference.statements import Statements

    statements = Statements(game.runtime, Menus)
    return later_refusal(game.runtime.program, action, words, state.ctx, statements.value,
                         statements.run_through)


def _some(items: list[str], most: int = 8) -> str:
    return ", ".join(items[:most]) + (f" … ({len(items)} in all)" if len(items) > most else "")


def _refused(game: Any, state: Any, s: ast.Choose, got: str, env: dict[str, Any],
             choices: list[str]) -> str:
    rt = game.runtime
    sites = {x.name: x for x in rt.board.sites}
    if s.kind == "site" and got not in sites:
        return f"there is no site {got} on this board"
    value: Any = sites.get(got, got)
    if s.reason is not None:  # the rulebook's words
        found = _value_of(game, state, s, got, env)
        bound = {**env, s.var: found if found is not None else value}
        return fill(s.reason, lambda x: _eval(game, state, x, bound))
    why = None
    c = state.ctx
    domain = rt.interp.eval(s.domain, c, dict(env))
    members = list(domain) if isinstance(domain, (tuple, list, frozenset, set)) or \
        hasattr(domain, "__iter__") else []
    if value not in members:
        why = _why_not_in(game, state, s.domain, value, env)
        if why is None and choices:
            why = f"{got} is not among the choices here: {_some(choices)}"
    elif s.cond is not None:
        why = _why_false(game, state, s.cond, {**env, s.var: value})
    return why or f"{got} cannot be chosen here; the choices are {_some(choices)}"


def _why_not_in(game: Any, state: Any, expr: ast.Expr, value: Any,
                env: dict[str, Any]) -> str | None:
    """Why a value is not in the collection an expression makes: a rule `each x in D where
    C` gives what C tested."""
    program = game.runtime.program
    rt, c = game.runtime, state.ctx
    body, bound = _rule_body(program, expr, game, state, env)
    for _ in range(6):  # through rules and `a if cond else b` to the collection made
        if isinstance(body, ast.IfExpr):
            body = body.then if rt.interp.eval(body.cond, c, dict(bound)) else body.orelse
        elif body is not None and not isinstance(body, ast.Quant):
            body, bound = _rule_body(program, body, game, state, bound)
        else:
            break
    if body is None:
        return None
    if isinstance(body, ast.Quant) and body.kind == "each" and body.cond is not None:
        return _why_false(game, state, body.cond, {**bound, body.var: value})
    return None


def _rule_body(program: Any, expr: ast.Expr, game: Any, state: Any,
               env: dict[str, Any]) -> tuple[ast.Expr | None, dict[str, Any]]:
    """The expression a rule stands for, with its parameters bound (a rule with no
    parameters named bare, `module.rule`, or called)."""
    node = expr.func if isinstance(expr, ast.Call) else expr
    ref = program.refs.get(node)
    if ref is None or ref[0] != "def":
        return (expr if isinstance(expr, ast.Quant) else None), env
    d = program.defs[ref[1]]
    if isinstance(d.body, ast.Block):
        return None, env
    args = expr.args if isinstance(expr, ast.Call) else ()
    rt, c = game.runtime, state.ctx
    bound = {p: rt.interp.eval(a, c, dict(env)) for p, a in zip(d.params or (), args,
                                                                strict=False)}
    return d.body, bound


def _why_false(game: Any, state: Any, cond: ast.Expr, env: dict[str, Any],
               depth: int = 0) -> str | None:
    """What a false condition tested, in words, with the values of the position."""
    rt, c = game.runtime, state.ctx
    program = rt.program

    def holds(e: ast.Expr) -> bool:
        return bool(rt.interp.eval(e, c, dict(env)))

    if depth > 6:
        return None
    if isinstance(cond, ast.BoolOp) and cond.op == "and":
        part = cond.left if not holds(cond.left) else cond.right
        return _why_false(game, state, part, env, depth + 1)
    if isinstance(cond, ast.BoolOp) and cond.op == "or":
        left = _why_false(game, state, cond.left, env, depth + 1)
        right = _why_false(game, state, cond.right, env, depth + 1)
        return "; ".join(x for x in (left, right) if x) or None
    if isinstance(cond, ast.IfExpr):
        part = cond.then if holds(cond.cond) else cond.orelse
        return _why_false(game, state, part, env, depth + 1)
    if isinstance(cond, ast.Quant) and cond.kind in ("all", "any") and cond.body is not None:
        items = list(rt.interp.eval(cond.domain, c, dict(env)))
        what = _with_values(program, cond.domain, env)
        if cond.kind == "any":
            return f"none of {what} will do" if items else f"{what} is empty"
        for x in items:
            inner = {**env, cond.var: x}
            if cond.cond is not None and not rt.interp.eval(cond.cond, c, dict(inner)):
                continue
            if not rt.interp.eval(cond.body, c, dict(inner)):
                why = _why_false(game, state, cond.body, inner, depth + 1)
                return f"it needs every one of {what}: {why}" if why else None
        return None
    if isinstance(cond, ast.Not):
        return f"{_with_values(program, cond.operand, env)} holds"
    if isinstance(cond, ast.Call):
        body, bound = _rule_body(program, cond, game, state, env)
        if body is not None:
            return _why_false(game, state, body, bound, depth + 1)
        args = [rt.interp.eval(a, c, dict(env)) for a in cond.args]
        name = source_text(program, cond.func)
        if len(args) == 1 and isinstance(args[0], Site):
            site = args[0]
            if name in _PHRASES:
                return f"{site.name} {_PHRASES[name]}" + _whose(state, site, name)
            return f"{site.name} is not {name.split('.')[-1].replace('_', ' ')}"
        return f"not so: {_with_values(program, cond, env)}"
    if isinstance(cond, ast.Compare):
        left = rt.interp.eval(cond.left, c, dict(env))
        right = rt.interp.eval(cond.right, c, dict(env))
        lhs = _with_values(program, cond.left, env)
        if cond.op == "==":
            return f"{lhs} is {_short(left)}, not {_short(right)}"
        if cond.op == "!=":
            return f"{lhs} is {_short(left)}"
        return f"{lhs} is {_short(left)}; it must be {_OPS.get(cond.op, cond.op)[3:]} " \
               f"{_short(right)}"
    return f"not so: {_with_values(program, cond, env)}"


def _short(value: Any) -> str:
    text = show(value)
    return text if len(text) <= 40 else text[:37] + "…"


def _whose(state: Any, site: Site, name: str) -> str:
    if name != "empty":
        return ""
    pieces = state.ctx.data.at[site.index]
    owners = {state.ctx.data.owner[p.id] for p in pieces}
    if len(owners) == 1 and None not in owners:
        return f" (by {state.game.player_names[next(iter(owners))]})"
    return ""


def _with_values(program: Any, expr: ast.Expr, env: dict[str, Any], depth: int = 0) -> str:
    """An expression in plain words, the values of the locals in place of their names:
    `owner(a2)` reads "the owner of a2", `money of mover >= 2` "money of Player1 is at
    least 2"."""
    def say_(e: ast.Expr) -> str:
        return _with_values(program, e, env, depth + 1)

    e = expr
    if depth > 8:
        return "…"
    if isinstance(e, ast.Name):
        return say(env[e.id]) if e.id in env else e.id.replace("_", " ")
    if isinstance(e, ast.Const):
        return say(e.value)
    if isinstance(e, ast.Attr):
        return f"the {e.name.replace('_', ' ')} of {say_(e.obj)}"
    if isinstance(e, ast.Of):
        return f"{say_(e.left)} of {say_(e.right)}"
    if isinstance(e, ast.Call):
        name = source_text(program, e.func).split(".")[-1].replace("_", " ")
        args = [say_(a) for a in e.args]
        if not args:
            return name
        return f"the {name} of " + (args[0] if len(args) == 1 else
                                   ", ".join(args[:-1]) + " and " + args[-1])
    if isinstance(e, ast.Index):
        return f"{say_(e.obj)} for {say_(e.index)}"
    if isinstance(e, (ast.Compare, ast.BinOp, ast.BoolOp)):
        return f"{say_(e.left)} {_OPS.get(e.op, e.op)} {say_(e.right)}"
    if isinstance(e, ast.Not):
        return f"not {say_(e.operand)}"
    if isinstance(e, ast.Quant):
        return f"{_QUANTS.get(e.kind, e.kind)} {e.var} in {say_(e.domain)}"
    if isinstance(e, (ast.TupleExpr, ast.ListExpr)):
        return ", ".join(say_(x) for x in e.items)
    return "a condition"


_OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
        ">": "is more than", ">=": "is at least", "in": "is among", "not in": "is not among",
        "+": "plus", "-": "minus", "*": "times", "//": "divided by", "%": "modulo"}
_QUANTS = {"all": "every", "any": "some", "each": "each", "count": "the number of",
           "first": "the first", "sum": "the sum over", "max": "the most over",
           "min": "the least over"}
