"""Rulebook text never becomes Python source (fast/codegen.py): a rulebook whose names, texts,
option names and data rows are attempts at Python injection loads and plays, and every source
the generator wrote for it is made of the generator's own vocabulary alone (its names, a few
builtins, no literal of any kind, comments `# node N`), so none of those texts is in it."""
from __future__ import annotations

import functools
import io
import keyword
import random
import re
import tokenize
from pathlib import Path

import pytest

import rulelang
from rulelang.fast import codegen
from rulelang.fast.compiler import Compiler
from rulelang.fast.flow import FastFlow

LONG = "q" * 4995 + "_long"  # a 5,000-character name
ATTEMPT = "'); __import__('os').system('echo PWNED') #"
TEXTS = [ATTEMPT, "}{\\n# ｅｘｅｃ（） е \\ '", "ｅｘｅｃ（）", "x\\')", "{__import__}",
         "line one\nline two }{ \\ #"]
RULEBOOK = r'''# A rulebook whose names and texts try to become Python.
use square
use lines

game "Inject'); __import__('os').system('echo PWNED') #"
players __import__, exec

board square.grid(3, 3, 3)
piece mark
piece card with name = "", points = 0, __globals__ = 1
zone supply each player: 5 mark
zone deck ordered: card from "cards.yaml"
option __class__: 1..3 = 2
option __builtins__: os, sys = os
counter k0 = 0

def free = each s in sites where empty(s)
def __getattribute__(os) = empty(os) or os.r != 1 and \
  all __dict__ in square.orthogonal(os): occupied(__dict__)
def __subclasses__ = count __mro__ in sites where __getattribute__(__mro__)
def LONG(e, c) = (e * c + 1) // (c - e if c != e else 1) % 7
def v0(f, __dict__) = f > __class__ or not (__dict__ < -1) and __builtins__ == "os"
def other = "}{\n# ｅｘｅｃ（） е \ '"
def tag(x) = "'); __import__('os').system('echo PWNED') #" if x > __class__ else other
def named(x) = count y in deck where y.name == "{__import__}" or y.name == x

action place
  choose site s in free
  put mark of mover at s
  increase k0 by LONG(size(free), k0) + (1 if v0(size(free), k0) else 0)

turn
  do place

end
  when lines.full_line_through(square.in_a_row, last.site, mover)
    winner mover
  when size(free) == 0
    draw

score pts(p) = size(free) * __class__ + named("x\')")
score look(p) = 1 if tag(size(free)) == "ｅｘｅｃ（）" else 0
def either(__self__, __code__) = __self__ or __code__
score flag(p) = 1 if either(false, true) else 0
score ring(p) = __subclasses__
score heavy(p) = sum c in deck where c.points > 1: c.__globals__ + c.points
'''.replace("LONG", LONG)
CARDS = '''- {name: "'); __import__('os').system('echo PWNED') #", points: 1}
- {name: "line one\nline two }{ \\ #", points: 2}
- {name: "{__import__}", points: 3}
- {name: "ｅｘｅｃ（） е", points: 4}
'''
# what generated source may be made of: Python's keywords, the function's parameters, the
# generator's names, the builtins and attributes it may use
VOCABULARY = set(keyword.kwlist) | {"f", "c", "e"} | set(codegen.ALLOWED) | set(codegen.ATTRIBUTES)
OWN_NAME = re.compile(r"[kvsa]\d+")  # (s0, a0: a site predicate's site and stacks)


@pytest.fixture
def generated(monkeypatch: pytest.MonkeyPatch) -> str:
    for mode in ("generated", "closures"):
        monkeypatch.setitem(rulelang.EVALUATORS, mode, (
            functools.partial(Compiler, generate=mode == "generated"), FastFlow))
    return "generated"


def vocabulary_problems(source: str) -> list[str]:
    """The tokens of a generated source that are not the generator's own."""
    problems = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.NAME and tok.string not in VOCABULARY \
                and not OWN_NAME.fullmatch(tok.string):
            problems.append(f"name {tok.string[:40]!r}")
        elif tok.type in (tokenize.STRING, tokenize.NUMBER):
            problems.append(f"literal {tok.string[:40]!r}")
        elif tok.type == tokenize.COMMENT and not re.fullmatch(r"# node \d+", tok.string):
            problems.append(f"comment {tok.string[:40]!r}")
        elif tok.type == tokenize.ERRORTOKEN:
            problems.append(f"token {tok.string[:40]!r}")
    return problems


def test_injection_attempts_load_play_and_never_reach_the_source(
        tmp_path: Path, generated: str) -> None:
    (tmp_path / "inject.rule").write_text(RULEBOOK, encoding="utf-8")
    (tmp_path / "cards.yaml").write_text(CARDS, encoding="utf-8")
    with codegen.watching() as sources:
        game = rulelang.load_game(tmp_path / "inject.rule", {"__class__": 3}, mode=generated)
        state = game.new_initial_state(seed=0)
        rng = random.Random(0)
        for _ in range(4):
            state.apply_action(rng.choice(state.legal_actions()))
            state.scores()
    assert game.player_names == ["__import__", "exec"]
    assert len(state.history()) == 4 and state.scores()[0] > 0
    closures = rulelang.load_game(tmp_path / "inject.rule", {"__class__": 3},
                                  mode="closures").new_initial_state(seed=0)
    for move in state.history():  # the same game with the closures alone
        closures.apply_action(closures.legal_actions()[
            [closures.action_to_string(a) for a in closures.legal_actions()].index(move)])
    assert closures.scores() == state.scores()
    assert closures.score_breakdown(0) == state.score_breakdown(0)
    # the rulebook's own expressions were generated: its arithmetic, its and/or, its if
    joined = "\n".join(sources)
    assert len(sources) >= 5 and " // " in joined and " % " in joined and "not " in joined
    assert "for v" in joined and "c.data.attrs[" in joined  # the loop and attributes, too
    assert "c.tick(" in joined  # the steps of an inlined rule's call
    assert "def f(c, s0):" in joined and ".coords[" in joined  # a site predicate
    for source in sources:
        assert vocabulary_problems(source) == [], source
        for text in [*TEXTS, LONG, "__import__", "__class__", "__builtins__", "__dict__",
                     "__globals__", "__self__", "__code__", "PWNED", "os", "exec", "name",
                     "points", "either", "__getattribute__", "__subclasses__", "__mro__",
                     "orthogonal", "empty", "occupied"]:
            assert re.search(rf"(?<![\w]){re.escape(text)}(?![\w])", source) is None, text


def test_the_vocabulary_check_sees_a_spliced_text() -> None:
    """The check above fails on a source that splices a rulebook's text or name."""
    assert vocabulary_problems("def f(c, e):\n    return e['s']\n") == ["literal \"'s'\""]
    assert vocabulary_problems("def f(c, e):\n    return __import__\n") == \
        ["name '__import__'"]
    assert vocabulary_problems("def f(c, e):\n    return k1  # s\n") == ["comment '# s'"]
    assert vocabulary_problems("def f(c, e):\n    return v2 + 1\n") == ["literal '1'"]


def test_bundled_games_generate_only_the_generators_vocabulary() -> None:
    """(Two games whose rules make every kind of line: loops, attributes, inlined calls.)"""
    for name in ("breakthrough", "muso_sakura"):
        functions = rulelang.generated_code(name)
        assert len(functions) >= 10
        for g in functions:
            assert vocabulary_problems(g.source) == [], g.source
