"""The `serve` command: `rulelang serve [PATH...] [--host H] [--port P] [--db FILE]
[--workers N]`, uvicorn running the Starlette application of app.py."""
from __future__ import annotations

import argparse
import gc
import os
from typing import Any

from rulelang.errors import Diagnostic, RulelangError, render


def add_parser(sub: Any) -> None:
    p = sub.add_parser("serve", help="serve web tables for remote play (lobby, seat links)")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="the rulebooks to offer (default: every bundled one)")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this machine only; "
                   "0.0.0.0 opens the lobby and every table to the network)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--db", metavar="FILE",
                   help="the SQLite file of the tables (default: serve.sqlite3 in "
                   "$XDG_DATA_HOME/rulelang or ~/.local/share/rulelang)")
    p.add_argument("--workers", type=int, default=min(4, os.cpu_count() or 1), metavar="N",
                   help="processes for the agents' moves (default: the cores, at most 4)")
    p.set_defaults(run=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from rulelang.tools.serve.app import make_app
    except ImportError as exc:
        raise RulelangError(render(Diagnostic(
            "R430", f"`rulelang serve` needs the serve extra ({exc.name} is missing)", None,
            "pip install 'rulelang[serve]'"))) from None
    from rulelang.tools.pictures.fonts import read_fonts
    from rulelang.tools.serve.catalog import Catalog
    from rulelang.tools.serve.server import Server
    from rulelang.tools.serve.store import Store, default_db
    from rulelang.tools.serve.workers import Pool

    if not 0 <= args.port < 65536:
        raise RulelangError(render(Diagnostic("R430", f"bad port {args.port}", None)))
    if args.workers < 0:
        raise RulelangError(render(Diagnostic("R430", "--workers must be 0 or more", None)))
    catalog = Catalog(args.paths)
    db = args.db or str(default_db())
    server = Server(catalog, Store(db), Pool(args.workers))
    config = uvicorn.Config(make_app(server), host=args.host, port=args.port,
                            ws="websockets-sansio", ws_max_size=65_536, log_level="warning",
                            ws_per_message_deflate=False,  # (CPU for little: views are small)
                            lifespan="on")
    read_fonts()  # (else the first picture of a name beyond Latin stalls every table)
    # What is loaded by now (libraries, the rulebooks, their generated code, the fonts' index)
    # lives as long as the server: frozen, the garbage collector's full passes leave it out
    # instead of walking it all while every table waits.
    gc.collect()
    gc.freeze()
    print(f"rulelang serve: {len(catalog.entries)} rulebooks, tables in {db}", flush=True)
    print(f"lobby: http://{args.host}:{args.port}/", flush=True)
    uvicorn.Server(config).run()
    return 0
