"""`rulelang compile --show PATH`: the generated functions of a rulebook, each under a header
naming the rulebook's file:line:col and line it comes from and followed by its line map; a
missing rulebook, a module, a bad option or no --show is a clean message, never a
traceback."""
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
turn
  draw
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
    headers = [line for line in out.splitlines() if re.match(r"# \S+:\d+:\d+  ", line)]
    gain = "# shown.rule:8:15  def gain(x) = (x * 2 + bonus) // 3 if x > 0 else -x"
    assert headers == [gain, f"{gain}  (inlined where it is called)",  # in `score points`
                       "# shown.rule:9:16  def large(x) = x > 2 and not (x == 5)"]
    assert out.count("def f(c, e):") >= 2 and " // " in out and "not not " in out
    # the line map: each `# node N` of a source has its position after the function
    marks = re.findall(r"^    +# node (\d+)$", out, re.M)
    positions = re.findall(r"^#   node (\d+): shown\.rule:(\d+):(\d+)$", out, re.M)
    assert marks and sorted(set(marks)) == sorted({n for n, _, _ in positions})
    assert {line for _, line, _ in positions} <= {"8", "9", "10"}
    # the headers and the map are not part of the source: no rulebook text inside a function
    for function in out.split("\n\n"):
        source = [line for line in function.splitlines() if not line.startswith("# ")
                  and not line.startswith("#   node")]
        assert not any("bonus" in line or "gain" in line for line in source), source


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
    assert "def f(c, e):" not in captured.out


def test_compile_a_module_is_refused(capsys: pytest.CaptureFixture[str], book: str) -> None:
    Path("mod.rule").write_text("def twice(x) = x * 2\n", encoding="utf-8")
    assert cli.main(["compile", "--show", "mod.rule"]) == 1
    assert "error[R416]" in capsys.readouterr().err


OWNERS = Path(__file__).parents[1] / "gen" / "owners.rule"  # (not generated)


def test_compile_explain_says_which_mode_a_rulebook_gets(
        capsys: pytest.CaptureFixture[str], book: str) -> None:
    main = cli.main
    assert main(["compile", "--explain", "hex"]) == 0
    assert "hex.rule: generated (modes 'generated' and 'compiled')" in capsys.readouterr().out
    assert main(["compile", "--explain", "muso_sakura"]) == 0
    out = capsys.readouterr().out
    assert "muso_sakura.rule: generated (mode 'generated'; mode 'compiled' runs it on the " \
        "closures)" in out and "(counted as they run)" in out
    Path("owners.rule").write_text(OWNERS.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["compile", "--explain", "owners.rule"]) == 0
    out = capsys.readouterr().out
    assert "runs compiled (closures), not generated: a set of a piece's owner" in out \
        and "owners.rule:10:" in out
    assert main(["compile", "--show", "--generated", "tic_tac_toe"]) == 0
    out = capsys.readouterr().out
    assert "def menu0(S):" in out and "# menu0: " in out and "do place" in out
