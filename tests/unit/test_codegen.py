"""The code generator (rulelang/fast/codegen.py): an error raised inside generated code is the
closures' error, at the same rulebook position; the steps it charges are the closures'; the
line map names the nodes of each generated line; functions are made once per node."""
from __future__ import annotations

import ast as pyast
from pathlib import Path
from typing import Any

import pytest
from codegen_tools import both_fast_modes  # noqa: F401 - a fixture

import rulelang
from rulelang.errors import RuleRuntimeError
from rulelang.fast import codegen
from rulelang.language import ast
from rulelang.library.semantics import Ctx
from rulelang.model.values import Record
from rulelang.tools import cli

RULEBOOK = """game "Codegen"
players A, B
use square
board square.grid(3, 3, 3)
piece stone with points = 2
zone supply each player: 3 stone
def divide(x) = 10 // (x - 3)
def negative(t) = -t
def less(x, t) = x < t
def within(x, t) = 1 + x in t
def squared(x) = x * x
def same(t, u) = t == u or t != (1, 2)
def both(a, b) = a and b
def pick(a, b) = a if b else 0
def uses(x) = both(x > 1, x < 5) or pick(x, x > 2) == 3
def local(x) = not (x > 2)
def total(t) = sum x in t: x
def counted(t) = count x in t where x > 1: x < 5
def firsts(t) = (first x in t where x > 1, max x in t, min x in t: -x, each x in t: x + 1)
def truths(t, u) = (all x in t: x > 0, any x in t where x > 2: x < 4, any x in t: x in u)
def shadow(x) = [x, count x in (1, 2, 3): x > 1, x]
def worth(t) = t.points + 1
def stones(p) = sum x in supply of p: x.points * 10
def kept(x) = x + (count s in sites where any a in square.north(s): empty(a))
turn
  draw
"""


def load(folder: Path, mode: str) -> Any:
    path = folder / "codegen.rule"
    path.write_text(RULEBOOK, encoding="utf-8")
    return rulelang.load_game(path, mode=mode)


def run(game: Any, rule: str, env: dict[str, Any]) -> tuple[str, Any, int]:
    """("value", value, steps) or ("error", (code, message, span), steps) of a rule's body."""
    rt = game.runtime
    c = Ctx(rt, game.new_initial_state(0).ctx.data.copy())
    try:
        value = rt.evaluator.def_body(rule)[0](c, env)
    except RuleRuntimeError as err:
        d = err.diagnostic
        return "error", (d.code, d.message, d.span), c.steps
    return "value", value, c.steps


CALLS = [
    ("divide", {"x": 3}), ("divide", {"x": 5}), ("divide", {}),
    ("negative", {"t": "abc"}), ("negative", {"t": 4}),
    ("less", {"x": 1, "t": "a"}), ("less", {"x": 1, "t": 2}),
    ("within", {"x": 1, "t": 5}), ("within", {"x": 1, "t": (1, 2, 3)}),
    ("within", {"x": "a", "t": (1,)}),
    ("squared", {"x": 1 << 3000}), ("squared", {"x": -7}), ("squared", {"x": (1, 2)}),
    ("same", {"t": (1, 2, 3, 4), "u": (1, 2, 3, 4)}), ("same", {"t": 1, "u": 2}),
    ("uses", {"x": 3}), ("uses", {"x": 0}), ("uses", {"x": 9}),
    ("local", {"x": 1}), ("local", {}),
    ("total", {"t": (1, 2, 3)}), ("total", {"t": (1, "a")}), ("total", {"t": 5}),
    ("counted", {"t": (0, 2, 3, 7, 1)}), ("counted", {"t": ()}),
    ("firsts", {"t": (3, 1, 2)}), ("firsts", {"t": ()}), ("firsts", {"t": (1, "a")}),
    ("truths", {"t": (1, 2, 3), "u": (2,)}), ("truths", {"t": (0, 5), "u": ()}),
    ("shadow", {"x": 9}),
    ("kept", {"x": 1}), ("kept", {}),  # a kept site query, as the closures keep it
]


def test_generated_code_raises_and_charges_as_the_closures(
        tmp_path: Path, both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    closures, generated = (load(tmp_path, mode) for mode in both_fast_modes)
    with codegen.watching() as sources:
        results = [run(generated, rule, dict(env)) for rule, env in CALLS]
    assert len(sources) >= 9  # every rule's body is generated
    loops = "\n".join(sources).count("    for v")
    # every quantifier but `any x in t: x in u` (the closures' own loop) and the kept
    # `count s in sites` (whose condition's loop is one, of a site: site_code.py)
    assert loops == 10
    for (rule, env), got in zip(CALLS, results, strict=True):
        assert got == run(closures, rule, dict(env)), (rule, env)
    errors = {(rule, tuple(env.values())): got[1] for (rule, env), got in
              zip(CALLS, results, strict=True) if got[0] == "error"}
    code, message, span = errors[("divide", (3,))]
    assert (code, span.line, span.column) == ("R301", 7, 17)  # `10 // (x - 3)`
    assert message == "cannot compute 10 // 0: integer division or modulo by zero"
    code, message, span = errors[("divide", ())]
    assert (code, message, span.line, span.column) == ("R301", "'x' has no value here", 7, 24)
    assert errors[("squared", (1 << 3000,))][1] == "cannot compute *: a whole number of " \
        "more than 4096 bits"
    assert errors[("within", (1, 5))][1] == "cannot compare 2 in 5"
    assert errors[("less", (1, "a"))][2].line == 9
    assert results[CALLS.index(("same", {"t": (1, 2, 3, 4), "u": (1, 2, 3, 4)}))][2] == 4
    assert errors[("total", ((1, "a"),))][:2] == (
        "R301", "cannot compute sum: unsupported operand type(s) for +: 'int' and 'str'")
    assert results[CALLS.index(("shadow", {"x": 9}))][1] == (9, 2, 9)  # x given back
    assert results[CALLS.index(("counted", {"t": (0, 2, 3, 7, 1)}))][1:] == (2, 5)


def test_the_line_map_names_each_line_and_functions_are_made_once(
        tmp_path: Path, both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    game = load(tmp_path, "generated")
    rt = game.runtime
    body = rt.program.defs["uses"].body
    fn = rt.evaluator.expr(body)
    assert rt.evaluator.expr(body) is fn  # made once for the node
    g = fn.generated
    assert g.root is body and g.fn is fn
    lines = g.source.splitlines()
    for i, text in enumerate(lines, 1):
        if text.strip().startswith("# node "):  # the comment names the node of its line
            assert g.nodes[int(text.split()[-1])] is g.line_nodes[i]
    assert {g.span_at(i).line for i in range(1, len(lines) + 1)} == {15}
    calls = [n for n in g.nodes if isinstance(n, ast.Call)]  # `both(...)`, `pick(...)`
    assert len(calls) == 2
    for call in calls:  # called through the constants table: the line after its mark
        at = [j for j, text in enumerate(lines) if text.strip() == f"# node {g.nodes.index(call)}"]
        after = lines[at[0] + 1].split()
        assert after[1] == "=" and after[2].endswith("(c,") and \
            callable(g.constants[after[2][:-len("(c,")]])
    # another game with the same rule: its own function, the code compiled once
    path = tmp_path / "other.rule"
    path.write_text(RULEBOOK.replace('"Codegen"', '"Other"'), encoding="utf-8")
    other = rulelang.load_game(path, mode="generated").runtime
    twin = other.evaluator.expr(other.program.defs["uses"].body)
    assert twin is not fn and twin.__code__ is fn.__code__
    assert not hasattr(load(tmp_path, "closures").runtime.evaluator.expr(body), "generated")


@pytest.mark.parametrize("text", ["1 +", "1 + (2"])
def test_nothing_is_generated_for_a_rulebook_that_does_not_load(
        tmp_path: Path, both_fast_modes: tuple[str, str], text: str) -> None:  # noqa: F811
    path = tmp_path / "bad.rule"
    path.write_text(RULEBOOK.replace("10 // (x - 3)", text), encoding="utf-8")
    with codegen.watching() as sources, pytest.raises(rulelang.RulebookError):
        rulelang.load_game(path, mode="generated")
    assert sources == []


@pytest.mark.parametrize("shape", ["x > {i} and ({e})", "(x if x > {i} else {e})",
                                   "({e} + {i})"])
def test_deeply_nested_expressions_are_split_into_functions(
        tmp_path: Path, both_fast_modes: tuple[str, str], shape: str) -> None:  # noqa: F811
    """90 levels of `and`, `if … else` or `+` (the syntax tree allows about 96): generated in
    functions of at most MAX_DEPTH levels of blocks (Python allows 100), with the closures'
    value."""
    expr = "x"
    for i in range(90):
        expr = shape.format(i=i, e=expr)
    path = tmp_path / "deep.rule"
    path.write_text(RULEBOOK.replace("not (x > 2)", expr), encoding="utf-8")
    values = []
    with codegen.watching() as sources:
        for mode in both_fast_modes:
            game = rulelang.load_game(path, mode=mode)
            values.append([run(game, "local", {"x": x})[:2] for x in (0, 3, 95)])
    assert values[0] == values[1]
    assert len(sources) >= (1 if "+" in shape else 3)  # (a sum is flat: one function)
    for source in sources:
        deepest = max(len(line) - len(line.lstrip(" ")) for line in source.splitlines())
        assert deepest <= 4 * (codegen.MAX_DEPTH + 2)


def nested_blocks(source: str) -> int:
    """The most loops and try statements one inside the other in a Python source."""
    def deepest(node: pyast.AST) -> int:
        inner = max((deepest(child) for child in pyast.iter_child_nodes(node)), default=0)
        return inner + isinstance(node, (pyast.For, pyast.Try))
    return deepest(pyast.parse(source))


@pytest.mark.parametrize("shape", ["quantifiers", "generators", "neighbours"])
def test_loops_nested_past_pythons_block_limit_are_split_into_functions(
        tmp_path: Path, both_fast_modes: tuple[str, str], shape: str) -> None:  # noqa: F811
    """25 quantifiers one inside the other, a comprehension of 25 generators, or 22 loops
    over neighbours in a site's condition (CPython refuses more than 20 loops or try
    statements statically nested in one function): the generated functions each open at
    most MAX_BLOCKS, and give the closures' value; `rulelang compile --show` shows them."""
    names = [f"x{i}" for i in range(25)]
    if shape == "quantifiers":
        expr = "x0 + x24 > 1"
        for name in reversed(names):
            expr = f"any {name} in t: {expr}"
    elif shape == "generators":
        expr = "[x0 + x24 for " + ", ".join(f"{name} in t" for name in names) + "]"
    else:  # (each a site with no neighbour: nothing to loop over)
        expr = "occupied(x21)"
        for name, outer in reversed(list(zip(names[:22], ["s", *names], strict=False))):
            expr = f"any {name} in square.north({outer}): {expr}"
        expr = f"size(t) + (count s in sites where {expr})"
    path = tmp_path / "loops.rule"
    path.write_text(RULEBOOK.replace("def local(x) = not (x > 2)", f"def local(t) = {expr}"),
                    encoding="utf-8")
    values = []
    with codegen.watching() as sources:
        for mode in both_fast_modes:
            game = rulelang.load_game(path, mode=mode)
            values.append([run(game, "local", {"t": t})[:2] for t in ((1,), (0,), (0, 1))])
    assert values[0] == values[1]
    assert values[0][1] == ("value", {"quantifiers": False, "generators": (0,),
                                      "neighbours": 1}[shape])
    assert max(map(nested_blocks, sources)) <= codegen.MAX_BLOCKS
    assert shape != "quantifiers" or len(sources) >= 2  # (the closure takes 25 generators)
    assert cli.main(["compile", "--show", str(path)]) == 0


def test_piece_attributes_and_fields_read_as_the_closures(
        tmp_path: Path, both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    games = [load(tmp_path, mode) for mode in both_fast_modes]
    card = Record(("name", "points"), ("ace", 4))
    outcomes = []
    for game in games:
        player = game.runtime.players[1]
        outcomes.append([run(game, "worth", {"t": card}), run(game, "worth", {"t": 5}),
                         run(game, "worth", {"t": player}), run(game, "stones", {"p": player})])
    assert outcomes[0] == outcomes[1]
    got = outcomes[1]
    assert got[0][:2] == ("value", 5) and got[3][:2] == ("value", 60)
    assert got[1][1][:2] == ("R301", "5 has no 'points'") and got[1][1][2].line == 22
    assert "has no 'points'" in got[2][1][1]
    rt = games[1].runtime
    source = rt.evaluator.expr(rt.program.defs["stones"].body).generated.source
    assert "c.data.attrs[" in source and "for v" in source  # read natively, in the loop


COMPREHENSIONS = """
def pairs(t, u) = [(x, y) for x in t, y in u where x < y]
def ranged(n) = [x * x for x in 1..n where x % 2 == 0]
def hidden(x) = [x, [x + 1 for x in (1, 2)], x]
def fresh(t) = [[y, z] for y in t, z in (1..y)]
def halves(t) = [10 // x for x in t]
"""
COMPREHENSION_CALLS = [
    ("pairs", {"t": (1, 2, 3), "u": (2, 3)}), ("pairs", {"t": (), "u": (1,)}),
    ("pairs", {"t": 5, "u": (1,)}), ("pairs", {"t": (1, "a"), "u": (2,)}),
    ("ranged", {"n": 9}), ("ranged", {"n": 10 ** 12}), ("ranged", {"n": "a"}),
    ("hidden", {"x": 7}), ("fresh", {"t": (1, 3)}),
    ("halves", {"t": (5, 2)}), ("halves", {"t": (5, 0, 1)}),
]


def test_comprehensions_are_generated_loops_with_the_closures_values_errors_and_steps(
        tmp_path: Path, both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    """[item for x in D, y in E where cond] is generated as nested loops (no closure of
    its own): the same values, errors (at the same position) and steps as the closures,
    and the locals given back as they were (a variable not bound before stays unbound)."""
    path = tmp_path / "comp.rule"
    path.write_text(RULEBOOK.replace("turn\n", COMPREHENSIONS + "turn\n"), encoding="utf-8")
    closures, generated = (rulelang.load_game(path, mode=mode) for mode in both_fast_modes)
    envs = [dict(env) for _, env in COMPREHENSION_CALLS]
    with codegen.watching() as sources:
        results = [run(generated, rule, env) for (rule, _), env in
                   zip(COMPREHENSION_CALLS, envs, strict=True)]
    for (rule, env), got, after in zip(COMPREHENSION_CALLS, results, envs, strict=True):
        assert got == run(closures, rule, dict(env)), (rule, env)
        assert after == env, rule  # nothing of the loops is left in the locals
    text = "\n".join(sources)
    for rule in ("pairs", "ranged", "fresh", "halves"):
        source = generated.runtime.evaluator.expr(
            generated.runtime.program.defs[rule].body).generated.source
        assert source in text and ".append(" in source, rule
    got = dict(zip([f"{r}{tuple(e.values())}" for r, e in COMPREHENSION_CALLS], results,
                   strict=True))
    assert got["pairs((1, 2, 3), (2, 3))"][1] == ((1, 2), (1, 3), (2, 3))
    assert got["ranged(9,)"][1] == (4, 16, 36, 64)
    assert got["hidden(7,)"][1] == (7, (2, 3), 7)
    assert got["fresh((1, 3),)"][1] == ((1, 1), (3, 1), (3, 2), (3, 3))
    code, message, span = got["ranged(1000000000000,)"][1]
    assert code == "R302" and "step budget" in message  # refused before the first item
    assert got["pairs(5, (1,))"][1][1] == "5 is not a collection"
    code, message, span = got["halves((5, 0, 1),)"][1]
    assert (code, span.column) == ("R301", 18) and "by zero" in message  # `10 // x`
    assert got["halves((5, 0, 1),)"][2] > got["halves((5, 2),)"][2] > 0
