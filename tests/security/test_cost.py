"""The budget charges work, not only steps (library/semantics.py): the worst cases the
fuzzer found, which ran for minutes or filled the memory when one step could touch any
amount of data, end with a positioned diagnostic, in both modes, within the bounds issue 19
sets for them: 2 s of CPU (an alarm that fails the test: a hang guard, not a speed figure)
and 500 MB (tracemalloc's peak). bench/fuzz.py prints the figures of many more cases."""
from __future__ import annotations

import signal
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.library.semantics import INT_BITS, SIZE_LIMIT, weight

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
    "loop_over_500000": ("  set v = each i in 1..500000: i\n"
                         "  repeat 1000000 times\n    set w = 0 in v\n",
                         "step budget of 2000000 exceeded"),
    "str_of_nested": ("  set v = [1, 2, 3, 4, 5, 6, 7, 8]\n" + "  set v = [v, v]\n" * 16
                      + "  repeat 1000 times\n    set w = size(str(v))\n",
                      "step budget of 2000000 exceeded"),
}


class _Over(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Over


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


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(WORST))
def test_worst_case_ends_with_a_diagnostic_within_bounds(name: str, mode: str,
                                                          tmp_path: Path) -> None:
    body, message = WORST[name]
    path = tmp_path / "T.rule"
    path.write_text(HEAD + body + TAIL, encoding="utf-8")
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, 2.0)
    try:
        got = run(path, mode)
    except _Over:
        pytest.fail(f"{name} ({mode}) used more than 2 s of CPU")
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    head = got.split("\n")[0]
    assert head.startswith(f"{path}:") and message in head, got
    assert "\n   |" in got or "\n  |" in got  # the source line and its caret
    tracemalloc.start()
    try:
        assert run(path, mode) == got
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 500 * 2**20, f"{name} ({mode}): {peak / 2**20:.0f} MB"


def test_weight_counts_shared_lists_each_time_they_appear() -> None:
    v: Any = (1, 2)
    for _ in range(10):
        v = (v, v)
    assert weight(v) == 2**12 - 2  # 2 + 2 * (2 + 2 * (... (1, 2)))
    deep: Any = 1
    for _ in range(60):
        deep = (deep, deep)
    assert weight(deep) == SIZE_LIMIT + 1  # 2**61 items: capped, weighed in 60 steps


def test_an_observation_has_a_budget_of_its_own(tmp_path: Path) -> None:
    """A var holding a value near the size limit is shown; the observation's own budget
    counts it (it does not use up the rules' budget, nor theirs its own)."""
    path = tmp_path / "T.rule"
    path.write_text(HEAD + "  set v = each i in 1..300000: i\n" + TAIL, encoding="utf-8")
    for mode in MODES:
        rulelang._PROGRAMS.clear()
        rulelang._RUNTIMES.clear()
        state = rulelang.load_game(path, mode=mode).new_initial_state(seed=0)
        state.apply_action(state.legal_actions()[0])
        shown = next(x for x in state.observation(1)["vars"] if x["var"] == "v")["value"]
        assert shown[:3] == [1, 2, 3] and len(shown) == 300_000
