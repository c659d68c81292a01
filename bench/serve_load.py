"""`rulelang serve` under load: TABLES tables playing at once on one server, each with two
seats played by this script (as people would, through their websockets, a random legal move
after a pause) and the others by random agents (the server's process pool). For every move
of a person, the time from sending it to the moment every person's connection of that table
has received its update (the views are built from each seat's observation and pushed by the
server); the agents' thinking is not in it (their moves come after the update). Prints the
count, the median, p95 and p99 in milliseconds. Exits 0; not a test.

    python bench/serve_load.py                          # 50 Muso Sakura tables, 60 s
    python bench/serve_load.py --tables 20 --seconds 30 --pause 0.2
    python bench/serve_load.py --rulebook tatara --agents 0
    python bench/serve_load.py --work         # the server's CPU per move, in this process

`--work` measures what the server does for one move without a network or a load around it:
the move applied and stored and every seat's view (and the spectator's) built and written as
JSON, in CPU time (so another process on the machine does not count), over random games of
Muso Sakura, Tatara and Spline.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(rulebook: str, port: int, db: Path, workers: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "rulelang", "serve", rulebook, "--port",
                             str(port), "--db", str(db), "--workers", str(workers)],
                            cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("the server did not start") from None
            time.sleep(0.1)


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used (Linux: /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _make(base: str, rulebook: str, players: int, agents: int, seed: int) -> list[str]:
    seats = ["human"] * (players - agents) + ["random"] * agents
    body = json.dumps({"rulebook": rulebook, "seed": seed, "seats": seats,
                       "options": {"players": players}}).encode()
    req = urllib.request.Request(base + "/api/tables", data=body,
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req) as r:
        made = json.loads(r.read())
    return [s["link"].replace("http://", "ws://").replace("/t/", "/ws/", 1)
            for s in made["seats"] if s["link"]]


async def _table(links: list[str], pause: float, until: float, rng: random.Random,
                 times: list[float]) -> int:
    from websockets.asyncio.client import connect
    conns = [await connect(link, max_size=2**22) for link in links]
    queues: list[asyncio.Queue[dict[str, Any]]] = [asyncio.Queue() for _ in conns]
    last: list[dict[str, Any]] = [{} for _ in conns]

    async def read(i: int) -> None:
        async for text in conns[i]:
            m = json.loads(text)
            if m["type"] == "view":
                last[i] = m
                await queues[i].put(m)

    readers = [asyncio.create_task(read(i)) for i in range(len(conns))]
    games = 0
    try:
        for q in queues:
            await q.get()
        while time.monotonic() < until:
            mover = next((i for i, v in enumerate(last) if v.get("options")), None)
            if mover is None:
                if all(v.get("over") for v in last):
                    games += 1
                    break
                await asyncio.sleep(0.01)
                continue
            await asyncio.sleep(rng.uniform(0.5, 1.5) * pause)
            for q in queues:  # only what comes after this move counts
                while not q.empty():
                    q.get_nowait()
            view = last[mover]
            t0 = time.perf_counter()
            await conns[mover].send(json.dumps({"type": "act", "turn": view["turn"],
                                                "action": rng.choice(view["options"])}))
            await asyncio.gather(*(q.get() for q in queues))
            times.append(time.perf_counter() - t0)
    finally:
        for r in readers:
            r.cancel()
        for c in conns:
            await c.close()
    return games


async def _run(args: argparse.Namespace, base: str) -> tuple[list[float], int]:
    times: list[float] = []
    until = time.monotonic() + args.seconds
    games = 0
    seed = 0
    while time.monotonic() < until:  # a finished table is replaced by a new one
        batch = []
        for _ in range(args.tables):
            seed += 1
            links = _make(base, args.rulebook, args.players, args.agents, seed)
            batch.append(_table(links, args.pause, until, random.Random(seed), times))
        games += sum(await asyncio.gather(*batch))
    return times, games


def work() -> None:
    import rulelang
    from rulelang.tools.pictures.picture import board_shape
    from rulelang.tools.serve.store import Saved, Store
    from rulelang.tools.serve.table import Table
    from rulelang.tools.serve.views import build
    for name, options in [("muso_sakura", {"players": 3}), ("tatara", {"players": 2}),
                          ("spline", None)]:
        game = rulelang.load_game(name, options)
        seats = [*range(game.num_players), -1]
        shape, per = board_shape(game), []
        for seed in range(3):
            saved = Saved(f"t{seed}", name, str(game.path), game.source_hash,
                          dict(game.options), seed,
                          [{"agent": "human", "token": ""}] * game.num_players, "", [])
            store = Store(":memory:")
            store.add(saved)
            table, rng = Table(saved, game, store), random.Random(seed)
            while not table.over and len(table.moves) < 150:
                t0 = time.process_time()
                state = table.state
                table.play(state.action_to_string(rng.choice(state.legal_actions())))
                for seat in seats:
                    json.dumps(build(table, seat, shape), ensure_ascii=False)
                per.append(1000 * (time.process_time() - t0))
        q = statistics.quantiles(per, n=20)
        print(f"{name}: {len(per)} moves; CPU per move (applied, stored, "
              f"{len(seats)} views): median {statistics.median(per):.1f} ms, "
              f"p95 {q[18]:.1f} ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--rulebook", default="muso_sakura")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--agents", type=int, default=1, help="random-agent seats per table")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--pause", type=float, default=1.0,
                    help="a person's mean pause before a move, in seconds")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--work", action="store_true",
                    help="only the server's CPU per move, in this process")
    args = ap.parse_args()
    if args.work:
        work()
        return 0
    port = _free_port()
    load = os.getloadavg()[0]  # (the machine's other work: a busy machine delays the server)
    with tempfile.TemporaryDirectory() as tmp:
        proc = _start(args.rulebook, port, Path(tmp) / "tables.db", args.workers)
        try:
            cpu, wall = _cpu(proc.pid), time.monotonic()
            times, games = asyncio.run(_run(args, f"http://127.0.0.1:{port}"))
            cpu, wall = _cpu(proc.pid) - cpu, time.monotonic() - wall
        finally:
            proc.terminate()
            proc.wait(20)
    if len(times) < 20:
        print(f"only {len(times)} moves measured: run longer")
        return 0
    ms = sorted(t * 1000 for t in times)
    q = statistics.quantiles(ms, n=100)
    print(f"{args.tables} tables of {args.rulebook} ({args.players} players, {args.agents} "
          f"random agents each), {args.seconds:g} s, pause {args.pause:g} s: "
          f"{len(ms)} moves of people, {games} games finished")
    print(f"the server's process (agents aside): {cpu:.1f} s of CPU in {wall:.1f} s "
          f"({100 * cpu / wall:.0f} % of a core), {1000 * cpu / len(ms):.1f} ms a move of a "
          f"person (its views, and the agents' moves after it with theirs); load average "
          f"{load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end")
    print(f"move -> every person's update: median {statistics.median(ms):.1f} ms, "
          f"p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
