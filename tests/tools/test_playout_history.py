"""evaluate's records are read from a game's history once it is over, with an action's string
made alone when its menu's strings cannot repeat (tools/evidence/playout.py). Each record must be
what
the engine's own API says move by move: replayed here, every action string is
`action_to_string` of the move, every mover `current_player`, every option count the length
of `legal_actions` — also where a menu's strings repeat and are numbered (`#2`)."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.tools.evidence.playout import Setup, play_one

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    ("rulebooks/tic_tac_toe.rule", ("random",), 4),
    ("rulebooks/tic_tac_toe.rule", ("random",), 2, "interpreted"),  # menus as plain lists
    ("rulebooks/spice.rule", ("random",), 1),  # optional chooses and `then`
    ("rulebooks/muso_sakura.rule", ("random",), 1),  # cards, whole option lists, rounds
    ("rulebooks/karesansui.rule", ("random",), 1),  # zones and pieces as values
    ("tests/flow/reaction.rule", ("random",), 2),  # decisions of their own (`by p`)
    ("tests/tools/rulebooks/same_strings.rule", ("random",), 6),  # repeated strings
    ("tests/tools/rulebooks/dice_choices.rule", ("mcts:4",), 2),  # chance, a search agent
]


@pytest.mark.parametrize(("path", "agents", "games", "mode"),
                         [c if len(c) == 4 else (*c, "compiled") for c in CASES])
def test_a_record_is_what_the_engine_says_move_by_move(path: str, agents: tuple[str, ...],
                                                       games: int, mode: str) -> None:
    setup = Setup(str(ROOT / path), (), agents, 3, 2000, mode)
    game = rulelang.load_game(ROOT / path)
    numbered = 0
    for index in range(games):
        rec = play_one(setup, index)
        state = game.new_initial_state(seed=rec["seed"])
        movers, options = [], []
        for text in rec["actions"]:
            movers.append(state.current_player())
            options.append(len(state.legal_actions()))
            action = state.string_to_action(text)
            assert state.action_to_string(action) == text
            state.apply_action(action)
        assert state.history() == rec["actions"] and rec["movers"] == movers
        assert rec["branching"] == {"decisions": len(options), "options": sum(options),
                                    "max": max(options), "single": options.count(1)}
        assert rec["winners"] == state.winners() and rec["turns"] == state.ctx.data.turn
        numbered += sum("#" in a for a in rec["actions"])
    if "same_strings" in path:
        assert numbered > 0  # the case this file is for did occur
