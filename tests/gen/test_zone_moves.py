"""`move top(Z) to T`, Z a zone of the game and T a site or a zone, written in place
(gen/moves.py): the same game as the reference's, none refused as the reference refuses it,
and copies that share their zones' lists (a game of more than four zones) left as they
were. Where each piece came from is compared by tests/gen/came.rule's case in
test_generated_equal.py."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.errors import Refusal
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical

# six zones (copies share their lists); a hand's top to a site, to another's hand, to the
# discard; the bag's top dealt to the hands
RULEBOOK = """\
use square

game "Zone moves"
players X, O
board square.grid(3, 3, 3)
piece mark
piece gem
zone bag ordered: 3 gem, 9 mark
zone hand each player
zone discard
zone spare
zone box

setup
  shuffle bag
  repeat 2 times
    move top(bag) to hand of X

action draw_one
  require size(bag) > 0
  move top(bag) to hand of mover

action drop
  require size(hand of mover) > 0
  choose site s in sites where empty(s)
  move top(hand of mover) to s

action give
  require size(hand of mover) > 1
  move top(hand of mover) to hand of opponent

action toss
  require size(hand of mover) > 0
  move top(hand of mover) to discard

turn
  do draw_one or drop or give or toss

end
  when turn > 24 or size(bag) == 0
    draw
"""


def _games(tmp_path: Path, refusing: bool = False) -> tuple[Any, Any]:
    """The game in both modes (refusing: a drop offered with no hand, refused as played)."""
    text = RULEBOOK.replace("  require size(hand of mover) > 0\n  choose site", "  choose site")
    path = tmp_path / "moves.rule"
    path.write_text(text if refusing else RULEBOOK, encoding="utf-8")
    gen = rulelang.load_game(path, mode="generated")
    assert isinstance(gen, GenGame)
    return gen, rulelang.load_game(path, mode="interpreted")


def _outcome(state: Any, action: int) -> Any:
    try:
        state.apply_action(action)
    except Refusal as exc:
        d = exc.diagnostic
        return ("refused", d.code, d.message, d.span, canonical(state.data))
    return ("played", canonical(state.data))


def test_moves_from_a_zone_play_as_the_reference(tmp_path: Path) -> None:
    gen, ref = _games(tmp_path, refusing=True)
    refused = 0
    for seed in range(8):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        rng = random.Random(seed)
        while not r.is_terminal():
            assert canonical(g.data) == canonical(r.data)
            actions = r.legal_actions()
            assert [g.action_to_string(a) for a in g.legal_actions()] == \
                [r.action_to_string(a) for a in actions]
            outcomes = [_outcome(g.clone(), a) for a in actions]
            assert outcomes == [_outcome(r.clone(), a) for a in actions]
            refused += sum(o[0] == "refused" for o in outcomes)  # (a drop from no hand)
            played = [a for a, o in zip(actions, outcomes, strict=True) if o[0] == "played"]
            action = rng.choice(played)
            g.apply_action(action)
            r.apply_action(action)
        assert g.returns() == r.returns()
    assert refused > 0


@pytest.mark.parametrize("plies", [0, 3, 9])
def test_a_copy_moving_from_shared_zones_leaves_the_original(tmp_path: Path,
                                                             plies: int) -> None:
    gen, _ = _games(tmp_path)
    state = gen.new_initial_state(2)
    rng = random.Random(plies)
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    before = canonical(state.data)
    for seed in range(6):
        copy = state.clone()
        copy.play_out(random.Random(seed), 10 ** 6)
        assert canonical(state.data) == before
    copy = state.clone()
    state.play_out(random.Random(1), 10 ** 6)
    assert canonical(copy.data) == before
