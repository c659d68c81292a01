"""The reference evaluator: walks expression trees. It is the specification of what every
expression means; the generated code (rulelang/gen) is proven equal to it by the tests."""
from __future__ import annotations

from collections.abc import Sized
from typing import Any

from rulelang.errors import RulelangError, RuleRuntimeError
from rulelang.language import ast
from rulelang.library.semantics import (
    BINOPS,
    COMPARES,
    ORDERS,
    Ctx,
    Fn,
    charge,
    count_of,
    domain_items,
    get_attr,
    iterate,
    local_of,
    make_map,
    make_range,
    negate,
    no_clause,
    of_value,
    ordered,
    quant,
    quant_error,
    runtime_error,
)
from rulelang.model.values import Record, show
from rulelang.reference.graphs import MEANINGS


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
        return self.rt.ref_value(self.refs.get(n, ("local", n.id)), c, e, n)

    def visit_Attr(self, n: ast.Attr, c: Ctx, e: dict[str, Any]) -> Any:
        ref = self.refs.get(n)
        if ref is not None:
            return self.rt.ref_value(ref, c, e, n)
        obj = self.eval(n.obj, c, e)
        try:
            return get_attr(c, obj, n.name, self.rt.coord_index)
        except RulelangError as exc:
            raise RuleRuntimeError(str(exc), n.span) from None

    def visit_Call(self, n: ast.Call, c: Ctx, e: dict[str, Any]) -> Any:
        ref = self.refs.get(n.func)
        args = [self.eval(a, c, e) for a in n.args]
        if ref is not None and ref[0] == "builtin" and ref[1] in MEANINGS:
            return self.rt.call_builtin(ref[1], MEANINGS[ref[1]], args, c, n)
        return self.rt.call(ref, args, c, n)

    def visit_Index(self, n: ast.Index, c: Ctx, e: dict[str, Any]) -> Any:
        obj, i = self.eval(n.obj, c, e), self.eval(n.index, c, e)
        try:
            return obj[i]
        except (IndexError, KeyError, TypeError, RuleRuntimeError) as exc:  # (a table's)
            raise runtime_error(exc, n.span, "indexing") from None

    def visit_Of(self, n: ast.Of, c: Ctx, e: dict[str, Any]) -> Any:
        cat, key = self.refs.get(n.left, ("local", ""))
        if cat == "local":  # a name held in a local: `let species = "pine"`, `species of p`
            cat, key = local_of(c, self.eval(n.left, c, e))
        try:
            return of_value(c, cat, key, self.eval(n.right, c, e))
        except (RulelangError, KeyError) as exc:
            raise RuleRuntimeError(str(exc), n.span) from None

    def visit_BinOp(self, n: ast.BinOp, c: Ctx, e: dict[str, Any]) -> Any:
        left, right = self.eval(n.left, c, e), self.eval(n.right, c, e)
        try:
            result = BINOPS[n.op](left, right)
        except (TypeError, ZeroDivisionError) as exc:
            raise RuleRuntimeError(f"cannot compute {show(left)} {n.op} {show(right)}: "
                                   f"{exc}", n.span) from None
        except OverflowError as exc:  # the operands may be huge: not shown
            raise RuleRuntimeError(f"cannot compute {n.op}: {exc}", n.span) from None
        if type(result) is tuple or type(result) is str:  # made item by item: its length
            charge(c, len(result), n.span)
        return result

    def visit_Compare(self, n: ast.Compare, c: Ctx, e: dict[str, Any]) -> Any:
        left, right = self.eval(n.left, c, e), self.eval(n.right, c, e)
        if n.op in ("in", "not in"):
            right = iterate(c, right)
            if type(right) is tuple:
                charge(c, len(right), n.span)
        elif type(left) is tuple and n.op in ("==", "!="):
            charge(c, len(left), n.span)
        try:
            return COMPARES[n.op](left, right)
        except TypeError:
            if n.op in ORDERS:  # (sites, players, pieces: ordered by the rules, not Python)
                return ordered(left, n.op, right, n.span)
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
        return negate(self.eval(n.operand, c, e), n.span)

    def visit_NoClause(self, n: ast.NoClause, c: Ctx, e: dict[str, Any]) -> Any:
        raise no_clause(n.rule, n.symbols, self.eval(n.subject, c, e), n.span)

    def visit_IfExpr(self, n: ast.IfExpr, c: Ctx, e: dict[str, Any]) -> Any:
        return self.eval(n.then if self.eval(n.cond, c, e) else n.orelse, c, e)

    def visit_TupleExpr(self, n: ast.TupleExpr, c: Ctx, e: dict[str, Any]) -> Any:
        return tuple(self.eval(x, c, e) for x in n.items)

    visit_ListExpr = visit_TupleExpr

    def visit_RecordExpr(self, n: ast.RecordExpr, c: Ctx, e: dict[str, Any]) -> Any:
        return Record(n.fields, tuple(self.eval(x, c, e) for x in n.items))

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
        items = domain_items(c, self.eval(g.domain, c, e), n.span)
        sized = isinstance(items, Sized)
        if isinstance(items, Sized):  # all its steps at once: a billion are refused at once
            c.tick(n.span, count_of(items))
        for v in items:
            if not sized:
                c.tick(n.span)
            e[g.var] = v
            self._comp(n, i + 1, c, e, out)

    def visit_Range(self, n: ast.Range, c: Ctx, e: dict[str, Any]) -> Any:
        return make_range(self.eval(n.lo, c, e), self.eval(n.hi, c, e), n.span)

    def visit_Quant(self, n: ast.Quant, c: Ctx, e: dict[str, Any]) -> Any:
        items = domain_items(c, self.eval(n.domain, c, e), n.span)
        cond = self.expr(n.cond) if n.cond is not None else None
        body = self.expr(n.body) if n.body is not None else None
        c.tick(n.span, count_of(items) if isinstance(items, Sized) else 1)  # a step per item
        try:
            return quant(n.kind, items, c, e, n.var, cond, body)
        except TypeError as exc:  # values that cannot be added up or compared
            raise quant_error(n.kind, exc, n.span) from None
