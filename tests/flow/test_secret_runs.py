"""How many secret choices a player makes tells the others nothing: in another player's
observation a run of them (the same player's, nothing shown between) is one
`(secret choice)` entry. Here the first secret choice says how many more follow."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang

RULES = """game "Runs"
players 2..2
var picked each player secret = 0
counter turns = 0
action go
  require true
turn
  choose k in 0..3 secretly by mover
  repeat k times
    choose x in 1..2 secretly by mover
  set picked of mover = k
  do go
  increase turns by 1
end
  when turns >= 2
    draw
"""


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_the_number_of_secret_choices_is_not_shown(tmp_path: Path, mode: str) -> None:
    book = tmp_path / "runs.rule"
    book.write_text(RULES, encoding="utf-8")
    game = rulelang.load_game(str(book), mode=mode)
    seen, own = set(), set()
    for k in range(4):
        state = game.new_initial_state(seed=0)
        state.apply_action(str(k))
        for _ in range(k):
            assert state.current_player() == 0
            state.apply_action("2")
        assert state.action_to_string(0) == "go"
        seen.add(repr(state.observation(1)))
        own.add(len(state.observation(0)["history"]))
        assert state.observation(1)["history"] == ["(secret choice)"]
        state.apply_action("go")
        state.apply_action("1")  # Player2's run: one choice of k = 1, then one more
        state.apply_action("1")
        assert state.observation(0)["history"][-1] == "(secret choice)"
        assert state.observation(0)["history"][:-1] == [str(k)] + ["2"] * k + ["go"]
        assert state.observation(1)["history"] == ["(secret choice)", "go", "1", "1"]
        assert len(state.history()) == k + 4          # the true history keeps every one
    assert len(seen) == 1 and own == {1, 2, 3, 4}
