"""`rulelang serve` in a real browser: Debian's chromium driven by Playwright (launched with
the system browser, no download), against the real server started as `python -m rulelang
serve` on 127.0.0.1 and a free port (tests/serve_browser.py), one server and one browser for
the file. Three seats play the start of a Muso Sakura game by clicks (the table made through
the lobby's form; the server killed and restarted mid-game: every seat comes back to the same
position), two the start of a Tatara game, one person beats or loses to an MCTS seat at
Spline (keys, undo, a phone-sized screen, the end of the game). Every websocket frame and page
each seat received is searched for what it may not see (tests/serve_leaks.py). Whole games of
Muso Sakura and Tatara by clicks, through a restart: `python bench/serve_browser.py`. Skipped,
with the reason, when Playwright or chromium is missing (.ci/run installs both)."""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import rulelang

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (pip install -e '.[test]')")
pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install -e "
                    "'.[test]')")
from serve_browser import (  # noqa: E402
    CHROMIUM,
    LAUNCH,
    Seat,
    Served,
    leak_search,
    play_until,
    serving,
    settle,
)
from serve_live import post_json, request, table_spec  # noqa: E402

from rulelang.tools.records.record import parse_record  # noqa: E402

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine "
                                "(apt-get install -y chromium; .ci/run does)")


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH)
        yield b
        b.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the file's tables (the restart test leaves it running again)."""
    with serving(tmp_path_factory.mktemp("served")) as s:
        yield s


def test_muso_sakura_three_seats_by_clicks_through_a_restart(browser: Any,
                                                            served: Served) -> None:
    lobby = browser.new_context().new_page()
    lobby.goto(served.base + "/")
    form = lobby.locator('form[data-rulebook="muso_sakura"]')
    form.locator('select[name="players"]').select_option("3")
    assert form.locator(".seat:visible").count() == 3
    form.locator('input[name="seed"]').fill("11")
    form.locator("button[type=submit]").click()
    links = lobby.eval_on_selector_all("a.seat-link", "as => as.map(a => a.href)")
    watch = lobby.locator("#spectator").get_attribute("href")
    lobby.context.close()
    assert len(links) == 3 and watch
    seats = [Seat(browser, link, served.base, (1280, 800)) for link in links]
    spectator = Seat(browser, watch, served.base, (1280, 800))
    rng = random.Random(11)
    try:
        moves = play_until(seats, rng, lambda: len(seats[0].frames[-1]["history"]) >= 12)
        settle([*seats, spectator])  # every seat has had the last move's view
        before = [s.shown() for s in [*seats, spectator]]
        counts = [s.views() for s in [*seats, spectator]]
        served.kill()
        for s in seats:
            s.page.wait_for_function("() => document.body.dataset.link === 'closed'")
        served.start()
        for s, n in zip([*seats, spectator], counts, strict=True):
            s.page.wait_for_function(f"() => +document.body.dataset.views > {n}", timeout=60000)
        assert [s.shown() for s in [*seats, spectator]] == before
        assert all(s.page.locator("#scores").inner_text().strip() for s in seats)
        moves += play_until(seats, rng, lambda: len(seats[0].frames[-1]["history"]) >= 20)
        assert moves >= 20 and not any(s.state() == "over" for s in seats)
        assert sum(s.clicks for s in seats) > moves // 2  # most on the cards
        leak_search(served, seats, spectator)
    finally:
        for s in [*seats, spectator]:
            s.close()


def test_tatara_two_seats_by_clicks(browser: Any, served: Served) -> None:
    status, made = post_json(served.base + "/api/tables",
                             table_spec("tatara", ["human", "human"], seed=2))
    assert status == 200, made
    seats = [Seat(browser, s["link"], served.base, (1280, 800)) for s in made["seats"]]
    try:
        board = seats[0].page.locator("#board svg [data-site]").count()
        assert board == len(rulelang.load_game("tatara", {"players": 2}).runtime.board.sites)
        moves = play_until(seats, random.Random(2), lambda: False, limit=16)
        assert moves == 16
        assert sum(s.clicks for s in seats) > moves // 2  # most on the board itself
        leak_search(served, seats, None)
    finally:
        for s in seats:
            s.close()


def test_a_person_against_mcts_at_spline(browser: Any, served: Served) -> None:
    status, made = post_json(served.base + "/api/tables",
                             table_spec("spline", ["human", "mcts:30"], seed=4))
    assert status == 200, made
    me = Seat(browser, made["seats"][0]["link"], served.base, (390, 844))  # a phone
    try:
        page = me.page
        page.wait_for_function("() => document.body.dataset.state === 'mine'")
        wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert wide <= 1, "the page is wider than a phone's screen"
        target = page.locator("#board [data-site].target").first
        target.focus()
        page.keyboard.press("Enter")  # a move by keys: a site, then Enter
        page.wait_for_function("() => document.body.dataset.state === 'mine'")
        assert page.locator("#log li").count() == 2  # mine and the agent's
        page.keyboard.press("1")  # the first listed move
        page.wait_for_function("() => document.body.dataset.state === 'mine'")
        assert page.locator("#log li").count() == 4
        page.locator("#ask-undo").click()  # the only person: undone at once
        page.wait_for_function("() => document.querySelectorAll('#log li').length === 2")
        assert "undone" in page.locator("#flash").inner_text()
        play_until([me], random.Random(4), lambda: False)
        assert me.state() == "over"
        assert page.locator("#end").is_visible() and page.locator("#result").inner_text()
        replay = page.locator("#replay").get_attribute("href")
        assert request(served.base + replay)[0] == 200
        assert any(f.get("thinking") == "Black" for f in me.frames)
        record = parse_record(request(page.url + "/record")[2])  # (once the game is over)
        assert record.rulebook.endswith("spline.rule") and len(record.actions) >= 5
    finally:
        me.close()


def test_undo_by_agreement_of_both_people(browser: Any, served: Served) -> None:
    status, made = post_json(served.base + "/api/tables",
                             table_spec("spline", ["human", "human"], seed=1))
    assert status == 200, made
    white, black = (Seat(browser, s["link"], served.base, (1280, 800))
                    for s in made["seats"])
    try:
        play_until([white, black], random.Random(1),
                   lambda: black.state() == "mine" and white.state() == "waiting")
        black.play(black.options()[0])
        white.page.wait_for_function("() => document.body.dataset.state === 'mine'")
        settle([white, black])
        played = white.page.locator("#log li").count()  # (2, unless a page lagged a move)
        black.page.locator("#ask-undo").click()
        white.page.wait_for_function("() => !document.getElementById('undo-ask').hidden")
        assert "Black asks to undo" in white.page.locator("#undo-text").inner_text()
        assert white.page.locator("#log li").count() == played  # not yet: White must agree
        white.page.locator("#undo-yes").click()
        for seat in (white, black):
            seat.page.wait_for_function(
                f"() => document.querySelectorAll('#log li').length === {played - 1}")
        assert black.state() == "mine" and "undone" in black.page.locator(
            "#flash").inner_text()
    finally:
        white.close()
        black.close()
