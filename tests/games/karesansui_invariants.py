"""Invariants of Karesansui checked after every action of a random game (tests and bench).

They read the state's ground truth (GameData) and the observations, and say in words what is
wrong. From the rules: the 80 tiles are always somewhere; the stones in play for the player
count stay on the temple or in the gardens; virtue stays in 0..6; a garden's tiles form one
orthogonally connected group holding a left corner (the first tile's place), with the monk
on one of them once there is a tile; one stone per tile, no two orthogonally adjacent stones
unless both on moss, at most one 舟石 (B) per garden; and no player's observation shows
another player's secret card (famous garden, unused gardener card).
"""
from __future__ import annotations

import functools
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import rulelang  # noqa: E402
from rulelang.model.values import Site, ZoneRef  # noqa: E402

BOOK = ROOT / "rulebooks" / "karesansui.rule"
IN_PLAY = {"Y": 2, "s": 3, "F": 0, "T": 1, "B": -1}  # stones of a type: players + this


def check(state: Any, hidden: bool = True) -> None:
    data, n = state.ctx.data, state.game.num_players
    attrs = data.attrs
    pieces = [(i, where) for i, where in enumerate(data.loc)]
    kinds = _kinds(state)
    tiles = [w for i, w in pieces if kinds[i] == "tile"]
    assert len(tiles) == 80 and all(w is not None for w in tiles), "a tile went missing"
    loose = sum(len(data.zones[z]) for z in data.zones if z.name in ("drawn_tile", "offered"))
    assert loose <= 2, "more than a drawn and an offered tile in the open"
    stones = [(i, w) for i, w in pieces if kinds[i] == "stone"]
    playing = [(i, w) for i, w in stones if not (isinstance(w, ZoneRef) and w.name == "stone_box")]
    for t, extra in IN_PLAY.items():
        got = sum(1 for i, _ in playing if attrs["type"][i] == t)
        assert got == n + extra, f"{got} stones {t} in play, not {n + extra}"
    assert all(isinstance(w, Site) or w.name in ("temple", "stone_box") for _, w in stones), \
        "a stone outside the temple and the gardens"
    for p in range(n):
        v = data.counters[("virtue", p)]
        assert 0 <= v <= 6, f"virtue {v}"
        _check_garden(state, p, kinds)
    if hidden:
        _check_hidden(state, kinds)


def _kinds(state: Any) -> list[str]:
    return [p.kind for p in state.game.runtime.pieces]


def _check_garden(state: Any, p: int, kinds: list[str]) -> None:
    data, board = state.ctx.data, state.game.runtime.board
    cells = {(r, c): data.at[board.by_coords[(p, r, c)].index] for r in range(3) for c in range(5)}
    laid = {rc for rc, stack in cells.items() if stack}
    for rc, stack in cells.items():
        if stack:
            assert stack[0].kind == "tile", f"player {p + 1}: {rc} has no tile at the bottom"
            assert sum(1 for x in stack if x.kind == "tile") == 1, f"two tiles on {rc}"
            assert sum(1 for x in stack if x.kind == "stone") <= 1, f"two stones on {rc}"
    pawn = data.vars[("pawn", p)]
    where = data.loc[pawn.id]
    if not laid:
        assert isinstance(where, ZoneRef), f"player {p + 1}: a monk with no tile"
        return
    assert (0, 0) in laid or (2, 0) in laid, f"player {p + 1}: no tile in a left corner"
    seen, todo = set(), [next(iter(laid))]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [x for x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if x in laid]
    assert seen == laid, f"player {p + 1}: tiles not connected: {sorted(laid)}"
    assert isinstance(where, Site) and where.coords[0] == p and \
        (where.coords[1], where.coords[2]) in laid, f"player {p + 1}: monk off the garden"
    moss = data.attrs["moss"]
    stoned = {rc: next((x for x in cells[rc] if x.kind == "stone"), None) for rc in laid}
    stoned = {rc: s for rc, s in stoned.items() if s is not None}
    boats = sum(1 for s in stoned.values() if data.attrs["type"][s.id] == "B")
    assert boats <= 1, f"player {p + 1}: {boats} boat stones"
    for (r, c) in stoned:
        for nb in ((r + 1, c), (r, c + 1)):
            if nb in stoned:
                both = moss[cells[(r, c)][0].id] and moss[cells[nb][0].id]
                assert both, f"player {p + 1}: stones on {(r, c)} and {nb} touch off moss"


def _check_hidden(state: Any, kinds: list[str]) -> None:
    data, n = state.ctx.data, state.game.num_players
    names = data.attrs["name"]
    secret = [[names[c.id] for z in ("famous", "gardeners")
               for c in data.zones[_zone(data, z, p)]] for p in range(n)]
    for q in range(n):
        text = json.dumps(state.observation(q), ensure_ascii=False)
        for p in range(n):
            if p != q:
                leaked = [s for s in secret[p] if f'"{s}"' in text or f" {s}" in text]
                assert not leaked, f"player {q + 1} sees player {p + 1}'s {leaked}"


def _zone(data: Any, name: str, owner: int) -> ZoneRef:
    return next(z for z in data.zones if z.name == name and z.owner == owner)


def random_game(game: Any, seed: int, hidden: bool = True, checks: bool = True
                ) -> tuple[Any, int]:
    """One seeded random game, checked after every action: (final state, actions)."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    if checks:
        check(state, hidden)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
        if checks:
            check(state, hidden)
        assert steps < 5000, "a game that does not end"
    return state, steps


@functools.cache
def load(players: int, mode: str = "compiled", variant: str = "standard") -> Any:
    """Loaded once per process (load_game parses the rulebook again on every call)."""
    return rulelang.load_game(BOOK, {"players": players, "variant": variant}, mode=mode)
