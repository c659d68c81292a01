"""Every assumption a bundled rulebook marks is named in its scenario file.

A rulebook states the assumptions it relies on by id in its comments (`[ASSUMED B-03]`,
`S-02`); the ids come from the game's page in docs/games/. Its scenario file (the `*.test`
whose `rulebook` line names it) must name each of them too, in a scenario's name or a comment
(`[B-03]`): either on a scenario whose expectations would fail if the assumption were chosen
differently, or on a line `# [B-03] not testable: <reason>`. The ids of the modules a
rulebook `use`s from its own folder (karesansui_garden.rule for karesansui.rule) count as the
rulebook's own; a game it `extends` has scenarios of its own and is not counted.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = ROOT / "rulebooks"

ASSUMPTION_ID = re.compile(r"\b[A-Z]{1,3}-[0-9]{2}\b")
USE_LINE = re.compile(r"^use\s+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
GAME_LINE = re.compile(r"^game\s+\"", re.MULTILINE)      # a module has none
# the first line of a scenario file: `rulebook "x.rule"` or `test "title" of "x.rule"`
RULEBOOK_LINE = re.compile(r'^(?:rulebook|test\s+"[^"\n]*"\s+of)\s+"([^"\n]+)"', re.MULTILINE)


def marked_ids(rule: Path, seen: frozenset[Path] = frozenset()) -> set[str]:
    """The assumption ids in a rulebook and in the modules it uses from its own folder."""
    text = rule.read_text(encoding="utf-8")
    ids = set(ASSUMPTION_ID.findall(text))
    for name in USE_LINE.findall(text):
        module = rule.parent / f"{name}.rule"
        if module.is_file() and module not in seen:
            ids |= marked_ids(module, seen | {rule})
    return ids


def missing_ids(folder: Path) -> dict[str, list[str]]:
    """For each game in the folder, the ids it marks that none of its scenario files names
    (a game without a scenario file misses all of them)."""
    tests: dict[str, str] = {}
    for path in sorted(folder.glob("*.test")):
        text = path.read_text(encoding="utf-8")
        named = RULEBOOK_LINE.search(text)
        assert named, f"{path.name}: no rulebook line"
        rulebook = str((path.parent / named.group(1)).resolve())
        tests[rulebook] = tests.get(rulebook, "") + text
    missing: dict[str, list[str]] = {}
    for rule in sorted(folder.glob("*.rule")):
        if not GAME_LINE.search(rule.read_text(encoding="utf-8")):
            continue                                    # a module: counted with its games
        text = tests.get(str(rule.resolve()), "")
        absent = sorted(i for i in marked_ids(rule) if i not in text)
        if absent:
            missing[rule.name] = absent
    return missing


def test_every_marked_assumption_is_named_in_the_scenario_file() -> None:
    missing = missing_ids(RULEBOOKS)
    report = "\n".join(f"  {name}: {' '.join(ids)}" for name, ids in missing.items())
    assert not missing, (
        "assumption ids marked in a rulebook (or a module it uses) but named in no scenario of "
        "its .test file:\n" + report)


def test_the_check_sees_module_ids_and_missing_ones(tmp_path: Path) -> None:
    # a small folder: a game marking G-01 that uses a module marking G-02; its scenario
    # file names G-01 only
    (tmp_path / "garden_parts.rule").write_text("# [ASSUMED G-02] a module's choice\n"
                                                "def three = 3\n", encoding="utf-8")
    (tmp_path / "g.rule").write_text(
        "# [ASSUMED G-01] X starts\nuse garden_parts\n\ngame \"G\"\nplayers X, O\n"
        "board grid(1, 2)\npiece mark\nzone supply each player: 2 mark\n"
        "action place\n  choose site s in sites where empty(s)\n  put mark of mover at s\n"
        "turn\n  do place\n", encoding="utf-8")
    (tmp_path / "g.test").write_text(
        "rulebook \"g.rule\"\n\nscenario \"X starts [G-01]\"\n  expect to move X\n",
        encoding="utf-8")
    assert marked_ids(tmp_path / "g.rule") == {"G-01", "G-02"}
    assert missing_ids(tmp_path) == {"g.rule": ["G-02"]}
    (tmp_path / "g.test").write_text(
        "rulebook \"g.rule\"\n\n# [G-02] not testable: a name only\n"
        "scenario \"X starts [G-01]\"\n  expect to move X\n", encoding="utf-8")
    assert missing_ids(tmp_path) == {}
