"""`rulelang test` and scenario files: passes, failures that name the scenario, the expectation
and what was found, and every mistake in a scenario file as a positioned diagnostic."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulelang.tools.cli import main

RULEBOOKS = Path(__file__).resolve().parents[2] / "rulebooks"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["test", *args])
    out = capsys.readouterr()
    assert "Traceback" not in out.out + out.err
    return code, out.out + out.err


def copy(tmp_path: Path, game: str, old: str = "", new: str = "") -> Path:
    """The bundled rulebook and its scenario file in tmp_path, the rulebook with one change."""
    text = (RULEBOOKS / f"{game}.rule").read_text()
    assert old in text
    (tmp_path / f"{game}.rule").write_text(text.replace(old, new, 1))
    shutil.copy(RULEBOOKS / f"{game}.test", tmp_path)
    return tmp_path / f"{game}.test"


def scenario(tmp_path: Path, body: str, game: str = "tic_tac_toe") -> Path:
    for data in [RULEBOOKS / f"{game}.rule", *RULEBOOKS.glob(f"{game}_*.yaml")]:
        shutil.copy(data, tmp_path)
    path = tmp_path / "my.test"
    path.write_text(f'rulebook "{game}.rule"\n\nscenario "mine"\n' + body)
    return path


def test_a_bundled_file_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, str(RULEBOOKS / "tic_tac_toe.test"))
    assert code == 0
    assert "tic_tac_toe.test:19:1 three in a row wins" in out and " 0 failed" in out


def test_changed_capture_rule_fails_its_scenario(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # a straight move may now capture
    path = copy(tmp_path, "breakthrough", "empty(dest) or (dest.c != src.c and owner(dest) == "
                "opponent)", "empty(dest) or owner(dest) == opponent")
    code, out = run(capsys, str(path))
    assert code == 1
    assert "FAIL " + str(path) + ":23:1 straight ahead is a move, never a capture" in out
    assert f'{path}:31:5: illegal "move a4 a3"\n    expected: \'move a4 a3\' illegal\n' \
           "    found:    legal" in out


def test_changed_line_length_fails_its_scenarios(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "connect_four", "square.grid(6, 7, 4)", "square.grid(6, 7, 3)")
    code, out = run(capsys, str(path))
    assert code == 1 and "3 failed" in out
    assert "FAIL " + str(path) + ":15:1 four in a column wins" in out
    assert "expected: 'place b3' (action 6 of 6) playable\n" \
           "    found:    the game is over (winner X)" in out


def test_changed_supply_fails_the_assumptions(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "tic_tac_toe", "5 mark", "4 mark")
    code, out = run(capsys, str(path), "--mode", "both")
    assert code == 1
    assert "the ninth mark may complete a line [T-01] [interpreted]" in out
    assert f"{path}:54:3: expect to move X\n    expected: X to move\n    found:    draw" in out


def test_folder_and_failure_reasons(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario(tmp_path, '  when "place b2"\n  expect illegal "place b2" because "nothing"\n'
             '  expect perft 1 = 9\n')
    code, out = run(capsys, str(tmp_path))
    assert code == 1
    assert "expected: 'place b2' illegal because \"nothing\"\n    found:    illegal: " in out
    scenario(tmp_path, '  when "place b2"\n  expect perft 2 = 9\n')
    code, out = run(capsys, str(tmp_path))
    assert "expected: perft 2 = 9\n    found:    perft 2 = 56" in out


def test_syntax_error_is_positioned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path, "  expect winner\n")
    code, out = run(capsys, str(path))
    assert code == 1
    assert f"{path}:4:16: error[R102]: unexpected end of line" in out
    assert "expected a name" in out


@pytest.mark.parametrize("body, message", [
    ("  expect winner Z\n", ":4:3: error[R420]: no player 'Z' in this game"),
    ('  expect at "z9" X\n', ":4:3: error[R420]: no site 'z9' on this board"),
    ("  options size: 4\n  expect draw\n", ":4:3: error[R420]: unknown option 'size'"),
    ('  given X mark at "a1", "a2", "a3", "b1", "b2", "b3"\n',
     ":4:9: error[R420]: impossible position: no X's mark is left in a zone to put on b3"),
    ('  given O at "z9"\n', ":4:9: error[R420]: impossible position: the board has no site"),
    ('  given stone at "a1"\n', ":4:9: error[R420]: impossible position: the rules have no "
     "piece kind 'stone'"),
    ('  given counter gold: 3\n', ":4:9: error[R420]: impossible position: the rules have no "
     "counter 'gold'"),
    ('  given move "mark" to hand\n', ":4:9: error[R420]: impossible position: the rules have "
     "no zone 'hand'"),
    ('  given move "mark" to supply\n', ":4:9: error[R420]: impossible position: zone 'supply' "
     "belongs to each player"),
    ('  given turn Z\n', ":4:9: error[R420]: impossible position: no player 'Z'"),
    ('  given order supply of X: "mark", "mark", "mark", "mark", "mark", "mark"\n',
     ":4:9: error[R420]: impossible position: supply of X holds no more 'mark'"),
    ("  expect score total of X: 3\n", ":4:3: error[R420]: no score term 'total'"),
])
def test_scenario_mistakes_are_positioned(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          body: str, message: str) -> None:
    path = scenario(tmp_path, body)
    code, out = run(capsys, str(path))
    assert code == 1
    assert str(path) + message in out


def test_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.test").write_text('rulebook "nowhere.rule"\n')
    code, out = run(capsys, str(tmp_path / "a.test"))
    assert code == 1 and f"{tmp_path / 'a.test'}:1:10: error[R420]: no rulebook" in out
    code, out = run(capsys, str(tmp_path / "none.test"))
    assert code == 1 and "error[R420]: no such scenario file or folder" in out
    (tmp_path / "a.test").unlink()
    code, out = run(capsys, str(tmp_path))
    assert code == 1 and "error[R420]: no *.test files" in out


def test_broken_rulebook_is_reported_once(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "tic_tac_toe", "piece mark", "piece")
    code, out = run(capsys, str(path))
    assert code == 1 and out.count("its rulebook does not load") == 1
    assert "tic_tac_toe.rule:19:" in out


def test_counters_vars_and_option_prefixes(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path, '  given play "2b2", "1b2", "move 1b1", "fell 1a1 money"\n'
                    "  expect counter money of Player1: 4\n", game="tatara")
    code, out = run(capsys, str(path))
    assert "expected: counter money of Player1: 4\n    found:    3" in out
    path = scenario(tmp_path, "  expect counter gold of Player1: 4\n", game="tatara")
    code, out = run(capsys, str(path))
    assert f"{path}:4:3: error[R420]: no counter 'gold' in this game" in out
    path = scenario(tmp_path, '  given play "2b2", "1b2"\n  expect var built of Player1: true\n'
                    '  expect options starting "fell" exactly ["fell 1a1 money"]\n', game="tatara")
    code, out = run(capsys, str(path))
    assert code == 1 and "expected: var built of Player1: true\n    found:    false" in out
