"""Problems the fuzzer (tests/fuzz, bench/fuzz.py) found after the loading work, each kept as
a test of its own."""
from __future__ import annotations

from pathlib import Path

import rulelang


def test_sites_made_after_a_relation_have_no_edges_in_it(tmp_path: Path) -> None:
    """bench/fuzz.py seed 889 (a moved line): KeyError in the board's freeze."""
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\ngeometry line(n)\n  sites (i) for i in 0..n-1\n'
        "  relation next (i) -> (i + 1)\n  sites (i) for i in n..n+1\n"
        "board line(2)\npiece p\nzone supply each player: 4 p\n"
        "action place\n  choose site s in each s in sites where empty(s)\n"
        "  put p of mover at s\nturn\n  do place\n"
        "end\n  when size(each s in sites where empty(s)) == 0\n    draw\n", encoding="utf-8")
    for mode in ("compiled", "interpreted"):
        board = rulelang.load_game(tmp_path / "g.rule", mode=mode).runtime.board
        table = board.relations["next"].table
        assert [len(t) for t in table] == [1, 0, 0, 0]  # 0 -> 1; 1's target came later


GAME = ('game "G"\nplayers A, B\n{defs}\nvar v = 0\naction go\n  set v = {expr}\n'
        "turn\n  do go\n")


def _refusal(tmp_path: Path, defs: str, expr: str, mode: str) -> str:
    (tmp_path / "g.rule").write_text(GAME.format(defs=defs, expr=expr), encoding="utf-8")
    rulelang._PROGRAMS.clear()
    rulelang._RUNTIMES.clear()
    state = rulelang.load_game(tmp_path / "g.rule", mode=mode).new_initial_state(seed=0)
    try:
        state.apply_action("go")
    except rulelang.RuleRuntimeError as err:
        return err.diagnostic.code + " " + err.diagnostic.message
    return "ok"


def test_a_rule_recursing_through_memo_ends_at_once(tmp_path: Path) -> None:
    """bench/fuzz.py seed 209233 (a spliced expression): a rule whose memo argument calls the
    rule again was retried at every level of the recursion, 2^depth times (a hang); it is now
    the recursion error at once."""
    defs = "def again(y) = y\ndef loop(x) = memo(again, loop(x))"
    for mode in ("compiled", "interpreted"):
        assert _refusal(tmp_path, defs, "loop(1)", mode).startswith(
            "R302 rules call each other too deeply")


def test_a_range_too_long_for_len_is_over_the_budget(tmp_path: Path) -> None:
    """bench/fuzz.py seed 204120 (a number made huge): len() of a range of more items than a
    C integer holds raised OverflowError where a comprehension or a loop counts its steps."""
    huge = "1" + "0" * 30
    for expr in (f"size([x for x in 0..{huge}])", f"count x in 0..{huge}",
                 f"size(each x in 0..{huge}: x)"):
        for mode in ("compiled", "interpreted"):
            assert _refusal(tmp_path, "", expr, mode).startswith("R302 step budget"), expr
