"""rulelang evaluate: how often each value of each `choose` was taken. The counts are checked
against the games' own action strings (read here independently), a decision of its own (`by
p`), draws at random (only the game's own, not a search agent's, in both evaluators), the
terminal summary and the HTML report."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import rulelang
from rulelang.tools.cli import main
from rulelang.tools.evidence.choices import summary
from rulelang.tools.evidence.playout import Setup, play_one

ROOT = Path(__file__).resolve().parents[2]
FLOW = ROOT / "tests" / "flow"


def _run(tmp_path: Path, *args: str) -> dict:
    assert main(["evaluate", *args, "--jobs", "1", "--coverage", "0",
                 "--out", str(tmp_path)]) == 0
    return json.loads((tmp_path / "evaluation.json").read_text(encoding="utf-8"))


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_a_site_choose_counts_the_sites_the_actions_name(tmp_path: Path,
                                                         capsys) -> None:
    data = _run(tmp_path, "tic_tac_toe", "--games", "30")
    rows = data["summary"]["choices"]
    line = _line_of(ROOT / "rulebooks" / "tic_tac_toe.rule", "choose site s")
    assert [(r["var"], r["kind"], r["mode"]) for r in rows] == [("s", "site", "mover")]
    assert rows[0]["where"].endswith(f"tic_tac_toe.rule:{line}:3")
    total: Counter[str] = Counter()
    for rec in data["records"]:
        played = Counter(a.split()[1] for a in rec["actions"])
        assert rec["choices"] == {rows[0]["where"]: dict(sorted(played.items()))}
        total.update(played)
    assert rows[0]["values"] == dict(sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))
    assert rows[0]["taken"] == sum(r["plies"] for r in data["records"])
    out = capsys.readouterr().out
    assert f"tic_tac_toe.rule:{line}:3: site s: {rows[0]['taken']} times" in out
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    section = html[html.index("<h2>Choices</h2>"):]
    assert section.index("<svg") < section.index("</svg>")


def test_optional_chooses_and_then_follow_the_option_string(tmp_path: Path) -> None:
    """Spice: `place s [t]` (t optional) and `remove r place s [t]` (a `then place`)."""
    data = _run(tmp_path, "spice", "--games", "3")
    rule = ROOT / "rulebooks" / "spice.rule"
    where = {var: f"{rule.name}:{_line_of(rule, text)}:3" for var, text in
             (("s", "choose site s in shibumi.playable"), ("t", "optionally choose site t"),
              ("r", "choose site r in sites where"))}
    for rec in data["records"]:
        want: dict[str, Counter[str]] = {v: Counter() for v in where}
        for action in rec["actions"]:
            words = action.split()
            if words[0] == "remove":
                want["r"][words[1]] += 1
                words = words[2:]
            assert words[0] == "place"
            want["s"][words[1]] += 1
            want["t"][words[2] if len(words) > 2 else "nothing"] += 1
        got = {v: next((c for k, c in rec["choices"].items() if k.endswith(w)), {})
               for v, w in where.items()}
        assert got == {v: dict(c) for v, c in want.items()}


def test_a_decision_of_its_own_counts_its_answers(tmp_path: Path) -> None:
    data = _run(tmp_path, str(FLOW / "reaction.rule"), "--games", "5")
    row = next(r for r in data["summary"]["choices"] if r["var"] == "answer")
    assert row["mode"] == "by" and row["kind"] is None
    answers = Counter(a for rec in data["records"] for a in rec["actions"]
                      if a in ("claim", "decline"))
    assert row["values"] == dict(sorted(answers.items(), key=lambda kv: (-kv[1], kv[0])))
    assert row["taken"] == 2 * sum(rec["turns"] for rec in data["records"])  # two others


def test_draws_at_random_are_the_games_own_in_both_evaluators() -> None:
    """A search agent plays out many copies of the game, each rolling: only the game's own
    rolls count (one a turn), the interpreter counts the same, and they are the rolls a
    replay of the record shows."""
    rule = ROOT / "tests" / "tools" / "rulebooks" / "dice_choices.rule"
    compiled = Setup(str(rule), (), ("mcts:6",), 5, 100, "compiled")
    interpreted = Setup(str(rule), (), ("mcts:6",), 5, 100, "interpreted")
    roll = f"dice_choices.rule:{_line_of(rule, 'at random')}:3"
    bank = f"dice_choices.rule:{_line_of(rule, 'choose number n')}:3"
    for i in range(2):
        rec = play_one(compiled, i)
        rolls = next(c for k, c in rec["choices"].items() if k.endswith(roll))
        banked = next(c for k, c in rec["choices"].items() if k.endswith(bank))
        assert sum(rolls.values()) == rec["turns"] == 6
        assert banked == dict(sorted(Counter(a.split()[1] for a in rec["actions"]).items()))
        assert play_one(interpreted, i)["choices"] == rec["choices"]
        state = rulelang.load_game(str(rule)).new_initial_state(seed=rec["seed"])
        seen: Counter[str] = Counter()
        for action in rec["actions"]:
            vars_ = state.observation(0)["vars"]
            seen[str(next(v["value"] for v in vars_ if v["var"] == "roll"))] += 1
            state.apply_action(action)
        assert dict(sorted(seen.items())) == rolls


def test_a_choose_never_taken_is_listed_with_no_count() -> None:
    game = rulelang.load_game(str(FLOW / "reaction.rule"))
    rows = summary(game.runtime.program, [])
    assert {r["var"] for r in rows} == {"s", "answer"}
    assert all(r["taken"] == 0 and r["values"] == {} for r in rows)


def test_where_a_choose_is_does_not_depend_on_the_working_folder(
        tmp_path: Path, monkeypatch) -> None:
    """Workers may start in another folder (a fork server's, a Ray node's): each choose is
    named relative to the rulebook's folder (stdlib modules as stdlib/…), so the JSON is the
    same from every folder."""
    found = []
    for folder in (ROOT, tmp_path):
        monkeypatch.chdir(folder)
        found.append(_run(tmp_path / f"out{len(found)}", "tic_tac_toe", "--games", "3"))
    assert found[0]["summary"]["choices"] == found[1]["summary"]["choices"]
    assert [r["choices"] for r in found[0]["records"]] == \
        [r["choices"] for r in found[1]["records"]]
    assert found[0]["summary"]["choices"][0]["where"].startswith("tic_tac_toe.rule:")
