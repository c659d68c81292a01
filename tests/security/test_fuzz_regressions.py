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
