"""The evaluate and compare HTML reports in a real browser (Debian's chromium driven by
Playwright, as tests/tools/test_viewer_browser.py does, with its browser fixture and skip
rule): every plot is drawn (each SVG laid out at a non-zero size with painted shapes in it)
and the page makes no request but its own file. A few games only."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_viewer_browser import CHROMIUM, browser  # noqa: F401  (the fixture)

from rulelang.tools.cli import main

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine "
                                "(apt-get install -y chromium; .ci/run does)")
DEAD = str(Path(__file__).parent / "rulebooks" / "dead_rules.rule")

# per <svg>: its laid-out size, and how many shapes inside it have a non-empty box
_PLOTS = """() => [...document.querySelectorAll('svg')].map(svg => {
  const box = svg.getBoundingClientRect();
  let painted = 0;
  for (const el of svg.querySelectorAll('rect, circle, line, polyline, polygon, path')) {
    const b = el.getBBox();
    if (b.width > 0 || b.height > 0) painted += 1;
  }
  return {width: box.width, height: box.height, painted: painted};
})"""


def _plots(browser: Any, page_path: Path) -> tuple[list[dict[str, float]], list[str]]:  # noqa: F811
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    requests: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    try:
        page = context.new_page()
        page.goto(page_path.as_uri())
        page.wait_for_load_state("load")
        return page.evaluate(_PLOTS), requests
    finally:
        context.close()


def _check(plots: list[dict[str, float]], requests: list[str], page_path: Path,
           at_least: int) -> None:
    assert len(plots) >= at_least
    for i, plot in enumerate(plots):
        assert plot["width"] > 0 and plot["height"] > 0, f"plot {i} is not laid out: {plot}"
        assert plot["painted"] > 0, f"plot {i} draws nothing"
    assert requests == [page_path.as_uri()], requests


def test_the_evaluate_report_draws_every_plot_offline(browser: Any,  # noqa: F811
                                                      tmp_path: Path) -> None:
    assert main(["evaluate", "tic_tac_toe", "--games", "20", "--jobs", "1", "--coverage", "5",
                 "--out", str(tmp_path)]) == 0
    page_path = tmp_path / "report.html"
    # results, length, actions, choices and the board's heatmap
    _check(*_plots(browser, page_path), page_path, at_least=5)


def test_the_compare_report_draws_every_plot_offline(browser: Any,  # noqa: F811
                                                     tmp_path: Path) -> None:
    assert main(["compare", "tic_tac_toe", DEAD, "--games", "20", "--sprt", "p0-win",
                 "--jobs", "1", "--out", str(tmp_path)]) == 0
    page_path = tmp_path / "report.html"
    # two interval plots, the sides' rates and the SPRT's path
    _check(*_plots(browser, page_path), page_path, at_least=4)


def _open(browser: Any, page_path: Path, width: int = 1280) -> Any:  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    return context, page


# per site of the heatmap: its count, and the luminance of what is painted over it (the heat
# shape, else the cell) and of the cell under it, from the colours the browser computed
_HEAT = """() => {
  const lum = el => {
    const [r, g, b] = getComputedStyle(el).fill.match(/\\d+/g).slice(0, 3).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return [...document.querySelectorAll('svg.heatmap [data-site]')].map(site => {
    const cell = site.querySelector(':scope > .cell');
    const heat = site.querySelector(':scope > .heat');
    return {count: Number(site.dataset.count), shown: lum(heat || cell), under: lum(cell)};
  });
}"""

# every plot: whether it has a legend; every value label: whether a whisker crosses it
_LEGENDS = """() => [...document.querySelectorAll('svg')].map(svg =>
  [...svg.querySelectorAll('.legend')].some(t => t.textContent.trim().length > 0))"""
_STRUCK = """() => {
  const hit = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width &&
                        a.y < b.y + b.height && b.y < a.y + a.height;
  const out = [];
  for (const svg of document.querySelectorAll('svg')) {
    const whiskers = [...svg.querySelectorAll('line.whisker')].map(l => l.getBBox());
    for (const t of svg.querySelectorAll('text.value')) {
      const box = t.getBBox();
      if (whiskers.some(w => hit(box, {x: w.x, y: w.y - 1, width: w.width, height: 2})))
        out.push(t.textContent);
    }
  }
  return out;
}"""
_WIDE = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def test_the_heat_is_ordered_as_the_counts_over_a_neutral_board(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    assert main(["evaluate", "connect_four", "--games", "30", "--jobs", "1", "--coverage",
                 "0", "--out", str(tmp_path)]) == 0
    context, page = _open(browser, tmp_path / "report.html")
    try:
        sites = page.evaluate(_HEAT)
    finally:
        context.close()
    assert len(sites) == 42 and len({s["count"] for s in sites}) > 5
    assert len({round(s["under"]) for s in sites}) == 1  # no light and dark squares
    for a in sites:
        for b in sites:
            if a["count"] > b["count"]:
                assert a["shown"] < b["shown"], (a, b)  # played more: darker
            elif a["count"] == b["count"]:
                assert abs(a["shown"] - b["shown"]) < 1e-6


def test_every_plot_has_a_legend_and_no_label_is_struck_through(
        browser: Any, tmp_path: Path) -> None:  # noqa: F811
    assert main(["evaluate", "tic_tac_toe", "--games", "20", "--jobs", "1", "--coverage", "5",
                 "--out", str(tmp_path / "ev")]) == 0
    assert main(["compare", "tic_tac_toe", DEAD, "--games", "20", "--sprt", "p0-win",
                 "--jobs", "1", "--out", str(tmp_path / "cmp")]) == 0
    for report in (tmp_path / "ev" / "report.html", tmp_path / "cmp" / "report.html"):
        context, page = _open(browser, report)
        try:
            legends, struck = page.evaluate(_LEGENDS), page.evaluate(_STRUCK)
        finally:
            context.close()
        assert legends and all(legends), (report, legends)
        assert struck == [], (report, struck)


def test_no_report_scrolls_sideways_at_1280_px(browser: Any,  # noqa: F811
                                               tmp_path: Path) -> None:
    book = Path(__file__).parent / "rulebooks" / "late_centre_fails.rule"
    assert main(["evaluate", "spline", "--games", "6", "--jobs", "1", "--coverage", "2",
                 "--out", str(tmp_path / "spline")]) == 0
    assert main(["evaluate", str(book), "--games", "30", "--jobs", "1", "--coverage", "0",
                 "--out", str(tmp_path / "failing")]) == 1  # (long replay commands)
    for report in (tmp_path / "spline" / "report.html", tmp_path / "failing" / "report.html"):
        context, page = _open(browser, report)
        try:
            wide, window = page.evaluate(_WIDE)
        finally:
            context.close()
        assert wide <= window, report
