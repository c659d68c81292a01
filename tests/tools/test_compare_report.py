"""rulelang compare --out DIR: the self-contained HTML report (its plots drawn from the JSON's
figures, nothing fetched from elsewhere) and the SPRT's path."""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

from rulelang.tools.cli import main
from rulelang.tools.evidence.report_compare import interval_plot

DEAD = str(Path(__file__).parent / "rulebooks" / "dead_rules.rule")


def test_the_compare_report_plots_the_json_figures_offline(tmp_path: Path) -> None:
    assert main(["compare", "tic_tac_toe", DEAD, "--games", "40", "--sprt", "p0-win",
                 "--jobs", "1", "--out", str(tmp_path)]) == 0
    data = json.loads((tmp_path / "compare.json").read_text(encoding="utf-8"))
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert not re.search(r"(src|href)=|url\(|@import|<script", html)
    assert set(re.findall(r"https?://[^\"' ]+", html)) == {"http://www.w3.org/2000/svg"}
    assert html.count("<svg") == 4  # two interval plots, the sides' rates, the SPRT
    dots = re.findall(r'<circle class="difference"[^>]*fill="([^"]+)"><title>([^<]+)</title>',
                      html)
    shares = [name for name in data["differences"] if name in data["shares"]]
    assert {"p0-win", "p1-win", "draw", "capped", "single-option"} <= set(shares)
    assert "length" not in shares and "branching" not in shares
    assert len(dots) == len(shares) + 1  # the rates in points, then the length in plies
    assert sorted(title.split(":")[0] for _, title in dots) == sorted([*shares, "length"])
    for colour, title in dots:
        name = title.split(":")[0]
        d, k = data["differences"][name], 100 if name in shares else 1
        assert f"{k * d['diff']:+.4g}" in title and f"{k * d['low']:+.4g}" in title
        assert (colour == "#c0392b") == (d["low"] > 0 or d["high"] < 0)
    sprt = data["sprt"]
    assert len(sprt["path"]) == data["pairs"] == sprt["pairs"]
    assert math.isclose(max(sprt["path"][-1]), sprt["llr"])
    points = re.findall(r'<polyline class="llr" points="([^"]+)"', html)
    assert len(points) == 2 and all(len(p.split()) == data["pairs"] + 1 for p in points)


def test_an_interval_that_is_not_finite_runs_to_the_axis_end() -> None:
    svg = interval_plot([("length", 10.0, -math.inf, math.inf)], " plies")
    x1, x2 = map(float, re.search(r'class="interval" x1="([\d.]+)" x2="([\d.]+)"',
                                  svg).groups())  # type: ignore[union-attr]
    ticks = [float(t) for t in re.findall(r'<text x="([\d.]+)" y="54"', svg)]
    assert (x1, x2) == (min(ticks), max(ticks)) and "nan" not in svg
