"""The command line given bad input: every case ends with a clear message naming what is
wrong and exit code 1 (a closed stdout: quietly, exit 0), never a Python traceback. Records
are untrusted: what they name and hold is checked before anything is opened or replayed.

The messages are golden: each is compared whole.
"""
from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulelang.tools.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> str:
    """A good record of a short random game of the bundled tic-tac-toe, in the working folder."""
    monkeypatch.chdir(tmp_path)
    assert main(["play", "tic_tac_toe", "--agents", "random,random", "--seed", "3",
                 "--record", "game.yaml"]) == 0
    capsys.readouterr()
    return Path("game.yaml").read_text(encoding="utf-8")


def replay_error(capsys: pytest.CaptureFixture[str], name: str, data: bytes | str,
                 *extra: str) -> str:
    Path(name).write_bytes(data if isinstance(data, bytes) else data.encode())
    assert main(["replay", name, *extra]) == 1
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "root:" not in out + err
    return err.rstrip("\n")


def test_a_binary_record(record: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay_error(capsys, "bin.yaml", b"\xff\xfe\x00\x01 binary") == (
        "error[R402]: cannot read record 'bin.yaml': it is not UTF-8 text (byte 1)")


def test_a_latin1_record(record: str, capsys: pytest.CaptureFixture[str]) -> None:
    data = record.replace("rulebook: tic_tac_toe", "rulebook: caf\xe9").encode("latin-1")
    at = data.index(b"\xe9") + 1
    assert replay_error(capsys, "latin.yaml", data) == (
        f"error[R402]: cannot read record 'latin.yaml': it is not UTF-8 text (byte {at})")


def test_deeply_nested_yaml(record: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = replay_error(capsys, "deep.yaml", "a: " + "[" * 5000 + "]" * 5000 + "\n")
    assert err in (
        "error[R402]: record 'deep.yaml' is refused: it nests lists and mappings more than 20 "
        "deep (line 1)",
        # libyaml stops first, at its own limit
        "error[R402]: record 'deep.yaml' is not valid YAML: exceeded maximum nesting depth at "
        "line 1")


def test_a_billion_laughs_record(record: str, capsys: pytest.CaptureFixture[str]) -> None:
    laughs = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + "".join(
        f"{chr(97 + i)}: &{chr(97 + i)} [" + ",".join(["*" + chr(96 + i)] * 9) + "]\n"
        for i in range(1, 10))
    assert replay_error(capsys, "lol.yaml", laughs) == (
        "error[R402]: record 'lol.yaml' is refused: it holds more than 1,000,000 values "
        "(aliases written out in full) (line 7)")


@pytest.mark.parametrize("old, new, message", [
    ("rulelang: 1", "rulelang: true", "'rulelang' must be a whole number, not true/false"),
    ("players: 2", "players: 2.7", "option 'players' must be a whole number, not the number 2.7"),
    ("seed: 3", "seed: [3]", "'seed' must be a whole number, not a list"),
    ("rulelang: 1", "rulelang: 'one'", "'rulelang' must be a whole number, not a string"),
    ("seed: 3", "seed: '3'", "'seed' must be a whole number, not a string"),
    ("seed: 3", "seed: 2001-12-14", "'seed' must be a whole number, not a date"),
    ("rulebook: tic_tac_toe", "rulebook: 7", "'rulebook' must be a string, not a whole number"),
    ("seed: 3", "seed: " + "9" * 30, "'seed' has more than 20 digits"),
])
def test_record_fields_are_typed(record: str, capsys: pytest.CaptureFixture[str], old: str,
                                 new: str, message: str) -> None:
    assert old in record
    assert replay_error(capsys, "bad.yaml", record.replace(old, new)) == (
        f"error[R402]: record 'bad.yaml': {message}")


HELP = ("  = help: a record names its rulebook by a path relative to the working folder or to "
        "the record's folder, or by a bundled rulebook's name")


@pytest.mark.parametrize("name, reason", [
    ("/etc/passwd", "an absolute path may lead outside the rulebook's folder"),
    ("/proc/self/environ", "an absolute path may lead outside the rulebook's folder"),
    ("../../../../etc/passwd", "'..' leads outside the rulebook's folder"),
    ("notes.txt", "only .rule files may be named here"),
])
def test_a_record_names_only_a_rulebook_in_its_folder(record: str, name: str, reason: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    Path("notes.txt").write_text("SECRET LINE\n")
    data = record.replace("rulebook: tic_tac_toe", f"rulebook: {name}")
    assert replay_error(capsys, "bad.yaml", data) == (
        f"error[R405]: record 'bad.yaml' names rulebook '{name}', which is refused: {reason}\n"
        + HELP)


def test_a_record_rulebook_linked_out_of_its_folder(record: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sub").mkdir()
    os.symlink("/etc/passwd", tmp_path / "sub" / "book.rule")
    os.chdir(tmp_path / "sub")
    data = record.replace("rulebook: tic_tac_toe", "rulebook: book.rule")
    assert replay_error(capsys, "bad.yaml", data) == (
        "error[R405]: record 'bad.yaml' names rulebook 'book.rule', which is refused: a "
        "symbolic link leads out of its folder\n" + HELP)


def test_replay_as_a_huge_seat_number(record: str, capsys: pytest.CaptureFixture[str]) -> None:
    Path("game.yaml").write_text(record)
    assert main(["replay", "game.yaml", "--as", "9" * 5000]) == 1
    assert capsys.readouterr().err == (
        f"error[R415]: no player '{'9' * 80}…' in this game\n"
        "  = help: one of X, O, or 1..2\n")


def test_a_huge_move_number_typed_at_the_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("9" * 100_000 + "\n\u00b2\nq\n"))
    main(["play", "tic_tac_toe", "--agents", "human,random"])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert f"there is no move {'9' * 80}…: `moves` numbers them 1 to 9" in out
    assert "'²' is not an action now" in out  # a digit to Python, not a move number


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_record_to_a_full_disk_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["play", "tic_tac_toe", "--agents", "random,random", "--record",
                 "/dev/full"]) == 1
    assert capsys.readouterr().err == (
        "error[R410]: cannot write the record to '/dev/full': no space left on device\n")


def test_a_closed_stdout_ends_quietly(tmp_path: Path) -> None:
    """`rulelang play ... | head -1`: the reader stops reading; rulelang ends with exit 0 and
    nothing on stderr (before: error[R410]: Broken pipe: 'None')."""
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "play", "tic_tac_toe",
                             "--agents", "random,random"], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert proc.wait(timeout=120) == 0
    assert err == ""


def test_an_option_of_5000_digits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["play", "breakthrough", "--agents", "random,random", "--option",
                 "size=" + "9" * 5000]) == 1
    out, err = capsys.readouterr()
    first = err.splitlines()[0].replace(str(ROOT) + "/", "")  # the bundled file, as found
    assert first == ("rulebooks/breakthrough.rule:22:1: error[R205]: impossible "
                     f"option: size={'9' * 80}… (from 3 to 9)")
