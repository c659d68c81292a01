"""`rulelang check --simulate N`: random games with invariants checked after every action;
each kind of finding is provoked on purpose (a planted fault), so every check can fail."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang.game import engine
from rulelang.gen import bridge
from rulelang.model.state import GameData
from rulelang.model.values import zone_ref
from rulelang.tools.cli import main
from rulelang.tools.evidence import simulate

GAME = """use square

game "Simulated"
players A, B
board square.grid(2, 2, 0)
piece stone
zone supply each player: 9 stone
counter moves = 0

action place
  choose site s in each s in sites where empty(s)
  put stone of mover at s
  increase moves by 1
{extra}
turn
  do place{more}

end
  when size(each s in sites where empty(s)) == 0
    draw
"""


def book(tmp_path: Path, extra: str = "", more: str = "") -> str:
    path = tmp_path / "sim.rule"
    path.write_text(GAME.format(extra=extra, more=more), encoding="utf-8")
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["check", *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out + out.err


def test_bundled_games_hold_every_invariant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "tic_tac_toe", "connect_four", "--simulate", "5")
    assert code == 0
    assert out.count("every invariant held") == 2 and "5 random games, 5 ended" in out


def test_a_hidden_card_game_with_resample_checks(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, "muso_sakura", "--simulate", "2", "--seed", "3")
    assert code == 0, out
    assert "2 random games, 2 ended" in out


def test_a_piece_in_the_wrong_place_is_found(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    real = GameData.put_from

    def misplacing(self, zone, kind, site):  # type: ignore[no-untyped-def]
        piece = real(self, zone, kind, site)
        if piece is not None:
            self.loc[piece.id] = zone  # the stack has it, its location says the supply
        return piece
    monkeypatch.setattr(GameData, "put_from", misplacing)
    to_data = bridge.to_data

    def misplaced(state):  # type: ignore[no-untyped-def]
        data = to_data(state)  # (the generated mode's data, the same fault planted)
        for stack in data.at:
            if stack:
                piece = stack[-1]
                data.loc[piece.id] = zone_ref("supply", data.owner[piece.id])
        return data
    monkeypatch.setattr(bridge, "to_data", misplaced)
    code, out = run(capsys, book(tmp_path), "--simulate", "2")
    assert code == 1
    assert "problem: a piece in the wrong place in 2 game(s)" in out
    assert re.search(r"stone is on [ab][12], but its location says supply of [AB]", out)


def test_an_observation_that_shows_hidden_things_is_found(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    real = engine.observe

    def leaking(state, player):  # type: ignore[no-untyped-def]
        seen = real(state, player)
        seen["leak"] = [p.label for pile in state.data.zones.values() for p in pile]
        return seen
    monkeypatch.setattr(engine, "observe", leaking)
    code, out = run(capsys, "muso_sakura", "--simulate", "1")
    assert code == 1
    assert "problem: an observation showing something hidden in 1 game(s)" in out
    assert "observation changes when what they may not see is dealt again" in out


def test_a_failing_rule_is_reported_with_its_seed(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "failing.rule"  # the end check divides by zero after the third move
    path.write_text(GAME.format(extra="", more="").replace(
        "size(each s in sites where empty(s)) == 0", "1 // (3 - moves) < 0"), encoding="utf-8")
    code, out = run(capsys, str(path), "--simulate", "3", "--seed", "5")
    assert code == 1
    seed = rulelang.tools.evidence.playout.game_seed(5, 0)
    assert "problem: a rule failed in 3 game(s)" in out and f"seed {seed}, action 3:" in out


def test_a_game_that_never_ends_is_capped(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "endless.rule"
    path.write_text(GAME.format(extra="action wait\n  increase moves by 1\n", more=" or wait")
                    .replace("size(each s in sites where empty(s)) == 0", "moves < 0"),
                    encoding="utf-8")
    code, out = run(capsys, str(path), "--simulate", "2", "--max-plies", "30")
    assert code == 1
    assert "problem: the game did not end in 2 game(s)" in out
    assert "not over after 30 actions" in out


def test_a_skipped_turn_is_a_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # B may place only on a1: once a1 is taken, B's turns are skipped
    path = book(tmp_path, extra="  require mover == A or (s.r == 0 and s.c == 0)\n")
    code, out = run(capsys, path, "--simulate", "3")
    assert code == 0
    assert "note: a turn skipped for want of options in" in out


@pytest.mark.parametrize("args, message", [
    (["--simulate", "0"], "--simulate must be a positive whole number, not 0"),
    (["--simulate", "2", "--max-plies", "-1"], "--max-plies must be a positive whole number"),
])
def test_bad_arguments(capsys: pytest.CaptureFixture[str], args: list[str],
                       message: str) -> None:
    code, out = run(capsys, "tic_tac_toe", *args)
    assert code != 0 and message in out


def test_the_same_seed_finds_the_same(tmp_path: Path) -> None:
    game = rulelang.load_game(book(tmp_path,
                                   extra="  require mover == A or (s.r == 0 and s.c == 0)\n"))
    first = simulate.simulate(game, 4, seed=9)
    assert first.findings == simulate.simulate(game, 4, seed=9).findings
    assert first.findings != simulate.simulate(game, 4, seed=10).findings
