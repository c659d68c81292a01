"""Whole games of `rulelang serve` in a real browser (Debian's chromium driven by Playwright,
tests/serve_browser.py), as tests/serve/test_browser.py plays their start: three seats play
Muso Sakura to the end by clicks (the table made through the lobby's form; the server killed
with SIGKILL after 25 moves and restarted: every seat and the spectator must come back to the
same position), two seats play Tatara to the end. Every websocket frame and page each seat
received is searched for what it may not see. Prints, per game, the moves, the clicks on the
board and cards and the seconds; exits 1 on a failed check.

    python bench/serve_browser.py                    # both games, seeds 11 and 2
    python bench/serve_browser.py --seed 5 --games tatara
"""
from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

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


def muso_sakura(browser: Any, served: Served, seed: int) -> tuple[int, int]:
    """Three seats to the end through a restart: (moves, clicks)."""
    lobby = browser.new_context().new_page()
    lobby.goto(served.base + "/")
    form = lobby.locator('form[data-rulebook="muso_sakura"]')
    form.locator('select[name="players"]').select_option("3")
    form.locator('input[name="seed"]').fill(str(seed))
    form.locator("button[type=submit]").click()
    links = lobby.eval_on_selector_all("a.seat-link", "as => as.map(a => a.href)")
    watch = lobby.locator("#spectator").get_attribute("href")
    lobby.context.close()
    seats = [Seat(browser, link, served.base, (1280, 800)) for link in links]
    spectator = Seat(browser, watch, served.base, (1280, 800))
    everyone = [*seats, spectator]
    rng = random.Random(seed)
    try:
        moves = play_until(seats, rng, lambda: len(seats[0].frames[-1]["history"]) >= 25)
        settle(everyone)
        before, counts = [s.shown() for s in everyone], [s.views() for s in everyone]
        served.kill()
        for s in seats:
            s.page.wait_for_function("() => document.body.dataset.link === 'closed'")
        served.start()
        for s, n in zip(everyone, counts, strict=True):
            s.page.wait_for_function(f"() => +document.body.dataset.views > {n}", timeout=20000)
        assert [s.shown() for s in everyone] == before, "a seat came back elsewhere"
        moves += play_until(seats, rng, lambda: False)
        assert all(s.state() == "over" for s in seats), "the game did not end"
        end = seats[1].page
        assert end.locator("#end").is_visible() and end.locator("#result").inner_text()
        assert end.locator("#scores").inner_text().strip()
        assert request(served.base + str(end.locator("#replay").get_attribute("href")))[0] == 200
        leak_search(served, seats, spectator)
        return moves, sum(s.clicks for s in seats)
    finally:
        for s in everyone:
            s.close()


def tatara(browser: Any, served: Served, seed: int) -> tuple[int, int]:
    """Two seats to the end: (moves, clicks)."""
    status, made = post_json(served.base + "/api/tables",
                             table_spec("tatara", ["human", "human"], seed=seed))
    assert status == 200, made
    seats = [Seat(browser, s["link"], served.base, (1280, 800)) for s in made["seats"]]
    try:
        moves = play_until(seats, random.Random(seed), lambda: False)
        assert all(s.state() == "over" for s in seats), "the game did not end"
        leak_search(served, seats, None)
        return moves, sum(s.clicks for s in seats)
    finally:
        for s in seats:
            s.close()


PLAYS = {"muso_sakura": (muso_sakura, 11), "tatara": (tatara, 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="*", choices=sorted(PLAYS), default=sorted(PLAYS))
    ap.add_argument("--seed", type=int, help="the seed of every game (default: 11, 2)")
    args = ap.parse_args()
    if CHROMIUM is None:
        print("no chromium on this machine (apt-get install -y chromium)")
        return 1
    from playwright.sync_api import sync_playwright
    failed = 0
    with sync_playwright() as pw, tempfile.TemporaryDirectory() as folder:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=LAUNCH)
        with serving(Path(folder)) as served:
            for name in args.games:
                play, seed = PLAYS[name]
                seed = seed if args.seed is None else args.seed
                start = time.monotonic()
                try:
                    moves, clicks = play(browser, served, seed)
                except AssertionError as exc:
                    failed += 1
                    print(f"{name:12} seed {seed:3}: FAILED {exc}")
                    continue
                print(f"{name:12} seed {seed:3}: {moves:4} moves, {clicks:4} clicks on the "
                      f"board and cards, {time.monotonic() - start:5.1f} s")
        browser.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
