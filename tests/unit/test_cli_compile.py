"""`rulelang compile --show PATH`: the module generated for a rulebook, each function under a
header naming the rulebook's file:line:col and line it comes from; `--explain`: whether the
generator takes it; a missing rulebook, a module, a bad option or no --show is a clean
message, never a traceback."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulelang.tools import cli

RULEBOOK = """game "Shown"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone supply each player: 3 stone
option bonus: 0..3 = 1
def gain(x) = (x * 2 + bonus) // 3 if x > 0 else -x
def large(x) = x > 2 and not (x == 5)
score points(p) = gain(size(supply of p))
action place
  choose s in sites where empty(s) and large(size(supply of mover))
  put stone from supply of mover at s
turn
  do place
end
  when size(supply of mover) == 0
    highest score wins
"""


@pytest.fixture
def book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    Path("shown.rule").write_text(RULEBOOK, encoding="utf-8")
    return "shown.rule"


def test_compile_show_prints_each_function_under_its_rulebook_line(
        capsys: pytest.CaptureFixture[str], book: str) -> None:
    assert cli.main(["compile", "--show", book, "--option", "bonus=2"]) == 0
    out = capsys.readouterr().out
    functions = [f for f in out.split("\n\n") if f.startswith("# ") and "\ndef " in f]
    headers = {f.splitlines()[0] for f in functions}
    assert "# menu0: shown.rule:15:3  do place" in headers
    wanted = [r"shown\.rule:10:1  score points\(p\) = gain\(size\(supply of p\)\)",
              r"shown\.rule:8:1  def gain\(x\) = \(x \* 2 \+ bonus\) // 3 if x > 0 else -x",
              r"shown\.rule:9:1  def large\(x\) = x > 2 and not \(x == 5\)"]
    for line in wanted:
        assert any(re.fullmatch(r"# \w+: " + line, h) for h in headers), (line, headers)
    assert out.rstrip().splitlines()[-1].startswith("# constants: ")
    # the headers are not part of the source: no rulebook text inside a function
    for function in functions:
        source = function.splitlines()[1:]
        assert source[0].startswith("def ")
        assert not any(word in line for line in source
                       for word in ("bonus", "gain", "supply", "stone", "place")), source


@pytest.mark.parametrize("argv, code, message", [
    (["compile", "--show", "missing.rule"], 1, "error[R410]: no such rulebook 'missing.rule'"),
    (["compile", "--show", "shown.rule", "--option", "nope=1"], 1,
     "error[R205]: unknown option 'nope'"),
    (["compile", "--show", "shown.rule", "--option", "bonus=9"], 1,
     "error[R205]: impossible option: bonus=9 (from 0 to 3)"),
    (["compile", "--show", "shown.rule", "--option", "bonus"], 1, "error[R411]: bad option"),
    (["compile", "shown.rule"], 2, "one of the arguments --show --explain is required"),
])
def test_compile_mistakes_are_clean_messages(capsys: pytest.CaptureFixture[str], book: str,
                                             argv: list[str], code: int, message: str) -> None:
    assert cli.main(argv) == code
    captured = capsys.readouterr()
    assert message in captured.err and "Traceback" not in captured.err + captured.out
    assert "def " not in captured.out


def test_compile_a_module_is_refused(capsys: pytest.CaptureFixture[str], book: str) -> None:
    Path("mod.rule").write_text("def twice(x) = x * 2\n", encoding="utf-8")
    assert cli.main(["compile", "--show", "mod.rule"]) == 1
    assert "error[R416]" in capsys.readouterr().err


OWNERS = Path(__file__).parents[1] / "gen" / "owners.rule"  # (not generated)


def test_compile_explain_says_which_mode_a_rulebook_gets(
        capsys: pytest.CaptureFixture[str], book: str) -> None:
    main = cli.main
    assert main(["compile", "--explain", "hex"]) == 0
    assert "hex.rule: generated (mode 'compiled')" in capsys.readouterr().out
    assert main(["compile", "--explain", "muso_sakura"]) == 0
    out = capsys.readouterr().out
    assert "muso_sakura.rule: generated (mode 'compiled')" in out \
        and "(counted as they run)" in out
    Path("owners.rule").write_text(OWNERS.read_text(encoding="utf-8"), encoding="utf-8")
    for flag in ("--explain", "--show"):
        assert main(["compile", flag, "owners.rule"]) == 0
        out = capsys.readouterr().out
        assert "runs on the reference evaluator, not generated: a set of a piece's owner" \
            in out and "owners.rule:10:" in out and "def " not in out
