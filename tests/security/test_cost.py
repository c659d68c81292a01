"""The budget charges work, not only steps (library/semantics.py): the worst cases the
fuzzer found, which ran for minutes or filled the memory when one step could touch any
amount of data, end with a positioned diagnostic, in both modes, within the bounds issue 19
sets for them: 2 s of CPU and 500 MB (measured in a process of their own; a bound that
fails the test when a charge is missing, not a speed figure). bench/fuzz.py prints the
figures of many more cases."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.library.semantics import INT_BITS, SIZE_LIMIT, weight
from rulelang.model.values import Record

MODES = ("interpreted", "compiled")
HEAD = """use square
game "T"
players X, O
board square.grid(3, 3, 3)
piece mark
zone supply each player: 5 mark
def free = each s in sites where empty(s)
var v = 2
var w = 0
action place
  choose site s in free
  put mark of mover at s
"""
TAIL = """
turn
  do place
end
  when size(free) == 0
    draw
"""
WORST = {
    "square_30_times": ("  set v = v * v\n" * 30,
                        f"cannot compute *: a whole number of more than {INT_BITS} bits"),
    "nest_40_times": ("  set v = [v, v]\n" * 40 + "  set w = v == v\n",
                      f"a value of more than {SIZE_LIMIT:,} items"),
    "loop_over_500000": ("  set v = [1] * 500000\n"
                         "  repeat 1000000 times\n    set w = 0 in v\n",
                         "step budget of 2000000 exceeded"),
    "str_of_nested": ("  set v = [1, 2, 3, 4, 5, 6, 7, 8]\n" + "  set v = [v, v]\n" * 16
                      + "  repeat 1000 times\n    set w = size(str(v))\n",
                      "step budget of 2000000 exceeded"),
    "join_a_long_list": ("  set v = [1] * 400000\n"
                         "  repeat 1000000 times\n    set w = size(v + v)\n",
                         "step budget of 2000000 exceeded"),
}


def run(path: Path, mode: str) -> str:
    rulelang._PROGRAMS.clear()
    rulelang._RUNTIMES.clear()
    try:
        game = rulelang.load_game(path, mode=mode)
        state = game.new_initial_state(seed=0)
        state.apply_action(state.legal_actions()[0])
        state.observation(0)
        str(state)
    except rulelang.RuleRuntimeError as err:
        return err.render()
    return "ok"


# The cases of one mode in a process of their own: each case's CPU time (load included) is
# measured there, and the peak memory of that process (interpreter included) bounds them all.
_CHILD = """
import json, pathlib, resource, sys, time
sys.path.insert(0, sys.argv[1])
from test_cost import run
out = {}
for path in sys.argv[3:]:
    start = time.process_time()
    got = run(pathlib.Path(path), sys.argv[2])
    out[path] = {"got": got, "cpu": time.process_time() - start}
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"cases": out, "peak": peak}))
"""


@pytest.mark.parametrize("mode", MODES)
def test_worst_cases_end_with_a_diagnostic_within_bounds(mode: str, tmp_path: Path) -> None:
    paths = {}
    for name, (body, _) in WORST.items():
        paths[name] = tmp_path / name / "T.rule"
        paths[name].parent.mkdir()
        paths[name].write_text(HEAD + body + TAIL, encoding="utf-8")
    try:
        out = subprocess.run([sys.executable, "-c", _CHILD, str(Path(__file__).parent), mode,
                              *map(str, paths.values())], capture_output=True, text=True,
                             timeout=60, check=True).stdout
    except subprocess.TimeoutExpired:
        pytest.fail(f"the worst cases ({mode}) still ran after 60 s")
    result = json.loads(out)
    for name, (_, message) in WORST.items():
        case = result["cases"][str(paths[name])]
        got = case["got"]
        head = got.split("\n")[0]
        assert head.startswith(f"{paths[name]}:") and message in head, (name, got)
        assert "\n   |" in got or "\n  |" in got, (name, got)  # the source line, a caret
        assert case["cpu"] < 2.0, f"{name} ({mode}): {case['cpu']:.2f} s of CPU"
    assert result["peak"] < 500 * 2**20, f"{mode}: {result['peak'] / 2**20:.0f} MB"


def test_weight_counts_shared_lists_each_time_they_appear() -> None:
    v: Any = (1, 2)
    for _ in range(10):
        v = (v, v)
    assert weight(v) == 2**12 - 2  # 2 + 2 * (2 + 2 * (... (1, 2)))
    deep: Any = 1
    for _ in range(60):
        deep = (deep, deep)
    assert weight(deep) == SIZE_LIMIT + 1  # 2**61 items: capped, weighed in 60 steps


def test_a_record_weighs_its_fields_and_the_values_inside_them_every_time() -> None:
    """A record's weight is kept on it (it never changes): weighed again, alone or inside
    lists, it weighs the same — its fields, their texts' lengths and inner lists' weights."""
    line = Record(("label", "points"), ("names", 10))
    role = Record(("cards", "final"), ((line, line, "ab"), False))
    assert weight(line) == 2 + 5
    assert weight(role) == 2 + (3 + 7 + 7 + 2)
    sheet = (line, role, line)
    for _ in range(2):  # (the second time from the kept weights)
        assert weight(sheet) == 3 + 7 + 21 + 7
        assert weight(role) == 21 and weight(line) == 7
    assert weight((sheet, sheet)) == 2 + 2 * 38


def test_an_observation_has_a_budget_of_its_own(tmp_path: Path) -> None:
    """A var holding a value near the size limit is shown; the observation's own budget
    counts it (it does not use up the rules' budget, nor theirs its own)."""
    path = tmp_path / "T.rule"
    path.write_text(HEAD + "  set v = [1, 2, 3] * 100000\n" + TAIL, encoding="utf-8")
    for mode in MODES:
        rulelang._PROGRAMS.clear()
        rulelang._RUNTIMES.clear()
        state = rulelang.load_game(path, mode=mode).new_initial_state(seed=0)
        state.apply_action(state.legal_actions()[0])
        shown = next(x for x in state.observation(1)["vars"] if x["var"] == "v")["value"]
        assert shown[:3] == [1, 2, 3] and len(shown) == 300_000
