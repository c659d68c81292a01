"""The search for values hidden from a player, shared by the tests of everything that shows a
game to one player: the replay viewer's pages (tests/tools/test_viewer_hidden.py) and the
web table's frames and pages (tests/serve/)."""
from __future__ import annotations

import html
import json
from typing import Any

from rulelang.tools.pictures.render import _value, _zone


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _strings(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _strings(v, out)
    elif value is not None:
        out.add(str(value))


def hidden_values(game: Any, seed: int,
                  moves: list[str]) -> tuple[list[list[set[str]]], list[str]]:
    """Per player and ply: the values hidden from them in that state that their observation
    of it does not show (the value may be shown at another ply: a card seen before)."""
    program = game.runtime.program
    n = game.num_players
    state = game.new_initial_state(seed=seed)
    result: list[list[set[str]]] = [[] for _ in range(n)]
    every: list[list[str]] = [[] for _ in range(n)]  # what each saw at any ply
    for ply in range(len(moves) + 1):
        hidden: list[set[str]] = [set() for _ in range(n)]
        shown: list[list[str]] = [[] for _ in range(n)]
        if ply:
            state.apply_action(moves[ply - 1])
        seen = [state.observation(p) for p in range(n)]
        data = state.ctx.data
        for player, mine in enumerate(seen):
            # the observation as data and its values as the pictures write them ("(a, b)")
            shown[player] += [json.dumps(mine, ensure_ascii=False)]
            shown[player] += [_value(v["value"]) for v in mine["vars"]]
            shown[player] += [_zone(z) for z in mine["zones"]]
            for ref, pile in data.zones.items():  # the state itself: every zone's pieces
                visible = program.zones[ref.name].visible
                if visible == "everyone" or (visible == "owner" and ref.owner == player):
                    continue
                for piece in pile:
                    hidden[player].add(piece.label)
                    for column in data.attrs.values():
                        if column[piece.id] is not None:
                            _strings(column[piece.id], hidden[player])
            for other, theirs in enumerate(seen):  # what the others see of it
                if other == player:
                    continue
                for z_mine, z_theirs in zip(mine["zones"], theirs["zones"], strict=True):
                    if z_mine["pieces"] is None and z_theirs["pieces"] is not None:
                        _strings(z_theirs["pieces"], hidden[player])
                for v_mine, v_theirs in zip(mine["vars"], theirs["vars"], strict=True):
                    if v_mine["value"] is None and v_theirs["value"] is not None:
                        _strings(v_theirs["value"], hidden[player])
            for d, i in data.history:  # the others' secret choices, as they made them
                if d.secret and d.player != player:
                    hidden[player].add(d.labels()[i])
        for player in range(n):
            text = "\n".join(shown[player])
            every[player].append(text)
            result[player].append({v for v in hidden[player]
                                   if len(v) >= 3 and v not in text and html.escape(v) not in text})
    return result, ["\n".join(texts) for texts in every]


def found(values: set[str], text: str) -> list[str]:
    return sorted(v for v in values if v in text or html.escape(v) in text
                  or json.dumps(v, ensure_ascii=False)[1:-1] in text)
