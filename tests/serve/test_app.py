"""The web application served by uvicorn in a thread on 127.0.0.1 (tests/serve_live.py): the
lobby, making tables, seat links, the websocket's checks, and a leak search over every frame
a Muso Sakura table sent its seats and spectator."""
from __future__ import annotations

import json
import random
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e "
                    "'.[test]')")
from serve_leaks import check_frames  # noqa: E402
from serve_live import post_form, post_json, request, running, table_spec, ws_url  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from rulelang.tools.serve.app import make_app  # noqa: E402
from rulelang.tools.serve.catalog import Catalog  # noqa: E402
from rulelang.tools.serve.server import Server  # noqa: E402
from rulelang.tools.serve.store import Store  # noqa: E402
from rulelang.tools.serve.workers import Pool  # noqa: E402

GAMES = ["muso_sakura", "tic_tac_toe", "spline"]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog(GAMES)


class Client:
    """The server's state and its base URL."""

    def __init__(self, server: Server, base: str) -> None:
        self.server, self.base = server, base

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        return request(self.base + path)

    def make(self, rulebook: str, seats: list[str], seed: int = 3, **options: Any
             ) -> dict[str, Any]:
        status, made = post_json(self.base + "/api/tables",
                                 table_spec(rulebook, seats, seed, **options))
        assert status == 200, made
        return dict(made)


@pytest.fixture
def client(catalog: Catalog, tmp_path: Path, request: Any) -> Any:
    rate = getattr(request, "param", (20.0, 40.0))
    server = Server(catalog, Store(tmp_path / "tables.db"), Pool(0), rate)
    with running(make_app(server)) as base:
        yield Client(server, base)


def _drain(ws: Any) -> list[dict[str, Any]]:
    """Every frame sent to this connection so far (a ping's answer marks the end)."""
    ws.send('{"type": "ping"}')
    out = []
    while True:
        m = json.loads(ws.recv(timeout=10))
        assert m["type"] != "error", m
        if m["type"] == "pong":
            return out
        out.append(m)


def _recv(ws: Any) -> dict[str, Any]:
    return dict(json.loads(ws.recv(timeout=10)))


def test_the_lobby_lists_the_rulebooks_and_makes_a_table(client: Client) -> None:
    status, headers, page = client.get("/")
    assert status == 200 and "default-src 'none'" in headers["content-security-policy"]
    assert "Muso Sakura" in page and "3–5 players" in page
    assert 'name="opt-mode"' in page and 'value="long"' in page
    status, made = post_form(client.base + "/tables", {
        "rulebook": "tic_tac_toe", "players": "2", "seat-0": "human", "seat-1": "random"})
    assert status == 200 and made.count('class="seat-link"') == 1
    assert "agent <code>random</code>" in made and 'id="spectator"' in made
    link = made.split('class="seat-link" href="')[1].split('"')[0]
    status, headers, seat = request(link)
    assert status == 200 and 'as <b id="who">X</b>' in seat
    assert headers["referrer-policy"] == "no-referrer"  # the link's token stays private
    assert 'src="/static/table.js"' in seat
    assert "http" not in seat.replace('content="width', "")
    status, _, wrong = request(link[:-3] + "zzz")
    assert status == 404 and "this link opens no seat" in wrong
    assert client.get("/t/nothing/here")[0] == 404
    status, headers, _ = client.get("/static/table.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript")
    assert client.get("/static/app.py")[0] == 404


@pytest.mark.parametrize(("spec", "message"), [
    ({"rulebook": "chess", "seats": []}, "no rulebook 'chess' is served"),
    ({"rulebook": "tic_tac_toe", "seats": ["human"]}, "one seat per player: 2"),
    ({"rulebook": "tic_tac_toe", "seats": ["human", "robot"]}, "unknown seat 'robot'"),
    ({"rulebook": "tic_tac_toe", "seats": ["human", "mcts:999999999"]}, "budget"),
    ({"rulebook": "muso_sakura", "options": {"players": 9}, "seats": []}, "3 to 5 players"),
    ({"rulebook": "muso_sakura", "options": {"mode": "huge"}, "seats": []},
     "option 'mode' cannot be 'huge'"),
    ({"rulebook": "tic_tac_toe", "seats": ["human", "human"], "seed": -1}, "seed"),
    ([1, 2], "JSON object"),
])
def test_a_bad_table_gets_a_clear_message(client: Client, spec: Any, message: str) -> None:
    status, answer = post_json(client.base + "/api/tables", spec)
    assert status == 400 and message in answer["message"], answer
    assert not client.server.tables


def test_a_bad_request_body(client: Client) -> None:
    status, _, text = request(client.base + "/api/tables", b"{")
    assert status == 400 and json.loads(text)["message"] == "the body is not valid JSON"
    assert request(client.base + "/api/tables", b"x" * 20_000)[0] == 400
    status, text = post_form(client.base + "/tables", {"rulebook": "tic_tac_toe",
                                                       "players": "two"})
    assert status == 400 and "whole number" in text


def test_tokens_stale_moves_and_malformed_frames(client: Client) -> None:
    made = client.make("tic_tac_toe", ["human", "human"])
    x, o = (ws_url(s["link"]) for s in made["seats"])
    table = client.server.tables[made["table"]]
    with connect(x) as wx, connect(o) as wo:
        vx, vo = _recv(wx), _recv(wo)
        assert "options" in vx and "options" not in vo and "turn" not in vo
        # the other seat's token, with a move and the turn of the seat to move
        wo.send(json.dumps({"type": "act", "action": vx["options"][0], "turn": vx["turn"]}))
        assert "it is not your turn: X to move" in _recv(wo)["message"]
        wx.send(json.dumps({"type": "act", "action": vx["options"][4], "turn": vx["turn"]}))
        moved = _recv(wx)
        assert moved["history"] == [vx["options"][4]] and moved["movers"] == ["X"]
        assert _recv(wo)["options"]  # pushed to the other seat
        wx.send(json.dumps({"type": "act", "action": vx["options"][4], "turn": vx["turn"]}))
        assert "not your turn" in _recv(wx)["message"]  # the same frame again
        before = list(table.moves)
        frames: list[str | bytes] = [
            b"\xff\x00", "", "null", "{}", "[]", '{"type": 5}', '{"type": "act"}',
            '{"type": "act", "action": "place a1", "turn": 7}', "x" * 5000,
            '{"type": "undo_answer", "agree": 1}',
            '{"type": "act", "action": "' + "é" * 100 + '", "turn": "t"}']
        answers = []
        for i in range(1000):
            wo.send(frames[i % len(frames)])
            answers.append(_recv(wo))
        assert all(a["type"] == "error" and a["message"] for a in answers)  # no view came
        said = {a["message"].split(":")[0].split(" (")[0] for a in answers}
        assert {"messages are JSON text, not binary", "message is not valid JSON",
                "message too long", "too many messages"} <= said, said
        assert table.moves == before
    with connect(o) as wo:  # the server and the table go on
        view = _recv(wo)
        wo.send(json.dumps({"type": "act", "action": view["options"][0], "turn": view["turn"]}))
        assert len(_recv(wo)["history"]) == 2
    with connect(x.rsplit("/", 1)[0] + "/nope") as bad:
        assert "opens no seat" in _recv(bad)["message"]


@pytest.mark.parametrize("client", [(1e6, 1e6)], indirect=True)  # the test pings a lot
@pytest.mark.parametrize("options", [{}, {"abilities": "by_hand"}], ids=["best", "by_hand"])
def test_no_frame_shows_a_seat_what_it_may_not_see(client: Client, options: dict[str, Any]
                                                   ) -> None:
    """Muso Sakura by three seats and a spectator, all through websockets: every frame of
    every connection is searched (tests/serve_leaks.py)."""
    made = client.make("muso_sakura", ["human"] * 3, seed=5, **options)
    links = dict(zip([0, 1, 2, -1], [s["link"] for s in made["seats"]] + [made["spectator"]],
                     strict=True))
    pages = {seat: request(link)[2] for seat, link in links.items()}
    names = ["Player1", "Player2", "Player3", "spectator"]
    assert len({text.replace(f">{name}<", "><").replace(f"— {name}<", "<")
                for text, name in zip(pages.values(), names, strict=True)}) == 1
    table = client.server.tables[made["table"]]
    rng = random.Random(5)
    received: dict[int, list[dict[str, Any]]] = {}
    with ExitStack() as stack:
        socks = {seat: stack.enter_context(connect(ws_url(link)))
                 for seat, link in links.items()}
        for seat, ws in socks.items():
            received[seat] = [_recv(ws)]
        while not table.over:
            mover = table.to_move()
            view = received[mover][-1]
            socks[mover].send(json.dumps(
                {"type": "act", "turn": view["turn"], "action": rng.choice(view["options"])}))
            received[mover] += _drain(socks[mover])  # (its move is pushed to all by now)
            for seat, ws in socks.items():
                received[seat] += _drain(ws)
            assert all(m["type"] == "view" for ms in received.values() for m in ms)
    assert received[0][-1]["over"] and received[0][-1]["result"]
    if options:  # a run of another's secret choices is one change for the others
        assert len(received[-1]) < len(table.moves) + 1
    count = check_frames(table.game, 5, table.moves, received, pages)
    assert count > 3 * len(table.moves) // 2
    status, _, record = request(links[1] + "/record")
    assert status == 200 and "actions:" in record
    for seat in (1, -1):
        status, _, replay = request(links[seat] + "/replay")
        assert status == 200 and "\\u003csvg" in replay  # (the frames, as viewer.py writes)


def test_an_agents_search_stalls_no_other_table(catalog: Catalog, tmp_path: Path) -> None:
    """An MCTS seat thinking for two seconds in the pool (one process): another table's
    moves are answered at once meanwhile, and the thinking seat's table shows it."""
    server = Server(catalog, Store(tmp_path / "tables.db"), Pool(1))
    with running(make_app(server)) as base:
        client = Client(server, base)
        slow = client.make("spline", ["mcts:2s", "human"])
        quick = client.make("tic_tac_toe", ["human", "human"])
        with connect(ws_url(slow["seats"][1]["link"])) as watcher, \
                connect(ws_url(quick["seats"][0]["link"])) as x, \
                connect(ws_url(quick["seats"][1]["link"])) as o:
            assert _recv(watcher)["thinking"] == "White"
            views = {0: _recv(x), 1: _recv(o)}
            started = time.monotonic()
            for ply in range(4):
                mover, ws = (0, x) if ply % 2 == 0 else (1, o)
                ws.send(json.dumps({"type": "act", "turn": views[mover]["turn"],
                                    "action": views[mover]["options"][0]}))
                t0 = time.monotonic()
                views = {0: _recv(x), 1: _recv(o)}
                assert time.monotonic() - t0 < 0.5, "a move waited for another table's agent"
            assert time.monotonic() - started < 1.5  # all while the agent thinks
            moved = _recv(watcher)
            assert len(moved["history"]) == 1 and moved["options"] and not moved["thinking"]
            assert time.monotonic() - started > 1.0


def test_the_serve_command_reports_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    from rulelang.tools.cli import main
    assert main(["serve", "no_such_game.rule"]) == 1
    assert "no such rulebook 'no_such_game.rule'" in capsys.readouterr().err
    assert main(["serve", "--port", "70000"]) == 1
    assert "bad port 70000" in capsys.readouterr().err
