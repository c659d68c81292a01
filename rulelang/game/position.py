"""Positions stated directly (scenario files' `given`): pieces put on sites, pieces moved into
a zone, a zone's order, counters, vars and whose turn it is — each checked against the rules
(a site, kind, zone, counter or player the rules do not have, a piece none of the zones holds,
a value outside a counter's bounds, is a PositionError saying so).

A position is stated between turns: the state must wait at the first decision of a turn with
nothing of the turn done. Each edit is made to that turn's starting data, and the turn then
starts again from it, so the decision offered afterwards is the one the rules give for the
stated position (in either engine mode).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from rulelang.errors import RulelangError
from rulelang.game.engine import State
from rulelang.library.effects import clamp, zone_text
from rulelang.library.semantics import Ctx
from rulelang.model.state import GameData
from rulelang.model.values import Piece, Record, Site, ZoneRef, show, zone_ref


class PositionError(RulelangError):
    """A stated position the rules cannot have (or a state where none may be stated)."""


def restate(state: State, edit: Callable[[State, GameData], None]) -> State:
    """A new state: `state`'s turn restarted from its starting data changed by `edit`."""
    if state.is_terminal():
        raise PositionError("the game is over: a position can be stated only while it goes on")
    game = state.game
    restart = getattr(state, "restarted", None)
    if restart is not None:  # a generated game's state: the data its turn began with
        data = state.turn_start_data()  # type: ignore[attr-defined]
        if data is None:
            raise PositionError("a position can be stated only at the start of a turn, "
                                "not in the middle of one or during the setup")
        edit(state, data)
        return restart(data)  # type: ignore[no-any-return]
    if state._gen is not None:
        if state._segment != game.flow.turn or state._trail:
            raise PositionError("a position can be stated only at the start of a turn, "
                                "not in the middle of one or during the setup")
        assert state._checkpoint is not None
        data = state._checkpoint.copy()
    else:  # a single-decision turn: nothing but `require` ran before its decision
        data = state.data.copy()
    edit(state, data)
    data.cache = {}  # nothing kept from before holds for the new position
    new = State(game, data)
    new._guard(new._start, game.flow.turn)
    return new


# ---- the facts ---------------------------------------------------------------------------

def put_pieces(state: State, owner: str | None, kind: str | None,
               sites: Iterable[str], attr: tuple[str, Any] | None = None,
               source: tuple[str, str | None] | None = None) -> State:
    """One piece of `kind` (any kind when None) of `owner` (nobody's when None), with the
    attribute `attr` = (name, value) when given, on top of each site, taken from a zone that
    holds one (the first such zone in the rulebook's order; zone `source` when given)."""
    def edit(st: State, data: GameData) -> None:
        who = _player(st, owner) if owner is not None else None
        src = _zone(st, data, *source) if source is not None else None
        if kind is not None and kind not in st.game.runtime.program.pieces:
            raise PositionError(f"the rules have no piece kind '{kind}'")
        values = data.attrs.get(attr[0]) if attr is not None else None
        if attr is not None and values is None:
            raise PositionError(f"the pieces have no attribute '{attr[0]}'")

        def wanted(p: Piece) -> bool:
            return ((kind is None or p.kind == kind) and data.owner[p.id] == who
                    and (values is None or values[p.id] == attr[1])  # type: ignore[index]
                    and (src is None or data.loc[p.id] == src))
        for name in sites:
            site = _site(st, name)
            piece = _piece_in_zones(st, data, wanted)
            if piece is None:
                whose = f"{st.game.player_names[who]}'s " if who is not None else "unowned "
                which = f" with {attr[0]} = {_shown(attr[1])}" if attr is not None else ""
                where = f"in {zone_text(st.game.runtime.players, src)}" if src is not None \
                    else "left in a zone"
                raise PositionError(f"no {whose}{kind or 'piece'}{which} is {where} "
                                    f"to put on {site.name}")
            data.put(piece, site)
            data.last["site"], data.last["piece"] = site, piece
    return restate(state, edit)


def move_pieces(state: State, labels: Iterable[str], zone: str, owner: str | None,
                source: tuple[str, str | None] | None = None) -> State:
    """Each piece named (by its name, else its kind) moved from zone `source` (from another
    zone, the first in the rulebook's order holding one, when None) into `zone` (of `owner`),
    on top."""
    def edit(st: State, data: GameData) -> None:
        ref = _zone(st, data, zone, owner)
        src = _zone(st, data, *source) if source is not None else None
        def named(label: str) -> Callable[[Piece], bool]:
            return lambda p: (p.label == label and data.loc[p.id] is not ref
                              and (src is None or data.loc[p.id] == src))
        for label in labels:
            piece = _piece_in_zones(st, data, named(label))
            if piece is None:
                where = f"in {zone_text(st.game.runtime.players, src)}" if src is not None \
                    else "in another zone"
                raise PositionError(f"no '{label}' is {where} to move to "
                                    f"{zone_text(st.game.runtime.players, ref)}")
            data.to_zone(piece, ref)
    return restate(state, edit)


def move_matching(state: State, kind: str, attr: tuple[str, Any], zone: str, owner: str | None,
                  source: tuple[str, str | None] | None = None) -> State:
    """One piece of `kind` whose attribute attr = (name, value) moved from zone `source` (from
    another zone when None) into `zone` (of `owner`), on top."""
    def edit(st: State, data: GameData) -> None:
        if kind not in st.game.runtime.program.pieces:
            raise PositionError(f"the rules have no piece kind '{kind}'")
        values = data.attrs.get(attr[0])
        if values is None:
            raise PositionError(f"the pieces have no attribute '{attr[0]}'")
        ref = _zone(st, data, zone, owner)
        src = _zone(st, data, *source) if source is not None else None
        piece = _piece_in_zones(st, data, lambda p: (
            p.kind == kind and values[p.id] == attr[1] and data.loc[p.id] is not ref
            and (src is None or data.loc[p.id] == src)))
        if piece is None:
            where = zone_text(st.game.runtime.players, src) if src is not None \
                else "another zone"
            raise PositionError(f"no {kind} with {attr[0]} = {_shown(attr[1])} is in {where} "
                                f"to move to {zone_text(st.game.runtime.players, ref)}")
        data.to_zone(piece, ref)
    return restate(state, edit)


def _shown(value: Any) -> str:
    return f'"{value}"' if isinstance(value, str) else show(value)


def move_all(state: State, source: tuple[str, str | None] | None,
             target: tuple[str, str | None]) -> State:
    """Every piece of zone `source` (of every other zone when None) moved into `target`."""
    def edit(st: State, data: GameData) -> None:
        ref = _zone(st, data, *target)
        sources = [_zone(st, data, *source)] if source is not None else list(data.zones)
        for zone in sources:
            if zone is not ref:
                for piece in list(data.zones[zone]):
                    data.to_zone(piece, ref)
    return restate(state, edit)


def order_zone(state: State, zone: str, owner: str | None, labels: list[str]) -> State:
    """The pieces named come first in the zone (its top, where draws are taken), in this
    order; the zone's other pieces follow in their order."""
    def edit(st: State, data: GameData) -> None:
        ref = _zone(st, data, zone, owner)
        pile = data.zones[ref]  # bottom first: the last piece is the top
        top: list[Piece] = []
        rest = list(reversed(pile))
        for label in labels:
            piece = next((p for p in rest if p.label == label), None)
            if piece is None:
                raise PositionError(f"{zone_text(st.game.runtime.players, ref)} holds no "
                                    f"{'more ' if top else ''}'{label}'")
            rest.remove(piece)
            top.append(piece)
        pile[:] = list(reversed(top + rest))
    return restate(state, edit)


def set_value(state: State, category: str, name: str, owner: str | None, value: Any) -> State:
    """A counter's value (within its bounds) or a var's."""
    def edit(st: State, data: GameData) -> None:
        program = st.game.runtime.program
        decls = program.counters if category == "counter" else program.vars
        decl = decls.get(name)
        if decl is None:
            known = ", ".join(sorted(decls)) or "none"
            raise PositionError(f"the rules have no {category} '{name}' (they have: {known})")
        if decl.each != (owner is not None):
            raise PositionError(f"'{name}' belongs to each player: write '{name} of P'"
                                if decl.each else f"'{name}' belongs to no player: "
                                "leave out 'of'")
        key = (name, _player(st, owner) if owner is not None else None)
        if category == "counter":
            if not isinstance(value, int) or isinstance(value, bool):
                raise PositionError(f"counter '{name}' holds a whole number, not {show(value)}")
            bounds = st.game.runtime.counter_bounds(name, Ctx(st.game.runtime, data))
            if clamp(bounds, value) != value:
                lo, hi = bounds
                raise PositionError(f"counter '{name}' stays within {show(lo)}..{show(hi)}: "
                                    f"{value} is outside")
            data.counters[key] = value
        else:
            data.vars[key] = _as_tuple(value)
    return restate(state, edit)


def _as_tuple(value: Any) -> Any:
    """A list written in a scenario as the tuple the rules' values are, a record `(name: …)`
    (read as a dict) as a record."""
    if isinstance(value, dict):
        return Record(tuple(value), tuple(_as_tuple(x) for x in value.values()))
    return tuple(_as_tuple(x) for x in value) if isinstance(value, list) else value


def set_mover(state: State, player: str) -> State:
    """Whose turn it is."""
    def edit(st: State, data: GameData) -> None:
        data.mover = _player(st, player)
    return restate(state, edit)


def state_chance(state: State, outcomes: list[str], where: Any = None) -> State:
    """The outcomes of the next draws `at random`, in order (each as its value shows);
    `where` (the statement's position) is named if a draw cannot give its outcome."""
    def edit(st: State, data: GameData) -> None:
        data.stated_chance = data.stated_chance + tuple((text, where) for text in outcomes)
    return restate(state, edit)


def set_round(state: State, number: int) -> State:
    """The number of the current round (from 1)."""
    def edit(st: State, data: GameData) -> None:
        if number < 1:
            raise PositionError("rounds are numbered from 1")
        data.round = number
    return restate(state, edit)


def zone_labels(state: State, zone: str, owner: str | None, kind: str | None = None) -> list[str]:
    """The names of the pieces (of `kind` if given) in a zone (of a player), its top first
    (read, not changed)."""
    ref = _zone(state, state.data, zone, owner)
    if kind is not None and kind not in state.game.runtime.program.pieces:
        raise PositionError(f"the rules have no piece kind '{kind}'")
    return [p.label for p in reversed(state.data.zones[ref]) if kind is None or p.kind == kind]


# ---- names -------------------------------------------------------------------------------

def _player(state: State, name: str) -> int:
    names = state.game.player_names
    if name not in names:
        raise PositionError(f"no player '{name}' in this game (the players: "
                            f"{', '.join(names)})")
    return names.index(name)


def _site(state: State, name: str) -> Site:
    site: Site | None = next((s for s in state.game.runtime.board.sites if s.name == name),
                             None)
    if site is None:
        raise PositionError(f"the board has no site '{name}'")
    return site


def _zone(state: State, data: GameData, name: str, owner: str | None) -> ZoneRef:
    decl = state.game.runtime.program.zones.get(name)
    if decl is None:
        raise PositionError(f"the rules have no zone '{name}'")
    if decl.each != (owner is not None):
        raise PositionError(f"zone '{name}' belongs to each player: write '{name} of P'"
                            if decl.each else f"zone '{name}' belongs to no player: leave "
                            "out 'of'")
    return zone_ref(name, _player(state, owner) if owner is not None else None)


def _piece_in_zones(state: State, data: GameData,
                    wanted: Callable[[Piece], bool]) -> Piece | None:
    """The topmost wanted piece of the first zone (in the rulebook's order) holding one."""
    for pile in data.zones.values():
        for piece in reversed(pile):
            if wanted(piece):
                return piece
    return None
