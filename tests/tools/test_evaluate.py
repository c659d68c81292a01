"""rulelang evaluate: the figures of many random games, byte-identical JSON for every --jobs,
the exact tic-tac-toe probabilities inside the reported intervals, user mistakes as
diagnostics."""
from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from rulelang.tools.cli import main
from rulelang.tools.evidence.evaluate import evaluate, report
from rulelang.tools.evidence.playout import Setup, game_seed, seat_agents

# Uniform random tic-tac-toe, exactly: the first player wins 737/1260 of the games, the
# second 363/1260, and 160/1260 are drawn.
EXACT = {"first": Fraction(737, 1260), "second": Fraction(363, 1260),
         "draw": Fraction(160, 1260)}


def _run(tmp_path: Path, *args: str) -> dict:
    assert main(["evaluate", *args, "--out", str(tmp_path)]) == 0
    return json.loads((tmp_path / "evaluation.json").read_text(encoding="utf-8"))


def _inside(figure: dict, value: Fraction) -> bool:
    return figure["low"] <= value <= figure["high"]


def test_jobs_1_and_2_give_byte_identical_json(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["evaluate", "tic_tac_toe", "--games", "120", "--seed", "7", "--jobs", "1",
                 "--out", str(one)]) == 0
    assert main(["evaluate", "tic_tac_toe", "--games", "120", "--seed", "7", "--jobs", "2",
                 "--out", str(two)]) == 0
    first = (one / "evaluation.json").read_bytes()
    assert first == (two / "evaluation.json").read_bytes()
    data = json.loads(first)
    assert [r["index"] for r in data["records"]] == list(range(120))
    assert [r["seed"] for r in data["records"]] == [game_seed(7, i) for i in range(120)]


def test_random_tic_tac_toe_intervals_contain_the_exact_values() -> None:
    setup = Setup("tic_tac_toe", (), ("random",), 0, 100)
    records = evaluate(setup, 20_000, 1)
    from rulelang.tools.common import load
    s = report(setup, load("tic_tac_toe"), records)["summary"]
    assert s["games"] == 20_000 and s["capped"]["count"] == 0
    assert _inside(s["seats"][0]["wins"], EXACT["first"])
    assert _inside(s["seats"][1]["wins"], EXACT["second"])
    assert _inside(s["draws"], EXACT["draw"])
    assert s["first_player"]["advantage"]
    assert s["length"]["plies"]["min"] == 5 and s["length"]["plies"]["max"] == 9
    assert s["branching"]["max"] == 9
    assert list(s["actions"]) == ["place"]


def test_the_report_holds_every_game_and_the_page_is_offline(tmp_path: Path) -> None:
    data = _run(tmp_path, "tic_tac_toe", "--games", "50", "--jobs", "1")
    records = data["records"]
    assert len(records) == 50
    s = data["summary"]
    assert sum(r["plies"] for r in records) == s["actions"]["place"]
    wins = sum(r["winners"] == [0] for r in records)
    assert s["seats"][0]["wins"]["count"] == wins
    assert s["distinct_games"] == len({tuple(r["actions"]) for r in records})
    shortest = min(r["plies"] for r in records)
    assert s["notable"]["shortest"]["plies"] == shortest
    assert sum(b["count"] for b in s["length"]["histogram"]) == 50
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert html.count("<svg") >= 3
    assert not re.search(r"(src|href)=|url\(|@import|<script", html)
    assert set(re.findall(r"https?://[^\"' ]+", html)) == {"http://www.w3.org/2000/svg"}


def test_agents_rotate_through_the_seats(tmp_path: Path) -> None:
    assert seat_agents(("a", "b"), 2, 0) == ["a", "b"]
    assert seat_agents(("a", "b"), 2, 1) == ["b", "a"]
    data = _run(tmp_path, "tic_tac_toe", "--games", "6", "--jobs", "1",
                "--agents", "random,mcts:8")
    assert [r["agents"][0] for r in data["records"]] == ["random", "mcts:8"] * 3
    rows = {row["agent"]: row["wins"] for row in data["summary"]["agents"]}
    assert rows["random"]["of"] == rows["mcts:8"]["of"] == 6


def test_games_cut_by_the_cap_are_counted_not_waited_for(tmp_path: Path) -> None:
    data = _run(tmp_path, "connect_four", "--games", "10", "--jobs", "1", "--max-plies", "4")
    s = data["summary"]
    assert s["capped"]["count"] == 10 and s["draws"]["count"] == 0
    assert all(r["plies"] == 4 and r["capped"] for r in data["records"])
    assert s["capped_seeds"] == [r["seed"] for r in data["records"]]


@pytest.mark.parametrize(("args", "code"), [
    (["--games", "0"], "R418"), (["--jobs", "0"], "R418"), (["--max-plies", "-1"], "R418"),
    (["--agents", "nobody"], "R412"), (["--agents", "human"], "R418"),
    (["--agents", "random,"], "R412"), (["--option", "colour=red"], "R205"),
    (["--option", "oops"], "R411"), (["--out", "/proc/no/such"], "R419"),
])
def test_user_mistakes_are_diagnostics(capsys: pytest.CaptureFixture[str], args: list[str],
                                       code: str) -> None:
    assert main(["evaluate", "tic_tac_toe", "--jobs", "1", *args]) == 1
    err = capsys.readouterr().err
    assert f"error[{code}]" in err and "Traceback" not in err


def test_out_makes_one_folder_never_a_tree(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    deep = tmp_path / "no" / "such" / "out"
    assert main(["evaluate", "tic_tac_toe", "--jobs", "1", "--games", "2",
                 "--out", str(deep)]) == 1
    err = capsys.readouterr().err
    assert f"error[R419]: cannot write the reports to '{deep}': there is no folder " \
           f"'{deep.parent}'" in err
    assert not (tmp_path / "no").exists()
    assert main(["evaluate", "tic_tac_toe", "--jobs", "1", "--games", "2",
                 "--out", str(tmp_path / "out")]) == 0  # one new folder in one that exists
    assert (tmp_path / "out" / "evaluation.json").is_file()


def test_an_unknown_rulebook_is_a_diagnostic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["evaluate", "no_such_game", "--jobs", "1"]) == 1
    assert "error[R410]" in capsys.readouterr().err


def test_the_sites_played_are_counted_and_drawn_as_a_heatmap(tmp_path: Path) -> None:
    data = _run(tmp_path, "tic_tac_toe", "--games", "40", "--jobs", "1")
    sites = data["summary"]["sites"]
    # every tic-tac-toe action names exactly one site: the counts add up to the plies
    assert sorted(sites) == sorted(f"{c}{r}" for c in "abc" for r in "123")
    assert sum(sites.values()) == sum(r["plies"] for r in data["records"])
    for site, n in sites.items():
        assert n == sum(f"place {site}" in r["actions"] for r in data["records"])
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    heat = html[html.index("<h2>Sites played</h2>"):]
    drawn = dict(re.findall(r'data-site="(\w+)"[^>]*data-count="(\d+)"', heat))
    assert {k: int(v) for k, v in drawn.items()} == sites  # the same drawing as `render`
    assert heat.count('class="heat"') == sum(1 for n in sites.values() if n)


def test_a_game_without_a_board_has_no_heatmap(tmp_path: Path) -> None:
    import rulelang
    from rulelang.tools.pictures.heatmap import heatmap_svg
    game = rulelang.load_game(Path(__file__).resolve().parents[2] / "rulebooks" /
                              "muso_sakura.rule")
    assert heatmap_svg(game, {}) is None


def _record(index: int, agents: list[str], winner: int) -> dict:
    return {"index": index, "seed": index, "agents": agents, "plies": 5, "capped": False,
            "winners": [winner], "returns": [], "scores": [0.0, 0.0], "terms": [{}, {}],
            "branching": {"decisions": 5, "options": 10, "max": 3, "single": 0},
            "action_counts": {}, "actions": [str(index)], "movers": []}


def test_skill_depth_says_whether_more_search_wins_more(tmp_path: Path) -> None:
    data = _run(tmp_path, "tic_tac_toe", "--agents", "random,mcts:30", "--games", "40",
                "--jobs", "1")
    skill = data["summary"]["skill"]
    assert skill["stronger"] == "mcts:30" and skill["weaker"] == "random"
    assert skill["more_search_wins"] == "yes" and skill["gap"] > 0.5
    from rulelang.tools.evidence.report import summarize
    # the planted opposite: the agent with less search wins every game
    records = [_record(i, ["mcts:10", "mcts:80"] if i % 2 else ["mcts:80", "mcts:10"],
                       0 if i % 2 else 1) for i in range(40)]
    assert summarize(records, ["A", "B"], ["mcts:80", "mcts:10"])["skill"][
        "more_search_wins"] == "no"
    even = [_record(i, ["mcts:10", "mcts:80"], i % 2) for i in range(40)]
    assert summarize(even, ["A", "B"], ["mcts:80", "mcts:10"])["skill"][
        "more_search_wins"] == "not shown"
    assert summarize(even, ["A", "B"], ["random"])["skill"] == {}


def test_turns_rounds_and_lead_changes_are_counted(tmp_path: Path) -> None:
    """Muso Sakura has rounds and score terms: each record's turns, rounds and lead changes
    are those of its game replayed here (the sole leader at the start of each round)."""
    import rulelang
    data = _run(tmp_path, "muso_sakura", "--games", "6", "--jobs", "1", "--coverage", "0")
    game = rulelang.load_game(Path(__file__).parents[2] / "rulebooks" / "muso_sakura.rule")
    for rec in data["records"]:
        state = game.new_initial_state(seed=rec["seed"])
        leaders, at = [], None
        for action in rec["actions"]:
            if state.ctx.data.round != at:
                at, scores = state.ctx.data.round, state.scores()
                if scores.count(max(scores)) == 1:
                    leaders.append(scores.index(max(scores)))
            state.apply_action(action)
        changes = sum(a != b for a, b in zip(leaders, leaders[1:], strict=False))
        assert (rec["turns"], rec["rounds"], rec["lead_changes"]) == (
            state.ctx.data.turn, state.ctx.data.round, changes)
        assert rec["turns"] < rec["plies"]  # a turn holds several decisions here
    length = data["summary"]["length"]
    assert "rounds" in length and "lead_changes" in data["summary"]["scores"]
    plain = _run(tmp_path / "t", "tic_tac_toe", "--games", "5", "--jobs", "1")
    assert plain["records"][0]["rounds"] is None and plain["records"][0]["lead_changes"] is None
    assert plain["records"][0]["turns"] == plain["records"][0]["plies"]


def test_lead_changes_without_rounds_are_looked_at_each_cycle_of_turns(tmp_path: Path) -> None:
    """Karesansui (two players) has score terms but no rounds: the leader is looked at when
    each cycle of two turns starts, not after every turn (when it would mostly be whoever
    just moved)."""
    import rulelang
    data = _run(tmp_path, "karesansui", "--games", "3", "--jobs", "1", "--coverage", "0")
    game = rulelang.load_game(Path(__file__).parents[2] / "rulebooks" / "karesansui.rule")
    for rec in data["records"]:
        assert rec["rounds"] is None
        looked = 0
        state = game.new_initial_state(seed=rec["seed"])
        leaders, at = [], None
        for action in rec["actions"]:
            if state.ctx.data.turn // 2 != at:
                at, scores = state.ctx.data.turn // 2, state.scores()
                looked += 1
                if scores.count(max(scores)) == 1:
                    leaders.append(scores.index(max(scores)))
            state.apply_action(action)
        changes = sum(a != b for a, b in zip(leaders, leaders[1:], strict=False))
        assert rec["lead_changes"] == changes
        assert looked <= rec["turns"] // 2 + 1  # once a cycle, not every turn


def test_a_ladder_plays_each_step_equally_often_in_both_seat_orders() -> None:
    from collections import Counter

    from rulelang.tools.evidence.playout import ladder_step
    ladder = ("random", "mcts:8", "mcts:64")
    games = [tuple(seat_agents(ladder, 2, i)) for i in range(40)]
    assert games[:4] == [("random", "mcts:8"), ("mcts:8", "mcts:64"),
                         ("mcts:8", "random"), ("mcts:64", "mcts:8")]
    assert Counter(games) == dict.fromkeys(games[:4], 10)
    assert [ladder_step(ladder, 2, i) for i in range(4)] == [0, 1, 0, 1]
    three = [tuple(seat_agents(("mcts:8", "mcts:16"), 3, i)) for i in range(4)]
    assert three == [("mcts:8", "mcts:16", "mcts:8"), ("mcts:16", "mcts:8", "mcts:16")] * 2
    assert ladder_step(("a", "b"), 2, 5) is None and ladder_step(("a",), 2, 5) is None
    assert seat_agents(("random", "mcts"), 2, 1) == ["mcts", "random"]  # one per seat


def test_a_ladder_says_at_each_step_whether_more_search_wins_more(tmp_path: Path) -> None:
    data = _run(tmp_path, "tic_tac_toe", "--agents", "random,mcts:8,mcts:64", "--games",
                "60", "--jobs", "1", "--coverage", "0")
    s = data["summary"]
    assert s["skill"] == {}  # (the ends of a ladder never meet: each step says it)
    steps = s["ladder"]
    assert [(st["weaker"], st["stronger"], st["games"]) for st in steps] == \
        [("random", "mcts:8", 30), ("mcts:8", "mcts:64", 30)]
    for m, st in enumerate(steps):  # the share read again from the records
        games = [r for r in data["records"] if r["index"] % 2 == m]
        won = [r["agents"][r["winners"][0]] for r in games if len(r["winners"]) == 1]
        assert set(won) <= {st["weaker"], st["stronger"]}
        assert (st["decided"], st["stronger_share"]["count"]) == \
            (len(won), won.count(st["stronger"]))
    assert steps[0]["more_search_wins"] == "yes"
    from rulelang.tools.evidence.report import summarize
    ladder = ["mcts:10", "mcts:20", "mcts:40"]
    planted = []  # the second step's stronger agent loses every game
    for i in range(60):
        agents = seat_agents(tuple(ladder), 2, i)
        loser = "mcts:40" if i % 2 else "mcts:10"
        planted.append(_record(i, agents, 1 - agents.index(loser)))
    said = [st["more_search_wins"] for st in summarize(planted, ["A", "B"], ladder)["ladder"]]
    assert said == ["yes", "no"]
    even = [_record(i, seat_agents(tuple(ladder), 2, i), 0) for i in range(60)]  # seat 1
    assert [st["more_search_wins"] for st in summarize(even, ["A", "B"], ladder)["ladder"]] \
        == ["not shown", "not shown"]
    assert summarize(even, ["A", "B"], ["mcts:10", "mcts:20"])["ladder"] == []
