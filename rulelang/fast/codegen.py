"""Expressions compiled to generated Python source: the one module of the package that calls
`compile` and `exec`, and only on the source it writes itself.

The safety rule: no text of a rulebook ever becomes Python source. The generator writes a
function `def f(c, e):` (the closures' protocol: a Ctx and the locals, to a value) from a
fixed vocabulary: Python keywords and operators, the parameters `c` and `e`, its own names
(`k3` for the constants, `v7` for the temporaries), a few builtins (ALLOWED) and a few
attributes (ATTRIBUTES: `c.steps`, `c.data.attrs`, `x.bit_length()` …). Every literal —
numbers, texts, the names of locals and attributes, spans, players, the helpers of
library/semantics.py, the closures of the nodes it does not cover — is a value of the
constants table, the dict the function gets as its globals (with no other builtins).
Comments carry only generator-made numbers (`# node 4`); the line map (`Generated.nodes`,
`Generated.line_nodes`) keeps node and rulebook position outside the source.

Covered natively: constants, locals, arithmetic, comparisons, and/or, not, negation,
conditional expressions, piece attributes and record fields, the quantifiers' general loops
and comprehensions. Any other node is compiled by the closure compiler and called through
the constants table (`k5(c, e)`), so that every expression can be generated and the meaning
stays the closures'. Errors are raised with the spans of the constants table, with the closures'
messages and codes.

Site predicates (SitePredicate, used by default in the compiled mode: fast/site_queries.py):
the condition of a kept site query as a function of a site with real Python locals and no
closure (fast/site_code.py writes them, with this vocabulary, compiled here)."""
from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from rulelang.errors import LINE_MAP, RulelangError, RuleRuntimeError
from rulelang.fast.loops import _items, is_var, local_names
from rulelang.fast.site_code import (
    MAX_BLOCKS,
    MAX_DEPTH,
    PredicateWriter,
    SitePredicate,
    Unsupported,
)
from rulelang.language import ast
from rulelang.library.pycode import run_source
from rulelang.library.semantics import _FOLD as FOLDS
from rulelang.library.semantics import (
    INT_BITS,
    STEP_BUDGET,
    Ctx,
    cannot_compare,
    charge,
    compute,
    count_of,
    domain_items,
    get_attr,
    iterate,
    negate,
    ordered,
    quant_error,
)
from rulelang.model.values import Piece, Record

Fn = Callable[[Ctx, dict[str, Any]], Any]

NATIVE = (ast.BinOp, ast.Compare, ast.BoolOp, ast.Not, ast.Neg, ast.IfExpr,  # roots taken
          ast.ListComp)
FILENAME = "<rulelang generated>"
# the only builtins generated code sees (its globals' __builtins__ is empty)
ALLOWED: dict[str, Any] = {"type": type, "int": int, "tuple": tuple, "len": len,
                           "KeyError": KeyError, "TypeError": TypeError}
# the only attributes generated code reads
ATTRIBUTES = frozenset({"steps", "tick", "bit_length", "get", "append", "data", "attrs",
                        "id", "fields", "index", "at", "coords", "owner"})
_ARITH = {"+": "+", "-": "-", "*": "*", "//": "//", "%": "%"}  # rulelang op -> Python op
_ORDER = {"<": "<", "<=": "<=", ">": ">", ">=": ">="}
_LOOPS = frozenset({"all", "any", "each", "first", "count", "sum", "max", "min"})
_MISSING = object()  # a quantifier's variable not bound before it
_WATCHERS: list[list[str]] = []


@contextmanager
def watching() -> Iterator[list[str]]:
    """Every source generated inside the `with`, in order (for the tests and tools)."""
    seen: list[str] = []
    _WATCHERS.append(seen)
    try:
        yield seen
    finally:
        _WATCHERS.remove(seen)


def missing(key: str, span: Any) -> RuleRuntimeError:
    """A local with no value (the closures' message)."""
    return RuleRuntimeError(f"'{key}' has no value here", span)


def attribute(c: Ctx, x: Any, name: str, coord: dict[str, int], span: Any) -> Any:
    """`x.name` for anything but a piece (get_attr), its failure positioned."""
    try:
        return get_attr(c, x, name, coord)
    except RulelangError as exc:
        raise RuleRuntimeError(str(exc), span) from None


@dataclass
class Generated:
    """One generated function: its source, its constants, and its line map (generated line,
    from 1 -> the node it comes from; `nodes[i]` is the node the comment `# node i` names)."""
    root: ast.Expr
    source: str
    constants: dict[str, Any]
    nodes: list[ast.Node] = field(default_factory=list)
    line_nodes: dict[int, ast.Node] = field(default_factory=dict)
    fn: Fn | None = None
    inlined: bool = False  # made inside a rule inlined where it is called

    def span_at(self, line: int) -> Any:
        """The rulebook span of a generated line (the nearest node above it)."""
        for n in range(line, 0, -1):
            if n in self.line_nodes:
                return self.line_nodes[n].span
        return self.root.span


class Generator:
    """Generates the functions of a Compiler (fast/compiler.py), whose closures it calls for
    the nodes it does not cover and whose state (the parameters of an inlined rule, the steps
    of inlined calls) it reads, so that its functions mean what the closures mean."""

    def __init__(self, compiler: Any) -> None:
        self.compiler = compiler
        self.refs = compiler.refs
        self.functions: list[Generated] = []
        self._cache: dict[ast.Node, Fn] = {}  # by node, for nodes generated outside a rule
        self._predicates: dict[tuple[ast.Expr, str, str | None], Callable[..., bool] | None] = {}

    def takes(self, node: ast.Expr) -> bool:
        """Whether an expression is generated (else it is a closure of the Compiler)."""
        if isinstance(node, ast.Quant):
            return node.kind in _LOOPS and not self.special_quant(node)
        return isinstance(node, NATIVE)

    def special_quant(self, n: ast.Quant) -> bool:
        """A quantifier the closure compiler compiles to one of its special loops (over the
        board's lists, kept up to date, …: fast/compiler.py's visit_Quant): left to it."""
        refs, var, body, cond = self.refs, n.var, n.body, n.cond
        if n.kind in ("all", "any") and cond is None and body is not None:
            if isinstance(body, ast.Call) and len(body.args) == 1 and \
                    is_var(body.args[0], var) and refs.get(body.func) in (
                    ("builtin", "occupied"), ("builtin", "empty")):
                return True
            if isinstance(body, ast.Compare) and body.op == "==" and \
                    isinstance(body.left, ast.Call) and \
                    refs.get(body.left.func) == ("builtin", "owner"):
                return True  # (whether its argument is the variable or not)
            if isinstance(body, ast.Compare) and body.op in ("in", "not in") and \
                    is_var(body.left, var) and var not in local_names(body.right, refs):
                return True
        if self.compiler.keeps_site_quant(n):
            return True  # (a kept site query: fast/site_queries.py)
        return n.kind in ("each", "count") and body is None and isinstance(cond, ast.Call) \
            and len(cond.args) == 1 and is_var(cond.args[0], var)

    def site_predicate(self, cond: ast.Expr, var: str, second: str | None = None,
                       own_frame: bool = False) -> Callable[..., bool] | None:
        """`cond` of a site of the board `var` (and of a second, `second`) as a generated
        function of (c, site) (or (c, site, site)), or None when it has a node the
        predicate writer does not cover. own_frame: a rule's body compiled on its own (as
        Compiler._def_body compiles it), not where the compiler now is."""
        key = (cond, var, second)
        if key not in self._predicates:  # (a rule's query compiled where each call is)
            compiler = self.compiler
            saved = compiler._subst, compiler._inline_depth, compiler._pending_steps
            if own_frame:
                compiler._subst, compiler._inline_depth, compiler._pending_steps = {}, 0, 0
            try:
                made = self.function(SitePredicate(cond, var, second))  # type: ignore[arg-type]
            except Unsupported:
                made = None
            finally:
                compiler._subst, compiler._inline_depth, compiler._pending_steps = saved
            self._predicates[key] = made
        return self._predicates[key]

    def function(self, node: ast.Expr) -> Fn:
        """The generated function of an expression (one that `takes`)."""
        plain = not self.compiler._subst and not self.compiler._pending_steps
        if plain:
            hit = self._cache.get(node)
            if hit is not None:
                return hit
        g = _Writer(self, node).write()
        g.inlined = not plain
        for seen in _WATCHERS:
            seen.append(g.source)
        space = run_source(g.source, FILENAME,
                           {"__builtins__": {}, **ALLOWED, **g.constants, LINE_MAP: g})
        fn: Fn = space["f"]
        fn.generated = g  # type: ignore[attr-defined]
        g.fn = fn
        self.functions.append(g)
        if plain:
            self._cache[node] = fn
        return fn


class _Writer(PredicateWriter):
    """The source of one function: each node's statements, its value in a temporary."""

    def __init__(self, gen: Generator, root: ast.Expr) -> None:
        self.gen, self.compiler, self.refs = gen, gen.compiler, gen.refs
        self.g = Generated(root, "", {})
        self.lines: list[str] = ["def f(c, e):"]
        self._k = itertools.count()
        self._v = itertools.count()

    def write(self) -> Generated:
        root = self.g.root
        if isinstance(root, SitePredicate):
            env = {root.var: "s0"}
            if root.second is not None:
                env[root.second] = "s1"
            self.lines = [f"def f(c, {', '.join(env.values())}):"]
            self.line("a0 = c.data.at", 1)
            value = self.predicate(root.cond, env, 1, 0)
        else:
            value = self.node(root, 1)
        self.line(f"return {value}", 1)
        self.g.source = "\n".join(self.lines) + "\n"
        return self.g

    # ---- pieces of source
    def const(self, value: Any) -> str:
        name = f"k{next(self._k)}"
        self.g.constants[name] = value
        return name

    def temp(self) -> str:
        return f"v{next(self._v)}"

    def line(self, text: str, depth: int, node: ast.Node | None = None) -> None:
        self.lines.append("    " * depth + text)
        if node is not None:
            self.g.line_nodes[len(self.lines)] = node

    def mark(self, node: ast.Node, depth: int) -> None:
        """`# node i`: where a node's code starts (i indexes Generated.nodes)."""
        self.g.nodes.append(node)
        self.line(f"# node {len(self.g.nodes) - 1}", depth, node)

    def charge_steps(self, steps: int, span: Any, depth: int, node: ast.Node) -> None:
        """The steps of inlined calls whose body this node is (as the closures count them)."""
        if steps:
            self.line(f"c.steps += {self.const(steps)}", depth, node)
            self.line(f"if c.steps > {self.const(STEP_BUDGET)}:", depth, node)
            self.line(f"c.tick({self.const(span)})", depth + 1, node)

    # ---- nodes
    def node(self, n: ast.Expr, depth: int) -> str:
        """Statements computing n at this depth; returns the name holding its value. A node
        nested deeper than MAX_DEPTH blocks is a function of its own (Python refuses more
        than 100 levels of indentation; the syntax tree may have 100 levels of nesting)."""
        if depth > MAX_DEPTH and self.gen.takes(n):
            return self.fallback(n, depth, self.compiler.expr(n))
        method = getattr(self, f"n_{type(n).__name__}", None)
        if method is None:
            return self.fallback(n, depth)
        value: str = method(n, depth)
        return value

    def fallback(self, n: ast.Expr, depth: int, f: Fn | None = None) -> str:
        """A node the generator does not cover: the closure compiler's closure, called."""
        if f is None:  # (a node the generator takes: its closure, not a function again)
            f = self.compiler.closure(n) if self.gen.takes(n) else self.compiler.expr(n)
        fixed = getattr(f, "const", _NOT_CONST)
        if fixed is not _NOT_CONST:  # a value fixed for the game: no call
            return self.const(fixed)
        self.mark(n, depth)
        v = self.temp()
        self.line(f"{v} = {self.const(f)}(c, e)", depth, n)
        return v

    def n_Const(self, n: ast.Const, depth: int) -> str:
        return self.const(n.value)

    def n_Name(self, n: ast.Name, depth: int) -> str:
        ref = self.refs.get(n, ("local", n.id))
        if ref[0] != "local":
            return self.fallback(n, depth)
        subst = self.compiler._subst.get(n.id)
        if subst is not None:  # a parameter of the rule being inlined: its argument
            name = getattr(subst, "local_name", None)
            if name is None:
                return self.fallback(n, depth, subst)
            self.mark(n, depth)  # the argument is a local: read here, and if it is missing,
            v = self.temp()      # the closure says so (where the argument is written)
            self.line("try:", depth, n)
            self.line(f"{v} = e[{self.const(name)}]", depth + 1, n)
            self.line("except KeyError:", depth, n)
            self.line(f"{v} = {self.const(subst)}(c, e)", depth + 1, n)
            return v
        self.mark(n, depth)
        v, key = self.temp(), self.const(ref[1])
        self.line("try:", depth, n)
        self.line(f"{v} = e[{key}]", depth + 1, n)
        self.line("except KeyError:", depth, n)
        self.line(f"raise {self.const(missing)}({key}, {self.const(n.span)}) from None",
                  depth + 1, n)
        return v

    def n_BinOp(self, n: ast.BinOp, depth: int) -> str:
        op = _ARITH.get(n.op)
        if op is None:
            return self.fallback(n, depth)
        a = self.node(n.left, depth)
        b = self.node(n.right, depth)
        self.mark(n, depth)
        v = self.temp()
        ints = [f"type({x}) is int" for x, side in ((a, n.left), (b, n.right))
                if not (isinstance(side, ast.Const) and type(side.value) is int)]
        if op in ("//", "%"):
            ints.append(b)  # a zero divisor: the general case says what is wrong
        elif op == "*":
            ints.append(f"{a}.bit_length() + {b}.bit_length() <= {self.const(INT_BITS + 1)}")
        general = (f"{v} = {self.const(compute)}(c, {self.const(n.op)}, {a}, {b}, "
                   f"{self.const(n.span)})")
        if not ints:  # two whole numbers written in the rulebook
            self.line(general, depth, n)
            return v
        self.line(f"if {' and '.join(ints)}:", depth, n)
        self.line(f"{v} = {a} {op} {b}", depth + 1, n)
        self.line("else:", depth, n)
        self.line(general, depth + 1, n)
        return v

    def n_Compare(self, n: ast.Compare, depth: int) -> str:
        if n.op in ("==", "!="):
            return self.equality(n, depth)
        a = self.node(n.left, depth)
        b = self.node(n.right, depth)
        self.mark(n, depth)
        v, span = self.temp(), self.const(n.span)
        if n.op in ("in", "not in"):
            self.line(f"if type({b}) is tuple:", depth, n)  # looking through a list: its length
            self.line(f"{self.const(charge)}(c, len({b}), {span})", depth + 1, n)
            test = f"{a} {n.op} {self.const(iterate)}(c, {b})"
        elif n.op in _ORDER:
            self.line("try:", depth, n)
            self.line(f"{v} = {a} {_ORDER[n.op]} {b}", depth + 1, n)
            self.line("except TypeError:", depth, n)  # sites …: ordered by the rules
            self.line(f"{v} = {self.const(ordered)}({a}, {self.const(n.op)}, {b}, {span})",
                      depth + 1, n)
            return v
        else:
            return self.fallback(n, depth)
        self.line("try:", depth, n)
        self.line(f"{v} = {test}", depth + 1, n)
        self.line("except TypeError:", depth, n)
        self.line(f"raise {self.const(cannot_compare)}({a}, {self.const(n.op)}, {b}, {span})"
                  " from None", depth + 1, n)
        return v

    def equality(self, n: ast.Compare, depth: int) -> str:
        fixed, value = self.compiler.constant(n.right)
        a = self.node(n.left, depth)
        if fixed:  # `x == "place"`: no charge (as the closures)
            self.mark(n, depth)
            v = self.temp()
            self.line(f"{v} = {a} {n.op} {self.const(value)}", depth, n)
            return v
        self.mark(n, depth)
        self.line(f"if type({a}) is tuple:", depth, n)  # comparing lists costs their length
        self.line(f"{self.const(charge)}(c, len({a}), {self.const(n.span)})", depth + 1, n)
        b = self.node(n.right, depth)
        v = self.temp()
        self.line(f"{v} = {a} {n.op} {b}", depth, n)
        return v

    def n_BoolOp(self, n: ast.BoolOp, depth: int) -> str:
        steps, self.compiler._pending_steps = self.compiler._pending_steps, 0
        self.mark(n, depth)
        self.charge_steps(steps, n.span, depth, n)
        a = self.node(n.left, depth)
        v = self.temp()
        both = n.op == "and"
        self.line(f"if {'not ' if both else ''}{a}:", depth, n)
        self.line(f"{v} = {'False' if both else 'True'}", depth + 1, n)
        self.line("else:", depth, n)
        b = self.node(n.right, depth + 1)
        self.line(f"{v} = not not {b}", depth + 1, n)
        return v

    def n_Not(self, n: ast.Not, depth: int) -> str:
        a = self.node(n.operand, depth)
        self.mark(n, depth)
        v = self.temp()
        self.line(f"{v} = not {a}", depth, n)
        return v

    def n_Neg(self, n: ast.Neg, depth: int) -> str:
        a = self.node(n.operand, depth)
        self.mark(n, depth)
        v = self.temp()
        self.line(f"{v} = -{a} if type({a}) is int else "
                  f"{self.const(negate)}({a}, {self.const(n.span)})", depth, n)
        return v

    def n_IfExpr(self, n: ast.IfExpr, depth: int) -> str:
        steps, self.compiler._pending_steps = self.compiler._pending_steps, 0
        self.mark(n, depth)
        self.charge_steps(steps, n.span, depth, n)
        cond = self.node(n.cond, depth)
        v = self.temp()
        self.line(f"if {cond}:", depth, n)
        then = self.node(n.then, depth + 1)
        self.line(f"{v} = {then}", depth + 1, n)
        self.line("else:", depth, n)
        orelse = self.node(n.orelse, depth + 1)
        self.line(f"{v} = {orelse}", depth + 1, n)
        return v

    def n_Attr(self, n: ast.Attr, depth: int) -> str:
        """`card.points`: a declared piece attribute read from the state's column; every
        other attribute (names, coordinates, `last.…`, fields) is the closures'."""
        rt, name = self.compiler.rt, n.name
        if self.refs.get(n) is not None or name == "kind" or name in rt.coord_index or (
                isinstance(n.obj, ast.Name) and self.refs.get(n.obj) == ("builtin", "last")) \
                or not any(name == a for d in rt.program.pieces.values() for a, _ in d.attrs):
            return self.fallback(n, depth)
        x = self.node(n.obj, depth)
        self.mark(n, depth)
        v = self.temp()
        self.line(f"if type({x}) is {self.const(Piece)}:", depth, n)
        self.line(f"{v} = c.data.attrs[{self.const(name)}][{x}.id]", depth + 1, n)
        key = self.const(name)  # a record's field of that name: read in place
        self.line(f"elif type({x}) is {self.const(Record)} and {key} in {x}.fields:", depth, n)
        self.line(f"{v} = {self.const(tuple.__getitem__)}({x}, {x}.fields.index({key}))",
                  depth + 1, n)
        self.line("else:", depth, n)
        self.line(f"{v} = {self.const(attribute)}(c, {x}, {self.const(name)}, "
                  f"{self.const(rt.coord_index)}, {self.const(n.span)})", depth + 1, n)
        return v

    # ---- quantifiers: a plain loop, where the closures take their general one (loops.py)
    def n_Quant(self, n: ast.Quant, depth: int) -> str:
        if n.kind not in _LOOPS or self.gen.special_quant(n):
            return self.fallback(n, depth)
        if self.blocks + 1 > MAX_BLOCKS:  # a function of its own, its blocks from none
            return self.fallback(n, depth, self.compiler.expr(n))
        extra, self.compiler._pending_steps = self.compiler._pending_steps, 0
        self.mark(n, depth)
        var, span, v, old, x = self.const(n.var), self.const(n.span), *(
            self.temp() for _ in range(3))
        kind = n.kind
        self.line(f"{old} = e.get({var}, {self.const(_MISSING)})", depth, n)  # (first)
        domain = self.node(n.domain, depth)
        start = {"all": "True", "any": "False", "first": "None", "count": self.const(0)}
        self.line(f"{v} = {start.get(kind, '[]')}", depth, n)
        self.line(f"for {x} in {self.const(_items)}(c, {domain}, {span}, "
                  f"{self.const(extra)}):", depth, n)
        self.line(f"e[{var}] = {x}", depth + 1, n)
        saved = self.compiler._subst  # the variable is bound in the where and the body
        self.compiler._subst = {k: f for k, f in saved.items() if k != n.var}
        self.blocks += 1
        try:
            if n.cond is not None:
                cond = self.node(n.cond, depth + 1)
                self.line(f"if not {cond}:", depth + 1, n)
                self.line("continue", depth + 2, n)
            item = self.node(n.body, depth + 1) if n.body is not None else x
        finally:
            self.compiler._subst = saved
            self.blocks -= 1
        if kind in ("all", "any"):
            self.line(f"if {'not ' if kind == 'all' else ''}{item}:", depth + 1, n)
            self.line(f"{v} = {'False' if kind == 'all' else 'True'}", depth + 2, n)
            self.line("break", depth + 2, n)
        elif kind == "first":
            self.line(f"{v} = {item}", depth + 1, n)
            self.line("break", depth + 1, n)
        elif kind == "count":  # the items that pass, and whose body (if any) holds
            if n.body is not None:
                self.line(f"if {item}:", depth + 1, n)
            self.line(f"{v} = {v} + {self.const(1)}", depth + 1 + (n.body is not None), n)
        else:
            self.line(f"{v}.append({item})", depth + 1, n)
        self.line(f"if {old} is not {self.const(_MISSING)}:", depth, n)
        self.line(f"e[{var}] = {old}", depth + 1, n)
        if kind == "each":
            self.line(f"{v} = tuple({v})", depth, n)
        elif kind in ("sum", "max", "min"):
            self.line("try:", depth, n)
            self.line(f"{v} = {self.const(FOLDS[kind])}(tuple({v}))", depth + 1, n)
            self.line(f"except TypeError as {x}:", depth, n)  # values that cannot be added
            self.line(f"raise {self.const(quant_error)}({self.const(kind)}, {x}, {span}) "
                      "from None", depth + 1, n)
        return v

    # ---- comprehensions: nested loops, where the closures recurse (compiler.visit_ListComp)
    def n_ListComp(self, n: ast.ListComp, depth: int) -> str:
        """[item for x in D, y in E where cond]: one loop per generator, each domain seen
        from within the loops before it; the variables' values before it are put back after,
        an error or not (the closure loops over a copy of the locals: nothing of it is seen
        after it). Too many generators for one function: a function of its own, or (too
        many even there) the closure."""
        if self.blocks + 1 + len(n.generators) > MAX_BLOCKS:
            own = self.blocks > 0 and 1 + len(n.generators) <= MAX_BLOCKS
            return self.fallback(n, depth, self.compiler.expr(n) if own else
                                 self.compiler.closure(n))
        self.mark(n, depth)
        span, out = self.const(n.span), self.temp()
        self.line(f"{out} = []", depth, n)
        olds = [(self.temp(), self.const(g.var)) for g in n.generators]
        for old, var in olds:
            self.line(f"{old} = e.get({var}, {self.const(_MISSING)})", depth, n)
        self.line("try:", depth, n)  # (an error too gives the values back)
        saved, bound, at, blocks = self.compiler._subst, set[str](), depth + 1, self.blocks
        self.blocks += 1  # (the try)
        try:
            for g, (_, var) in zip(n.generators, olds, strict=True):
                self.compiler._subst = {k: f for k, f in saved.items() if k not in bound}
                domain, items, x = self.node(g.domain, at), self.temp(), self.temp()
                self.line(f"if type({domain}) is tuple:", at, n)  # all its steps at once
                self.line(f"c.steps += len({domain})", at + 1, n)
                self.line(f"if c.steps > {self.const(STEP_BUDGET)}:", at + 1, n)
                self.line(f"c.tick({span}, {self.const(0)})", at + 2, n)
                self.line(f"{items} = {domain}", at + 1, n)
                self.line("else:", at, n)
                self.line(f"{items} = {self.const(comp_items)}(c, {domain}, {span})",
                          at + 1, n)
                self.line(f"for {x} in {items}:", at, n)
                self.line(f"e[{var}] = {x}", at + 1, n)
                bound.add(g.var)
                at += 1
                self.blocks += 1
            self.compiler._subst = {k: f for k, f in saved.items() if k not in bound}
            if n.cond is not None:
                cond = self.node(n.cond, at)
                self.line(f"if not {cond}:", at, n)
                self.line("continue", at + 1, n)
            item = self.node(n.item, at)
            self.line(f"{out}.append({item})", at, n)
        finally:
            self.compiler._subst, self.blocks = saved, blocks
        self.line("finally:", depth, n)
        for old, var in olds:
            self.line(f"if {old} is {self.const(_MISSING)}:", depth + 1, n)
            self.line(f"{self.const(dict.pop)}(e, {var}, None)", depth + 2, n)
            self.line("else:", depth + 1, n)
            self.line(f"e[{var}] = {old}", depth + 2, n)
        self.line(f"{out} = tuple({out})", depth, n)
        return out


def comp_items(c: Ctx, xs: Any, span: Any) -> Any:
    """The items of a comprehension's domain (not a tuple), counted as the closure counts
    them: all at once when it has a length, else one step per item as it is reached."""
    items = domain_items(c, xs, span)
    if isinstance(items, Sized):
        c.tick(span, count_of(items))
        return items
    return _ticked(c, items, span)


def _ticked(c: Ctx, items: Iterable[Any], span: Any) -> Iterator[Any]:
    for v in items:
        c.tick(span)
        yield v


_NOT_CONST = object()
