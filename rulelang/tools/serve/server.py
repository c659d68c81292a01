"""The server's state: the tables in play, their connections, and the agents' turns.

The games run in the server's process (one event loop: a table changes only between two
awaits, so its moves never interleave); the agents think in a pool (workers.py). After every
change each connection of the table gets its seat's view (views.py), when it changed: a
seat is told nothing when a change shows it nothing (another player's second secret
choice in a row), so not even the number of frames says more than its observation.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
from dataclasses import dataclass
from typing import Any

from starlette.websockets import WebSocket

from rulelang.errors import RulelangError
from rulelang.tools.common import load
from rulelang.tools.pictures.picture import Shape, board_shape
from rulelang.tools.serve import protocol
from rulelang.tools.serve.catalog import Catalog
from rulelang.tools.serve.protocol import ClientError
from rulelang.tools.serve.store import Saved, Store, digest
from rulelang.tools.serve.table import Table
from rulelang.tools.serve.views import build
from rulelang.tools.serve.workers import Pool

_LOG = logging.getLogger("rulelang.serve")
MAX_SEED = 2**31
MAX_PLAYOUTS, MAX_SECONDS = 100_000, 60.0  # an agent seat's budget


@dataclass
class Conn:
    ws: WebSocket
    seat: int
    last: str = ""


class Server:
    """The state of one server: its catalog, store, agents' pool and the tables in play."""

    def __init__(self, catalog: Catalog, store: Store, pool: Pool,
                 rate: tuple[float, float] = (protocol.RATE, protocol.BURST)) -> None:
        self.catalog, self.store, self.pool = catalog, store, pool
        self.rate = rate  # frames a second, and at once, per connection
        self.tables: dict[str, Table] = {}
        self.conns: dict[str, list[Conn]] = {}
        self.shapes: dict[int, Shape] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.games: dict[tuple[str, str], Any] = {}

    # --- tables
    def create(self, spec: Any) -> tuple[Table, list[str], str]:
        """A new table from a client's spec; its seats' tokens and the spectator's."""
        if not isinstance(spec, dict):
            raise ClientError("a table is made from a JSON object: rulebook, options, seats")
        rulebook = spec.get("rulebook")
        options = spec.get("options") or {}
        seats = spec.get("seats")
        seed = spec.get("seed")
        if not isinstance(rulebook, str) or not isinstance(options, dict):
            raise ClientError("'rulebook' must be a served rulebook's id and 'options' a mapping")
        entry = self.catalog.entry(rulebook)
        game = self.catalog.game(rulebook, options)
        if not isinstance(seats, list) or len(seats) != game.num_players:
            raise ClientError(f"give one seat per player: {game.num_players} for these options",
                              "each seat is 'human' or an agent: random, mcts:N, mcts:Ts, "
                              "easy, normal, hard")
        agents = [_agent(s) for s in seats]
        if seed is None:
            seed = secrets.randbelow(MAX_SEED)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < MAX_SEED:
            raise ClientError(f"the seed must be a whole number from 0 to {MAX_SEED - 1}")
        tokens = [secrets.token_urlsafe(16) if a == "human" else "" for a in agents]
        watch = secrets.token_urlsafe(16)
        saved = Saved(secrets.token_urlsafe(6), entry.id, str(game.path), game.source_hash,
                      dict(game.options), seed,
                      [{"agent": a, "token": digest(t) if t else ""} for a, t in
                       zip(agents, tokens, strict=True)], digest(watch), [])
        self.store.add(saved)
        table = self.tables[saved.id] = Table(saved, game, self.store)
        self.kick(table)
        return table, tokens, watch

    def table(self, table_id: str) -> Table:
        """A table by id, resumed from the store when it is not in play yet."""
        found = self.tables.get(table_id)
        if found is not None:
            return found
        saved = self.store.get(table_id) if len(table_id) <= 64 else None
        if saved is None:
            raise ClientError("there is no such table", "check the link you were given")
        key = (saved.path, repr(sorted(saved.options.items())))
        try:
            game = self.games.get(key) or load(saved.path, saved.options)
            self.games[key] = game
            if game.source_hash != saved.sha256:
                raise ClientError("this table's rulebook changed since the table was made: "
                                  "its game cannot resume")
            table = Table(saved, game, self.store)
        except RulelangError as exc:
            raise ClientError("this table's game cannot resume: " + exc.render()) from None
        self.tables[table_id] = table
        self.kick(table)
        return table

    def shape(self, game: Any) -> Shape:
        found = self.shapes.get(id(game))
        if found is None:
            found = self.shapes[id(game)] = board_shape(game)
        return found

    # --- pushing views
    async def push(self, table: Table) -> None:
        """Send each connection of the table its seat's view, when it changed.

        The frames are sent one after the other, not gathered: a send writes the frame to
        the socket without waiting (unless that client stopped reading long enough to fill
        its buffers), while gathered sends would be tasks run only after every other table's
        work already waiting in the event loop. A send that waits for a slow client lets
        other changes run meanwhile: a view a later change replaced is not sent then."""
        views: dict[int, str] = {}
        sends: list[tuple[Conn, str]] = []
        for conn in list(self.conns.get(table.id, [])):
            text = views.get(conn.seat)
            if text is None:
                text = views[conn.seat] = json.dumps(
                    build(table, conn.seat, self.shape(table.game)), ensure_ascii=False)
            if text != conn.last:
                conn.last = text
                sends.append((conn, text))
        for conn, text in sends:
            if conn.last is text:  # (else a later change's view went or goes instead)
                await _send(conn.ws, text)

    def kick(self, table: Table) -> None:
        """When an agent must move, ask the pool (once per position)."""
        agent = table.agent_to_move()
        if agent is None or table.asking == table.epoch:
            return
        table.asking = table.epoch
        task = asyncio.get_running_loop().create_task(self._agent_turn(table, agent))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _agent_turn(self, table: Table, agent: str) -> None:
        epoch, s = table.epoch, table.saved
        try:
            ok, answer = await self.pool.move(table.id, s.path, s.options, s.seed,
                                              list(table.moves), agent,
                                              (s.seed * 1_000_003 + len(table.moves)) % MAX_SEED)
        except Exception as exc:  # the pool itself failed (a worker was killed): said, kept
            _LOG.exception("the agents' pool failed for table %s", table.id)
            ok, answer = False, f"the agent '{agent}' could not move: {type(exc).__name__}"
        if epoch != table.epoch:  # an undo came first: ask again about the new position
            self.kick(table)
            return
        if ok:
            table.agent_move(answer, epoch)
        else:
            table.error = answer
        await self.push(table)
        self.kick(table)

    async def changed(self, table: Table) -> None:
        await self.push(table)
        self.kick(table)


async def _send(ws: WebSocket, text: str) -> None:
    try:
        await ws.send_text(text)
    except Exception:  # a connection that went away: its handler forgets it
        pass


def _agent(seat: Any) -> str:
    from rulelang.agents import make_agent
    if not isinstance(seat, str) or len(seat) > 30:
        raise ClientError("each seat is 'human' or an agent's name")
    name = seat.strip().lower()
    if name == "human":
        return name
    try:
        agent = make_agent(name)
    except RulelangError as err:  # (an unknown agent, or a budget past the agents' cap)
        big = name.startswith("mcts:") and name[5:].isdigit()
        why = "the budget is too large for seat" if big else "unknown seat"
        raise ClientError(f"{why} '{name}'", "each seat is 'human' or an agent: random, "
                          "mcts:N, mcts:Ts, easy, normal, hard") from err
    playouts = getattr(agent, "iterations", None) or 0
    seconds = getattr(agent, "seconds", None) or 0
    if playouts > MAX_PLAYOUTS or seconds > MAX_SECONDS:
        raise ClientError(f"the budget of '{name}' is too large", f"at most {MAX_PLAYOUTS} "
                          f"playouts or {MAX_SECONDS:g} seconds a move")
    return name
