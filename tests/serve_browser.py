"""`rulelang serve` in a real browser, for tests/serve/test_browser.py and
bench/serve_browser.py: the server as its own process (`python -m rulelang serve` on
127.0.0.1 and a free port, killed and restarted on the same database), a seat as a browser
context at its link (every websocket frame it received, real mouse clicks on what a move
names), random games played by clicks, and the search of every frame and page a seat
received for what it may not see (serve_leaks.py)."""
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

from serve_leaks import check_frames
from serve_live import free_port, request

import rulelang
from rulelang.tools.records.record import parse_record
from rulelang.tools.serve.store import Store

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and Path(p).is_file()), None)
ROOT = Path(__file__).resolve().parents[1]
GAMES = ["muso_sakura", "tatara", "spline"]
LAUNCH = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


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


def played(served: Served, seat: Seat) -> tuple[int, list[str], Any]:
    """The seed, the true moves (secret choices too) and the game of a seat's table: its
    record once the game is over (the server gives it out only then), else the server's
    database as it stands."""
    if seat.state() == "over":
        record = parse_record(request(seat.page.url + "/record")[2])
        return record.seed, record.actions, rulelang.load_game(record.rulebook, record.options)
    table_id = seat.page.url.split("/t/", 1)[1].split("/", 1)[0]
    store = Store(served.db)
    try:
        saved = store.get(table_id)
    finally:
        store.close()
    assert saved is not None, table_id
    return saved.seed, saved.moves, rulelang.load_game(saved.path, saved.options)


def leak_search(served: Served, seats: list[Seat], spectator: Seat | None) -> None:
    for s in [*seats, *([spectator] if spectator else [])]:
        s.page.wait_for_timeout(100)  # the last frames' events reach the lists
    seed, actions, game = played(served, seats[0])
    received = {i: s.frames for i, s in enumerate(seats)}
    pages = {i: s.html for i, s in enumerate(seats)}
    if spectator is not None:
        received[-1], pages[-1] = spectator.frames, spectator.html
    assert check_frames(game, seed, actions, received, pages) > len(actions)
    for s in [*seats, *([spectator] if spectator else [])]:
        assert all(u.startswith((served.base, "data:", "about:")) for u in s.requests), \
            s.requests
