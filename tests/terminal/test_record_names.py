"""How a record made by `rulelang play` names its rulebook: a bundled one by its name, any
other by its path from the record's folder (a record names only rulebooks below it); either
replays from another folder."""
from __future__ import annotations

import shutil
from pathlib import Path

import rulelang
from rulelang.resources import bundled_dir
from rulelang.tools.records.record import record_game, replay, write_record
from rulelang.tools.terminal.ending import end_reason
from rulelang.tools.terminal.play import record_name


def test_a_bundled_rulebook_is_named_and_another_is_relative_to_the_record(
        tmp_path: Path) -> None:
    assert record_name(bundled_dir() / "hex.rule", tmp_path / "game.yaml") == "hex"
    assert record_name("hex", tmp_path / "game.yaml") == "hex"
    mine = tmp_path / "books" / "mine.rule"
    mine.parent.mkdir()
    shutil.copy(bundled_dir() / "tic_tac_toe.rule", mine)
    assert record_name(mine, tmp_path / "game.yaml") == "books/mine.rule"
    assert record_name(mine, tmp_path / "books" / "game.yaml") == "mine.rule"


def test_such_a_record_replays_from_anywhere_and_says_why_the_game_ended(
        tmp_path: Path, monkeypatch) -> None:
    mine = tmp_path / "books" / "mine.rule"
    mine.parent.mkdir()
    shutil.copy(bundled_dir() / "tic_tac_toe.rule", mine)
    game = rulelang.load_game(mine)
    state = game.new_initial_state(seed=0)
    for move in ("place a1", "place a2", "place b1", "place b2", "place c1"):
        state.apply_action(move)
    lines = end_reason(game, state)
    assert lines[0].startswith("why: End: three of your marks in a row")
    assert lines[1].startswith("rule: when lines.full_line_through(") and "winner mover" in \
        lines[1]
    record = tmp_path / "game.yaml"
    write_record(record, record_game(game, state, 0, rulebook=record_name(mine, record)))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    done = replay(record)
    assert done.state.winners() == [0]
