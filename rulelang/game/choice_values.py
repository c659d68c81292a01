"""What a `choose` may offer, read from its domain's expression where the checker's type says
too little (a value of no known type, a list): the action space (action_space.py) numbers
those values. A small abstract reading of the expression, following the `let`s in scope,
the loops' variables and the rules it calls with their arguments:

  `each c in hand(p): c.name`       the declared type of the attribute `name` (its symbols)
  `subsets(pool, min(4, k))`        lists of at most 4 items of the pool
  `product([names, seasons])`       pairs: a name, then a season
  `names + ["deck"]`, `[a, b]`      the values of either side, of each item

A part it cannot read is None: the caller then uses what the type says, or the game's plain
values for an item. It never claims less than the value may hold.
"""
from __future__ import annotations

from typing import Any

from rulelang.language import ast
from rulelang.language.written_types import attr_types

Env = dict[str, tuple[str, Any, Any]]  # name -> ("let", expr, env) | ("elem", domain, env)
_DEPTH = 12  # rules calling rules: deeper is not read


class ChoiceValues:
    def __init__(self, space: Any) -> None:
        self.space, self.program = space, space.program
        self.attrs = attr_types(self.program)
        self.envs: dict[ast.Choose, Env] = {}
        for decl in (*self.program.actions.values(), *self.program.effects.values()):
            self._block(decl.body, {})
        for block in self.program.sections.values():
            self._block(block, {})
        if self.program.round is not None:
            self._block(self.program.round.body, {})
        self.depth = 0

    # ---- the names in scope at each choose
    def _block(self, block: ast.Block | None, env: Env) -> None:
        if block is None:
            return
        env = dict(env)
        for s in block.stmts:
            if isinstance(s, ast.Let):
                for name, e in s.bindings:
                    env[name] = ("let", e, dict(env))
            elif isinstance(s, ast.Choose):
                self.envs[s] = dict(env)
                env[s.var] = ("elem", s.domain, dict(env))
            elif isinstance(s, ast.ForEach):
                self._block(s.body, {**env, s.var: ("elem", s.domain, dict(env))})
            elif isinstance(s, ast.If):
                for _, b in s.branches:
                    self._block(b, env)
                self._block(s.orelse, env)
            elif isinstance(s, (ast.Repeat, ast.While)):
                self._block(s.body, env)

    def of_choose(self, s: ast.Choose) -> Any:
        """The universe of the values choose s may offer, or None."""
        return self.items(s.domain, self.envs.get(s, {}))

    # ---- the items of a collection
    def items(self, e: ast.Expr | None, env: Env) -> Any:
        if e is None or self.depth > _DEPTH:
            return None
        self.depth += 1
        try:
            return self._items(e, env)
        finally:
            self.depth -= 1

    def _items(self, e: ast.Expr, env: Env) -> Any:
        u = self.space.universes
        if isinstance(e, ast.Name):
            bound = env.get(e.id)
            if bound is not None:
                how, x, at = bound
                return self.items(x, at) if how == "let" else u.item_of(self.items(x, at))
            return self._named_items(e)
        if isinstance(e, ast.Quant) and e.kind in ("each", "sorted"):
            if e.kind == "each" and e.body is not None:
                return self.value(e.body, {**env, e.var: ("elem", e.domain, env)})
            return self.items(e.domain, env)
        if isinstance(e, ast.ListComp) and len(e.generators) == 1:
            g = e.generators[0]
            return self.value(e.item, {**env, g.var: ("elem", g.domain, env)})
        if isinstance(e, (ast.ListExpr, ast.TupleExpr)):
            return u.union([self.value(i, env) for i in e.items])
        if isinstance(e, ast.BinOp) and e.op == "+":
            return u.union([self.items(e.left, env), self.items(e.right, env)])
        if isinstance(e, ast.IfExpr):
            return u.union([self.items(e.then, env), self.items(e.orelse, env)])
        if isinstance(e, ast.Of) and self._category(e.left) == "zone":
            return u.pieces()
        if isinstance(e, ast.Call):
            return self._call_items(e, env)
        return None

    def _named_items(self, e: ast.Name) -> Any:
        cat, key = self.program.refs.get(e, (None, None))
        u = self.space.universes
        if cat == "enum":
            return u.listed(list(self.program.enums[key].symbols))
        if cat == "zone":
            return u.pieces()
        if cat == "def" and self.program.defs[key].params is None:
            body = self.program.defs[key].body
            return self.items(body, {}) if isinstance(body, ast.Expr) else None
        return None

    def _call_items(self, e: ast.Call, env: Env) -> Any:
        cat, key = self.program.refs.get(e.func, (None, None))
        u, args = self.space.universes, e.args
        if cat == "builtin":
            if key in ("distinct", "sorted", "reversed", "shuffled") and args:
                return self.items(args[0], env)
            if key == "pieces":
                return u.pieces()
            if key == "subsets" and len(args) == 2:
                most = self.upper(args[1], env)
                return None if most is None else u.sequences(
                    self.items(args[0], env) or u.plain(), most)
            if key == "product" and len(args) == 1 and \
                    isinstance(args[0], (ast.ListExpr, ast.TupleExpr)):
                return u.product([self.items(a, env) or u.plain() for a in args[0].items])
            return None
        if cat == "def":
            d = self.program.defs[key]
            if not isinstance(d.body, ast.Expr) or d.params is None or \
                    len(d.params) != len(args):
                return None
            inner: Env = {p: ("let", a, env) for p, a in zip(d.params, args, strict=True)}
            return self.items(d.body, inner)
        return None

    # ---- one value
    def value(self, e: ast.Expr | None, env: Env) -> Any:
        if e is None or self.depth > _DEPTH:
            return None
        self.depth += 1
        try:
            return self._value(e, env)
        finally:
            self.depth -= 1

    def _value(self, e: ast.Expr, env: Env) -> Any:
        u = self.space.universes
        if isinstance(e, ast.Name):
            bound = env.get(e.id)
            if bound is not None:
                how, x, at = bound
                return self.value(x, at) if how == "let" else self.items(x, at)
            cat, key = self.program.refs.get(e, (None, None))
            if cat in ("symbol", "kind"):  # (a symbol's or a kind's value is its name)
                return u.listed([key if cat == "kind" else e.id])
            if cat == "enum":  # an enumeration's value: the list of its symbols
                return u.sequences(u.listed(list(self.program.enums[key].symbols)),
                                   len(self.program.enums[key].symbols))
            return None
        if isinstance(e, ast.Const) and isinstance(e.value, (str, bool)):
            return u.listed([e.value])
        if isinstance(e, ast.Attr):
            t = self.attrs.get(e.name)
            return None if t is None else u.of_type(t)
        if isinstance(e, ast.IfExpr):
            return u.union([self.value(e.then, env), self.value(e.orelse, env)])
        if isinstance(e, ast.Quant) and e.kind == "each" and e.body is not None:
            longest = u.longest(self.value(e.domain, env))
            item = self.value(e.body, {**env, e.var: ("elem", e.domain, env)})
            return None if longest is None else u.sequences(item or u.plain(), longest)
        return None

    def upper(self, e: ast.Expr, env: Env) -> int | None:
        """A bound on a whole number: a constant, an option, the min of such."""
        if isinstance(e, ast.Const) and type(e.value) is int:
            return e.value
        if isinstance(e, ast.Call) and self.program.refs.get(e.func, ("",))[0] == "builtin" \
                and self.program.refs[e.func][1] == "min":
            found = [b for b in (self.upper(a, env) for a in e.args) if b is not None]
            return min(found) if found else None
        cat, key = self.program.refs.get(e, (None, None))
        if cat == "option":
            value = self.space.runtime.options.get(key)
            return value if type(value) is int else None
        return None

    def _category(self, e: ast.Expr) -> str | None:
        ref = self.program.refs.get(e)
        return None if ref is None else str(ref[0])
