"""Why a move is refused, in the terms of the rules: a `require … else` or `choose … else`
text as written (its `{…}` filled in), or what the condition that refused the value tested,
in plain words with the values of the position ("0d1 is not empty", "the owner of a2 is
White, not Black"), never the text of a rule. Both the engine (IllegalActionError) and the
terminal say it so; it evaluates the conditions of the mover's own choice only, on a copy of
the locals, with any evaluator given as `value(expr, ctx, locals)`."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError
from rulelang.language import ast
from rulelang.language.program import Program
from rulelang.language.visibility import Visibility
from rulelang.language.wording import fill, say
from rulelang.library.semantics import domain_items
from rulelang.model.values import Player, Site, action_words, show

Value = Callable[[ast.Expr, Any, dict[str, Any]], Any]  # (expression, context, locals) -> value
Run = Callable[[ast.Stmt, Any, dict[str, Any]], None]  # run a statement that cannot decide
_VISIBILITY: dict[int, tuple[Program, Visibility]] = {}  # per program (few per process)
_FAILS = (RulelangError, LookupError, TypeError, ValueError, AttributeError)
_PHRASES = {"empty": "is occupied", "occupied": "is empty"}  # a failed `empty(s)` reads …


def source_text(program: Program, node: ast.Node) -> str:
    """The text of a one-line node as written ("a condition" otherwise): for the rulebook's
    author (a failed `require` outside a menu), never for a player."""
    span = node.span
    src = program.loaded.sources.get(span.path)
    if src is None or span.line != span.end_line:
        return "a condition"
    return src.line(span.line)[span.column - 1: span.end_column - 1]


class Words:
    """Plain words for the refusals of one position: `value` evaluates an expression in `c`,
    `run` (if given) runs a statement that cannot decide."""

    def __init__(self, program: Program, c: Any, value: Value, run: Run | None = None) -> None:
        self.program, self.c, self.value, self.run = program, c, value, run

    def eval(self, expr: ast.Expr, env: dict[str, Any]) -> Any:
        return self.value(expr, self.c, dict(env))

    # ---- a decision and a typed text
    def explain(self, d: Any, text: str) -> str | None:
        """Why `text` is not among the options of decision d, or None when no words are
        found (the caller's own message then)."""
        try:
            return self._explain(d, text)
        except _FAILS:
            return None

    def _explain(self, d: Any, text: str) -> str | None:
        words = action_words(text)
        if d is not None and d.menu is None and d.choose is not None and words:
            choices = sorted({" ".join(show(v) for v in o[1]) for o in d.options})
            env = dict(d.env) if isinstance(getattr(d, "env", None), dict) else {}
            return self.refused(d.choose, " ".join(words), env, choices)
        if d is None or d.menu is None or not words or words[0] not in d.menu.actions:
            return None
        labels = {id(o): lab for o, lab in zip(d.options, d.labels(), strict=True)}
        return self._walk(self.program.actions[words[0]], words,
                          [o for o in d.options if o[0] == words[0]], labels)

    def _walk(self, action: ast.Action, words: list[str], options: list[Any],
              labels: dict[int, str]) -> str | None:
        """Through the action's statements as far as its chooses go, with the values typed:
        the first requirement or choose that refuses them says why."""
        env: dict[str, Any] = {}
        offered = bool(options)
        k = 0
        for s in action.body.stmts:
            if isinstance(s, ast.Let):
                for name, expr in s.bindings:
                    env[name] = self.eval(expr, env)
            elif isinstance(s, ast.Require):
                if not self.eval(s.cond, env):
                    return self.requirement(s, env)
            elif isinstance(s, ast.Choose) and s.mode == "mover":
                got = words[k + 1] if k + 1 < len(words) else None
                shown = sorted({show(o[1][k]) for o in options if len(o[1]) > k})
                if got is None:
                    if shown:
                        return f"say which {s.kind or _named(s.var)}: " + some(shown)
                    got = next((show(v) for v in self._members(s.domain, env)), None)
                    if got is None:
                        return self.refused(s, "", env, [])
                match = [o for o in options if len(o[1]) > k and show(o[1][k]) == got]
                if match:
                    env[s.var], options = match[0][1][k], match
                else:
                    if offered and k == _last_choose(action) and self.run is not None:
                        later = self.later(action, words)
                        if later:
                            return later
                    value = self._value_of(s, got, env)
                    if value is None or not self._offers(s, value, env):
                        return self.refused(s, got, env, shown)
                    env[s.var], options = value, []
                k += 1
            elif isinstance(s, (ast.Choose, ast.Do, ast.Then)):
                return None  # (the engine's own words: what follows is another's)
            elif not options:
                break  # effects: a `require` after them is found on a scratch copy (above)
        if k + 1 < len(words) and options:
            return "too many words: " + some([labels.get(id(o), "") for o in options])
        return None

    def later(self, action: ast.Action, words: list[str]) -> str | None:
        """The requirement that refuses these values of the action's chooses when the action
        runs on a scratch copy of the data (a `require` after its effects), if each value is
        one its choose offers; None when none is found."""
        assert self.run is not None
        c, given = self.c, iter(words[1:])
        e: dict[str, Any] = {}
        saved = c.data
        c.data = saved.copy()
        try:
            for s in action.body.stmts:
                if isinstance(s, ast.Choose) and s.mode == "mover":
                    word = next(given, None)
                    for v in domain_items(c, self.eval(s.domain, e), s.domain.span):
                        e[s.var] = v
                        if show(v) == word and (s.cond is None or self.eval(s.cond, e)):
                            break
                    else:
                        return None
                elif isinstance(s, ast.Require):
                    if not self.eval(s.cond, e):
                        return self.requirement(s, e)
                elif isinstance(s, (ast.Choose, ast.Do)):
                    return None
                else:
                    self.run(s, c, e)
        except _FAILS:
            return None
        finally:
            c.data = saved
        return None

    def requirement(self, s: ast.Require, env: dict[str, Any]) -> str:
        """Why a `require` refuses: its `else` text filled in, else what it tested."""
        if s.reason is not None:
            return fill(s.reason, lambda x: self.eval(x, env))
        try:
            why = self.why_false(s.cond, env)
        except _FAILS:
            why = None
        return why or "a requirement of the rules does not hold"

    # ---- a value a choose does not offer
    def refused(self, s: ast.Choose, got: str, env: dict[str, Any], choices: list[str]) -> str:
        sites = {x.name: x for x in self.c.game.board.sites}
        if s.kind == "site" and got not in sites:
            return f"there is no site {got} on this board"
        value: Any = sites.get(got, got)
        if s.reason is not None:  # the rulebook's words
            found = self._value_of(s, got, env)
            bound = {**env, s.var: found if found is not None else value}
            return fill(s.reason, lambda x: self.eval(x, bound))
        why = None
        if value not in self._members(s.domain, env):
            why = self._why_not_in(s.domain, value, env)
            if why is None and choices:
                why = f"{got} is not among the choices here: {some(choices)}"
        elif s.cond is not None:
            why = self.why_false(s.cond, {**env, s.var: value})
        if why:
            return why
        return f"{got} cannot be chosen here; the choices are {some(choices)}" if choices \
            else f"{got} cannot be chosen here"

    def _members(self, domain: ast.Expr, env: dict[str, Any]) -> list[Any]:
        found = self.eval(domain, env)
        return list(found) if isinstance(found, (tuple, list, frozenset, set)) or \
            hasattr(found, "__iter__") else []

    def _value_of(self, s: ast.Choose, got: str, env: dict[str, Any]) -> Any:
        """The value a typed word names: a site, or a member of the choose's domain."""
        sites = {x.name: x for x in self.c.game.board.sites}
        if got in sites:
            return sites[got]
        return next((v for v in self._members(s.domain, env) if show(v) == got), None)

    def _offers(self, s: ast.Choose, value: Any, env: dict[str, Any]) -> bool:
        """Does the choose offer this value (in its domain, through its `where`)?"""
        if value not in self._members(s.domain, env):
            return False
        return s.cond is None or bool(self.eval(s.cond, {**env, s.var: value}))

    def _why_not_in(self, expr: ast.Expr, value: Any, env: dict[str, Any]) -> str | None:
        """Why a value is not in the collection an expression makes: a rule `each x in D
        where C` gives what C tested."""
        body, bound = self._rule_body(expr, env)
        for _ in range(6):  # through rules and `a if cond else b` to the collection made
            if isinstance(body, ast.IfExpr):
                body = body.then if self.eval(body.cond, bound) else body.orelse
            elif body is not None and not isinstance(body, ast.Quant):
                body, bound = self._rule_body(body, bound)
            else:
                break
        if isinstance(body, ast.Quant) and body.kind == "each" and body.cond is not None:
            return self.why_false(body.cond, {**bound, body.var: value})
        return None

    def _rule_body(self, expr: ast.Expr, env: dict[str, Any]
                   ) -> tuple[ast.Expr | None, dict[str, Any]]:
        """The expression a rule stands for, with its parameters bound (a rule with no
        parameters named bare, `module.rule`, or called)."""
        node = expr.func if isinstance(expr, ast.Call) else expr
        ref = self.program.refs.get(node)
        if ref is None or ref[0] != "def":
            return (expr if isinstance(expr, ast.Quant) else None), env
        d = self.program.defs[ref[1]]
        if isinstance(d.body, ast.Block):
            return None, env
        args = expr.args if isinstance(expr, ast.Call) else ()
        bound = {p: self.eval(a, env) for p, a in zip(d.params or (), args, strict=False)}
        return d.body, bound

    # ---- a false condition, in words
    def why_false(self, cond: ast.Expr, env: dict[str, Any], depth: int = 0) -> str | None:
        """What a false condition tested, in words, with the values of the position; None
        where it reads what some player may not see (a hidden zone, a secret var): the
        values it read must not tell them."""
        if depth > 6 or depth == 0 and not self._open(cond):
            return None
        nxt = depth + 1
        if isinstance(cond, ast.BoolOp) and cond.op == "and":
            return self.why_false(cond.left if not self.eval(cond.left, env) else cond.right,
                                  env, nxt)
        if isinstance(cond, ast.BoolOp) and cond.op == "or":
            left, right = self.why_false(cond.left, env, nxt), \
                self.why_false(cond.right, env, nxt)
            return "; ".join(x for x in (left, right) if x) or None
        if isinstance(cond, ast.IfExpr):
            return self.why_false(cond.then if self.eval(cond.cond, env) else cond.orelse,
                                  env, nxt)
        if isinstance(cond, ast.Quant) and cond.kind in ("all", "any") and \
                cond.body is not None:
            return self._why_quant(cond, env, nxt)
        if isinstance(cond, ast.Not):
            return f"{self.say(cond.operand, env)} holds"
        if isinstance(cond, ast.Call):
            return self._why_call(cond, env, nxt)
        if isinstance(cond, ast.Compare):
            left, right = self.eval(cond.left, env), self.eval(cond.right, env)
            lhs = self.say(cond.left, env)
            if cond.op == "==":
                return f"{lhs} is {_short(left)}, not {_short(right)}"
            if cond.op == "!=":
                return f"{lhs} is {_short(left)}"
            return f"{lhs} is {_short(left)}; it must be {_OPS.get(cond.op, cond.op)[3:]} " \
                   f"{_short(right)}"
        return f"not so: {self.say(cond, env)}"

    def _why_quant(self, cond: ast.Quant, env: dict[str, Any], depth: int) -> str | None:
        assert cond.body is not None
        items = list(self.eval(cond.domain, env))
        what = self.say(cond.domain, env)
        if cond.kind == "any":
            return f"none of {what} will do" if items else f"{what} is empty"
        for x in items:
            inner = {**env, cond.var: x}
            if cond.cond is not None and not self.eval(cond.cond, inner):
                continue
            if not self.eval(cond.body, inner):
                why = self.why_false(cond.body, inner, depth)
                return f"it needs every one of {what}: {why}" if why else None
        return None

    def _why_call(self, cond: ast.Call, env: dict[str, Any], depth: int) -> str | None:
        body, bound = self._rule_body(cond, env)
        if body is not None:
            return self.why_false(body, bound, depth)
        args = [self.eval(a, env) for a in cond.args]
        name = source_text(self.program, cond.func)
        if len(args) == 1 and isinstance(args[0], Site):
            site = args[0]
            if name in _PHRASES:
                return f"{site.name} {_PHRASES[name]}" + self._whose(site, name)
            return f"{site.name} is not {_named(name.split('.')[-1])}"
        return f"not so: {self.say(cond, env)}"

    def _whose(self, site: Site, name: str) -> str:
        if name != "empty":
            return ""
        data = self.c.data
        owners = {data.owner[p.id] for p in data.at[site.index]}
        if len(owners) == 1 and None not in owners:
            return f" (by {self.c.game.players[next(iter(owners))].name})"
        return ""

    def say(self, expr: ast.Expr, env: dict[str, Any], depth: int = 0) -> str:
        """An expression in plain words, the values of the locals in place of their names:
        `owner(a2)` reads "the owner of a2", `money of mover >= 2` "money of Player1 is at
        least 2"."""
        def say_(e: ast.Expr) -> str:
            return self.say(e, env, depth + 1)

        e = expr
        if depth > 8:
            return "…"
        if isinstance(e, ast.Name):
            if e.id in env:
                return say(env[e.id])
            found = self._known(e, env)  # `mover`, a site: its value
            return say(found) if isinstance(found, (Player, Site)) else _named(e.id)
        if isinstance(e, ast.Const):
            return say(e.value)
        if isinstance(e, ast.Attr):
            return f"the {_named(e.name)} of {say_(e.obj)}"
        if isinstance(e, ast.Of):
            return f"{say_(e.left)} of {say_(e.right)}"
        if isinstance(e, ast.Call):
            name = _named(source_text(self.program, e.func).split(".")[-1])
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
            return f"{_QUANTS.get(e.kind, e.kind)} {_named(e.var)} in {say_(e.domain)}"
        if isinstance(e, (ast.TupleExpr, ast.ListExpr)):
            return ", ".join(say_(x) for x in e.items)
        return "a condition"


    def _open(self, cond: ast.Expr) -> bool:
        cache = _VISIBILITY.get(id(self.program))
        if cache is None or cache[0] is not self.program:
            if len(_VISIBILITY) > 64:
                _VISIBILITY.clear()
            cache = _VISIBILITY[id(self.program)] = (self.program, Visibility(self.program))
        return cache[1].open_to_all(cond)

    def _known(self, e: ast.Name, env: dict[str, Any]) -> Any:
        try:
            return self.eval(e, env)
        except _FAILS:
            return None


def _named(name: str) -> str:
    return name.replace("_", " ")


def _last_choose(action: ast.Action) -> int:
    return sum(1 for s in action.body.stmts if isinstance(s, ast.Choose) and
               s.mode == "mover") - 1


def some(items: list[str], most: int = 8) -> str:
    return ", ".join(items[:most]) + (f" … ({len(items)} in all)" if len(items) > most else "")


def _short(value: Any) -> str:
    text = show(value)
    return text if len(text) <= 40 else text[:37] + "…"


_OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most",
        ">": "is more than", ">=": "is at least", "in": "is among", "not in": "is not among",
        "+": "plus", "-": "minus", "*": "times", "//": "divided by", "%": "modulo"}
_QUANTS = {"all": "every", "any": "some", "each": "every", "count": "the number of",
           "first": "the first", "sum": "the sum over", "max": "the most over",
           "min": "the least over"}
