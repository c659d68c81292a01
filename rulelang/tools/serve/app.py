"""The web application of `rulelang serve`: the lobby, the tables' pages and websockets.

Starlette (routing, requests, websockets) run by uvicorn (cli.py): a small, well-kept ASGI
stack that serves HTTP and websockets from one process, with no framework of its own and no
build step. Routes:

    GET  /                         the lobby: the served rulebooks, a form per rulebook
    POST /tables                   the lobby's form: a new table; the page of its links
    POST /api/tables               the same from JSON: {"rulebook", "options", "seats", "seed"}
    GET  /t/ID/TOKEN               a seat's (or the spectator's) table page
    GET  /t/ID/TOKEN/record        the game record, once the game is over
    GET  /t/ID/TOKEN/replay        the replay page as that seat saw the game, once it is over
    WS   /ws/ID/TOKEN              the seat's views, and its moves (protocol.py)
    GET  /static/NAME              the page's script and style

A client's mistake is answered with its message (an HTML page, a JSON error, an error
frame); an unexpected error in one message is logged and answered, and never ends the
server or a table.
"""
from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, MutableMapping
from contextlib import asynccontextmanager
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from rulelang import limits
from rulelang.tools.pictures.viewer import frames, page
from rulelang.tools.serve import pages, protocol
from rulelang.tools.serve.protocol import Bucket, ClientError
from rulelang.tools.serve.server import Conn, Server
from rulelang.tools.serve.table import SPECTATOR, Table

_LOG = logging.getLogger("rulelang.tools.serve")
MAX_BODY = 16_384  # bytes of a request's body
_MAX_ASSET = 200_000  # bytes of the page's script or style
# the replay page (viewer.py) is one file: its script and style are inline
_VIEWER_POLICY = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                  "img-src data:; font-src data:")
_STATIC = {"table.js": "text/javascript", "table.css": "text/css", "lobby.js": "text/javascript"}


def make_app(server: Server) -> Starlette:
    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        server.pool.close()
        server.store.close()

    async def lobby(request: Request) -> Response:
        return _html(pages.lobby([e.describe() for e in server.catalog.entries.values()]))

    async def create_form(request: Request) -> Response:
        try:
            spec = _form_spec(await _body(request))
            table, tokens, watch = server.create(spec)
        except ClientError as exc:
            return _html(pages.problem(exc.message, exc.help), 400)
        return _html(pages.created(table.game.name, _links(request, table, tokens, watch)))

    async def create_api(request: Request) -> Response:
        try:
            try:
                spec = json.loads(await _body(request))
            except ValueError:
                raise ClientError("the body is not valid JSON") from None
            table, tokens, watch = server.create(spec)
        except ClientError as exc:
            return JSONResponse(exc.frame(), 400)
        return JSONResponse(_links(request, table, tokens, watch))

    def seat_of(request: Request) -> tuple[Table, int]:
        table = server.table(request.path_params["table"])
        return table, table.seat_of(request.path_params["token"])

    async def table_page(request: Request) -> Response:
        try:
            table, seat = seat_of(request)
        except ClientError as exc:
            return _html(pages.problem(exc.message, exc.help), 404)
        who = "spectator" if seat == SPECTATOR else table.names[seat]
        return _html(pages.table(str(table.game.name), who, pages.rules_text(table.saved.path)))

    async def record(request: Request) -> Response:
        try:
            table, _ = seat_of(request)
            text = table.record()
        except ClientError as exc:
            return _html(pages.problem(exc.message, exc.help), 404)
        name = f"{table.saved.rulebook}-{table.id}.yaml"
        return Response(text, media_type="application/x-yaml",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def replay(request: Request) -> Response:
        try:
            table, seat = seat_of(request)
            if not table.over:
                raise ClientError("the replay opens once the game is over")
        except ClientError as exc:
            return _html(pages.problem(exc.message, exc.help), 404)
        shots = frames(table.game, table.saved.seed, table.moves, seat)
        who = "spectator" if seat == SPECTATOR else table.names[seat]
        return _html(page(str(table.game.name), who, shots), policy=_VIEWER_POLICY)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return Response("not found", 404)
        text = limits.read_checked(Path(str(files("rulelang.tools.serve"))) / "static" / name,
                                   _MAX_ASSET)
        return Response(text, media_type=_STATIC[name],
                        headers={"Cache-Control": "no-cache"})

    routes = [Route("/", lobby), Route("/tables", create_form, methods=["POST"]),
              Route("/api/tables", create_api, methods=["POST"]),
              Route("/t/{table}/{token}", table_page),
              Route("/t/{table}/{token}/record", record),
              Route("/t/{table}/{token}/replay", replay),
              Route("/static/{name}", static),
              WebSocketRoute("/ws/{table}/{token}", lambda ws: websocket(server, ws))]
    return Starlette(routes=routes, lifespan=lifespan)


async def websocket(server: Server, ws: WebSocket) -> None:
    await ws.accept()
    try:
        table = server.table(ws.path_params["table"])
        seat = table.seat_of(ws.path_params["token"])
    except ClientError as exc:
        await ws.send_text(json.dumps(exc.frame()))
        await ws.close(code=4403)
        return
    conn = Conn(ws, seat)
    server.conns.setdefault(table.id, []).append(conn)
    bucket = Bucket(*server.rate)
    try:
        await server.push(table)
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await _handle(server, table, conn, bucket, message)
    except WebSocketDisconnect:
        pass
    finally:
        server.conns[table.id].remove(conn)


async def _handle(server: Server, table: Table, conn: Conn, bucket: Bucket,
                  message: MutableMapping[str, Any]) -> None:
    """One client frame: checked, then done; a mistake is answered and changes nothing."""
    try:
        if not bucket.take():
            raise protocol.too_fast(bucket.rate)
        data = protocol.parse(message.get("text", message.get("bytes")))
        kind = data["type"]
        if kind == "ping":
            await conn.ws.send_text('{"type":"pong"}')
            return
        if kind == "act":
            table.act(conn.seat, data["action"], data["turn"])
        elif kind == "undo":
            table.ask_undo(conn.seat)
        else:
            table.answer_undo(conn.seat, data["agree"])
        await server.changed(table)
    except ClientError as exc:
        await conn.ws.send_text(json.dumps(exc.frame()))
    except WebSocketDisconnect:
        raise
    except Exception:  # a bug of rulelang: logged; the table and the server go on
        _LOG.exception("unexpected error in a message of table %s", table.id)
        await conn.ws.send_text(json.dumps(ClientError(
            "the server could not handle this message (a bug of rulelang, logged)").frame()))


async def _body(request: Request) -> str:
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ClientError(f"the request is too large (at most {MAX_BODY} bytes)")
        chunks.append(chunk)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise ClientError("the request is not UTF-8 text") from None


def _form_spec(body: str) -> dict[str, Any]:
    """The lobby's form as a table's spec: rulebook, players, opt-NAME, seat-I, seed."""
    form = {k: v[0] for k, v in parse_qs(body, max_num_fields=64).items()}
    try:
        players = int(form.get("players", "0"))
    except ValueError:
        raise ClientError("the number of players must be a whole number") from None
    options: dict[str, Any] = {"players": players}
    for key, value in form.items():
        if key.startswith("opt-"):
            options[key[4:]] = int(value) if value.lstrip("-").isdigit() else value
    seed_text = form.get("seed", "").strip()
    if seed_text and not seed_text.isdigit():
        raise ClientError("the seed must be a whole number")
    return {"rulebook": form.get("rulebook", ""), "options": options,
            "seats": [form.get(f"seat-{i}", "human") for i in range(max(0, min(players, 16)))],
            "seed": int(seed_text) if seed_text else None}


def _links(request: Request, table: Table, tokens: list[str], watch: str) -> dict[str, Any]:
    base = f"{request.url.scheme}://{request.url.netloc}/t/{table.id}/"
    return {"table": table.id, "rulebook": table.saved.rulebook,
            "seats": [{"name": n, "agent": a, "link": base + t if t else None}
                      for n, a, t in zip(table.names, table.agents, tokens, strict=True)],
            "spectator": base + watch}


def _html(text: str, status: int = 200, policy: str = pages.POLICY) -> HTMLResponse:
    return HTMLResponse(text, status, headers={"Content-Security-Policy": policy,
                                               "Referrer-Policy": "no-referrer",
                                               "X-Content-Type-Options": "nosniff"})
