"""The game checkers of Tatara, Karesansui and Muso Sakura, and every golden playthrough, under
the fast evaluator that the mode "compiled" is not (generated code or closures alone:
codegen_tools.OTHER): each checked game ends with every check kept and is the same game, action
for action, as with the other fast evaluator; each playthrough is its golden file."""
from __future__ import annotations

import sys
from pathlib import Path

import karesansui_invariants
import muso_check
import muso_tools
import pytest
import tatara_check
from codegen_tools import OTHER, both_fast_modes  # noqa: F401 - a fixture

import rulelang
from rulelang.fast import codegen

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# (the rulebook with 3 beeches: its games end sooner, as the forest runs out)
TATARA = Path(__file__).resolve().parent / "tatara_few_beech.rule"
from test_golden import PLAYTHROUGHS, playthrough, read_header  # noqa: E402


def _same_games(a: rulelang.State, b: rulelang.State) -> None:
    assert a.history() == b.history() and a.returns() == b.returns() and a.scores() == b.scores()


def test_tatara_games_are_checked_and_the_same(
        both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    with codegen.watching() as sources:
        games = {m: rulelang.load_game(TATARA, {"players": 2}, mode=m) for m in both_fast_modes}
    assert (OTHER == "generated") == bool(sources)
    for seed in (3,):
        other = tatara_check.play_checked(games[OTHER], seed)
        assert other.reason in ("eitai", "beech", "cap") and other.checks["moves"] > 0
        default = tatara_check.play_checked(games[next(m for m in games if m != OTHER)], seed)
        assert (other.reason, other.rounds, other.winners, other.steps) == \
            (default.reason, default.rounds, default.winners, default.steps)


def test_karesansui_games_are_checked_and_the_same(
        both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    for players in (2,):
        states = {}
        for mode in both_fast_modes:
            game = karesansui_invariants.load(players, mode)
            states[mode], steps = karesansui_invariants.random_game(game, 5, checks=mode == OTHER)
            assert states[mode].is_terminal() and steps > 0
        _same_games(*states.values())


def test_muso_sakura_games_are_checked_and_the_same(
        both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    for players, game_mode in ((3, "short"), (5, "long")):
        states = {}
        for mode in both_fast_modes:
            game = muso_tools.load(players, mode, mode=game_mode)
            states[mode], steps = muso_check.play_checked(game, players, game_mode, 2)
            assert states[mode].is_terminal() and steps > 0
        _same_games(*states.values())


@pytest.mark.parametrize("path", PLAYTHROUGHS, ids=lambda p: p.stem)
def test_playthrough_in_the_other_fast_mode(
        path: Path, both_fast_modes: tuple[str, str]) -> None:  # noqa: F811
    header = read_header(path)
    actual = playthrough(header["rulebook"], header["seed"], header["options"], OTHER)
    assert actual == path.read_text(encoding="utf-8"), f"{path.name} differs in mode {OTHER}"
