"""A clone made in the middle of a turn replays the turn from its start with the same
choices; each decision point it meets again (a `do`, a choose that asks, a `do` whose menu
was empty and was skipped) is given as the original met it (Ctx.log), so no menu is made
again (replay.rule: a `do` met three times a turn, the first time with an empty menu, then
another player's choose). The clone must be the same game as the original, in both modes."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.reference import menus as reference_menus

HERE = Path(__file__).resolve().parent
MODES = ["interpreted", "compiled"]


def view(state: rulelang.State) -> dict[str, Any]:
    return {"player": state.current_player(), "terminal": state.is_terminal(),
            "legal": [state.action_to_string(a) for a in state.legal_actions()],
            "history": state.history(), "answer": state.ctx.data.vars[("answer", None)]}


class MenuCount:
    """How many menus the reference makes while it is active (a generated state makes its own
    menus and asks the reference for none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.made = 0
        real = reference_menus.Menus.options

        def counted(*args: Any, **kw: Any) -> Any:
            self.made += 1
            return real(*args, **kw)
        monkeypatch.setattr(reference_menus.Menus, "options", counted)


@pytest.mark.parametrize("mode", MODES)
def test_a_clone_mid_turn_is_the_same_game_and_makes_no_menu(
        mode: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = rulelang.load_game(HERE / "replay.rule", mode=mode)
    count = MenuCount(monkeypatch)
    mid_turn = 0
    for seed in range(3):
        rng, state = random.Random(seed), game.new_initial_state(seed=seed)
        while not state.is_terminal():
            # in the middle of a turn: some of its decisions are made (the generated mode's
            # state says so itself: it keeps no trail of them unless a resample needs it)
            if getattr(state, "_trail", None) or getattr(state, "decided", False):
                mid_turn += 1
                before, made = view(state), count.made
                twin = state.clone()
                assert count.made == made, "the clone made a menu again"
                assert view(twin) == before
                again = twin.clone()  # a clone of a clone replays its own log
                assert view(again) == before and count.made == made
                action = rng.choice(state.legal_actions())
                for s in (state, twin, again):
                    s.apply_action(action)
                assert view(twin) == view(state) == view(again)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert mid_turn > 20


@pytest.mark.parametrize("mode", MODES)
def test_the_original_and_its_clone_go_their_own_ways(mode: str) -> None:
    game = rulelang.load_game(HERE / "replay.rule", mode=mode)
    state = game.new_initial_state()
    # A's turn: the first `do take` is skipped (nothing placed yet), then place, take, ...
    for text in ("place s0", "take s0", "place s1"):
        state.apply_action(text)
    twin = state.clone()
    state.apply_action("take s1")
    assert [twin.action_to_string(a) for a in twin.legal_actions()] == ["take s1"]
    twin.apply_action("take s1")
    state.apply_action("place s2")
    twin.apply_action("place s3")
    assert state.current_player() == twin.current_player() == 1  # B answers
    state.apply_action("yes")
    twin.apply_action("no")
    assert view(state)["answer"] == "yes" and view(twin)["answer"] == "no"
    assert state.ctx.data.at[2] and not state.ctx.data.at[3]
    assert twin.ctx.data.at[3] and not twin.ctx.data.at[2]
