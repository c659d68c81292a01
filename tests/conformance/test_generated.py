"""Random well-typed expressions (numbers, truths, tuples, quantifiers over small ranges,
conditionals, comparisons, //, % with an occasional division by zero) give the same value, or
the same error code, in both evaluators; and never a Python error instead of a rule error."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conformance.harness import Case, outcomes

_HERE = Path(__file__)
QUANT_INT = ("count", "sum", "max", "min", "first", "best")
QUANT_BOOL = ("all", "any")


@st.composite
def number(draw: st.DrawFn, names: tuple[str, ...], depth: int) -> str:
    leaves = [st.integers(-4, 9).map(str)] + ([st.sampled_from(names)] if names else [])
    if depth <= 0:
        return draw(st.one_of(leaves))
    d = depth - 1
    shape = draw(st.integers(0, 9))
    if shape <= 1:
        return draw(st.one_of(leaves))
    if shape <= 4:
        op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
        return f"({draw(number(names, d))} {op} {draw(number(names, d))})"
    if shape == 5:
        return f"(-{draw(number(names, d))})"
    if shape == 6:
        return (f"({draw(number(names, d))} if {draw(truth(names, d))} "
                f"else {draw(number(names, d))})")
    if shape == 7:
        return f"size({draw(collection(names, d))})"
    var = f"v{len(names)}"
    kind = draw(st.sampled_from(QUANT_INT))
    domain = draw(domains(names, d))
    inner = (*names, var)
    where = f" where {draw(truth(inner, d))}" if draw(st.booleans()) else ""
    if kind == "count":
        body = f": {draw(truth(inner, d))}" if draw(st.booleans()) else ""
    else:
        body = f": {draw(number(inner, d))}" if draw(st.booleans()) else ""
    return f"({kind} {var} in {domain}{where}{body})"


@st.composite
def truth(draw: st.DrawFn, names: tuple[str, ...], depth: int) -> str:
    if depth <= 0:
        return draw(st.sampled_from(["true", "false"]))
    d = depth - 1
    shape = draw(st.integers(0, 7))
    if shape == 0:
        return draw(st.sampled_from(["true", "false"]))
    if shape <= 2:
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return f"({draw(number(names, d))} {op} {draw(number(names, d))})"
    if shape == 3:
        op = draw(st.sampled_from(["and", "or"]))
        return f"({draw(truth(names, d))} {op} {draw(truth(names, d))})"
    if shape == 4:
        return f"(not {draw(truth(names, d))})"
    if shape == 5:
        op = draw(st.sampled_from(["in", "not in"]))
        return f"({draw(number(names, d))} {op} {draw(collection(names, d))})"
    var = f"v{len(names)}"
    kind = draw(st.sampled_from(QUANT_BOOL))
    inner = (*names, var)
    return f"({kind} {var} in {draw(domains(names, d))}: {draw(truth(inner, d))})"


@st.composite
def domains(draw: st.DrawFn, names: tuple[str, ...], depth: int) -> str:
    if draw(st.booleans()):
        lo, n = draw(st.integers(0, 3)), draw(st.integers(-1, 4))
        return f"({lo}..{lo + n})"
    return draw(collection(names, depth))


@st.composite
def collection(draw: st.DrawFn, names: tuple[str, ...], depth: int) -> str:
    d = max(depth - 1, 0)
    shape = draw(st.integers(0, 4))
    if shape <= 1:
        items = draw(st.lists(number(names, d), max_size=3))
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
    var = f"v{len(names)}"
    inner = (*names, var)
    lo, n = draw(st.integers(0, 2)), draw(st.integers(-1, 3))
    if shape == 2:
        return f"[{draw(number(inner, d))} for {var} in {lo}..{lo + n}]"
    kind = draw(st.sampled_from(["each", "sorted"]))
    body = f": {draw(number(inner, d))}" if draw(st.booleans()) else ""
    return f"({kind} {var} in {lo}..{lo + n}{body})"


def _outcome(kind: str, got: object) -> str:
    if kind == "value":
        return json.dumps(got["out"])  # type: ignore[index]
    if kind == "error":
        return f"error {got[0]}"  # type: ignore[index]
    return f"{kind}: {got}"


@settings(derandomize=True, max_examples=50, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(number((), 4), min_size=8, max_size=8))
def test_both_evaluators_agree_on_random_expressions(tmp_path_factory: object,
                                                     exprs: list[str]) -> None:
    folder = Path(tmp_path_factory.mktemp("gen"))  # type: ignore[attr-defined]
    cases = [Case(_HERE, 0, "expr", x, ("value", None, None)) for x in exprs]
    interpreted = outcomes(cases, "interpreted", folder)
    compiled = outcomes(cases, "compiled", folder)
    for x, a, b in zip(exprs, interpreted, compiled, strict=True):
        assert a[0] in ("value", "error"), f"{x}: interpreted: {_outcome(*a)}"
        assert _outcome(*a) == _outcome(*b), \
            f"{x}: interpreted {_outcome(*a)}, compiled {_outcome(*b)}"
