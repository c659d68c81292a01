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
