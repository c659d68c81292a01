"""A variant that keeps its parent's end rule, and has no written rules of its own: the end
screen and `rules` give the variant's own words first (its `goal`, else the comment that
opens it), then say that the rest is in the parent's words (a four-in-a-row variant no longer
passes for "three in a row")."""
from __future__ import annotations

import io
import random
import shutil
from pathlib import Path

from rich.console import Console

import rulelang
from rulelang.agents import HumanAgent
from rulelang.resources import bundled_dir
from rulelang.tools.terminal.ending import end_reason
from rulelang.tools.terminal.session import Session

VARIANT = """# Four in a row on a 4x4 board
game "Four in a row" extends "tic_tac_toe.rule"
board square.grid(4, 4, 4)
zone supply each player: 8 mark
"""


def _variant(tmp_path: Path) -> rulelang.Game:
    shutil.copy(bundled_dir() / "tic_tac_toe.rule", tmp_path / "tic_tac_toe.rule")
    (tmp_path / "four.rule").write_text(VARIANT, encoding="utf-8")
    return rulelang.load_game(tmp_path / "four.rule")


def test_the_end_says_the_words_are_the_parents(tmp_path: Path) -> None:
    game = _variant(tmp_path)
    rng = random.Random(0)
    for seed in range(20):
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        if state.winners():
            break
    why = end_reason(game, state)
    assert why[0] == "why: Four in a row on a 4x4 board"  # the variant's opening comment
    assert why[1].startswith("the rule (in the words of tic_tac_toe.rule, which this "
                             "variant extends): ")
    goal = VARIANT + 'view\n  goal everyone "four of your marks in a row"\n'
    (tmp_path / "four.rule").write_text(goal, encoding="utf-8")
    again = rulelang.load_game(tmp_path / "four.rule").new_initial_state(seed=seed)
    for action in state.history():
        again.apply_action(action)
    assert end_reason(again.game, again)[0] == "why: four of your marks in a row"
    own = rulelang.load_game("tic_tac_toe")
    state = own.new_initial_state(seed=0)
    for move in ("place a1", "place b1", "place a2", "place b2", "place a3"):
        state.apply_action(move)
    assert end_reason(own, state)[0].startswith("why: ")  # the game's own words


def test_rules_of_a_variant_say_whose_they_are(tmp_path: Path) -> None:
    game = _variant(tmp_path)
    out = io.StringIO()
    session = Session(game, [HumanAgent(), HumanAgent()], 0, str(tmp_path / "four.rule"),
                      console=Console(file=out, width=80, height=24, soft_wrap=True))
    session._rules()
    text = " ".join(out.getvalue().split())
    assert text.startswith("Four in a row: Four in a row on a 4x4 board ")  # its own words
    assert "no written rules for Four in a row itself: these are the rules of " \
        "tic_tac_toe.rule, which it changes" in text
    assert "Tic-tac-toe" in text
