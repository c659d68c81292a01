"""Tatara and the Forest: seeded random games checked at every step (tests/games/
tatara_check.py: pieces conserved, one tree / building / pawn per space, money and material
never negative, every decision's options against an independent model of the rules, every
forest phase against a model of growth and succession, the winners by the end rule), and the
end of the game: eitai tatara (alone and shared), beech exhaustion, the 60-round cap.

The test plays a sample (the first seeds, compiled: 8 games of 2 and of 3 players, 13 of 4, as
many as reach every end and case checked below; 1 game per player count interpreted: the modes
play the same games, test_both_modes_play_the_same_games); the full count
asked for by the issue (300 games for each of 2, 3 and 4 players) is
`python bench/tatara_games.py`, which prints the figures.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from scenario_tools import legal, play
from tatara_check import play_checked
from tatara_tools import RULEBOOK, var, zone_count

import rulelang

HERE = Path(__file__).resolve().parent
SAMPLE = {"compiled": {2: 8, 3: 8, 4: 13}, "interpreted": {2: 1, 3: 1, 4: 1}}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_random_games_end_normally_with_every_rule_checked(mode: str, players: int) -> None:
    game = rulelang.load_game(RULEBOOK, {"players": players}, mode=mode)
    reasons: Counter[str] = Counter()
    checks: Counter[str] = Counter()
    for seed in range(SAMPLE[mode][players]):
        outcome = play_checked(game, seed)
        reasons[outcome.reason] += 1
        checks.update(outcome.checks)
    assert sum(reasons.values()) == SAMPLE[mode][players]
    assert checks["moves"] > 0 and checks["menus"] > 0 and checks["forest"] > 0
    if mode == "compiled":  # the sample sees the ends a random game reaches, and the cases
        assert reasons["eitai"] > 0
        assert reasons["cap" if players == 2 else "beech"] > 0
        assert checks["reshuffles"] > 0 and checks["beech next to the pawn"] > 0
        assert checks["blocked"] > 0


def test_both_modes_play_the_same_games() -> None:
    for players in (2, 4):
        results = []
        for mode in ("compiled", "interpreted"):
            game = rulelang.load_game(RULEBOOK, {"players": players}, mode=mode)
            o = play_checked(game, 7)
            results.append((o.reason, o.rounds, o.winners, o.steps))
        assert results[0] == results[1]


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
def test_beech_exhaustion_ends_the_game_most_resources_win(mode: str) -> None:
    # with 3 beeches the forest runs out in 2-player games too [ASSUMED B-17]
    game = rulelang.load_game(HERE / "tatara_few_beech.rule", {"players": 2}, mode=mode)
    for seed in range(3):
        outcome = play_checked(game, seed)  # checks: most money + material (+4 tatara) win
        assert outcome.reason == "beech" and outcome.rounds < 60


@pytest.fixture(params=["interpreted", "compiled"])
def cheap(request):
    return rulelang.load_game(HERE / "tatara_cheap_eitai.rule", mode=request.param)


# Player1 fells the oak 1a1 for money, Player2 the oak 2c1 for material (round 1); round 2
# begins with Player2, who fells 2a3 for money: 3 money and 3 material.
TO_EITAI = ("2b2;1b2;move 1b1;fell 1a1 money;pass;move 2b1;fell 2c1 material;pass;"
            "move 2a2;fell 2a3 money")


def test_an_eitai_tatara_ends_the_game_with_the_round(cheap) -> None:
    state = play(cheap, TO_EITAI + ";build eitai 4b2")
    assert var(state, "finished", "Player2") is True
    assert not state.is_terminal() and state.current_player() == 0  # Player1 still plays
    deck = zone_count(state, "deck")
    play(cheap, "move 1c2;pass;pass", state)
    assert state.is_terminal()
    assert state.winners() == [1] and state.returns() == [-1.0, 1.0]
    assert zone_count(state, "deck") == deck  # no forest phase in the last round [B-18]


def test_eitai_tatara_built_in_the_same_round_share_the_win(cheap) -> None:
    state = play(cheap, TO_EITAI + ";build eitai 4b2;move 1c2;fell 1c3 material")
    assert "build eitai 1a1" in legal(state)
    play(cheap, "build eitai 1a1", state)
    assert state.is_terminal()
    assert state.winners() == [0, 1] and state.returns() == [0.0, 0.0]  # [ASSUMED B-19]
