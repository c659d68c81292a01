"""The figures of an evaluation, from its game records, and their terminal summary.

`summarize(records, players, agents)` returns plain JSON data: rates carry 95 % Wilson
intervals (stats.rate), spreads carry mean, sd, min and max (stats.mean_sd).
"""
from __future__ import annotations

from collections import Counter
from typing import Any

from rulelang.agents import DEFAULT_ITERATIONS
from rulelang.tools.evidence.playout import Record, ladder_step
from rulelang.tools.evidence.stats import histogram, mean_sd, rate


def summarize(records: list[Record], names: list[str], agents: list[str]) -> dict[str, Any]:
    n, players = len(records), len(names)
    finished = [r for r in records if not r["capped"]]
    sole = [r for r in finished if len(r["winners"]) == 1]
    summary: dict[str, Any] = {
        "games": n,
        "seats": [{"player": names[s],
                   "wins": rate(sum(r["winners"] == [s] for r in records), n)}
                  for s in range(players)],
        "agents": _agents(records, agents),
        "skill": {} if ladder_step(agents, players, 0) is not None
        else _skill(_agents(records, agents)),
        "ladder": _ladder(records, agents, players),
        "draws": rate(sum(not r["winners"] for r in finished), n),
        "shared_wins": rate(sum(len(r["winners"]) > 1 for r in records), n),
        "capped": rate(n - len(finished), n),
        "capped_seeds": [r["seed"] for r in records if r["capped"]][:50],
    }
    first = rate(sum(r["winners"] == [0] for r in sole), len(sole))
    fair = 1 / players
    summary["first_player"] = {
        "share_of_decided": first, "fair_share": fair,
        "advantage": bool(sole) and not first["low"] <= fair <= first["high"]}
    plies = [int(r["plies"]) for r in records]
    summary["length"] = {"plies": mean_sd(plies), "histogram": histogram(plies),
                         "turns": mean_sd([int(r.get("turns", 0)) for r in records])}
    if records and records[0].get("rounds") is not None:
        summary["length"]["rounds"] = mean_sd([int(r["rounds"]) for r in records])
    summary["scores"] = _scores(records, players)
    if summary["scores"] and records[0].get("lead_changes") is not None:
        summary["scores"]["lead_changes"] = mean_sd([int(r["lead_changes"]) for r in records])
    decisions = sum(r["branching"]["decisions"] for r in records)
    summary["branching"] = {
        "mean": sum(r["branching"]["options"] for r in records) / decisions if decisions else 0,
        "max": max((r["branching"]["max"] for r in records), default=0),
        "single_option": rate(sum(r["branching"]["single"] for r in records), decisions)}
    counts: Counter[str] = Counter()
    for r in records:
        counts.update(r["action_counts"])
    summary["actions"] = dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
    summary["distinct_games"] = len({tuple(r["actions"]) for r in records})
    summary["notable"] = _notable(records)
    return summary


def _agents(records: list[Record], agents: list[str]) -> list[dict[str, Any]]:
    """Each agent name's wins over the seats it held."""
    rows = []
    for name in dict.fromkeys(agents):
        held = won = 0
        for r in records:
            seats = [s for s, a in enumerate(r["agents"]) if a == name]
            held += len(seats)
            won += sum(r["winners"] == [s] for s in seats)
        rows.append({"agent": name, "wins": rate(won, held)})
    return rows


def _strength(agent: str) -> int | None:
    """Playouts per decision: random 0, mcts:N N; None for what cannot be ranked so."""
    kind, _, budget = agent.partition(":")
    if kind == "random" and not budget:
        return 0
    if kind == "mcts":
        return DEFAULT_ITERATIONS if not budget else int(budget) if budget.isdigit() else None
    return None


def _skill(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Does more search win more? The most and the least searching agent's win rates: "yes"
    when the intervals show the stronger ahead, "no" when they show it behind, else "not
    shown" (a game where more thought does not pay is worth a designer's attention)."""
    ranked = sorted((r for r in rows if _strength(r["agent"]) is not None),
                    key=lambda r: _strength(r["agent"]) or 0)
    if len(ranked) < 2 or _strength(ranked[0]["agent"]) == _strength(ranked[-1]["agent"]):
        return {}
    weak, strong = ranked[0], ranked[-1]
    verdict = "yes" if strong["wins"]["low"] > weak["wins"]["high"] else \
        "no" if strong["wins"]["high"] < weak["wins"]["low"] else "not shown"
    return {"stronger": strong["agent"], "weaker": weak["agent"],
            "gap": strong["wins"]["rate"] - weak["wins"]["rate"], "more_search_wins": verdict}


def _ladder(records: list[Record], agents: list[str], players: int) -> list[dict[str, Any]]:
    """Each step of a ladder of agents (playout.seat_agents): its two agents, the stronger
    by search budget (else the later in the list), the games of the step, those one of the
    two won alone, and the stronger's share of these with its interval; "more search wins
    more" as _skill says it, against the fair share of one half."""
    if ladder_step(agents, players, 0) is None:
        return []
    steps = []
    for m in range(len(agents) - 1):
        weak, strong = agents[m], agents[m + 1]
        a, b = _strength(weak), _strength(strong)
        if a is not None and b is not None and b < a:
            weak, strong = strong, weak
        games = [r for r in records if ladder_step(agents, players, r["index"]) == m]
        won = [r["agents"][r["winners"][0]] for r in games if len(r["winners"]) == 1]
        share = rate(won.count(strong), won.count(strong) + won.count(weak))
        verdict = "same agent" if weak == strong else "yes" if share["low"] > 0.5 else \
            "no" if share["high"] < 0.5 else "not shown"
        steps.append({"weaker": weak, "stronger": strong, "games": len(games),
                      "decided": share["of"], "stronger_share": share, "more_search_wins": verdict})
    return steps


def _scores(records: list[Record], players: int) -> dict[str, Any]:
    """Points per named score term over every player of every game, and the final margins
    (the best score less the second best); empty when the rulebook keeps no score terms."""
    terms = sorted({t for r in records for seat in r["terms"] for t in seat})
    if not terms:
        return {}
    per_term = {t: mean_sd([seat.get(t, 0.0) for r in records for seat in r["terms"]])
                for t in terms}
    margins = [_margin(r["scores"]) for r in records if len(r["scores"]) > 1]
    return {"terms": per_term, "margins": mean_sd(margins),
            "per_seat": [mean_sd([r["scores"][s] for r in records]) for s in range(players)]}


def _margin(scores: list[float]) -> float:
    top = sorted(scores, reverse=True)
    return top[0] - top[1]


def _notable(records: list[Record]) -> dict[str, Any]:
    if not records:
        return {}
    short = min(records, key=lambda r: (r["plies"], r["index"]))
    long = max(records, key=lambda r: (r["plies"], -r["index"]))
    found = {"shortest": {"seed": short["seed"], "index": short["index"],
                          "plies": short["plies"]},
             "longest": {"seed": long["seed"], "index": long["index"], "plies": long["plies"]}}
    scored = [r for r in records if any(r["terms"]) and len(r["scores"]) > 1]
    if scored:
        wide = max(scored, key=lambda r: (_margin(r["scores"]), -r["index"]))
        found["most_one_sided"] = {"seed": wide["seed"], "index": wide["index"],
                                   "margin": _margin(wide["scores"])}
    return found


# --- the terminal summary ----------------------------------------------------------------

def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:5.1f} %  [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _spread(s: dict[str, float]) -> str:
    return f"mean {s['mean']:.2f}, sd {s['sd']:.2f}, {s['min']:g}..{s['max']:g}"


# a "more search wins more" verdict, as the summaries say it
SAID = {"yes": "yes", "no": "NO: the weaker agent wins more",
         "not shown": "not shown (play more games)", "same agent": "(the same agent twice)"}


def summary_lines(title: str, s: dict[str, Any]) -> list[str]:
    """The summary as lines of text: rates with their 95 % intervals."""
    lines = [f"{title}: {s['games']} games", "wins (95 % Wilson interval):"]
    lines += [f"  seat {i + 1} {row['player']:<12} {_pct(row['wins'])}"
              for i, row in enumerate(s["seats"])]
    if len(s["agents"]) > 1:
        lines += [f"  agent {row['agent']:<11} {_pct(row['wins'])}" for row in s["agents"]]
    lines += [f"  draws{'':<13} {_pct(s['draws'])}"]
    if s["shared_wins"]["count"]:
        lines.append(f"  shared wins{'':<7} {_pct(s['shared_wins'])}")
    if s["capped"]["count"]:
        lines.append(f"  cut by the cap{'':<4} {_pct(s['capped'])}  seeds: "
                     + ", ".join(map(str, s["capped_seeds"][:5])))
    skill = s.get("skill")
    if skill:
        lines.append(f"skill: {skill['stronger']} against {skill['weaker']}: win rate "
                     f"{100 * skill['gap']:+.1f} points; more search wins more: "
                     + SAID[skill["more_search_wins"]])
    for step in s.get("ladder", []):
        lines.append(f"ladder: {step['weaker']} -> {step['stronger']}: {step['games']} games, "
                     f"{step['decided']} won by one of the two, {step['stronger']} "
                     f"{_pct(step['stronger_share'])}; more search wins more: "
                     + SAID[step["more_search_wins"]])
    first = s["first_player"]
    verdict = ("FIRST-PLAYER ADVANTAGE" if first["share_of_decided"]["rate"] > first["fair_share"]
               else "FIRST-PLAYER DISADVANTAGE") if first["advantage"] else "no clear advantage"
    lines.append(f"first player: {_pct(first['share_of_decided'])} of decided games, fair "
                 f"{100 * first['fair_share']:.1f} %: {verdict}")
    lines.append(f"length in plies: {_spread(s['length']['plies'])}")
    lines.append(f"length in turns: {_spread(s['length']['turns'])}"
                 + (f"; in rounds: {_spread(s['length']['rounds'])}"
                    if "rounds" in s["length"] else ""))
    b = s["branching"]
    lines.append(f"branching: mean {b['mean']:.2f}, max {b['max']}; single-option decisions "
                 f"{_pct(b['single_option'])}")
    if s["scores"]:
        lines.append("score terms (per player):")
        lines += [f"  {t:<16} {_spread(v)}" for t, v in s["scores"]["terms"].items()]
        lines.append(f"  final margin     {_spread(s['scores']['margins'])}")
        if "lead_changes" in s["scores"]:
            lines.append(f"  lead changes     {_spread(s['scores']['lead_changes'])} (the sole "
                         "leader by score, at the start of each round or turn)")
    top = list(s["actions"].items())[:8]
    lines.append("actions: " + ", ".join(f"{k} {v}" for k, v in top)
                 + (" ..." if len(s["actions"]) > 8 else ""))
    lines.append(f"distinct games: {s['distinct_games']}")
    notable = s["notable"]
    if notable:
        lines.append(f"shortest: seed {notable['shortest']['seed']} "
                     f"({notable['shortest']['plies']} plies); longest: seed "
                     f"{notable['longest']['seed']} ({notable['longest']['plies']} plies)")
    if "most_one_sided" in notable:
        lines.append(f"most one-sided: seed {notable['most_one_sided']['seed']} "
                     f"(margin {notable['most_one_sided']['margin']:g})")
    return lines


def rate_text(rate: float) -> str:
    """A rate with the digits that matter: 1850, 42.5, 0.32."""
    return f"{rate:.0f}" if rate >= 100 else f"{rate:.1f}" if rate >= 10 else f"{rate:.2f}"
