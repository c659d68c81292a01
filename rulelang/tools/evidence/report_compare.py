"""The comparison of two sides as one self-contained HTML page (`rulelang compare --out DIR`
writes DIR/report.html): the paired differences B - A with their 95 % intervals as SVG
interval plots, each side's win rates with their Wilson intervals, and the SPRT's path with
its bounds. Inline SVG and a style element only: no script, no file or font from elsewhere,
so it opens offline and makes no network request."""
from __future__ import annotations

import math
from html import escape
from typing import Any

from rulelang.tools.evidence.report_html import _CSS, _bars, _table, failed_games, legend

_W, _ROW, _LABEL = 560, 30, 110
_SVG = ('<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        'viewBox="0 0 {w} {h}" role="img">')


def _finite(x: float, bound: float) -> float:
    return max(-bound, min(bound, x)) if math.isfinite(x) else math.copysign(bound, x)


def interval_plot(rows: list[tuple[str, float, float, float]], unit: str) -> str:
    """One line per (label, difference, low, high): a dot at the difference, a whisker over
    its interval, on an axis symmetric about 0 (an interval that is not finite, with one
    pair, runs to the axis' end)."""
    finite = [abs(v) for _, d, lo, hi in rows for v in (d, lo, hi) if math.isfinite(v)]
    reach = 1.1 * max(finite, default=0.0) or 1.0
    room = _W - _LABEL - 20
    height = _ROW * len(rows) + 30

    def x(v: float) -> float:
        return _LABEL + room * (_finite(v, reach) + reach) / (2 * reach)

    parts = [_SVG.format(w=_W, h=height + 16),
             f'<line x1="{x(0):.1f}" x2="{x(0):.1f}" y1="2" y2="{height - 22}" '
             'stroke="#888" stroke-dasharray="3,3"/>',
             legend(8, height + 10, "dot: the mean difference B - A; whisker: its 95 % "
                    "interval; red: the interval excludes 0")]
    for v, anchor in ((-reach, "start"), (0.0, "middle"), (reach, "end")):
        parts.append(f'<text x="{x(v):.1f}" y="{height - 6}" font-size="10" '
                     f'text-anchor="{anchor}">{v:+.3g}{unit}</text>')
    for i, (label, diff, low, high) in enumerate(rows):
        y = 8 + i * _ROW + _ROW / 2
        shows = low > 0 or high < 0
        colour = "#c0392b" if shows else "#5b8bd0"
        parts += [f'<text x="{_LABEL - 8}" y="{y + 4:.1f}" text-anchor="end" '
                  f'font-size="12">{escape(label)}</text>',
                  f'<line class="interval" x1="{x(low):.1f}" x2="{x(high):.1f}" y1="{y:.1f}" '
                  f'y2="{y:.1f}" stroke="{colour}" stroke-width="2"/>',
                  f'<circle class="difference" cx="{x(diff):.1f}" cy="{y:.1f}" r="4" '
                  f'fill="{colour}"><title>{escape(label)}: {diff:+.4g}{unit} '
                  f'[{low:+.4g}, {high:+.4g}]</title></circle>']
    parts.append("</svg>")
    return "".join(parts)


def sprt_plot(path: list[tuple[float, float]], lower: float, upper: float) -> str:
    """The two log likelihood ratios after each pair, between the SPRT's bounds."""
    height, left, room = 200, 40, _W - 60
    top = max([upper, *(max(p) for p in path)]) * 1.05
    bottom = min([lower, *(min(p) for p in path)]) * 1.05
    n = max(1, len(path))

    def xy(i: int, v: float) -> str:
        return f"{left + room * i / n:.1f},{10 + (height - 20) * (top - v) / (top - bottom):.1f}"

    parts = [_SVG.format(w=_W, h=height + 36)]
    for v, name in ((upper, "accept H1"), (lower, "accept H0"), (0.0, "")):
        y = xy(0, v).split(",")[1]
        parts.append(f'<line x1="{left}" x2="{left + room}" y1="{y}" y2="{y}" stroke="#888" '
                     f'stroke-dasharray="{"" if name else "2,4"}"/>')
        if name:
            parts.append(f'<text x="{left + 4}" y="{float(y) - 4:.1f}" font-size="10">'
                         f'{name} ({v:.2f})</text>')
    for k, (colour, what) in enumerate((("#c0392b", "B higher"), ("#5b8bd0", "A higher"))):
        points = " ".join([xy(0, 0.0)] + [xy(i + 1, p[k]) for i, p in enumerate(path)])
        parts.append(f'<polyline class="llr" points="{points}" fill="none" '
                     f'stroke="{colour}" stroke-width="1.5"><title>log likelihood ratio, '
                     f'{what}</title></polyline>')
    parts.append(f'<text x="{left}" y="{height + 14}" font-size="10">pairs: 0 .. '
                 f'{len(path)}</text>')
    for k, (colour, what) in enumerate((("#c0392b", "log likelihood ratio: B higher"),
                                        ("#5b8bd0", "log likelihood ratio: A higher"),
                                        ("#888", "the bounds"))):
        x = left + 190 * k
        parts += [f'<line x1="{x}" x2="{x + 18}" y1="{height + 27}" y2="{height + 27}" '
                  f'stroke="{colour}" stroke-width="2"/>',
                  legend(x + 22, height + 31, what)]
    parts.append("</svg>")
    return "".join(parts)


def _side_rates(a: dict[str, Any], b: dict[str, Any]) -> str:
    rows = []
    for side, data in (("A", a), ("B", b)):
        s = data["summary"]
        rows += [(f"{side} seat {i + 1}", r["wins"]["rate"], r["wins"]["low"], r["wins"]["high"])
                 for i, r in enumerate(s["seats"])]
        rows.append((f"{side} draws", s["draws"]["rate"], s["draws"]["low"],
                     s["draws"]["high"]))
    return _bars(rows, 1.0, "%", "the rate of games")


def compare_page(data: dict[str, Any], lines: list[str]) -> str:
    """The page of one comparison (`data`: what compare.json holds; `lines`: the terminal
    summary, shown verbatim)."""
    d = data["differences"]
    title = f"{data['a']['game']} against {data['b']['game']}"
    sides = [[side, f"{data[k]['game']} ({data[k]['rulebook']})",
              ", ".join(f"{o}={v}" for o, v in data[k]["options"].items()) or "-"]
             for side, k in (("A", "a"), ("B", "b"))]
    body = [f"<h1>{escape(title)}</h1>",
            _table(["side", "rulebook", "options"], sides),
            f"<p>{data['pairs']} pairs: game i of each side from the same seed with the same "
            f"seat rotation; agents {escape(', '.join(data['a']['agents']))}</p>",
            *failed_games(data["a"]["failures"], ", side A"),
            *failed_games(data["b"]["failures"], ", side B"),
            "<h2>Paired differences, B - A</h2>",
            "<p>dots: the mean difference; whiskers: its 95 % interval (red when it excludes "
            "0)</p>",
            interval_plot([(name, 100 * v["diff"], 100 * v["low"], 100 * v["high"])
                           for name, v in d.items() if name in data["shares"]], " pt"),
            interval_plot([("length", d["length"]["diff"], d["length"]["low"],
                            d["length"]["high"])], " plies"),
            _table(["metric", "A", "B", "B - A", "95 % interval"],
                   [[name, f"{v['a']:.4g}", f"{v['b']:.4g}", f"{v['diff']:+.4g}",
                     f"[{v['low']:+.4g}, {v['high']:+.4g}]"] for name, v in d.items()]),
            "<h2>Each side's results</h2>", _side_rates(data["a"], data["b"]),
            "<p>bars: the rate; whiskers: its 95 % Wilson interval</p>"]
    sprt = data.get("sprt")
    if sprt is not None:
        body += [f"<h2>SPRT on {escape(sprt['metric'])}</h2>",
                 f"<p>decision: {escape(str(sprt['decision']))} after {sprt['pairs']} pairs "
                 f"({sprt['b_higher']} B higher, {sprt['a_higher']} A higher)</p>",
                 sprt_plot(sprt["path"], *sprt["bounds"])]
    body += ["<h2>Summary</h2>", "<pre>" + escape("\n".join(lines)) + "</pre>"]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
