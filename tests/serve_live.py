"""A `rulelang serve` application running for a test: uvicorn in a thread of this process,
bound to 127.0.0.1 on a free port, and small clients (urllib for HTTP, the websockets
library's synchronous client)."""
from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def running(app: Any) -> Iterator[str]:
    """The app served in a thread; yields its base URL."""
    import uvicorn
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, ws="websockets-sansio",
                            ws_max_size=65_536, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def request(url: str, data: bytes | None = None, kind: str = "application/json"
            ) -> tuple[int, dict[str, str], str]:
    req = urllib.request.Request(url, data=data, headers={"Content-Type": kind} if data
                                 is not None else {})
    try:
        with urllib.request.urlopen(req, timeout=20) as r:
            return r.status, dict(r.headers), r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode("utf-8")


def post_json(url: str, value: Any) -> tuple[int, Any]:
    status, _, text = request(url, json.dumps(value).encode())
    return status, json.loads(text)


def post_form(url: str, fields: dict[str, str]) -> tuple[int, str]:
    status, _, text = request(url, urllib.parse.urlencode(fields).encode(),
                              "application/x-www-form-urlencoded")
    return status, text


def ws_url(link: str) -> str:
    return link.replace("http://", "ws://", 1).replace("/t/", "/ws/", 1)


def table_spec(rulebook: str, seats: list[str], seed: int, **options: Any) -> dict[str, Any]:
    return {"rulebook": rulebook, "seed": seed, "seats": seats,
            "options": {"players": len(seats), **options}}
