"""Values written as statements where they are returned or tested: `any`/`all` as a `for`
loop that returns (or notes the answer and leaves) at the deciding item, `A if C else B`
as `if` statements, a rule's block (let, if, return). The same items are read in the same
order and the loop stops where the generator would; a loop costs no generator object and
no call per item (3-4 times faster over a pile of one or two pieces).

An expression keeps how it was made in its Code's `shape` (set by the writer for a
quantifier, a conditional and `not`); a Code made from others has none and is returned
as an expression."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import rulelang.gen.forms as F
from rulelang.gen.code import Code, Func, Unsupported
from rulelang.gen.forms import Form
from rulelang.language import ast


class Loop(NamedTuple):
    """`any`/`all` of `value` for each `var` in `src` where `cond` (None: every item)."""
    kind: str
    var: str
    src: str
    cond: Code | None
    value: Code


class Choice(NamedTuple):
    """`then if cond else orelse`."""
    cond: Code
    then: Code
    orelse: Code


class Negation(NamedTuple):
    operand: Code


class Junction(NamedTuple):
    """`left and right`, `left or right` (their truth, a bool)."""
    op: str
    left: Code
    right: Code


def loops(code: Code) -> bool:
    """Does writing the code as statements take a loop out of an expression?"""
    shape = code.shape
    if isinstance(shape, Loop):
        return True
    if isinstance(shape, Negation):
        return loops(shape.operand)
    if isinstance(shape, Junction):
        return loops(shape.left) or loops(shape.right)
    if isinstance(shape, Choice):
        return loops(shape.cond) or loops(shape.then) or loops(shape.orelse)
    return False


def returning(w: Any, code: Code, fn: Func) -> None:
    """Statements that return the code's value."""
    shape = code.shape
    if isinstance(shape, Choice):
        when(w, shape.cond, fn, lambda: returning(w, shape.then, fn),
             lambda: returning(w, shape.orelse, fn))
    elif loops(code):  # (a truth: True or False, as the expression's value)
        when(w, code, fn, lambda: fn.add("return True"), lambda: fn.add("return False"))
    else:
        fn.add(f"return {code.src}")


def when(w: Any, cond: Code, fn: Func, then: Callable[[], Any],
         orelse: Callable[[], Any]) -> None:
    """Statements running `then()` where the condition holds, else `orelse()` (each writes
    statements that return: nothing runs after them)."""
    shape = cond.shape
    if isinstance(shape, Negation):
        when(w, shape.operand, fn, orelse, then)
        return
    if not isinstance(shape, Loop):
        fn.add(f"if {test(w, cond, fn)}:")
        _inside(fn, then)
        orelse()
        return
    fn.add(f"for {shape.var} in {shape.src}:")
    fn.depth += 1
    if shape.kind == "any":  # an item holds: the condition holds
        _deciding(w, shape, fn, then)
        fn.depth -= 1
        orelse()
        return
    _deciding(w, shape, fn, lambda: fn.add("break"))  # an item fails: `all` does not hold
    fn.depth -= 1
    fn.add("else:")
    _inside(fn, then)
    orelse()


def test(w: Any, cond: Code, fn: Func) -> str:
    """The condition as a source to test (for its truth), its loops written before it
    (each into a flag); the parts of `and`/`or` evaluated only where the expression would."""
    shape = cond.shape
    if not loops(cond):
        return cond.src
    if isinstance(shape, Negation):
        return f"(not {test(w, shape.operand, fn)})"
    if isinstance(shape, Junction):
        left = test(w, shape.left, fn)
        if not loops(shape.right):
            return f"({left} {shape.op} {shape.right.src})"
        both = shape.op == "and"  # (and: the right one asked where the left holds)
        flag: str = w.fresh("v")
        fn.add(f"{flag} = {not both}")
        fn.add(f"if {left}:" if both else f"if not {left}:")
        fn.depth += 1
        right = test(w, shape.right, fn)
        fn.add(f"if {right}:" if both else f"if not {right}:")
        fn.add(f"    {flag} = {both}")
        fn.depth -= 1
        return flag
    if isinstance(shape, Choice):
        return cond.src  # (its loops stay in the expression)
    assert isinstance(shape, Loop)
    found = shape.kind == "any"  # (the answer an item decides)
    flag = w.fresh("v")
    fn.add(f"{flag} = {not found}")
    fn.add(f"for {shape.var} in {shape.src}:")
    fn.depth += 1

    def decided() -> None:
        fn.add(f"{flag} = {found}")
        fn.add("break")
    _deciding(w, shape, fn, decided)
    fn.depth -= 1
    return flag


def _deciding(w: Any, loop: Loop, fn: Func, decided: Callable[[], Any]) -> None:
    """In the loop's body: `decided()` at an item that decides the loop's answer (an item
    the condition leaves out decides nothing); a loop in the condition or the value
    written as statements too."""
    depth = fn.depth
    if loop.cond is not None and loops(loop.cond):
        fn.add(f"if {test(w, loop.cond, fn)}:")
        fn.depth += 1
    elif loop.cond is not None and not loops(loop.value):  # (one test of both)
        value = f"({loop.value.src})" if loop.kind == "any" else f"not ({loop.value.src})"
        fn.add(f"if ({loop.cond.src}) and {value}:")
        _inside(fn, decided)
        return
    elif loop.cond is not None:
        fn.add(f"if {loop.cond.src}:")
        fn.depth += 1
    value = test(w, loop.value, fn)
    fn.add(f"if {value}:" if loop.kind == "any" else f"if not {value}:")
    _inside(fn, decided)
    fn.depth = depth


def _inside(fn: Func, write: Callable[[], Any]) -> None:
    fn.depth += 1
    write()
    fn.depth -= 1


Branch = tuple[Callable[[], Code], Callable[[], int]]  # (its condition, its body's writer)


def if_chain(w: Any, fn: Func, branches: list[Branch], orelse: Callable[[], int] | None) -> int:
    """if / elif / else, each condition evaluated only where the ones before it failed: a
    condition written as statements (`test`) after the first opens an `else` of its own.
    The bodies' cost, added."""
    depth, cost, first = fn.depth, 0, True
    for condition, body in branches:
        c = condition()
        if not first and loops(c):
            fn.add("else:")
            fn.depth += 1
            first = True
        fn.add(f"if {test(w, c, fn)}:" if first else f"elif {c.src}:")
        fn.depth += 1
        cost += c.cost + body()
        fn.add("pass")
        fn.depth -= 1
        first = False
    if orelse is not None:
        fn.add("else:")
        fn.depth += 1
        cost += orelse()
        fn.add("pass")
        fn.depth -= 1
    fn.depth = depth
    return cost


def block(w: Any, stmts: ast.Block, env: dict[str, Code], fn: Func) -> tuple[Form, int]:
    """A rule's block (let / if / return): the returned value's form (ANY unless every
    return agrees) and its cost."""
    returned: list[Form] = []
    cost = 0
    for s in stmts.stmts:
        if isinstance(s, ast.Let):  # (a rule changes nothing: kept forms stay)
            for var, value in s.bindings:
                v = w.raw(value, env)
                local = w.fresh("v")
                fn.add(f"{local} = {v.src}")
                env[var] = v if v.form.known else Code(local, v.form, 0)
                cost += v.cost
        elif isinstance(s, ast.Return):
            v = w.ex(s.value, env)
            returning(w, v, fn)
            returned.append(v.form)
            cost += v.cost
        elif isinstance(s, ast.If):
            cost += _if(w, s, env, fn, returned)
        else:
            raise Unsupported("this statement in a rule", s.span)
    form = returned[0] if returned and all(r == returned[0] for r in returned) else F.ANY
    return form, cost


def _if(w: Any, s: ast.If, env: dict[str, Code], fn: Func, returned: list[Form]) -> int:
    def branch(body: ast.Block) -> Callable[[], int]:
        def write() -> int:
            form, cost = block(w, body, dict(env), fn)
            returned.append(form)
            return cost
        return write

    def condition(cond: ast.Expr) -> Callable[[], Code]:
        return lambda: w.ex(cond, env)
    return if_chain(w, fn, [(condition(c), branch(b)) for c, b in s.branches],
                    branch(s.orelse) if s.orelse is not None else None)
