"""Observation tensors: a player's observation (State.observation) as a flat list of numbers
of a fixed shape per game, for learning agents (rulelang/openspiel.py, rulelang/pettingzoo.py).

Everything comes from `observation(p)`, so nothing hidden from p enters a tensor. Its parts,
in this order (docs/action_space.md, "Tensors"):
  board     per piece kind and owner (each player, then no owner), per site: how many such
            pieces lie there — planes of kinds x (players + 1) by sites
  zones     per zone (sorted by name, then owner): how many pieces it holds, then per kind
            how many of them p sees, then per kind and attribute declared of an enumeration
            (`piece card with name: card_name`) and per symbol how many of them p sees with
            that value (0 where the zone is hidden from p)
  counters  each counter's value (sorted by name, then owner)
  mover     one-hot: the player to move (all 0 when the game is over)
"""
from __future__ import annotations

from typing import Any


class Tensors:
    """The layout of one game's observation tensor."""

    def __init__(self, game: Any) -> None:
        rt = game.runtime
        self.players = [p.name for p in rt.players]
        self.kinds = list(rt.program.pieces)
        self.sites = [s.name for s in rt.board.sites]
        names: list[str | None] = [*self.players, None]
        self.planes = {(k, o): i for i, (k, o) in
                       enumerate((k, o) for k in self.kinds for o in names)}
        zones = sorted(rt.template.zones, key=lambda z: (z.name, -1 if z.owner is None
                                                         else z.owner))
        self.zones = {(z.name, None if z.owner is None else self.players[z.owner]): i
                      for i, z in enumerate(zones)}
        counters = sorted(rt.template.counters, key=lambda c: (c[0], -1 if c[1] is None
                                                               else c[1]))
        self.counters = {(k, None if o is None else self.players[o]): i
                         for i, (k, o) in enumerate(counters)}
        self.values = _symbol_columns(rt.program, 1 + len(self.kinds))
        width = 1 + len(self.kinds) + len(self.values)
        self.shape = {"board": (len(self.planes), len(self.sites)),
                      "zones": (len(self.zones), width),
                      "counters": (len(self.counters),),
                      "mover": (len(self.players),)}
        self.size = sum(_product(s) for s in self.shape.values())

    def parts(self, obs: dict[str, Any]) -> dict[str, list[float]]:
        """The tensor's parts (flat, row by row) for one observation."""
        n_sites = len(self.sites)
        board = [0.0] * (len(self.planes) * n_sites)
        for j, site in enumerate(obs["board"]):
            for piece in site["pieces"]:
                board[self.planes[(piece["kind"], piece["owner"])] * n_sites + j] += 1
        width = self.shape["zones"][1]
        zones = [0.0] * (len(self.zones) * width)
        kind_at = {k: i for i, k in enumerate(self.kinds)}
        values = self.values
        for z in obs["zones"]:
            row = self.zones[(z["zone"], z["owner"])] * width
            zones[row] = float(z["count"])
            for run in z["pieces"] or ():
                kind = run["kind"]
                zones[row + 1 + kind_at[kind]] += run["count"]
                for attr, value in run["attrs"].items():
                    at = values.get((kind, attr, value))
                    if at is not None:
                        zones[row + at] += run["count"]
        counters = [0.0] * len(self.counters)
        for c in obs["counters"]:
            counters[self.counters[(c["counter"], c["owner"])]] = float(c["value"])
        mover = [0.0] * len(self.players)
        if 0 <= obs["current_player"] < len(mover):
            mover[obs["current_player"]] = 1.0
        return {"board": board, "zones": zones, "counters": counters, "mover": mover}

    def flat(self, obs: dict[str, Any]) -> list[float]:
        out: list[float] = []
        for part in self.parts(obs).values():
            out.extend(part)
        return out


def _symbol_columns(program: Any, first: int) -> dict[tuple[str, str, Any], int]:
    """(kind, attribute, symbol) -> its column in a zone's row, from `first` on: the
    attributes declared of an enumeration, per symbol."""
    out: dict[tuple[str, str, Any], int] = {}
    for kind, declared in program.attr_types.items():
        for attr, t in declared.items():
            enum = program.enums.get(getattr(t, "name", "")) if getattr(t, "tag", "") == \
                "symbol" else None
            for symbol in enum.symbols if enum is not None else ():
                out[(kind, attr, symbol)] = first + len(out)
    return out


def _product(shape: tuple[int, ...]) -> int:
    out = 1
    for n in shape:
        out *= n
    return out


def tensors_of(game: Any) -> Tensors:
    """The game's tensor layout, made once per game."""
    found: Tensors | None = game.__dict__.get("_tensors")
    if found is None:
        found = game._tensors = Tensors(game)
    return found


def observation_tensor(state: Any, player: int) -> list[float]:
    """Player's observation of the state as a flat tensor (tensors_of(game).shape)."""
    return tensors_of(state.game).flat(state.observation(player))
