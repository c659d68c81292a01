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


def copy(tmp_path: Path, game: str, old: str = "", new: str = "", changed: str = "") -> Path:
    """The bundled rulebook, its data and modules ({game}_*) and its scenario file in tmp_path,
    the rulebook (or the file `changed`) with one change."""
    for data in RULEBOOKS.glob(f"{game}_*.*"):
        shutil.copy(data, tmp_path)
    name = changed or f"{game}.rule"
    text = (RULEBOOKS / name).read_text()
    assert old in text
    (tmp_path / name).write_text(text.replace(old, new, 1))
    if changed:
        shutil.copy(RULEBOOKS / f"{game}.rule", tmp_path)
    shutil.copy(RULEBOOKS / f"{game}.test", tmp_path)
    return tmp_path / f"{game}.test"


def scenario(tmp_path: Path, body: str, game: str = "tic_tac_toe") -> Path:
    for data in [RULEBOOKS / f"{game}.rule", *RULEBOOKS.glob(f"{game}_*.*")]:
        shutil.copy(data, tmp_path)
    path = tmp_path / "my.test"
    path.write_text(f'rulebook "{game}.rule"\n\nscenario "mine"\n' + body)
    return path


def test_a_bundled_file_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(capsys, str(RULEBOOKS / "tic_tac_toe.test"))
    assert code == 0
    assert "tic_tac_toe.test:19:1 three in a row wins" in out and " 0 failed" in out


def line_of(test_file: Path, text: str) -> int:
    """The line of the scenario file (beside the copied rulebook) where `text` first is."""
    lines = test_file.with_suffix(".test").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_changed_capture_rule_fails_its_scenario(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    # a straight move may now capture
    path = copy(tmp_path, "breakthrough", "empty(dest) or (dest.c != src.c and owner(dest) == "
                "opponent)", "empty(dest) or owner(dest) == opponent")
    code, out = run(capsys, str(path))
    assert code == 1
    name = "straight ahead is a move, never a capture"
    assert f"FAIL {path}:{line_of(path, name)}:1 {name}" in out
    check = 'illegal "move a4 a3"'
    assert f"{path}:{line_of(path, check)}:5: {check}\n" \
           "    expected: 'move a4 a3' illegal\n    found:    legal" in out


def test_changed_pair_bonus_fails_the_muso_sakura_scenarios(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # two cards of one name now give 3, not 2
    path = copy(tmp_path, "muso_sakura", "2 -> 2", "2 -> 3")
    code, out = run(capsys, str(path))
    assert code == 1
    assert "FAIL " + str(path) + ":" in out and " two pairs give 4 and four of a name 10\n" in out
    assert 'score "sheet r1 names" of Player1: 4\n' \
           "    expected: score sheet r1 names of Player1: 4\n    found:    6 (" in out
    assert " a single 夢想桜 has no ability\n" in out
    assert '"sheet r1 names": 2]\n    found:    ["sheet r1 Hazakura": 3, ' in out
    assert '"sheet r1 names": 3]: "sheet r1 names": 3, not 2\n' in out


def test_changed_moss_points_fail_the_karesansui_scenarios(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a moss tile now scores 3 (the scoring module beside the rulebook changed)
    path = copy(tmp_path, "karesansui", "= 2 * occurrences(tile_values(tiles, \"moss\")",
                "= 3 * occurrences(tile_values(tiles, \"moss\")", "karesansui_garden.rule")
    code, out = run(capsys, str(path))
    assert code == 1
    assert " moss is 2 points a moss tile (2)\n" in out
    assert "expect score moss of Player1: 8\n    expected: score moss of Player1: 8\n" \
           "    found:    12 (" in out
    assert ' a full garden scores all nine items\n' in out and '"moss": 9, not 6' in out


def test_changed_oak_yield_fails_the_tatara_scenarios(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # an oak felled for money now gives 2
    path = copy(tmp_path, "tatara", "money_yield: oak -> 3, pine", "money_yield: oak -> 2, pine")
    code, out = run(capsys, str(path), "--mode", "both")
    assert code == 1
    assert " an oak felled for money gives 3, for material 3 [B-15] [interpreted]\n" in out
    assert "expected: counter money of Player1: 3\n    found:    2" in out
    assert " a mature cedar becomes a beech, sawtooth oaks stand, oaks stay [compiled]" in out


def test_changed_line_length_fails_its_scenarios(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = copy(tmp_path, "connect_four", "square.grid(6, 7, 4)", "square.grid(6, 7, 3)")
    code, out = run(capsys, str(path))
    assert code == 1 and "failed" in out and "0 failed" not in out
    name = "four in a column wins"
    assert f"FAIL {path}:{line_of(path, name)}:1 {name}" in out
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


def test_zone_contents_round_and_score_terms(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    given = ('  given\n    seed 1\n    move all to reserve\n'
             '    move "Outou", "Kareki" from reserve to open of Player1\n'
             '    move "Outou" from open of Player1 to field\n')
    path = scenario(tmp_path, given + '  expect\n    zone open of Player1 holds ["Kareki"]\n'
                    '    zone field holds ["Outou"]\n    zone reserve count 54\n    round 1\n'
                    '    score terms of Player1 exactly ["sheet": 0]\n'
                    '    score terms of Player1 starting "sheet" total 0\n', game="muso_sakura")
    code, out = run(capsys, str(path), "--mode", "both")
    assert code == 0, out
    path = scenario(tmp_path, given + '  expect zone open of Player1 holds ["Outou", "Kareki"]\n'
                    '  expect zone reserve count 3\n  expect round 2\n'
                    '  expect score terms of Player1 exactly []\n'
                    '  expect score terms of Player2 starting "sh" total 4\n', game="muso_sakura")
    code, out = run(capsys, str(path))
    assert code == 1
    assert 'expected: zone open of Player1 holds ["Outou", "Kareki"]\n' \
           '    found:    ["Kareki"]' in out
    path = scenario(tmp_path, given + '  expect score terms of Player1 exactly []\n',
                    game="muso_sakura")
    assert 'expected: score terms of Player1 exactly []\n    found:    ["sheet": 0]: "sheet": 0 ' \
        "(not expected)" in run(capsys, str(path))[1]
    for check, found in [("zone reserve count 3", "54: "), ("round 2", "round 1"),
                         ('score terms of Player2 starting "sh" total 4', '0: ["sheet": 0]')]:
        path = scenario(tmp_path, given + f"  expect {check}\n", game="muso_sakura")
        assert f"    found:    {found}" in run(capsys, str(path))[1]
    path = scenario(tmp_path, '  given move "Outou" from field to deck\n', game="muso_sakura")
    assert "impossible position: no 'Outou' is in field to move to deck" in run(capsys,
                                                                               str(path))[1]
    path = scenario(tmp_path, "  expect zone hand count 3\n", game="muso_sakura")
    assert ":4:3: error[R420]: the rules have no zone 'hand'" in run(capsys, str(path))[1]


def test_pieces_chosen_by_an_attribute(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = scenario(tmp_path, '  given tile with design = "MT" at "1a1", "1b1"\n'
                    '  expect score moss of Player1: 4\n', game="karesansui")
    code, out = run(capsys, str(path), "--mode", "both")
    assert code == 0, out
    path = scenario(tmp_path, '  given tile with design = "ZZ" at "1a1"\n', game="karesansui")
    assert ":4:9: error[R420]: impossible position: no unowned tile with design = \"ZZ\" is " \
        "left in a zone to put on 1a1" in run(capsys, str(path))[1]
    path = scenario(tmp_path, '  given\n    stone with type = "Y" from temple at "1a1"\n'
                    '  expect zone temple count 14\n', game="karesansui")  # 15 for 2 players
    code, out = run(capsys, str(path))
    assert code == 0, out
    path = scenario(tmp_path, '  given\n    stone with type = "Y" from discards at "1a1"\n',
                    game="karesansui")
    assert 'impossible position: no unowned stone with type = "Y" is in discards to put on ' \
        "1a1" in run(capsys, str(path))[1]
    path = scenario(tmp_path, '  given tile with colour = "red" at "1a1"\n', game="karesansui")
    assert "impossible position: the pieces have no attribute 'colour'" in run(capsys,
                                                                              str(path))[1]


def test_a_piece_moved_by_attribute_list_vars_and_piece_attributes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = ('  given\n    play "2b2", "1b2"\n    move all from deck to box\n'
            "    move card with board = 3 to deck\n    move card with board = 4 from box to deck\n"
            '  when "move 1b1", "plant cedar 1c1", "pass", "move 2c2", "pass", "pass"\n'
            "  expect\n    var drawn: [4, 3]\n    zone deck count 0\n"
            "    zone supply of Player1 count 5 cedar\n"
            '    at "1c1" Player1 cedar with standing = false, side = 1\n'
            '    at "1b2" has Player1 tatara\n')
    code, out = run(capsys, str(scenario(tmp_path, body, game="tatara")), "--mode", "both")
    assert code == 0, out
    for check, found in [
            ("var drawn: [3, 4]", "[4, 3]"), ("var drawn: []", "[4, 3]"),
            ('at "1c1" Player1 cedar with side = 2', "1c1 Player1 cedar with side = 1"),
            ("zone supply of Player1 count 6 cedar", "5: [" + ", ".join(['"cedar"'] * 5) + "]"),
            ('at "1b2" has Player1 pawn', "1b2: Player1 tatara"),
            ('at "1b2" has Player1 tatara with blocks = false',
             "1b2: Player1 tatara blocks = true")]:
        code, out = run(capsys, str(scenario(tmp_path, body + f"    {check}\n", game="tatara")))
        assert code == 1 and f"    found:    {found}\n" in out, out
    path = scenario(tmp_path, '  given\n    play "2b2", "1b2"\n'
                    "    move card with board = 9 to deck\n", game="tatara")
    assert ":6:5: error[R420]: impossible position: no card with board = 9 is in another zone " \
           "to move to deck" in run(capsys, str(path))[1]


def test_a_var_stated_as_a_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = ('  given\n    seed 1\n    var sheet of Player2: [["r1 set", 10], ["r1 more", -1]]\n'
            '  expect\n    var sheet of Player2: [["r1 set", 10], ["r1 more", -1]]\n'
            '    score "sheet r1 set" of Player2: 10\n    scores Player2: 9\n')
    code, out = run(capsys, str(scenario(tmp_path, body, game="muso_sakura")), "--mode", "both")
    assert code == 0, out


def test_the_pytest_plugin_collects_scenario_files(tmp_path: Path) -> None:
    """A designer's folder with a rulebook and scenario files: plain `pytest` runs each
    scenario in both modes (the plugin is installed with rulelang, entry point pytest11)."""
    import subprocess
    import sys
    shutil.copy(RULEBOOKS / "tic_tac_toe.rule", tmp_path)
    shutil.copy(RULEBOOKS / "tic_tac_toe.test", tmp_path)
    (tmp_path / "bad.test").write_text('rulebook "tic_tac_toe.rule"\n\nscenario "wrong winner"\n'
                                       '  given play "place a1", "place a2", "place b1", '
                                       '"place b2", "place c1"\n  expect winner O\n')
    (tmp_path / "broken.test").write_text('rulebook "nowhere.rule"\n')
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p",
                           "no:cacheprovider", "-o", "addopts=", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    scenarios = (RULEBOOKS / "tic_tac_toe.test").read_text().count("\nscenario ")
    assert f"3 failed, {2 * scenarios} passed" in done.stdout, done.stdout[-2000:]
    assert "bad.test:5:3: expect winner O\n    expected: winner O\n    found:    winner X" \
        in done.stdout
    assert "error[R420]: no rulebook 'nowhere.rule'" in done.stdout
