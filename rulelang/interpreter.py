"""The reference evaluator: walks expression trees. It is the specification of what every
expression means; compiler.py produces closures that the tests prove equivalent."""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sized
from typing import Any

from . import ast
from .errors import RulelangError, RuleRuntimeError
from .model.values import MapValue, Piece, Player, Site, ZoneRef, piece_source, show, zone_ref

Fn = Callable[[Any, dict[str, Any]], Any]  # (context, locals) -> value
STEP_BUDGET = 2_000_000

SIZE_LIMIT = 1_000_000  # items of a list or characters of a text that `+` or `*` may make


def _add(a: Any, b: Any) -> Any:
    """a + b; a list or text longer than SIZE_LIMIT is refused (doubling one in a loop or a
    recursion would fill the memory long before the step budget ran out)."""
    r = a + b
    if (type(r) is tuple or type(r) is str) and len(r) > SIZE_LIMIT:
        raise OverflowError(f"a result of {len(r):,} items, more than {SIZE_LIMIT:,}")
    return r


def _mul(a: Any, b: Any) -> Any:
    """a * b, refusing a list or text longer than SIZE_LIMIT before making it."""
    if type(a) is int and type(b) is int:
        return a * b
    seq, n = (b, a) if type(a) is int else (a, b)
    if type(n) is int and hasattr(seq, "__len__") and len(seq) * n > SIZE_LIMIT:
        raise OverflowError(f"a result of {len(seq) * n:,} items, more than {SIZE_LIMIT:,}")
    return a * b


BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": _add, "-": operator.sub, "*": _mul, "//": operator.floordiv, "%": operator.mod,
}
NUMBER_OPS: dict[str, Callable[[Any, Any], Any]] = {  # the same on two whole numbers
    "+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
    "%": operator.mod,
}
COMPARES: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


class Ctx:
    """What an expression sees: the static game (Runtime) and the state's data."""
    __slots__ = ("game", "data", "steps")

    def __init__(self, game: Any, data: Any) -> None:
        self.game, self.data, self.steps = game, data, 0

    def tick(self, span: Any, n: int = 1) -> None:
        self.steps += n
        if self.steps > STEP_BUDGET:
            raise RuleRuntimeError(f"step budget of {STEP_BUDGET} exceeded: does a rule loop "
                                   "forever?", span, "R302")


class ReturnValue(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


# ---- helpers shared with the compiler ------------------------------------------
def iterate(c: Ctx, x: Iterable[Any] | ZoneRef | None) -> Iterable[Any]:
    if isinstance(x, ZoneRef):
        return tuple(c.data.zones[x])
    if x is None:
        return ()
    return x


def get_attr(c: Ctx, obj: Any, name: str, coord: dict[str, int]) -> Any:
    if isinstance(obj, Site):
        if name in coord:
            return obj.coords[coord[name]]
        if name == "name":
            return obj.name
    elif isinstance(obj, dict) and name in obj:
        return obj[name]
    elif isinstance(obj, Player) and name in ("name", "index"):
        return getattr(obj, name)
    elif isinstance(obj, Piece):
        if name == "kind":
            return obj.kind
        column = c.data.attrs.get(name)
        if column is not None:
            return column[obj.id]
    raise RulelangError(f"{show(obj)} has no '{name}'")


def of_value(c: Ctx, category: str, key: str, player: Any) -> Any:
    if not isinstance(player, Player):
        raise RulelangError(f"'of' needs a player on its right, not {show(player)}")
    p = player.index
    if category == "kind":
        return piece_source(key, zone_ref("supply", p))
    if category == "zone":
        return zone_ref(key, p)
    if category == "counter":
        return c.data.counters[(key, p)]
    if category == "var":
        return c.data.vars[(key, p)]
    raise RulelangError(f"'{key}' cannot be used with 'of'")


def quant(kind: str, items: Iterable[Any], c: Ctx, e: dict[str, Any], var: str,
          cond: Fn | None, body: Fn | None) -> Any:
    """all | any | count | first | max | min | sum | each | best | sorted over items,
    binding var in e."""
    old = e.get(var, _MISSING)
    try:
        if kind in RANKED:  # items ranked by the body (or by themselves)
            return RANKED[kind]([(item, item if body is None else body(c, e))
                                 for item in _quant_values(items, c, e, var, cond, None)])
        if kind == "count":  # the items that pass `where` and, if given, the `:` test
            return sum(1 for v in _quant_values(items, c, e, var, cond, body)
                       if body is None or v)
        values = _quant_values(items, c, e, var, cond, body)
        return _FOLD[kind](values)
    finally:
        if old is _MISSING:
            e.pop(var, None)
        else:
            e[var] = old


_MISSING = object()


def _quant_values(items: Iterable[Any], c: Ctx, e: dict[str, Any], var: str,
                  cond: Fn | None, body: Fn | None) -> Iterable[Any]:
    for item in items:
        e[var] = item
        if cond is None or cond(c, e):
            yield item if body is None else body(c, e)


def local_of(c: Ctx, value: Any) -> tuple[str, str]:
    """What `x of p` means when x is a local holding a name: a piece kind or a zone."""
    program = c.game.program
    if isinstance(value, str) and value in program.pieces:
        return ("kind", value)
    if isinstance(value, str) and value in program.zones:
        return ("zone", value)
    return ("local", show(value))


def _first(values: Iterable[Any]) -> Any:
    return next(iter(values), None)


def _best(pairs: list[tuple[Any, Any]]) -> Any:
    """The item with the largest key, the first of them on a tie; none for no items."""
    best, top = None, None
    for item, key in pairs:
        if best is None or key > top:
            best, top = item, key
    return best if pairs else None


def _sorted(pairs: list[tuple[Any, Any]]) -> tuple[Any, ...]:
    """The items by ascending key; equal keys keep the domain's order."""
    return tuple(item for item, _ in sorted(pairs, key=lambda pair: pair[1]))


RANKED: dict[str, Callable[[list[tuple[Any, Any]]], Any]] = {"best": _best, "sorted": _sorted}

_FOLD: dict[str, Callable[[Iterable[Any]], Any]] = {
    "all": all, "any": any, "count": lambda vs: sum(1 for v in vs if v),
    "first": _first, "max": lambda vs: max(vs, default=0), "min": lambda vs: min(vs, default=0),
    "sum": sum, "each": tuple,
}


def make_map(keys: list[Any], values: list[Any], span: Any) -> MapValue:
    """A map literal's value; a key given twice is a runtime error."""
    try:
        out = MapValue(zip(keys, values, strict=True))
    except TypeError as exc:
        raise RuleRuntimeError(f"a map key must be a plain value: {exc}", span) from None
    if len(out) != len(keys):
        raise RuleRuntimeError("a map has the same key twice", span)
    return out


def runtime_error(exc: Exception, span: Any, what: str) -> RuleRuntimeError:
    if isinstance(exc, RuleRuntimeError):
        return exc
    return RuleRuntimeError(f"{what} failed: {exc}", span)


class Interpreter:
    """Evaluates expressions by walking the tree (visit_<Node>)."""

    def __init__(self, runtime: Any) -> None:
        self.rt = runtime
        self.refs = runtime.program.refs

    def expr(self, node: ast.Expr) -> Fn:
        return lambda c, e: self.eval(node, c, e)

    def eval(self, node: ast.Expr, c: Ctx, e: dict[str, Any]) -> Any:
        method = getattr(self, f"visit_{type(node).__name__}", None)
        if method is None:
            raise NotImplementedError(type(node).__name__)
        return method(node, c, e)

    def visit_Const(self, n: ast.Const, c: Ctx, e: dict[str, Any]) -> Any:
        return n.value

    def visit_Name(self, n: ast.Name, c: Ctx, e: dict[str, Any]) -> Any:
        return self.rt.ref_value(self.refs.get(id(n), ("local", n.id)), c, e, n)

    def visit_Attr(self, n: ast.Attr, c: Ctx, e: dict[str, Any]) -> Any:
        ref = self.refs.get(id(n))
        if ref is not None:
            return self.rt.ref_value(ref, c, e, n)
        obj = self.eval(n.obj, c, e)
        try:
            return get_attr(c, obj, n.name, self.rt.coord_index)
        except RulelangError as exc:
            raise RuleRuntimeError(str(exc), n.span) from None

    def visit_Call(self, n: ast.Call, c: Ctx, e: dict[str, Any]) -> Any:
        ref = self.refs.get(id(n.func))
        args = [self.eval(a, c, e) for a in n.args]
        return self.rt.call(ref, args, c, n)

    def visit_Index(self, n: ast.Index, c: Ctx, e: dict[str, Any]) -> Any:
        obj, i = self.eval(n.obj, c, e), self.eval(n.index, c, e)
        try:
            return obj[i]
        except (IndexError, KeyError, TypeError) as exc:
            raise runtime_error(exc, n.span, "indexing") from None

    def visit_Of(self, n: ast.Of, c: Ctx, e: dict[str, Any]) -> Any:
        cat, key = self.refs.get(id(n.left), ("local", ""))
        if cat == "local":  # a name held in a local: `let species = "pine"`, `species of p`
            cat, key = local_of(c, self.eval(n.left, c, e))
        try:
            return of_value(c, cat, key, self.eval(n.right, c, e))
        except (RulelangError, KeyError) as exc:
            raise RuleRuntimeError(str(exc), n.span) from None

    def visit_BinOp(self, n: ast.BinOp, c: Ctx, e: dict[str, Any]) -> Any:
        left, right = self.eval(n.left, c, e), self.eval(n.right, c, e)
        try:
            return BINOPS[n.op](left, right)
        except (TypeError, ZeroDivisionError) as exc:
            raise RuleRuntimeError(f"cannot compute {show(left)} {n.op} {show(right)}: "
                                   f"{exc}", n.span) from None
        except OverflowError as exc:  # the operands may be huge: not shown
            raise RuleRuntimeError(f"cannot compute {n.op}: {exc}", n.span) from None

    def visit_Compare(self, n: ast.Compare, c: Ctx, e: dict[str, Any]) -> Any:
        left, right = self.eval(n.left, c, e), self.eval(n.right, c, e)
        if n.op in ("in", "not in"):
            right = iterate(c, right)
        try:
            return COMPARES[n.op](left, right)
        except TypeError:
            raise RuleRuntimeError(f"cannot compare {show(left)} {n.op} {show(right)}",
                                   n.span) from None

    def visit_BoolOp(self, n: ast.BoolOp, c: Ctx, e: dict[str, Any]) -> Any:
        left = bool(self.eval(n.left, c, e))
        if (n.op == "and") != left:
            return left
        return bool(self.eval(n.right, c, e))

    def visit_Not(self, n: ast.Not, c: Ctx, e: dict[str, Any]) -> Any:
        return not self.eval(n.operand, c, e)

    def visit_Neg(self, n: ast.Neg, c: Ctx, e: dict[str, Any]) -> Any:
        return -self.eval(n.operand, c, e)

    def visit_IfExpr(self, n: ast.IfExpr, c: Ctx, e: dict[str, Any]) -> Any:
        return self.eval(n.then if self.eval(n.cond, c, e) else n.orelse, c, e)

    def visit_TupleExpr(self, n: ast.TupleExpr, c: Ctx, e: dict[str, Any]) -> Any:
        return tuple(self.eval(x, c, e) for x in n.items)

    visit_ListExpr = visit_TupleExpr

    def visit_MapExpr(self, n: ast.MapExpr, c: Ctx, e: dict[str, Any]) -> Any:
        keys = [self.eval(k, c, e) for k in n.keys]
        return make_map(keys, [self.eval(v, c, e) for v in n.values], n.span)

    def visit_ListComp(self, n: ast.ListComp, c: Ctx, e: dict[str, Any]) -> Any:
        out: list[Any] = []
        self._comp(n, 0, c, dict(e), out)
        return tuple(out)

    def _comp(self, n: ast.ListComp, i: int, c: Ctx, e: dict[str, Any], out: list[Any]) -> None:
        if i == len(n.generators):
            if n.cond is None or self.eval(n.cond, c, e):
                out.append(self.eval(n.item, c, e))
            return
        g = n.generators[i]
        for v in iterate(c, self.eval(g.domain, c, e)):
            c.tick(n.span)
            e[g.var] = v
            self._comp(n, i + 1, c, e, out)

    def visit_Range(self, n: ast.Range, c: Ctx, e: dict[str, Any]) -> Any:
        return range(self.eval(n.lo, c, e), self.eval(n.hi, c, e) + 1)

    def visit_Quant(self, n: ast.Quant, c: Ctx, e: dict[str, Any]) -> Any:
        items = iterate(c, self.eval(n.domain, c, e))
        cond = self.expr(n.cond) if n.cond is not None else None
        body = self.expr(n.body) if n.body is not None else None
        c.tick(n.span, len(items) if isinstance(items, Sized) else 1)  # a step per item
        return quant(n.kind, items, c, e, n.var, cond, body)
