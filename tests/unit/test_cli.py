"""The command line against the fake engine: exit codes, messages, and what humans see."""
from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fakes  # noqa: E402

import rulelang  # noqa: E402
from rulelang.tools import cli, common  # noqa: E402


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch, tmp_path):
    monkeypatch.setattr(rulelang, "load_game", fakes.load_game, raising=False)
    monkeypatch.setattr(rulelang, "check_file", fakes.load_game, raising=False)
    monkeypatch.setattr(common, "bundled_dir", lambda: tmp_path / "rulebooks")
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def book(tmp_path: Path) -> str:
    (tmp_path / "fake.rule").write_text("fake\n")
    return "fake.rule"


def _rulebook(tmp_path: Path, name: str, text: str) -> str:
    (tmp_path / name).write_text(text)
    return name


def _run(capsys, *argv: str, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


# --- check -------------------------------------------------------------------------------

def test_check_a_clean_rulebook(capsys, book):
    assert _run(capsys, "check", book) == (0, "fake.rule: ok\n", "")


def test_check_prints_every_diagnostic_and_fails(capsys, tmp_path, book):
    bad = _rulebook(tmp_path, "bad.rule", "error\n")
    code, out, err = _run(capsys, "check", book, bad)
    assert code == 1 and "fake.rule: ok" in out
    assert "bad.rule:1:1: error[R201]: unknown zone 'hnad'" in err
    assert "1 | error" in err and "= help: did you mean 'hand'?" in err


def test_check_a_missing_file(capsys):
    code, out, err = _run(capsys, "check", "nowhere.rule")
    assert code == 1 and "error[R410]: no such rulebook 'nowhere.rule'" in err


def test_usage_errors_return_two(capsys):
    assert _run(capsys)[0] == 2
    assert _run(capsys, "check")[0] == 2
    assert _run(capsys, "play", "--seed", "x")[0] == 2


# --- play without humans -----------------------------------------------------------------

def test_play_random_against_random(capsys, book):
    code, out, err = _run(capsys, "play", book, "--agents", "random,random", "--seed", "3")
    lines = out.splitlines()
    assert code == 0 and err == ""
    assert lines[0] == "Fake Three: Xena (random), Oscar (random)"
    assert lines[1].startswith("1. Xena: ") and lines[2].startswith("2. Oscar: ")
    assert lines[-1].startswith("result: ") or lines[-2].startswith("result: ")


def test_play_is_reproducible(capsys, book):
    runs = [_run(capsys, "play", book, "--agents", "mcts:30,random", "--seed", "5")[1]
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_one_agent_name_serves_every_seat(capsys, book):
    code, out, _ = _run(capsys, "play", book, "--players", "3", "--agents", "random")
    assert code == 0 and "Pat (random)" in out


def test_options_are_parsed_as_ints(capsys, book):
    code, out, _ = _run(capsys, "play", book, "--option", "size=4", "--agents", "random")
    assert code == 0 and len([ln for ln in out.splitlines() if ln[:1].isdigit()]) >= 5


@pytest.mark.parametrize(("argv", "words"), [
    (["--option", "size"], "error[R411]: bad option 'size'"),
    (["--option", "size=9"], "option 'size' must be one of [3, 4], not 9"),
    (["--option", "colour=red"], "unknown option 'colour'"),
    (["--players", "5"], "option 'players' must be one of"),
    (["--agents", "random,deep-blue"], "error[R412]: unknown agent 'deep-blue'"),
    (["--agents", "random,random,random"], "error[R413]: 3 agents given for 2 players"),
])
def test_play_mistakes_are_messages(capsys, book, argv, words):
    code, out, err = _run(capsys, "play", book, *argv)
    assert code == 1 and words in err


def test_play_a_missing_rulebook(capsys):
    code, _, err = _run(capsys, "play", "gone.rule", "--agents", "random")
    assert code == 1 and "no such rulebook 'gone.rule'" in err


def test_a_runtime_error_during_play(capsys, tmp_path):
    path = _rulebook(tmp_path, "boom.rule", "fake\nexplode 3\n")
    code, out, err = _run(capsys, "play", path, "--agents", "random")
    assert code == 1 and "boom.rule:1:1: error[R301]: division by zero in 'score'" in err
    assert "2. Oscar: " in out and "3. " not in out


# --- records -----------------------------------------------------------------------------

def test_record_then_replay(capsys, book):
    code, out, _ = _run(capsys, "play", book, "--agents", "random", "--seed", "2",
                        "--record", "game.yaml")
    assert code == 0 and "record written to game.yaml" in out
    result = [ln for ln in out.splitlines() if ln.startswith("result: ")]
    code, out, err = _run(capsys, "replay", "game.yaml")
    assert code == 0 and err == "" and "moves reproduce" in out
    assert result[0] in out


def test_replay_refuses_a_changed_rulebook(capsys, tmp_path, book):
    _run(capsys, "play", book, "--agents", "random", "--record", "game.yaml")
    (tmp_path / book).write_text("fake\n# changed\n")
    code, out, err = _run(capsys, "replay", "game.yaml")
    assert code == 1 and "error[R401]" in err


@pytest.mark.parametrize("target, message", [
    (".", "cannot write the record to '.': it is a folder"),
    ("nowhere/game.yaml", "cannot write the record to 'nowhere/game.yaml': there is no folder"),
])
def test_a_record_that_cannot_be_written_is_refused_before_the_game(capsys, book, target,
                                                                    message):
    code, out, err = _run(capsys, "play", book, "--agents", "random", "--record", target)
    assert code == 1 and out == "" and message in err


def test_replay_of_a_broken_record(capsys, tmp_path):
    (tmp_path / "game.yaml").write_text("rulelang: 1\n")
    code, _, err = _run(capsys, "replay", "game.yaml")
    assert code == 1 and "error[R402]" in err


# --- list and the bundled rulebooks ------------------------------------------------------

def _bundle(tmp_path: Path, **books: str) -> None:
    folder = tmp_path / "rulebooks"
    folder.mkdir()
    for name, text in books.items():
        (folder / f"{name}.rule").write_text(text)


def test_list_shows_names_players_and_options(capsys, tmp_path):
    _bundle(tmp_path, alpha="fake\n")
    code, out, _ = _run(capsys, "list")
    assert code == 0
    assert "alpha: Fake Three, 2-3 players" in out  # the name one types, not a path
    assert "rulebooks/" not in out
    assert "--option size=3  (one of 3, 4)" in out


def test_list_reports_a_broken_rulebook(capsys, tmp_path):
    _bundle(tmp_path, alpha="fake\n", beta="error\n")
    code, out, err = _run(capsys, "list")
    assert code == 1 and "alpha: " in out and "beta.rule: does not load" in err


def test_play_asks_which_bundled_rulebook(capsys, tmp_path, monkeypatch):
    _bundle(tmp_path, alpha="fake\n", beta="fake\n")
    code, out, _ = _run(capsys, "play", "--agents", "random", stdin="7\n2\n",
                        monkeypatch=monkeypatch)
    assert code == 0 and "1. alpha\n2. beta\n" in out and "type a number" in out
    assert "result: " in out


def test_the_menu_takes_a_typed_name(capsys, tmp_path, monkeypatch):
    _bundle(tmp_path, alpha="fake\n", beta="fake\n")
    code, out, _ = _run(capsys, "play", "--agents", "random", stdin="gamma\nbeta\n",
                        monkeypatch=monkeypatch)
    assert code == 0 and "or a name" in out and out.count("which rulebook? ") == 2
    assert "result: " in out


def test_the_agent_count_example_has_one_agent_per_seat(capsys, book):
    code, _, err = _run(capsys, "play", book, "--players", "3", "--agents", "random,random")
    assert code == 1 and "2 agents given for 3 players" in err
    assert "--agents human,mcts,mcts" in err


def test_a_bundled_rulebook_by_its_name(capsys, tmp_path):
    _bundle(tmp_path, alpha="fake\n")
    assert _run(capsys, "check", "alpha") == (0, "alpha: ok\n", "")
    code, out, _ = _run(capsys, "play", "alpha", "--agents", "random")
    assert code == 0 and "result: " in out


def test_an_unknown_name_lists_the_bundled_ones(capsys, tmp_path):
    _bundle(tmp_path, alpha="fake\n", beta="fake\n")
    code, _, err = _run(capsys, "play", "gamma", "--agents", "random")
    assert code == 1 and "error[R410]: no such rulebook 'gamma'" in err
    assert "bundled rulebook's name: alpha, beta" in err
    code, _, err = _run(capsys, "check", "some/where.rule")
    assert code == 1 and "no such rulebook 'some/where.rule'" in err and "alpha" not in err


def test_play_without_bundled_rulebooks(capsys):
    code, _, err = _run(capsys, "play", "--agents", "random")
    assert code == 1 and "no bundled rulebooks" in err


def test_play_when_nobody_chooses(capsys, tmp_path, monkeypatch):
    _bundle(tmp_path, alpha="fake\n")
    code, _, err = _run(capsys, "play", stdin="", monkeypatch=monkeypatch)
    assert code == 1 and "no rulebook chosen" in err


# --- humans ------------------------------------------------------------------------------

def test_a_human_sees_the_board_and_numbered_moves(capsys, book, monkeypatch):
    code, out, _ = _run(capsys, "play", book, "--agents", "human,random", "--seed", "1",
                        stdin="1\n" * 5, monkeypatch=monkeypatch)
    assert code == 0
    assert "\n1. a1  2. b1" in out and "Xena> " in out
    assert "\n  a b c\n1 " in out  # coordinates from the site names on the edges
    assert "result: " in out and "last: Oscar " in out
    assert "last: Xena" not in out  # a human is not told their own move back
    assert out.count("scores: ") == 1
    assert "\ntotal " in out  # every player's score by term at the end


def test_the_default_agents_are_human_then_mcts(capsys, book, monkeypatch):
    code, out, _ = _run(capsys, "play", book, stdin="q\n", monkeypatch=monkeypatch)
    assert code == 0 and "Xena> " in out and "game stopped" in out


def test_a_human_may_type_the_action_string(capsys, book, monkeypatch):
    code, out, _ = _run(capsys, "play", book, "--agents", "human,random",
                        stdin="zz\n99\nb2\nq\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "not allowed: 'zz' is not a site" in out
    assert "there is no move 99" in out
    assert "\n2 . X . 2\n" in out and "game stopped" in out


def test_a_taken_site_is_refused(capsys, book, monkeypatch):
    code, out, _ = _run(capsys, "play", book, "--agents", "human,human",
                        stdin="a1\n\na1\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and "not allowed: a1 is not legal now" in out


def test_end_of_input_stops_the_game(capsys, book, monkeypatch):
    code, out, _ = _run(capsys, "play", book, "--agents", "human,random", stdin="",
                        monkeypatch=monkeypatch)
    assert code == 0 and "game stopped" in out


def test_quitting_still_writes_the_record(capsys, book, monkeypatch):
    code, out, _ = _run(capsys, "play", book, "--agents", "human,random", "--record",
                        "game.yaml", stdin="1\nq\n", monkeypatch=monkeypatch)
    assert code == 0 and "record written" in out
    code, out, _ = _run(capsys, "replay", "game.yaml")
    assert code == 0 and "stopped before its end" in out


def test_two_humans_pass_the_device_and_see_only_their_own_view(capsys, book,
                                                                monkeypatch):
    stdin = "a1\n\nb1\n\na2\n\nb2\n\na3\n"
    code, out, _ = _run(capsys, "play", book, "--agents", "human,human",
                        stdin=stdin, monkeypatch=monkeypatch)
    assert code == 0 and "result: Xena wins" in out
    screens = out.split("pass the device to ")
    assert len(screens) == 5
    for screen in screens[1:]:
        viewer = screen.split(" — press Enter")[0]
        assert viewer in ("Xena", "Oscar")
        mine, theirs = ("secret 0", "secret 7") if viewer == "Xena" else ("secret 7",
                                                                          "secret 0")
        assert mine in screen and theirs not in screen
    assert "secret 7" not in screens[0]


def test_the_result_gives_each_players_points_by_term() -> None:
    class Game:
        player_names = ["Xena", "Oscar"]

    class State:
        def winners(self) -> list[int]:
            return [1]

        def capped(self) -> bool:
            return False

        def scores(self) -> list[float]:
            return [3.0, 4.5]

        def score_breakdown(self, p: int) -> dict[str, float]:  # `sheet` is itemised
            return {"sand": 2, "moss": 0, "sheet r1 Outou": 1, "sheet r2 Outou": p + 0.5}

    assert cli.result_lines(Game(), State()) == [
        "result: Oscar wins", "scores: Xena 3, Oscar 4.5",
        "  Xena: sand 2, sheet 1.5", "  Oscar: sand 2, sheet 2.5"]


def test_playing_a_module_of_rules_says_what_it_is(capsys, tmp_path):
    module = _rulebook(tmp_path, "helpers.rule", "def double(x) = 2 * x\n")
    code, out, err = _run(capsys, "play", module, "--agents", "random,random")
    assert code == 1 and out == ""
    assert "error[R416]: 'helpers.rule' has no `game` line: it is a module of rules" in err
    assert "a game uses it with `use helpers`" in err
