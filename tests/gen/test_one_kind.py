"""Zones of one kind of piece (gen/facts.py one_kind_zones): where a zone's pieces are all
of one kind at the start and nothing the game does can put a piece in a zone, a put takes
the zone's top piece without asking its kind. Where a move can fill a zone, the test stays;
a setup run by the reference and a stated position that break the fact are played by the
reference (GenGame); every game side by side with the reference."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.game import position
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical

KINDS = """use square
game "Kinds"
players A, B
board square.grid(3, 3, 0)
piece stone
piece pebble
zone supply each player: 6 stone
zone box: 4 pebble
def free = each s in sites where empty(s)
action place
  choose site s in free
  put stone of mover at s
{more}
turn
  do place{also}
end
  when size(free) == 0
    draw
"""
# a pebble moved (or put) into a supply: the stone put is the last stone, not the top piece
SWAP = """action swap
  choose c in box
  move c to supply of mover"""


def _load(tmp_path: Path, text: str) -> tuple[Any, Any]:
    path = tmp_path / "kinds.rule"
    path.write_text(text)
    return (rulelang.load_game(path, mode="generated"),
            rulelang.load_game(path, mode="interpreted"))


def _same_games(gen: Any, ref: Any, starts: list[tuple[Any, Any]], seed: int) -> list[str]:
    """Random games from these pairs of states, compared after every action."""
    taken = []
    for g, r in starts:
        rng = random.Random(seed)
        while True:
            labels = [r.action_to_string(a) for a in r.legal_actions()]
            assert [g.action_to_string(a) for a in g.legal_actions()] == labels
            assert canonical(g.data) == canonical(r.data)
            assert g.returns() == r.returns()
            if r.is_terminal():
                break
            k = rng.randrange(len(labels))
            taken.append(labels[k])
            g.apply_action(k)
            r.apply_action(k)
    return taken


def test_a_supply_of_one_kind_puts_its_top_piece(tmp_path: Path) -> None:
    gen, ref = _load(tmp_path, KINDS.format(more="", also=""))
    assert isinstance(gen, GenGame)
    assert {k for _, k in gen.state_class.one_kind} == {"stone"}
    assert ".kind ==" not in gen.state_class.generated.source  # (no kind asked)
    for seed in range(4):
        _same_games(gen, ref, [(gen.new_initial_state(seed), ref.new_initial_state(seed))],
                    seed)


@pytest.mark.parametrize("swap", [SWAP, SWAP.replace("move c to", "put c at")])
def test_a_zone_a_move_can_fill_keeps_its_kind_test(tmp_path: Path, swap: str) -> None:
    gen, ref = _load(tmp_path, KINDS.format(more=swap, also=" or swap"))
    assert isinstance(gen, GenGame)
    assert gen.state_class.one_kind == ()
    taken = []
    for seed in range(12):
        taken += _same_games(gen, ref, [(gen.new_initial_state(seed),
                                         ref.new_initial_state(seed))], seed)
    # (a stone put after a pebble came to the supply: the case the test is for)
    assert any(t.startswith("swap") for t in taken)


def test_a_stated_position_breaking_it_is_played_by_the_reference(tmp_path: Path) -> None:
    gen, ref = _load(tmp_path, KINDS.format(more="", also=""))
    g = position.move_pieces(gen.new_initial_state(0), ["pebble"], "supply", "A")
    r = position.move_pieces(ref.new_initial_state(0), ["pebble"], "supply", "A")
    assert not isinstance(g, gen.state_class)  # (the reference's state: the fact broken)
    _same_games(gen, ref, [(g, r)], 0)
    # a position that keeps it stays generated
    g = position.move_pieces(gen.new_initial_state(0), ["stone"], "supply", "A",
                             ("supply", "B"))
    r = position.move_pieces(ref.new_initial_state(0), ["stone"], "supply", "A",
                             ("supply", "B"))
    assert isinstance(g, gen.state_class)
    _same_games(gen, ref, [(g, r)], 1)


def test_a_setup_breaking_it_is_played_by_the_reference(tmp_path: Path) -> None:
    text = KINDS.format(more="", also="").replace(
        "turn\n", "setup\n  put pebble from box at supply of A\nturn\n")
    gen, ref = _load(tmp_path, text)
    assert isinstance(gen, GenGame)
    for seed in range(3):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        assert not isinstance(g, gen.state_class)
        _same_games(gen, ref, [(g, r)], seed)
