"""What a seat is shown: one JSON view built from that seat's own observation.

Everything in a view comes from `state.observation(seat)` (a spectator: the observation of
no player, what every player sees), the score terms that seat may know (`score_table` with
the seat as viewer), the seats' kinds, and, for the seat to move only, the labels of its
own legal moves with the table's current `turn`. Nothing else of the state is read, so a
view holds nothing its seat may not see. The page (page.py) draws it.
"""
from __future__ import annotations

import re
from typing import Any

from rulelang.game.engine import shown_movers
from rulelang.tools.pictures.picture import Shape, draw
from rulelang.tools.pictures.render import _piece_label
from rulelang.tools.serve.table import SPECTATOR, Table
from rulelang.tools.terminal.ending import score_table, winners_line

_WORDS = re.compile(r"[^\s(),]+")


def words(label: str) -> list[str]:
    """The words of a move's label that a click on the board can stand for."""
    return _WORDS.findall(label)


def build(table: Table, seat: int, shape: Shape) -> dict[str, Any]:
    state = table.state
    obs = state.observation(seat)
    mine = seat != SPECTATOR and seat == table.to_move() and not table.over
    view: dict[str, Any] = {
        "type": "view", "game": obs["game"],
        "seat": None if seat == SPECTATOR else obs["players"][seat],
        "players": [{"name": n, "agent": a} for n, a in zip(obs["players"], table.agents,
                                                            strict=True)],
        "to_move": _name(obs, obs["current_player"]), "over": obs["terminal"],
        "svg": draw(obs, shape, table.last_sites), "history": obs["history"],
        "movers": _movers(state, seat, obs),
        "zones": [_zone(z) for z in obs["zones"]],
        "scores": _scores(table, seat, obs),
        "thinking": None if obs["terminal"] else (
            _name(obs, obs["current_player"]) if table.agent_to_move() else None),
        "notice": table.notice, "error": table.error,
        "undo": _undo(table, seat), "result": None,
    }
    if mine:
        view["turn"] = table.turn
        view["options"] = [state.action_to_string(a) for a in state.legal_actions()]
        view["question"] = question(table.game, state)
    if obs["terminal"]:
        view["result"] = winners_line(table.game, state).removeprefix("result: ")
    return view


def _movers(state: Any, seat: int, obs: dict[str, Any]) -> list[str | None]:
    """Who made each move of the seat's history: a name, None for a run of another's
    secret choices (said without one)."""
    shown = obs["history"]
    try:
        movers = shown_movers(state.ctx.data.history, seat)
    except (AttributeError, TypeError):  # (a stand-in state without the engine's data)
        return [None] * len(shown)
    if len(movers) != len(shown):
        return [None] * len(shown)
    names = obs["players"]
    return [names[m] if m is not None and 0 <= m < len(names) else None for m in movers]


def _name(obs: dict[str, Any], p: int) -> str | None:
    return obs["players"][p] if 0 <= p < len(obs["players"]) else None


def _zone(z: dict[str, Any]) -> dict[str, Any]:
    """A zone as the page lists it: its cards as chips (None: hidden, with its count)."""
    pieces = None
    if z["pieces"] is not None:
        pieces = [{"label": _piece_label(p), "word": str((p.get("attrs") or {}).get(
            "name", p.get("kind", ""))), "count": p.get("count", 1)} for p in z["pieces"]]
    return {"zone": z["zone"], "owner": z["owner"], "count": z["count"], "pieces": pieces}


def _scores(table: Table, seat: int, obs: dict[str, Any]) -> list[str]:
    viewer = None if obs["terminal"] else seat
    return [row.plain for row in score_table(table.game, table.state, viewer=viewer)]


def _undo(table: Table, seat: int) -> dict[str, Any] | None:
    if table.undo is None:
        return None
    waiting = table.waiting_undo()
    return {"by": table.names[table.undo.by], "waiting": [table.names[w] for w in waiting],
            "answer": seat in waiting}


def question(game: Any, state: Any) -> str:
    """What the seat to decide is asked: the rulebook's `ask` text filled in, else the value
    asked for in words (never the rule's code), as the terminal asks it."""
    from rulelang.tools.terminal.explain import question as asked

    return asked(game, state)
