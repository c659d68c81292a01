"""Two general constructs, each on its own, in both modes:

* `do a otherwise b`: b is offered only when a has no way of acting at all (a pass that is
  only allowed to a player with no move), groups tried in order;
* `moved(x)`: the piece (or the top piece of a site) has been put, moved or removed since
  the current action began (the balls that fell when a ball was lifted).
"""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError

HEAD = """game "T"
players A, B
use square
board square.grid(1, 3, 2)
piece stone
zone supply each player: 5 stone
"""

OTHERWISE = HEAD + """
action place
  choose site s in sites where empty(s) and s.c < limit
  put stone of mover at s
action swap
  require turn > 2
action wait
def limit = 2
turn
  do place otherwise swap otherwise wait
"""

MOVED = HEAD + """
def third = first s in sites where s.c == 2
setup
  put stone of A at first s in sites
  put stone of B at first s in sites where empty(s)
# shift a stone to the first empty site, then name a stone that did not move
action shift
  choose site s in sites where occupied(s)
  move top(s) to first t in sites where empty(t)
  choose site t in sites where occupied(t) and not moved(t)
turn
  do shift
"""


@pytest.fixture(params=["interpreted", "compiled"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def load(tmp_path: Path, text: str, mode: str) -> rulelang.Game:
    path = tmp_path / "t.rule"
    path.write_text(text, encoding="utf-8")
    return rulelang.load_game(path, mode=mode)


def labels(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def test_otherwise_offers_a_later_group_only_when_the_earlier_have_no_way(
        tmp_path: Path, mode: str) -> None:
    state = load(tmp_path, OTHERWISE, mode).new_initial_state()
    assert labels(state) == ["place a1", "place b1"]  # neither swap nor wait
    with pytest.raises(rulelang.IllegalActionError,
                       match="only when place or swap cannot be taken"):
        state.apply_action("wait")
    state.apply_action("place a1")
    state.apply_action("place b1")
    # turn 3: no place is left; swap (turn > 2) has its way, so wait is still not offered
    assert labels(state) == ["swap"]
    state.apply_action("swap")
    assert state.history() == ["place a1", "place b1", "swap"]  # recorded like any action


def test_otherwise_falls_through_every_empty_group(tmp_path: Path, mode: str) -> None:
    text = OTHERWISE.replace("require turn > 2", "require turn > 9")
    state = load(tmp_path, text, mode).new_initial_state()
    state.apply_action("place a1")
    state.apply_action("place b1")
    assert labels(state) == ["wait"]  # neither place nor swap: the last group
    state.apply_action("wait")
    assert state.history()[-1] == "wait"


def test_or_within_a_group(tmp_path: Path, mode: str) -> None:
    text = OTHERWISE.replace("do place otherwise swap otherwise wait",
                             "do swap or place otherwise wait")
    state = load(tmp_path, text, mode).new_initial_state()
    assert labels(state) == ["place a1", "place b1"]
    state.apply_action("place a1")
    state.apply_action("place b1")
    assert labels(state) == ["swap"]


def test_a_name_beginning_with_otherwise_is_still_a_name(tmp_path: Path, mode: str) -> None:
    text = OTHERWISE.replace("def limit = 2", "def otherwise_limit = 2\ndef limit = "
                             "otherwise_limit")
    assert labels(load(tmp_path, text, mode).new_initial_state()) == ["place a1", "place b1"]


def test_otherwise_actions_are_checked_and_count_as_offered(tmp_path: Path) -> None:
    text = OTHERWISE.replace("otherwise wait", "otherwise wiat")
    with pytest.raises(RulebookError) as err:
        load(tmp_path, text, "compiled")
    rendered = err.value.render()
    assert "R201" in rendered and "unknown action 'wiat'" in rendered
    assert "did you mean 'wait'" in rendered
    assert load(tmp_path, OTHERWISE, "compiled").name == "T"  # no R206: swap, wait offered


def test_moved_sees_only_the_current_action(tmp_path: Path, mode: str) -> None:
    state = load(tmp_path, MOVED, mode).new_initial_state()
    # the setup's puts are not moves of this action: each shift names the other stone
    assert labels(state) == ["shift a1 b1", "shift b1 a1"]
    state.apply_action("shift a1 b1")  # a1 -> c1
    # B's action: the stone moved in A's action counts as unmoved again
    assert labels(state) == ["shift b1 c1", "shift c1 b1"]


def test_moved_of_nothing_and_of_a_piece_in_a_zone(tmp_path: Path, mode: str) -> None:
    text = MOVED.replace("occupied(t) and not moved(t)",
                         "occupied(t) and not moved(t) and not moved(top(third)) "
                         "and not moved(top(supply of A))")
    state = load(tmp_path, text, mode).new_initial_state()
    # every shift moves a stone to c1 (third), whose top has then moved: none is offered
    assert labels(state) == []
    assert state.is_terminal()  # nobody can act: a draw
    text = MOVED.replace("occupied(t) and not moved(t)",
                         "occupied(t) and not moved(t) and not moved(top(supply of A))")
    state = load(tmp_path, text, mode).new_initial_state()
    assert labels(state) == ["shift a1 b1", "shift b1 a1"]  # a zone's piece has not moved
