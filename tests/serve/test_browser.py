"""`rulelang serve` in a real browser: Debian's chromium driven by Playwright (launched with
the system browser, no download), against the real server started as `python -m rulelang
serve` on 127.0.0.1 and a free port. Three seats play Muso Sakura to the end by clicks (the
table made through the lobby's form; the server killed and restarted mid-game: every seat
comes back to the same position), two play Tatara to the end, one person beats or loses to
an MCTS seat at Spline (keys, undo, a phone-sized screen). Every websocket frame and page
each seat received is searched for what it may not see (tests/serve_leaks.py). Skipped,
with the reason, when Playwright or chromium is missing (.ci/run installs both)."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

import rulelang

sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed (pip install -e '.[test]')")
pytest.importorskip("uvicorn", reason="the serve extra is not installed (pip install -e "
                    "'.[test]')")
from serve_leaks import check_frames  # noqa: E402
from serve_live import free_port, post_json, request, table_spec  # noqa: E402

from rulelang.tools.records.record import parse_record  # noqa: E402

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and Path(p).is_file()), None)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine "
                                "(apt-get install -y chromium; .ci/run does)")
ROOT = Path(__file__).resolve().parents[2]
GAMES = ["muso_sakura", "tatara", "spline"]


@pytest.fixture(scope="module")
def browser() -> Any:
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM,
                               args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        yield b
        b.close()


class Served:
    """`rulelang serve` as its own process; `restart()` kills it (SIGKILL) and starts it
    again on the same port and database."""

    def __init__(self, db: Path) -> None:
        self.db, self.port = db, free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rulelang", "serve", *GAMES, "--port", str(self.port),
             "--db", str(self.db), "--workers", "1"], env=env, cwd=ROOT,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                assert self.proc.poll() is None, self.proc.stderr.read().decode()  # type: ignore[union-attr]
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.communicate(timeout=10)  # (and its pipe closed)

    def stop(self) -> str:
        """Stop it; its error output (empty when nothing went wrong)."""
        assert self.proc is not None
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        return err.decode()


@contextmanager
def serving(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path / "tables.db")
    served.start()
    try:
        yield served
    finally:
        if served.proc is not None and served.proc.poll() is None:
            errors = served.stop()
            assert "Traceback" not in errors, errors


class Seat:
    """One browser context at one seat's link: its page, and every frame it received."""

    def __init__(self, browser: Any, link: str, base: str, size: tuple[int, int]) -> None:
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        self.page = self.context.new_page()
        self.frames: list[dict[str, Any]] = []
        self.requests: list[str] = []
        self.clicks = 0  # on the board, its cards and zones
        self.base = base
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._frame))
        self.page.goto(link)
        self.html = self.page.content()

    def _frame(self, payload: Any) -> None:
        message = json.loads(payload)
        if message.get("type") == "view":
            self.frames.append(message)

    def state(self) -> str:
        return str(self.page.evaluate("document.body.dataset.state || ''"))

    def views(self) -> int:
        return int(self.page.evaluate("+document.body.dataset.views || 0"))

    def shown(self) -> str:
        """What the page shows of the game (board, cards, log, scores, moves)."""
        return str(self.page.evaluate("document.querySelector('main').innerHTML"))

    def sent(self) -> int:
        return int(self.page.evaluate("+document.body.dataset.sent || 0"))

    def options(self) -> list[str]:
        return list(self.page.eval_on_selector_all("#moves button",
                                                   "bs => bs.map(b => b.dataset.label)"))

    def play(self, label: str) -> None:
        """Make the move by clicking what it names on the board (sites, cards, zones), then,
        when clicks leave several moves, its button in the move list: real mouse clicks at
        the element's place on the screen."""
        views, sent, targets = self.page.evaluate(_STATUS)
        for word in {w: None for w in re.split(r"[\s(),]+", label) if w in targets}:
            found = self._click(f'#board [data-site="{word}"].target, '
                                f'.chip.target[data-word="{word}"]', sent)
            if found == "sent":
                break
            self.clicks += found == "clicked"
        else:
            assert self._click(f'#moves button[data-label="{label}"]', sent) != "none", label
        self.page.wait_for_function(f"() => +document.body.dataset.views > {views}")
        assert self.sent() == sent + 1

    def _click(self, selector: str, sent: int) -> str:
        """Click the element (if the move is not sent yet): "clicked", "none" (no such
        element) or "sent" (the clicks before sent the move)."""
        box = self.page.evaluate(_PLACE, [selector, sent])
        if isinstance(box, str):
            return box
        self.page.mouse.click(box[0], box[1])
        return "clicked"

    def close(self) -> None:
        self.context.close()


_STATUS = """() => [+(document.body.dataset.views || 0), +(document.body.dataset.sent || 0),
  Array.from(document.querySelectorAll('.target'), el => el.dataset.site || el.dataset.word)]
"""
_PLACE = """([selector, sent]) => {
  if (+(document.body.dataset.sent || 0) > sent) return 'sent';
  const el = document.querySelector(selector);
  if (!el) return 'none';
  el.scrollIntoView({block: 'center'});
  const r = el.getBoundingClientRect();
  return [r.left + r.width / 2, r.top + r.height / 2];
}"""


def play_until(seats: list[Seat], rng: random.Random, done: Any, limit: int = 2000) -> int:
    """Whoever's page offers moves makes a random one by clicks, until done() or the end."""
    moves = 0
    deadline = time.monotonic() + 300
    while not done() and moves < limit:
        mine = [s for s in seats if s.state() == "mine"]
        if not mine:
            assert time.monotonic() < deadline, "no seat got a move to make"
            if all(s.state() == "over" for s in seats):
                break
            time.sleep(0.01)
            continue
        seat = mine[0]
        seat.play(rng.choice(seat.options()))
        moves += 1
    return moves


def settle(seats: list[Seat]) -> None:
    """Wait until every page shows a log of the same length (a game without runs of secret
    choices: every seat's log has an entry per move)."""
    deadline = time.monotonic() + 10
    while len({s.page.evaluate("document.body.dataset.moves") for s in seats}) > 1:
        assert time.monotonic() < deadline, "the seats' views do not agree"
        time.sleep(0.02)


def _leak_search(served: Served, seats: list[Seat], spectator: Seat | None) -> None:
    for s in [*seats, *([spectator] if spectator else [])]:
        s.page.wait_for_timeout(100)  # the last frames' events reach the lists
    record = parse_record(request(seats[0].page.url + "/record")[2])
    game = rulelang.load_game(record.rulebook, record.options)
    received = {i: s.frames for i, s in enumerate(seats)}
    pages = {i: s.html for i, s in enumerate(seats)}
    if spectator is not None:
        received[-1], pages[-1] = spectator.frames, spectator.html
    assert check_frames(game, record.seed, record.actions, received, pages) > len(
        record.actions)
    for s in [*seats, *([spectator] if spectator else [])]:
        assert all(u.startswith((served.base, "data:", "about:")) for u in s.requests), \
            s.requests


def test_muso_sakura_three_seats_by_clicks_through_a_restart(browser: Any,
                                                            tmp_path: Path) -> None:
    with serving(tmp_path) as served:
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
            play_until(seats, rng, lambda: len(seats[0].frames[-1]["history"]) >= 25)
            settle([*seats, spectator])  # every seat has had the last move's view
            before = [s.shown() for s in [*seats, spectator]]
            counts = [s.views() for s in [*seats, spectator]]
            served.kill()
            for s in seats:
                s.page.wait_for_function("() => document.body.dataset.link === 'closed'")
            served.start()
            for s, n in zip([*seats, spectator], counts, strict=True):
                s.page.wait_for_function(f"() => +document.body.dataset.views > {n}", timeout=20000)
            assert [s.shown() for s in [*seats, spectator]] == before
            moves = play_until(seats, rng, lambda: False)
            assert all(s.state() == "over" for s in seats)
            assert sum(s.clicks for s in seats) > moves // 2  # most on the cards
            end = seats[1].page
            assert end.locator("#end").is_visible() and end.locator("#result").inner_text()
            assert end.locator("#scores").inner_text().strip()
            replay = end.locator("#replay").get_attribute("href")
            assert request(served.base + replay)[0] == 200
            _leak_search(served, seats, spectator)
        finally:
            for s in [*seats, spectator]:
                s.close()


def test_tatara_two_seats_by_clicks(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path) as served:
        status, made = post_json(served.base + "/api/tables",
                                 table_spec("tatara", ["human", "human"], seed=2))
        assert status == 200, made
        seats = [Seat(browser, s["link"], served.base, (1280, 800)) for s in made["seats"]]
        try:
            board = seats[0].page.locator("#board svg [data-site]").count()
            assert board == len(rulelang.load_game("tatara", {"players": 2})
                                .runtime.board.sites)
            moves = play_until(seats, random.Random(2), lambda: False)
            assert moves > 20 and all(s.state() == "over" for s in seats)
            assert sum(s.clicks for s in seats) > moves // 2  # most on the board itself
            _leak_search(served, seats, None)
        finally:
            for s in seats:
                s.close()


def test_a_person_against_mcts_at_spline(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path) as served:
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
            assert page.locator("#result").inner_text()
            assert any(f.get("thinking") == "Black" for f in me.frames)
        finally:
            me.close()


def test_undo_by_agreement_of_both_people(browser: Any, tmp_path: Path) -> None:
    with serving(tmp_path) as served:
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
            black.page.locator("#ask-undo").click()
            white.page.wait_for_function("() => !document.getElementById('undo-ask').hidden")
            assert "Black asks to undo" in white.page.locator("#undo-text").inner_text()
            assert white.page.locator("#log li").count() == 2  # not yet: White must agree
            white.page.locator("#undo-yes").click()
            for seat in (white, black):
                seat.page.wait_for_function(
                    "() => document.querySelectorAll('#log li').length === 1")
            assert black.state() == "mine" and "undone" in black.page.locator(
                "#flash").inner_text()
        finally:
            white.close()
            black.close()
