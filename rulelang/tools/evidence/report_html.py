"""The evaluation as one self-contained HTML page: tables and inline SVG bar plots, no script,
no style sheet or font from elsewhere, so it opens offline and makes no network request."""
from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from rulelang.tools.evidence.choices import short

_W, _BAR, _LABEL = 560, 22, 150
# (nothing wider than the page: plots shrink to it, long lines and cells wrap)
_CSS = ("body{font-family:sans-serif;max-width:780px;margin:2em auto;padding:0 8px;"
        "color:#222}svg{max-width:100%;height:auto}"
        "table{border-collapse:collapse;max-width:100%}td,th{padding:2px 10px;"
        "text-align:left;overflow-wrap:anywhere}pre{white-space:pre-wrap;"
        "overflow-wrap:anywhere}tr:nth-child(even){background:#f3f3f3}h2{margin-top:1.6em}"
        ".legend{font-size:11px;fill:#444}")


def legend(x: float, y: float, text: str) -> str:
    """A plot's legend line (every plot has one)."""
    return f'<text class="legend" x="{x:.1f}" y="{y:.1f}">{escape(text)}</text>'


def _bars(rows: Sequence[tuple[str, float, float | None, float | None]], scale: float,
          unit: str = "", what: str = "") -> str:
    """Horizontal bars (label, value, low, high); low/high draw a 95 % interval whisker.
    Each value is written after its bar and its whisker (never across one); the legend
    says what a bar (`what`) and a whisker are."""
    height = _BAR * len(rows) + 26
    room = _W - _LABEL - 70
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{height}" '
             f'viewBox="0 0 {_W} {height}" role="img">']
    whiskers = False
    for i, (label, value, low, high) in enumerate(rows):
        y = 5 + i * _BAR
        width = room * value / scale if scale else 0
        parts.append(f'<text x="{_LABEL - 6}" y="{y + 15}" text-anchor="end" '
                     f'font-size="12">{escape(label)}</text>')
        parts.append(f'<rect x="{_LABEL}" y="{y + 3}" width="{width:.1f}" height="{_BAR - 6}" '
                     f'fill="#5b8bd0"/>')
        end = _LABEL + width
        if low is not None and high is not None:
            whiskers = True
            x0, x1 = _LABEL + room * low / scale, _LABEL + room * high / scale
            parts.append(f'<line class="whisker" x1="{x0:.1f}" x2="{x1:.1f}" y1="{y + 11}" '
                         f'y2="{y + 11}" stroke="#222" stroke-width="1.5"/>')
            end = max(end, x1)
        text = f"{100 * value:.1f} %" if unit == "%" else f"{value:g}"
        parts.append(f'<text class="value" x="{end + 6:.1f}" y="{y + 15}" font-size="12">'
                     f'{text}</text>')
    said = f"bar: {what or ('the rate' if whiskers else 'the count')}"
    parts.append(legend(_LABEL, height - 6, said + ("; whisker: its 95 % interval"
                                                     if whiskers else "")))
    parts.append("</svg>")
    return "".join(parts)


def _histogram(bins: list[dict[str, int]]) -> str:
    if not bins:
        return "<p>no games</p>"
    height, top = 160, max(b["count"] for b in bins) or 1
    step = (_W - 40) / len(bins)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_W}" height="{height + 44}" '
             f'viewBox="0 0 {_W} {height + 44}" role="img">',
             legend(20, height + 38, "bar: the games of that length in plies (most: "
                    f"{top})")]
    for i, b in enumerate(bins):
        h = height * b["count"] / top
        x = 20 + i * step
        label = str(b["low"]) if b["low"] == b["high"] else f"{b['low']}-{b['high']}"
        parts.append(f'<rect x="{x:.1f}" y="{height - h:.1f}" width="{step - 2:.1f}" '
                     f'height="{h:.1f}" fill="#5b8bd0"><title>{label} plies: {b["count"]} '
                     f'games</title></rect>')
        if i % max(1, len(bins) // 8) == 0:
            parts.append(f'<text x="{x:.1f}" y="{height + 14}" font-size="10">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _rate_row(label: str, r: dict[str, Any]) -> tuple[str, float, float, float]:
    return (label, r["rate"], r["low"], r["high"])


def _table(head: list[str], rows: list[list[str]]) -> str:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return f"<table><tr>{cells}</tr>{body}</table>"


def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:.1f} % [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _choices(rows: list[dict[str, Any]], most: int = 12, values: int = 12) -> list[str]:
    """Per choose taken (the first `most`): the shares of its most taken values."""
    taken = [r for r in rows if r["taken"]]
    if not taken:
        return []
    out = ["<h2>Choices</h2>", "<p>each <code>choose</code> of the rules, at its "
           "file:line:col: the share of each value it took (the first "
           f"{values}; all of them in the JSON report)</p>"]
    for row in taken[:most]:
        top = [(short(k, 22), n / row["taken"], None, None)
               for k, n in list(row["values"].items())[:values]]
        kind = f"{row['kind']} " if row["kind"] else ""
        mode = " (at random)" if row["mode"] == "chance" else ""
        out += [f"<h3>{escape(row['where'])}: {escape(kind + row['var'])}{mode}, "
                f"{row['taken']} times</h3>", _bars(top, max(v for _, v, _, _ in top), "%",
                                                    "the share of the times it took that value")]
    never = [r for r in rows if not r["taken"]]
    if never:
        out.append("<p>never taken: " + escape(", ".join(f"{r['where']} {r['var']}"
                                                        for r in never)) + "</p>")
    return out


def failed_games(failures: list[dict[str, Any]], side: str = "") -> list[str]:
    """The games that met a rule error: seed, ply, error, rule calls, replay command."""
    if not failures:
        return []
    rows = [[str(r["index"]), str(r["seed"]), str(r["plies"]),
             f"{r['failed']['at'] or ''} error[{r['failed']['code']}]: "
             f"{r['failed']['message']}",
             " > ".join(f"{at} in {name}" for at, name in r["failed"]["calls"]),
             r["replay"]] for r in failures]
    return [f"<h2>Failed games{side}</h2>",
            f"<p>{len(failures)} games met a rule error; the figures are those of the "
            "others</p>",
            _table(["game", "seed", "plies", "error", "rule calls", "replay"], rows)]


def page(title: str, setup: dict[str, Any], s: dict[str, Any], lines: list[str],
         heatmap: str | None = None, failures: list[dict[str, Any]] | None = None) -> str:
    """The report page of one evaluation (`lines`: the terminal summary, shown verbatim;
    `heatmap`: the SVG of the sites played, when the game has a board; `failures`: the
    games that met a rule error)."""
    rates = [_rate_row(f"seat {i + 1} {row['player']}", row["wins"])
             for i, row in enumerate(s["seats"])]
    rates += [_rate_row("draws", s["draws"])]
    if s["capped"]["count"]:
        rates.append(_rate_row("cut by the cap", s["capped"]))
    top = list(s["actions"].items())[:20]
    scale = max((v for _, v in top), default=1)
    body = [f"<h1>{escape(title)}</h1>",
            "<p>" + escape(", ".join(f"{k}: {v}" for k, v in setup.items())) + "</p>",
            *failed_games(failures or []),
            "<h2>Results</h2>", _bars(rates, 1.0, "%", "the rate of games"),
            "<p>bars: the rate; whiskers: its 95 % Wilson interval</p>",
            _table(["", "rate [95 % interval]"],
                   [[f"seat {i + 1} {row['player']}", _pct(row["wins"])]
                    for i, row in enumerate(s["seats"])]
                   + [[f"agent {row['agent']}", _pct(row["wins"])] for row in s["agents"]]
                   + [["draws", _pct(s["draws"])], ["shared wins", _pct(s["shared_wins"])],
                      ["cut by the cap", _pct(s["capped"])],
                      ["first player, of decided games", _pct(
                          s["first_player"]["share_of_decided"])]]),
            *_ladder(s.get("ladder", [])),
            "<h2>Length in plies</h2>", _histogram(s["length"]["histogram"]),
            "<h2>Actions taken</h2>",
            _bars([(k, float(v), None, None) for k, v in top], float(scale), "",
                  "how often the action was taken")]
    body += _choices(s.get("choices", []))
    if heatmap is not None:
        body += ["<h2>Sites played</h2>", heatmap,
                 "<p>the darker a site, the more actions named it (its count in its title)</p>"]
    if s["scores"]:
        terms = s["scores"]["terms"]
        body += ["<h2>Score terms (per player)</h2>",
                 _table(["term", "mean", "sd", "min", "max"],
                        [[t, f"{v['mean']:.2f}", f"{v['sd']:.2f}", f"{v['min']:g}",
                          f"{v['max']:g}"] for t, v in terms.items()])]
    cov = s.get("coverage")
    if cov is not None:
        body += [f"<h2>Rule coverage</h2><p>{cov['games']} of {cov['of']} games replayed; "
                 f"{len(cov['unused'])} parts of the rules never used</p>"]
        if cov["unused"]:
            body.append(_table(["where", "what", "rule"], [
                [u["where"], f"{u['what']} {u['name']}".strip(), u["text"]]
                for u in cov["unused"]]))
    body += ["<h2>Summary</h2>", "<pre>" + escape("\n".join(lines)) + "</pre>"]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _ladder(steps: list[dict[str, Any]]) -> list[str]:
    """The ladder's steps (report._ladder) as a table."""
    if not steps:
        return []
    return ["<h2>Ladder of agents</h2>", _table(
        ["step", "games", "won by one of the two", "stronger's share [95 % interval]",
         "more search wins more"],
        [[f"{st['weaker']} -> {st['stronger']}", str(st["games"]), str(st["decided"]),
          _pct(st["stronger_share"]), st["more_search_wins"]] for st in steps])]
