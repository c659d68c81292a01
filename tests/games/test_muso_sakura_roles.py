"""Muso Sakura round-end scoring, from the rules text (seed "終了時の処理" and "カードの細則").
The round-end scenarios are in rulebooks/muso_sakura.test; what stays here needs a position the
scenario language cannot state. Both modes."""
from __future__ import annotations

import pytest
from muso_tools import at_round_end, choose_roles, load

MODES = ["interpreted", "compiled"]


def play_to_the_end(state: object, roles: list, finals: list) -> None:
    """Round-end roles, the 勝景札 from the hand (the first option), then the final roles."""
    choose_roles(state, roles)
    for p in range(len(roles)):  # ③ (the field and the deck are empty: ② takes nothing)
        assert state.current_player() == p  # type: ignore[attr-defined]
        state.apply_action(state.legal_actions()[0])  # type: ignore[attr-defined]
    choose_roles(state, finals)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("before, winners", [((10, 0, 10), [1]), ((10, -1, 10), [2]),
                                             ((30, 0, 0), [0])])
def test_the_highest_total_wins_ties_to_the_smaller_final_curtain(
        mode: str, before: tuple[int, ...], winners: list[int]) -> None:
    # Not in rulebooks/muso_sakura.test: a scenario cannot state a var holding a list (the
    # score sheet of round 1).
    # Every player has the same hand and 勝景札, so round 2 and the final roles score the same
    # for all; P1 (幕引き札 1) gains both top-role bonuses (+5 +5). Totals before: `before`.
    # (10, 0, 10): all three tie at 10 + x: P1, the smallest 幕引き, wins [ASSUMED C-06].
    # (10, -1, 10): P0 and P2 tie; P2 holds 幕引き札 2, P0 (closing last) 3: P2.
    hands = [(["Hazakura", "Hazakura", "Ochiba", "Ochiba"], ["Jugatsuzakura"])] * 3
    scenic = [["Musouzakura", "Musouzakura", "Kuruizaki", "Kareki", "Kobukuzakura"]] * 3
    state = at_round_end(load(3, mode).new_initial_state(seed=1), hands, round_no=2,
                         scenic=scenic)
    for p, points in enumerate(before):
        state.ctx.data.vars[("sheet", p)] = (("r1 set", points),)
    play_to_the_end(state, [hands[0][0]] * 3, [scenic[0][:4]] * 3)
    totals = state.scores()
    assert totals[1] - totals[0] == 10 - before[0] + before[1]
    assert state.winners() == winners
