"""`rulelang serve`: a web table that enforces the rules, for playtests over the network.

catalog.py (the served rulebooks) -> table.py (a game, its seats, who may do what) ->
views.py (what one seat is shown, from its own observation) -> server.py (tables in play,
pushing views, agents' turns) -> app.py (Starlette routes and websockets) -> cli.py (the
command, uvicorn). store.py keeps tables in SQLite, workers.py runs agents in processes,
protocol.py checks what clients send, pages.py and static/ are the pages.
Needs the `serve` extra (starlette, uvicorn, websockets).
"""
