"""The replay page in a real browser: Debian's chromium driven by Playwright (from PyPI,
launched with the system browser's executable: no browser download). Keys step through a
game, a deep link opens its ply, the drawn sites are the board's, the picture is not blank,
and no request leaves the page. Skipped, with the reason, when Playwright or chromium is
missing (.ci/run installs both)."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.agents import make_agent
from rulelang.tools.pictures.viewer import replay_page

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (pip install -e '.[test]')")
CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and Path(p).is_file()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine "
                                "(apt-get install -y chromium; .ci/run does)")


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM,
                               args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


def _page(tmp_path: Path, name: str, seed: int,
          options: dict[str, Any] | None = None) -> tuple[Path, int, int]:
    game = rulelang.load_game(name, options)
    state = game.new_initial_state(seed=seed)
    agent = make_agent("random", seed=seed)
    while not state.is_terminal():
        state.apply_action(agent.choose(state))
    out = tmp_path / f"{name}.html"
    out.write_text(replay_page(game, seed, list(state.history()), 0), encoding="utf-8")
    return out, len(state.history()), len(game.runtime.board.sites)


def _open(browser: Any, url: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    return context, page, requests


def _ply(page: Any) -> int:
    return int(page.evaluate("document.body.dataset.ply"))


def test_keys_step_through_a_game(browser: Any, tmp_path: Path) -> None:
    path, moves, sites = _page(tmp_path, "hex", 1, {"size": 7})  # (11x11: a 6 MB page)
    context, page, requests = _open(browser, path.as_uri())
    try:
        assert _ply(page) == 0
        assert page.locator("#board svg .site").count() == sites
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")
        assert _ply(page) == 2 and page.evaluate("location.hash") == "#ply=2"
        assert page.locator("#board svg .piece").count() == 2
        assert page.locator("#board svg .site.lastmove").count() == 1
        assert page.locator("#moves li.current").get_attribute("data-ply") == "2"
        page.keyboard.press("ArrowLeft")
        assert _ply(page) == 1 and page.locator("#board svg .piece").count() == 1
        page.keyboard.press("End")
        assert _ply(page) == moves
        page.keyboard.press("ArrowRight")
        assert _ply(page) == moves
        page.keyboard.press("Home")
        assert _ply(page) == 0 and page.locator("#board svg .piece").count() == 0
        box = page.locator("#board svg").bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 100
        assert page.evaluate(_PAINTED) > 1, "the picture is blank"
        page.keyboard.press("End")
        assert page.evaluate(_PAINTED) > 2  # the board and both players' stones
    finally:
        context.close()
    assert requests and all(u.startswith(("file:", "data:")) for u in requests), requests


def test_deep_link_opens_its_ply(browser: Any, tmp_path: Path) -> None:
    path, moves, sites = _page(tmp_path, "karesansui", 2)
    context, page, requests = _open(browser, path.as_uri() + "#ply=7")
    try:
        assert _ply(page) == 7
        assert page.locator("#moves li.current").get_attribute("data-ply") == "7"
        assert page.locator("#board svg .site").count() == sites
        assert page.locator("#board svg .piece").count() > 0
        page.evaluate("location.hash = '#ply=3'")
        page.wait_for_function("document.body.dataset.ply === '3'")
        page.keyboard.press("End")
        assert _ply(page) == moves and page.locator("#scores table tr").count() == 3
    finally:
        context.close()
    assert all(u.startswith(("file:", "data:")) for u in requests), requests


_PAINTED = """() => {
  const fills = new Set();
  for (const el of document.querySelectorAll('#board svg rect, #board svg circle,'
                                             + ' #board svg polygon')) {
    const box = el.getBBox();
    if (box.width > 0 && box.height > 0) fills.add(getComputedStyle(el).fill);
  }
  return fills.size;
}"""


_PIECES = """() => [...document.querySelectorAll('#board svg .piece')].map(g => {
  const body = g.querySelector('.body');
  return {kind: g.dataset.piece, owner: g.dataset.owner || '', label: g.dataset.label || '',
          tag: body.tagName, corners: (body.getAttribute('points') || '').split(' ').length,
          dashed: body.getAttribute('stroke-dasharray') || ''};
})"""
_PANEL = "() => [...document.querySelectorAll('#board svg .panel text')]" \
    ".map(t => t.textContent).join('\\n')"


def test_tatara_pieces_differ_by_kind_and_the_panel_follows_the_view(
        browser: Any, tmp_path: Path) -> None:
    """Every kind of piece on Tatara's board has a body of its own (tag and corners) and
    a letter of its own; a sapling (lying) and a grown tree (standing) differ; the panel beside
    the board holds only what the rulebook's `view` shows, by the names it gives."""
    game = rulelang.load_game("tatara")
    state = game.new_initial_state(seed=2)
    agent = make_agent("random", seed=2)
    while len(state.history()) < 120 and not state.is_terminal():
        state.apply_action(agent.choose(state))
    path = tmp_path / "tatara.html"
    path.write_text(replay_page(game, 2, list(state.history()), 0), encoding="utf-8")
    context, page, _ = _open(browser, path.as_uri())
    try:
        page.keyboard.press("End")
        pieces = page.evaluate(_PIECES)
        panel = page.evaluate(_PANEL)
        first_move = page.locator("#moves li").first.inner_text()
    finally:
        context.close()
    bodies: dict[str, set[tuple[str, int]]] = {}
    letters: dict[str, set[str]] = {}
    for p in pieces:
        bodies.setdefault(p["kind"], set()).add((p["tag"], p["corners"]))
        glyph = p["label"][1:] if p["owner"] else p["label"]  # without the owner's digit
        letters.setdefault(p["kind"], set()).add(glyph.rstrip("0123456789").lower())
    assert len(bodies) >= 5, bodies  # pawns, tatara, trees of several kinds
    assert all(len(b) == 1 for b in bodies.values()), bodies  # one body a kind
    assert len({next(iter(b)) for b in bodies.values()}) == len(bodies), bodies
    assert len({next(iter(x)) for x in letters.values()}) == len(letters), letters
    trees = [p for p in pieces if p["kind"] in ("pine", "cedar", "sawtooth", "oak", "beech")]
    assert {p["dashed"] != "" for p in trees} == {True, False}  # saplings and grown trees
    for name in ("figure", "beech_out", "blocks", "standing", "allowance", "extra"):
        assert name not in panel, (name, panel)  # hidden, or shown by another name
    assert "movement left" in panel and "saved movement" in panel
    assert first_move.startswith("Player2 ")  # the mover (setup: from the right)


_MISSING = """() => {
  function drawn(ch) {
    const c = document.createElement('canvas');
    c.width = c.height = 40;
    const g = c.getContext('2d');
    g.font = '32px sans-serif';
    g.fillText(ch, 2, 32);
    return Array.from(g.getImageData(0, 0, 40, 40).data).join(',');
  }
  return drawn('\\u540d') === drawn('\\u5712');
}"""


def test_a_missing_cjk_font_is_said(browser: Any, tmp_path: Path) -> None:
    """Muso Sakura's cards have Japanese names: where this browser has no font for them the
    page says which font is missing; a game without such names never says it."""
    paths = []
    for name in ("muso_sakura", "tic_tac_toe"):
        game = rulelang.load_game(name)
        state = game.new_initial_state(seed=1)
        agent = make_agent("random", seed=1)
        for _ in range(4):
            state.apply_action(agent.choose(state))
        paths.append(tmp_path / f"{name}.html")
        paths[-1].write_text(replay_page(game, 1, list(state.history()), 0), encoding="utf-8")
    for path, names in zip(paths, (True, False), strict=True):
        context, page, _ = _open(browser, path.as_uri())
        try:
            missing = page.evaluate(_MISSING)
            note = page.locator("#fonts")
            assert note.is_visible() == (names and missing)
            if names and missing:
                assert "CJK font" in note.inner_text()
        finally:
            context.close()
