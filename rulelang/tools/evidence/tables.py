"""The terminal summaries of `rulelang evaluate` and `rulelang compare` as Rich tables, and
their progress bar (games done, games/s, time left), for a terminal. Off a terminal (a pipe,
a file, a CI log) the commands print the plain lines of report.py instead, which say the same.

Everything shown comes from the summary's plain data (report.summarize, choices.summary,
coverage.rule_coverage, compare.differences): nothing here computes a figure."""
from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from rulelang.tools.evidence.choices import short
from rulelang.tools.evidence.coverage import verb
from rulelang.tools.evidence.report import SAID, rate_text

_STYLE = {"no": "bold red", "not shown": "yellow"}  # of a "more search wins more" verdict


def _pct(r: dict[str, Any]) -> tuple[str, str]:
    return f"{100 * r['rate']:.1f} %", f"{100 * r['low']:.1f} .. {100 * r['high']:.1f} %"


def _table(title: str, *columns: str) -> Table:
    t = Table(title=title, title_justify="left", title_style="bold", show_edge=False,
              header_style="bold")
    for i, name in enumerate(columns):
        t.add_column(name, justify="left" if i == 0 else "right")
    return t


def _spread_row(t: Table, name: str, s: dict[str, float]) -> None:
    t.add_row(name, f"{s['mean']:.2f}", f"{s['sd']:.2f}", f"{s['min']:g}", f"{s['max']:g}")


def evaluate_view(title: str, s: dict[str, Any]) -> RenderableType:
    """The evaluate summary (`s`: report.summarize's data, with "choices" and, when the run
    had it, "coverage")."""
    parts: list[RenderableType] = [Text(f"{title}: {s['games']} games", style="bold")]
    wins = _table("wins", "", "rate", "95 % Wilson interval")
    for i, row in enumerate(s["seats"]):
        wins.add_row(f"seat {i + 1} {row['player']}", *_pct(row["wins"]))
    if len(s["agents"]) > 1:
        for row in s["agents"]:
            wins.add_row(f"agent {row['agent']}", *_pct(row["wins"]))
    wins.add_row("draws", *_pct(s["draws"]))
    if s["shared_wins"]["count"]:
        wins.add_row("shared wins", *_pct(s["shared_wins"]))
    if s["capped"]["count"]:
        wins.add_row("cut by the cap", *_pct(s["capped"]))
    first = s["first_player"]
    wins.add_row("first player (of decided games)", *_pct(first["share_of_decided"]))
    parts.append(wins)
    verdicts = []
    if first["advantage"]:
        side = "ADVANTAGE" if first["share_of_decided"]["rate"] > first["fair_share"] \
            else "DISADVANTAGE"
        verdicts.append(Text(f"FIRST-PLAYER {side}: the fair share "
                             f"{100 * first['fair_share']:.1f} % is outside the interval",
                             style="bold red"))
    else:
        verdicts.append(Text(f"first player: no clear advantage (fair share "
                             f"{100 * first['fair_share']:.1f} %)"))
    if s["capped"]["count"]:
        verdicts.append(Text("games cut by the cap, seeds: "
                             + ", ".join(map(str, s["capped_seeds"][:5])), style="yellow"))
    skill = s.get("skill")
    if skill:
        verdict = skill["more_search_wins"]
        verdicts.append(Text(f"skill: {skill['stronger']} against {skill['weaker']}: win rate "
                             f"{100 * skill['gap']:+.1f} points; more search wins more: "
                             + SAID[verdict], style=_STYLE.get(verdict, "")))
    parts += verdicts
    if s.get("ladder"):
        ladder = _table("ladder: does the stronger agent of each step win more?", "step",
                        "games", "won by one", "stronger's share", "95 % interval",
                        "more search wins more")
        for step in s["ladder"]:
            verdict = step["more_search_wins"]
            ladder.add_row(f"{step['weaker']} -> {step['stronger']}", str(step["games"]),
                           str(step["decided"]), *_pct(step["stronger_share"]),
                           Text(SAID[verdict], style=_STYLE.get(verdict, "")))
        parts.append(ladder)
    length = _table("length", "", "mean", "sd", "min", "max")
    _spread_row(length, "plies", s["length"]["plies"])
    _spread_row(length, "turns", s["length"]["turns"])
    if "rounds" in s["length"]:
        _spread_row(length, "rounds", s["length"]["rounds"])
    parts.append(length)
    bins = s["length"].get("histogram") or []
    if bins:
        parts.append(Text(f"plies per game: {bins[0]['low']} {sparkline(bins)} "
                          f"{bins[-1]['high']}  ({len(bins)} bins of "
                          f"{bins[0]['high'] - bins[0]['low'] + 1})"))
    b = s["branching"]
    single, interval = _pct(b["single_option"])
    parts.append(Text(f"branching: mean {b['mean']:.2f}, max {b['max']}; single-option "
                      f"decisions {single} [{interval}]"))
    if s["scores"]:
        scores = _table("score terms (per player)", "", "mean", "sd", "min", "max")
        for term, v in s["scores"]["terms"].items():
            _spread_row(scores, term, v)
        _spread_row(scores, "final margin", s["scores"]["margins"])
        if "lead_changes" in s["scores"]:
            _spread_row(scores, "lead changes", s["scores"]["lead_changes"])
        parts.append(scores)
    actions = _table("actions taken", "", "times")
    for name, n in list(s["actions"].items())[:8]:
        actions.add_row(name, str(n))
    if len(s["actions"]) > 8:
        actions.add_row(f"... {len(s['actions']) - 8} more", "")
    parts.append(actions)
    parts += _choices(s.get("choices", []))
    parts.append(Text(f"distinct games: {s['distinct_games']}"))
    notable = s["notable"]
    if notable:
        text = (f"shortest: seed {notable['shortest']['seed']} "
                f"({notable['shortest']['plies']} plies); longest: seed "
                f"{notable['longest']['seed']} ({notable['longest']['plies']} plies)")
        if "most_one_sided" in notable:
            text += (f"; most one-sided: seed {notable['most_one_sided']['seed']} "
                     f"(margin {notable['most_one_sided']['margin']:g})")
        parts.append(Text(text))
    if "coverage" in s:
        parts.append(_coverage(s["coverage"]))
    return Group(*parts)


def _choices(rows: list[dict[str, Any]], shown: int = 8, values: int = 5
             ) -> list[RenderableType]:
    if not rows:
        return []
    t = _table("choices (values taken, most taken first)", "choose", "times", "values")
    t.columns[2].justify = "left"
    for row in rows[:shown]:
        kind = f"{row['kind']} " if row["kind"] else ""
        head = f"{row['where']}: {kind}{row['var']}" + (
            " (at random)" if row["mode"] == "chance" else "")
        top = list(row["values"].items())
        said = ", ".join(f"{short(k)} {100 * n / row['taken']:.0f} %"
                         for k, n in top[:values]) if row["taken"] else "never taken"
        t.add_row(head, str(row["taken"]),
                  said + (f" ... ({len(top)} values)" if len(top) > values else ""))
    if len(rows) > shown:
        t.add_row(f"... {len(rows) - shown} more in the JSON report", "", "")
    return [t]


def _coverage(cov: dict[str, Any]) -> RenderableType:
    title = f"rule coverage ({cov['games']} of {cov['of']} games replayed)"
    if not cov["unused"]:
        return Text(f"{title}: every action, branch, end rule and score term was used",
                    style="green")
    t = _table(f"{title}: {len(cov['unused'])} never used", "where", "never", "rule")
    t.columns[1].justify = t.columns[2].justify = "left"
    for u in cov["unused"]:
        label = f"{u['what']} {u['name']}".strip()
        t.add_row(u["where"], f"{label} never {verb(u['what'])}", short(u["text"], 60))
    return t


def compare_view(heads: list[str], pairs: int, diffs: dict[str, dict[str, float]],
                 shares: set[str], units: dict[str, str], sprt_lines: list[str]
                 ) -> RenderableType:
    """The compare summary: each side's rulebook, the paired differences B - A with their
    95 % intervals (the figures named in `shares` as rates, in percentage points; the others
    in their `units`), and the SPRT's verdict lines."""
    t = _table(f"{pairs} pairs (same seeds, same seat rotation): B - A, 95 % intervals",
               "", "A", "B", "B - A", "95 % interval", "verdict")
    t.columns[-1].no_wrap = True
    for name, d in diffs.items():
        k, unit = (100, " pt") if name in shares else (1, units.get(name, ""))
        differ = d["low"] > 0 or d["high"] < 0
        t.add_row(name, f"{k * d['a']:.2f}", f"{k * d['b']:.2f}", f"{k * d['diff']:+.2f}{unit}",
                  f"{k * d['low']:+.2f} .. {k * d['high']:+.2f}",
                  Text("differ", style="bold") if differ else "no clear difference")
    return Group(*[Text(h) for h in heads], t, *[Text(line) for line in sprt_lines])


class GamesProgress:
    """A Rich progress bar on stderr: games done of all, games/s, time left. Refreshed
    only when games finish (no refresh thread: the pool forks while it runs)."""

    def __init__(self, total: int, console: Console) -> None:
        self.bar = Progress(TextColumn("games"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("{task.fields[rate]}"), TextColumn("ETA"),
                            TimeRemainingColumn(), console=console, auto_refresh=False,
                            transient=True)
        self.task = self.bar.add_task("games", total=total, rate="")
        self.bar.start()

    def advance(self, n: int, rate: float) -> None:
        self.bar.update(self.task, advance=n, rate=f"{rate_text(rate)} games/s")
        self.bar.refresh()

    def stop(self) -> None:
        self.bar.stop()


_BLOCKS = " ▁▂▃▄▅▆▇█"


def sparkline(bins: list[dict[str, int]]) -> str:
    """A histogram's counts as one block character each, the highest a full block (an empty
    bin a space, any other at least the lowest block)."""
    top = max((b["count"] for b in bins), default=0) or 1
    return "".join(_BLOCKS[0] if not b["count"] else
                   _BLOCKS[max(1, round(8 * b["count"] / top))] for b in bins)
