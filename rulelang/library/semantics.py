"""What both evaluators share: the evaluation context (Ctx, with the one step budget), the
operators, and the meaning of attribute access, `of`, quantifiers and map literals. The
reference evaluator and the fast one call these, so the two cannot disagree on them.

The budget charges work, not only steps: a loop, a quantifier, `in`, a builtin over a
collection and a value stored by `set` cost as many steps as the items they touch (all at
once, never item by item); a list or text may hold SIZE_LIMIT items at most, counting the
items of the lists inside it each time they appear (`set v = [v, v]` doubles it); a whole
number may have INT_BITS bits at most."""
from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sized
from typing import Any

from rulelang.errors import Refusal, RulelangError, RuleRuntimeError
from rulelang.model.values import (
    MapValue,
    Ordered,
    Piece,
    Player,
    Record,
    Site,
    TableValue,
    ZoneRef,
    less,
    order,
    piece_source,
    show,
    zone_ref,
)

Fn = Callable[[Any, dict[str, Any]], Any]  # (context, locals) -> value
STEP_BUDGET = 2_000_000

SIZE_LIMIT = 1_000_000  # items of a list or characters of a text that `+` or `*` may make
INT_BITS = 4096  # bits of the largest whole number a rule may make (about 1,233 digits)
INT_LIMIT = 1 << INT_BITS
_CONTAINERS = frozenset((tuple, list, MapValue, TableValue, dict, Record))
HEAVY = _CONTAINERS | {str}
_WEIGHTS: dict[int, tuple[Any, int]] = {}  # id -> (value, weight) of nested lists seen


def weight(x: Any) -> int:
    """The size of a value: 1 for a plain value, the length of a text, and for a list or a
    map its number of items plus the weights of the lists and maps inside it, each time it
    appears (a list holding the same list twice counts it twice); never more than
    SIZE_LIMIT + 1. Nested values are remembered by identity, so a list built by doubling
    another is weighed in a few steps however large its weight."""
    t = type(x)
    if t is str:
        return len(x)
    if t not in _CONTAINERS:
        return 1
    if t is Record:  # (a record never changes: its weight is kept on it)
        known: int | None = x.__dict__.get("_weight")
        if known is None:
            known = x.__dict__["_weight"] = _weigh(x, x)
        return known
    return _weigh(x, [*x.keys(), *x.values()] if isinstance(x, dict) else x)


def _weigh(x: Any, items: Any) -> int:
    """weight of a list, a map or a record, its items (a map's keys and values) given."""
    kinds = HEAVY.intersection(map(type, items))
    if not kinds:
        return len(x)
    if len(kinds) == 1 and str in kinds:  # texts, no lists: their lengths
        return min(len(x) + sum([len(y) for y in items if type(y) is str]), SIZE_LIMIT + 1)
    hit = _WEIGHTS.get(id(x))
    if hit is not None and hit[0] is x:
        return hit[1]
    w = len(x)
    for y in items:
        ty = type(y)
        if ty is str:
            w += len(y)
        elif ty in _CONTAINERS:
            w += weight(y)
            if w > SIZE_LIMIT:
                w = SIZE_LIMIT + 1
                break
    if w >= 256:  # lighter values are weighed again, in fewer than 256 steps
        if len(_WEIGHTS) >= 1_000:
            _WEIGHTS.clear()
        _WEIGHTS[id(x)] = (x, w)  # the value is kept alive with its id: no reuse of the id
    return w


def too_large(x: Any) -> bool:
    """A list or map over SIZE_LIMIT items (see weight), or a number over INT_BITS bits."""
    t = type(x)
    if t is int:
        return not -INT_LIMIT < x < INT_LIMIT
    return t in _CONTAINERS and weight(x) > SIZE_LIMIT


def size_error(x: Any, span: Any) -> RuleRuntimeError:
    if type(x) is int:
        return RuleRuntimeError(f"a whole number of more than {INT_BITS} bits", span)
    return RuleRuntimeError(f"a value of more than {SIZE_LIMIT:,} items (counting the "
                            "items of the lists inside it)", span)


def built(x: Any, span: Any) -> Any:
    """A list, tuple or map literal's value, refused when too large (see weight)."""
    if weight(x) > SIZE_LIMIT:
        raise size_error(x, span)
    return x


def stored(c: Ctx, x: Any, span: Any) -> Any:
    """A value `set` stores: a number within INT_BITS bits; a list or text charged by its
    weight (and refused over SIZE_LIMIT)."""
    w = stored_weight(x, span)
    if w:
        charge(c, w, span)
    return x


def stored_weight(x: Any, span: Any) -> int:
    """The steps a `set` of x is charged (a list's or text's weight, else none); x refused
    where `set` refuses it (stored)."""
    t = type(x)
    if t is int:
        if not -INT_LIMIT < x < INT_LIMIT:
            raise size_error(x, span)
        return 0
    if t in HEAVY:
        w = weight(x)
        if w > SIZE_LIMIT:
            raise size_error(x, span)
        return w
    return 0


def charge(c: Any, n: int, span: Any) -> None:  # a Ctx (or a builtin's view of it)
    """n steps at once (the items an operation touches)."""
    total = c.steps + n  # (read once: a generated state's view reads it through a property)
    c.steps = total
    if total > STEP_BUDGET:
        c.tick(span)


def charge_items(c: Any, xs: Any) -> None:
    """A builtin's work over a collection: its length, in steps (positioned by the call);
    nothing when it is called outside a game (c is None)."""
    if c is not None and (type(xs) is tuple or type(xs) is str
                          or isinstance(xs, (list, range, dict))):
        charge(c, len(xs), None)


def positioned(err: RuleRuntimeError, span: Any) -> RuleRuntimeError:
    """The error with the given position when it has none of its own (a builtin's budget
    error is positioned by its call)."""
    if err.diagnostic.span is not None or span is None:
        return err
    kind = Refusal if isinstance(err, Refusal) else RuleRuntimeError
    return kind(err.diagnostic.message, span, err.diagnostic.code)


def _int_mul(a: int, b: int) -> int:
    """a * b for whole numbers, refused beyond INT_BITS bits before it is computed."""
    if a.bit_length() + b.bit_length() > INT_BITS + 1:
        raise OverflowError(f"a whole number of more than {INT_BITS} bits")
    return a * b


def _add(a: Any, b: Any) -> Any:
    """a + b; a list or text longer than SIZE_LIMIT is refused (doubling one in a loop or a
    recursion would fill the memory long before the step budget ran out)."""
    r = a + b
    if (type(r) is tuple or type(r) is str) and len(r) > SIZE_LIMIT:
        raise OverflowError(f"a result of {len(r):,} items, more than {SIZE_LIMIT:,}")
    return r  # its weight adds its operands' (no doubling in one step): `set` weighs it


def _mul(a: Any, b: Any) -> Any:
    """a * b, refusing a list or text longer than SIZE_LIMIT before making it."""
    if type(a) is int and type(b) is int:
        return _int_mul(a, b)
    seq, n = (b, a) if type(a) is int else (a, b)
    if type(n) is int and hasattr(seq, "__len__") and len(seq) * n > SIZE_LIMIT:
        raise OverflowError(f"a result of {len(seq) * n:,} items, more than {SIZE_LIMIT:,}")
    if type(n) is int and type(seq) is tuple and weight(seq) * n > SIZE_LIMIT:
        raise OverflowError(f"a result of more than {SIZE_LIMIT:,} items, counting the items "
                            "of the lists inside it")
    return a * b


BINOPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": _add, "-": operator.sub, "*": _mul, "//": operator.floordiv, "%": operator.mod,
}
NUMBER_OPS: dict[str, Callable[[Any, Any], Any]] = {  # the same on two whole numbers
    "+": operator.add, "-": operator.sub, "*": _int_mul, "//": operator.floordiv,
    "%": operator.mod,
}
def negate(value: Any, span: Any) -> Any:
    """-value; anything but a number is a positioned runtime error."""
    try:
        return -value
    except TypeError:
        raise RuleRuntimeError(f"cannot compute -{show(value)}: not a number", span) from None


COMPARES: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


class Ctx:
    """What an expression sees: the static game (Runtime) and the state's data.

    `log` is the segment's decision points so far, as the evaluators meet them: each `do`
    and each choose that asks, with its Decision (None: a `do` whose menu was empty). A
    clone replays its segment from them (`replay`, the entries still to meet, last first):
    a decision point met again gives its logged Decision at once, without making the menu
    anew (the same state, so the same menu; docs/architecture.md)."""
    __slots__ = ("game", "data", "steps", "log", "replay")

    def __init__(self, game: Any, data: Any) -> None:
        self.game, self.data, self.steps = game, data, 0
        self.log: list[Any] = []
        self.replay: list[Any] | None = None

    def replayed(self) -> Any:
        """The next logged decision point of a replay (a Decision, or None for an empty
        menu), logged again."""
        assert self.replay
        d = self.replay.pop()
        self.log.append(d)
        return d

    def tick(self, span: Any, n: int = 1) -> None:
        self.steps += n
        if self.steps > STEP_BUDGET:
            raise RuleRuntimeError(f"step budget of {STEP_BUDGET} exceeded: does a rule loop "
                                   "forever?", span, "R302")


class ReturnValue(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


# ---- helpers shared with the compiler ------------------------------------------
def count_of(xs: Sized) -> int:
    """len(xs) for the step budget; a range too long for len() (more items than a C integer
    holds) counts as more than the budget."""
    try:
        return len(xs)
    except OverflowError:
        return STEP_BUDGET + 1


def times(value: Any, span: Any) -> range:
    """The turns of `repeat N times`: N a whole number (none for N <= 0), else a positioned
    runtime error."""
    if type(value) is not int:
        raise RuleRuntimeError(f"'repeat … times' needs a whole number, not {show(value)}", span)
    return range(value)


def iterate(c: Ctx, x: Iterable[Any] | ZoneRef | None) -> Iterable[Any]:
    """The items of a collection, of a zone (its pieces) or of none (no items)."""
    if isinstance(x, ZoneRef):
        return tuple(c.data.zones[x])
    if x is None:
        return ()
    return x


def domain_items(c: Ctx, x: Any, span: Any) -> Iterable[Any]:
    """The items of the domain of a quantifier or a comprehension (see iterate); anything
    that is not a collection is a runtime error."""
    if type(x) is tuple:
        return x
    items = iterate(c, x)
    if not hasattr(items, "__iter__"):
        raise RuleRuntimeError(f"{show(x)} is not a collection", span)
    return items


def make_range(lo: Any, hi: Any, span: Any) -> range:
    """lo..hi, both ends included: whole numbers only."""
    if type(lo) is int and type(hi) is int:
        return range(lo, hi + 1)
    raise RuleRuntimeError(f"a range goes from a whole number to a whole number, not "
                           f"{show(lo)}..{show(hi)}", span)


def quant_error(kind: str, exc: Exception, span: Any) -> RuleRuntimeError:
    """A quantifier whose values cannot be added up, compared or ranked (TypeError)."""
    return RuleRuntimeError(f"cannot compute {kind}: {exc}", span)


def get_attr(c: Ctx, obj: Any, name: str, coord: dict[str, int]) -> Any:
    if isinstance(obj, Site):
        if name in coord:
            return obj.coords[coord[name]]
        if name == "name":
            return obj.name
    elif isinstance(obj, dict) and name in obj:
        return obj[name]
    elif isinstance(obj, Record) and name in obj.fields:
        return tuple.__getitem__(obj, obj.fields.index(name))
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
    """The item with the largest key, the first of them on a tie; none for no items. (Keys
    Python cannot order, sites say, are ordered by values.less.)"""
    best, top = None, None
    try:
        for item, key in pairs:
            if best is None or key > top:
                best, top = item, key
    except TypeError:
        best, top = None, None
        for item, key in pairs:
            if best is None or less(top, key):
                best, top = item, key
    return best if pairs else None


def _sorted(pairs: list[tuple[Any, Any]]) -> tuple[Any, ...]:
    """The items by ascending key; equal keys keep the domain's order."""
    try:
        ranked = sorted(pairs, key=_second)
    except TypeError:  # (keys Python cannot order: values.less orders them)
        ranked = sorted(pairs, key=lambda pair: Ordered(pair[1]))
    return tuple(item for item, _ in ranked)


def _second(pair: tuple[Any, Any]) -> Any:
    return pair[1]


def largest(values: Iterable[Any]) -> Any:
    """The largest value (0 for none), the first of them on a tie, ordered as the rules order
    values (values.less, where Python cannot)."""
    return _extreme(max, values)


def smallest(values: Iterable[Any]) -> Any:
    """The smallest value (0 for none), the first of them on a tie (as largest)."""
    return _extreme(min, values)


def _extreme(pick: Any, values: Iterable[Any]) -> Any:
    vs = values if type(values) is list or type(values) is tuple else list(values)
    try:
        return pick(vs, default=0)
    except TypeError:
        return pick(vs, key=Ordered, default=0)


ORDERS = frozenset({"<", "<=", ">", ">="})


def ordered(a: Any, op: str, b: Any, span: Any) -> bool:
    """`a op b` (< <= > >=) where Python's operator raised a TypeError: sites, players and
    pieces in the rules' order (values.order); else the positioned error."""
    try:
        return order(a, op, b)
    except TypeError:
        raise cannot_compare(a, op, b, span) from None


RANKED: dict[str, Callable[[list[tuple[Any, Any]]], Any]] = {"best": _best, "sorted": _sorted}

_FOLD: dict[str, Callable[[Iterable[Any]], Any]] = {
    "all": all, "any": any, "count": lambda vs: sum(1 for v in vs if v),
    "first": _first, "max": largest, "min": smallest,
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
    built(out, span)
    return out


def make_table(name: str, keys: list[Any], values: list[Any], span: Any) -> TableValue:
    """A table's value: a map whose missing keys are errors; a key given twice is an
    error."""
    out = TableValue(make_map(keys, values, span))
    out.name = name
    return out


def runtime_error(exc: Exception, span: Any, what: str) -> RuleRuntimeError:
    if isinstance(exc, RuleRuntimeError):
        return positioned(exc, span)
    return RuleRuntimeError(f"{what} failed: {exc}", span)


def no_clause(rule: str, symbols: tuple[str, ...], value: Any, span: Any) -> RuleRuntimeError:
    """A rule written as clauses selected by a symbol, given a value none is for."""
    return RuleRuntimeError(f"'{rule}' has no clause for {show(value)} (its clauses are for "
                            f"{', '.join(symbols)})", span)




def increased(old: Any, sign: int, amount: Any, span: Any) -> int:
    """`increase x by n` (sign 1) or `decrease x by n` (sign -1): whole numbers only."""
    if type(old) is not int or type(amount) is not int:
        raise RuleRuntimeError(f"cannot {'increase' if sign > 0 else 'decrease'} "
                               f"{show(old)} by {show(amount)}: both must be whole numbers",
                               span)
    new = old + sign * amount
    if not -INT_LIMIT < new < INT_LIMIT:
        raise size_error(new, span)
    return new


def compute(c: Any, op: str, a: Any, b: Any, span: Any) -> Any:
    """a op b for an arithmetic operator (+ - * // %) of BINOPS, once both operands are
    known: two whole numbers by NUMBER_OPS, anything else by BINOPS; a failure is a
    positioned runtime error, and a list or text made costs its length in steps."""
    try:
        if type(a) is int and type(b) is int:
            return NUMBER_OPS[op](a, b)
        r = BINOPS[op](a, b)
    except (TypeError, ZeroDivisionError) as exc:
        raise RuleRuntimeError(f"cannot compute {show(a)} {op} {show(b)}: {exc}",
                               span) from None
    except OverflowError as exc:  # the operands may be huge: not shown
        raise RuleRuntimeError(f"cannot compute {op}: {exc}", span) from None
    if type(r) is tuple or type(r) is str:  # made item by item: its length
        charge(c, len(r), span)
    return r


def cannot_compare(a: Any, op: str, b: Any, span: Any) -> RuleRuntimeError:
    """The error of a comparison whose operands cannot be compared (a TypeError)."""
    return RuleRuntimeError(f"cannot compare {show(a)} {op} {show(b)}", span)
