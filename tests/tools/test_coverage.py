"""Rule coverage in `rulelang evaluate` (tools/evidence/coverage.py): the parts of a rulebook no
game
used, each at its line — a planted dead action, branch (also in a module's effect the rules
call, and none in one they do not), uncalled effect, end rule and score term are found,
a branch that only a menu tried on scratch data counts as never entered, and a bundled game's
random games use every part of its rules."""
from __future__ import annotations

import json
from pathlib import Path

from rulelang.tools.cli import main
from rulelang.tools.evidence.coverage import without_comment

HERE = Path(__file__).parent
DEAD = HERE / "rulebooks" / "dead_rules.rule"
HELPERS = HERE / "rulebooks" / "dead_helpers.rule"


def line_of(text: str, path: Path = DEAD) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_planted_dead_rules_are_reported_at_their_lines(tmp_path: Path, capsys) -> None:
    assert main(["evaluate", str(DEAD), "--games", "60", "--jobs", "1", "--coverage", "30",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    cov = json.loads((tmp_path / "evaluation.json").read_text())["summary"]["coverage"]
    assert (cov["games"], cov["of"]) == (30, 60)
    found = {(u["what"], Path(u["where"].split(":")[0]).name, int(u["where"].split(":")[-2]))
             for u in cov["unused"]}
    book, helpers = DEAD.name, HELPERS.name
    assert found == {
        ("action", book, line_of("action resign")),
        ("effect", book, line_of("effect tidy")),   # the rulebook's own, called by no rule
        ("branch", book, line_of("elif size(free) > 9")),
        ("branch", book, line_of('if s.name == "a1"')),   # tried by menus only, never for real
        # a module's effect the rules call: its branch; of `unused`, called by none, nothing
        ("branch", helpers, line_of("if n > 100", HELPERS)),
        ("end rule", book, line_of("when size(free) > 9")),
        ("score term", book, line_of("score marks(p)")),
    }
    assert f"dead_rules.rule:{line_of('when size(free) > 9')}:8: end rule never fired" in out
    assert "rule coverage (30 of 60 games replayed): 7 never used" in out
    places = [(Path(u["where"].split(":")[0]).name != book, int(u["where"].split(":")[-2]))
              for u in cov["unused"]]
    assert places == sorted(places)  # the rulebook's own in line order, then its modules'
    texts = {u["name"] or u["text"]: u["text"] for u in cov["unused"]}
    assert texts["tidy"] == "effect tidy(n)"  # the line without its comment
    assert texts["if n > 100"] == "if n > 100"
    html = (tmp_path / "report.html").read_text()
    assert "<h2>Rule coverage</h2>" in html and "score term marks" in html


def test_a_bundled_game_uses_every_rule(capsys) -> None:
    assert main(["evaluate", "tic_tac_toe", "--games", "100", "--jobs", "1"]) == 0
    assert "rule coverage (100 of 100 games replayed): every action, branch, end rule and " \
           "score term was used" in capsys.readouterr().out


def test_coverage_can_be_turned_off_and_is_checked(capsys) -> None:
    assert main(["evaluate", "tic_tac_toe", "--games", "10", "--jobs", "1",
                 "--coverage", "0"]) == 0
    assert "rule coverage: not measured (--coverage 0)" in capsys.readouterr().out
    assert main(["evaluate", "tic_tac_toe", "--games", "10", "--jobs", "1",
                 "--coverage", "-1"]) != 0
    assert "--coverage must be 0 or more" in capsys.readouterr().err


def test_a_comment_is_cut_from_the_line_shown_but_not_a_hash_in_a_text() -> None:
    assert without_comment('  when repeated(3)     # [ASSUMED S-04]') == "  when repeated(3)     "
    assert without_comment('if s.name == "#1"  # a "quoted" comment') == 'if s.name == "#1"  '
    assert without_comment('require x else "no # here"') == 'require x else "no # here"'
