"""The server's HTML pages: the lobby, a new table's links, a table, a problem.

No page holds any of a game's state: a table's page is the same for every seat (the game's
name, the seat's name, the rules) and gets its views over the websocket. The script and
style come from this server only (`/static/`), and the Content-Security-Policy allows no
other source: the pages work offline and load nothing from elsewhere.
"""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from rulelang.language.loader import read_rules_text
from rulelang.resources import rules_path

POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data:; font-src data:; "
          "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
SEAT_KINDS = ("human", "random", "easy", "normal", "hard", "mcts:200", "mcts:1000", "mcts:2s")


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _doc(title: str, body: str, script: str = "") -> str:
    tail = f'<script src="/static/{script}"></script>' if script else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title><link rel="stylesheet" href="/static/table.css"></head>
<body>{body}{tail}</body></html>
"""


def lobby(entries: list[dict[str, Any]]) -> str:
    forms = "".join(_game_form(e) for e in entries)
    return _doc("rulelang: lobby", f"""<header><h1>rulelang tables</h1>
<p>Choose a game and its options, say who sits at each seat (a person, or an agent with its
budget), and make the table: every person gets a private link to their seat.</p></header>
<main class="lobby">{forms}</main>""", "lobby.js")


def _game_form(e: dict[str, Any]) -> str:
    low, high = e["players"]
    players = "".join(f'<option value="{n}"{" selected" if n == low else ""}>{n}</option>'
                      for n in range(low, high + 1))
    opts = ""
    for name, spec in e["options"].items():
        choices = "".join(f'<option value="{_e(c)}"{" selected" if c == spec["default"] else ""}>'
                          f'{_e(c)}</option>' for c in spec["choices"])
        opts += (f'<label>{_e(name)} <select name="opt-{_e(name)}">{choices}</select>'
                 '</label> ')
    seats = "".join(
        f'<label class="seat" data-seat="{i}">seat {i + 1} <select name="seat-{i}">'
        + "".join(f'<option value="{k}"{" selected" if k == "human" else ""}>{k}</option>'
                  for k in SEAT_KINDS) + "</select></label> " for i in range(high))
    return f"""<form class="game" method="post" action="/tables" data-rulebook="{_e(e['id'])}">
<h2>{_e(e['name'])} <small>{low}{'' if low == high else f'–{high}'} players</small></h2>
<input type="hidden" name="rulebook" value="{_e(e['id'])}">
<label>players <select name="players">{players}</select></label> {opts}
<fieldset><legend>seats, in the rulebook's order</legend>{seats}</fieldset>
<label>seed <input name="seed" inputmode="numeric" size="10" placeholder="random"></label>
<button type="submit">make the table</button></form>"""


def created(name: str, links: dict[str, Any]) -> str:
    def row(s: dict[str, Any]) -> str:
        what = (f'<a class="seat-link" href="{_e(s["link"])}">{_e(s["link"])}</a>'
                if s["link"] else f'agent <code>{_e(s["agent"])}</code>')
        return f'<li>{_e(s["name"])}: {what}</li>'
    rows = "".join(row(s) for s in links["seats"])
    return _doc(f"{name}: a new table", f"""<header><h1>{_e(name)}: a new table</h1></header>
<main class="created"><p>Give each person their own link: it opens their seat, and whoever
has it plays that seat. These links are shown only now.</p><ol id="seats">{rows}</ol>
<p>Spectators (they see only what every player sees):
<a id="spectator" href="{_e(links['spectator'])}">{_e(links['spectator'])}</a></p>
<p><a href="/">back to the lobby</a></p></main>""")


def table(name: str, who: str, rules: str) -> str:
    rules_html = (f'<details id="rules"><summary>rules</summary><pre>{_e(rules)}</pre></details>'
                  if rules else "")
    return _doc(f"{name} — {who}", f"""<header><h1>{_e(name)}</h1>
<span class="who">as <b id="who">{_e(who)}</b></span>
<span id="link" role="status">connecting…</span></header>
<main class="table">
<section id="play"><div id="status" role="status" aria-live="polite"></div>
<div id="thinking" hidden></div><div id="flash" role="alert"></div>
<div id="board" aria-label="the board"></div><div id="zones"></div></section>
<aside>
<section id="turn"><h2>your move</h2><p id="question"></p><div id="selection"></div>
<ol id="moves"></ol><button id="clear" type="button" hidden>clear (Esc)</button></section>
<section id="undo"><button id="ask-undo" type="button">ask to undo</button>
<div id="undo-ask" hidden><span id="undo-text"></span>
<button id="undo-yes" type="button">agree</button>
<button id="undo-no" type="button">refuse</button></div></section>
<section id="end" hidden><h2>result</h2><p id="result"></p>
<p><a id="replay" href="#">replay</a> · <a id="record" href="#">download the record</a></p>
</section>
<section><h2>scores</h2><pre id="scores"></pre></section>
<section><h2>log</h2><ol id="log"></ol></section>
{rules_html}</aside></main>""", "table.js")


def problem(message: str, help: str | None = None) -> str:
    extra = f"<p>{_e(help)}</p>" if help else ""
    return _doc("rulelang: a problem", f"""<header><h1>rulelang</h1></header>
<main class="problem"><p id="problem">{_e(message)}</p>{extra}
<p><a href="/">the lobby</a></p></main>""")


def rules_text(rulebook: str) -> str:
    found = rules_path(Path(rulebook))
    return read_rules_text(found) if found is not None else ""
