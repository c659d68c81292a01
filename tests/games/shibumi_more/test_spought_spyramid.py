"""Spought and Spyramid (rulebooks/spought.rule, spyramid.rule) against the independent
reference of reference_moves.py (this folder): perft node by node (legal action strings,
terminal flag, winners) in both engine modes, seeded random games move for move, and the
reference's own positions where moves, falling, pinned balls and passes meet.

The suite walks depth 2 (Spought interpreted: 1);
`python bench/shibumi_more_perft.py --depth 3 spought spyramid` walks deeper against the same
reference.
"""
from __future__ import annotations

import pytest
from reference_impl import BY_NAME, SITES, perft
from reference_moves import MoveRef, moves_of
from test_shibumi_more_games import engine_perft, load, play_random

MODES = ("interpreted", "compiled")
# game -> (depth in the suite, the reference's count there, worked out by hand)
PERFT = {
    "spought": (2, 2352),   # 54 first moves (8 balls, 9 platforms less those over the hole)
    "spyramid": (2, 240),   # 16 * 15: the first two actions can only be places
}
# the reference evaluator walks one level less where a game is slow (the compiled one, proven
# equal to it by the conformance corpus, walks the full depth)
INTERPRETED_LESS = {"spought": 1, "spyramid": 0}
RANDOM_GAMES = {"compiled": 4, "interpreted": 1}


def test_first_moves_by_hand() -> None:
    """Spought's first move: lifting a hole ball leaves a hole, so the platforms over it are
    not playable; 8 balls x 9 platforms, less the 1 (corner), 2 (edge) or 4 (middle) over it."""
    over = {i: sum(1 for j, (z, r, c) in enumerate(SITES) if z == 1 and
                   r <= SITES[i][1] <= r + 1 and c <= SITES[i][2] <= c + 1)
            for i in range(16)}
    white = [i for i in range(16) if (SITES[i][1] + SITES[i][2]) % 2 == 0]
    assert len(MoveRef("spought").legal()) == sum(9 - over[i] for i in white) == 54


@pytest.mark.parametrize("name", sorted(PERFT))
def test_reference_perft(name: str) -> None:
    depth, expected = PERFT[name]
    assert perft(MoveRef(name), depth) == expected


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT))
def test_engine_perft(name: str, mode: str) -> None:
    depth = PERFT[name][0] - (INTERPRETED_LESS[name] if mode == "interpreted" else 0)
    count = engine_perft(load(name, mode).new_initial_state(), MoveRef(name), depth, [])
    assert count == perft(MoveRef(name), depth)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(PERFT))
def test_engine_random_games(name: str, mode: str) -> None:
    ends = [play_random(name, mode, seed, MoveRef) for seed in range(RANDOM_GAMES[mode])]
    assert all(ref.done for ref in ends)


def test_reference_pinned_and_fallen() -> None:
    """The reference's own rules on a hand-made board: a ball under two balls is not lifted,
    and after a drop no ball goes onto the ball that fell."""
    board = [None] * len(SITES)
    for name in ("0a1", "0b1", "0c1", "0a2", "0b2", "0c2"):
        board[BY_NAME[name]] = 0
    board[BY_NAME["1a1"]] = board[BY_NAME["1b1"]] = 1
    moves = moves_of(board, 0, holes_only=False)
    assert not any(m.startswith("move 0b1 ") for m in moves)  # 1a1 and 1b1 rest on it
    assert any(m.startswith("move 0a1 ") for m in moves)
    # lifting 0a1 drops 1a1 into it: 1a1 is then empty, but rests on the fallen ball
    assert "move 0a1 1a1" not in moves
    assert "move 0c2 0d4" in moves
