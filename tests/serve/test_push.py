"""How the server pushes views (server.py `push`), with stand-in connections and no network:
the frames are written before anything else waiting in the event loop runs, and a view that a
later change replaced while a slow client held the push up is not sent."""
from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e "
                    "'.[test]')")
from rulelang.tools.serve.catalog import Catalog  # noqa: E402
from rulelang.tools.serve.server import Conn, Server  # noqa: E402
from rulelang.tools.serve.store import Store  # noqa: E402
from rulelang.tools.serve.workers import Pool  # noqa: E402


class FakeSocket:
    """Records the frames; while `hold` is not set, every send waits, in turn (as uvicorn's
    sends wait for a client that stopped reading)."""

    def __init__(self, name: str, log: list[Any], hold: asyncio.Event | None = None) -> None:
        self.name, self.log, self.hold = name, log, hold

    async def send_text(self, text: str) -> None:
        if self.hold is not None:
            await self.hold.wait()
        self.log.append((self.name, json.loads(text)["history"]))


def _server() -> tuple[Server, Any]:
    server = Server(Catalog(["tic_tac_toe"]), Store(":memory:"), Pool(0))
    table, _, _ = server.create({"rulebook": "tic_tac_toe", "seats": ["human", "human"],
                                 "seed": 1})
    return server, table


def _move(table: Any) -> None:
    table.act(table.to_move(), table.state.action_to_string(table.state.legal_actions()[0]),
              table.turn)


def test_frames_go_out_before_other_waiting_work() -> None:
    async def run() -> list[Any]:
        server, table = _server()
        log: list[Any] = []
        server.conns[table.id] = [Conn(FakeSocket(s, log), i)  # type: ignore[arg-type]
                                  for i, s in enumerate("AB")]
        asyncio.get_running_loop().call_soon(log.append, "other work")
        await server.push(table)
        await asyncio.sleep(0)
        server.pool.close()
        return log

    assert asyncio.run(run()) == [("A", []), ("B", []), "other work"]


def test_a_view_replaced_while_a_slow_client_held_the_push_is_not_sent() -> None:
    async def run() -> list[Any]:
        server, table = _server()
        log: list[Any] = []
        hold = asyncio.Event()
        slow, quick = FakeSocket("slow", log, hold), FakeSocket("quick", log)
        server.conns[table.id] = [Conn(slow, 0), Conn(quick, 1)]  # type: ignore[arg-type]
        first = asyncio.create_task(server.push(table))  # waits on the slow client
        await asyncio.sleep(0)
        _move(table)
        second = asyncio.create_task(server.push(table))
        await asyncio.sleep(0)
        hold.set()
        await asyncio.gather(first, second)
        server.pool.close()
        return log

    log = asyncio.run(run())
    assert [h for who, h in log if who == "slow"] == [[], ["place a1"]]  # in order
    assert [h for who, h in log if who == "quick"] == [["place a1"]]  # the first: replaced
