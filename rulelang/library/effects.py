"""What effects do to the state's data, shared by both evaluators (each evaluates the
statement's expressions its own way, then calls these), so that the two cannot disagree on
them: where a put piece comes from, placing it, setting a piece's attribute, the slot of a
counter or var, and a counter's bounds."""
from __future__ import annotations

from typing import Any

from rulelang.errors import Refusal, RuleRuntimeError, StatedChanceError
from rulelang.model.state import GameData
from rulelang.model.values import Piece, PieceSource, Player, Site, ZoneRef, piece_source, show

Slot = tuple[dict[Any, Any], tuple[str, int | None]]


def zone_text(players: tuple[Player, ...], z: ZoneRef) -> str:
    return z.name if z.owner is None else f"{z.name} of {players[z.owner].name}"


def take_piece(data: GameData, players: tuple[Player, ...], what: Any, source: Any,
               given_source: bool, span: Any) -> Piece:
    """The piece a `put` puts: `what` itself, or the last of its kind in its zone (or in the
    zone `source`, when the put names one)."""
    if isinstance(what, Piece):
        return what
    if given_source:
        what = piece_source(what if isinstance(what, str) else None, source)
    if isinstance(what, PieceSource) and not isinstance(what.zone, ZoneRef):
        raise RuleRuntimeError(f"a piece is put from a zone, not from {show(what.zone)}", span)
    if isinstance(what, PieceSource):
        if what.zone not in data.zones:
            raise RuleRuntimeError(f"there is no zone '{what.zone.name}' for this player", span)
        piece = data.take_from(what.zone, what.kind)
        if piece is None:
            raise Refusal(f"no {what.kind or 'piece'} left in "
                          f"{zone_text(players, what.zone)}", span)
        return piece
    error = Refusal if what is None else RuleRuntimeError  # no piece there: cannot happen
    raise error(f"'put' needs a piece, not {show(what)}", span)


def place(data: GameData, piece: Piece, target: Any, span: Any) -> None:
    """A piece put or moved to a site or a zone; `last` remembers it."""
    if type(target) is Site:
        data.put(piece, target)
        data.last["site"] = target
    elif isinstance(target, ZoneRef):
        data.to_zone(piece, target)
    else:
        error = Refusal if target is None else RuleRuntimeError  # nowhere: cannot happen
        raise error(f"a piece can go to a site or a zone, not {show(target)}", span)
    data.last["piece"] = piece  # (lift gave a new version)


def set_attribute(data: GameData, attrs: tuple[tuple[str, Any], ...] | None, piece: Any,
                  name: str, value: Any, span: Any) -> None:
    """`set p.owner = q`, `set p.side = 2`: a piece's changing attributes (`attrs`: those its
    kind declares)."""
    if not isinstance(piece, Piece):
        raise RuleRuntimeError(f"only a piece's attributes can be set, not {show(piece)}'s",
                               span)
    if name == "owner":
        if value is not None and not isinstance(value, Player):
            raise RuleRuntimeError(f"an owner is a player or none, not {show(value)}", span)
        data.owner[piece.id] = None if value is None else value.index
    elif any(n == name for n, _ in attrs or ()):
        assert name not in data.fixed, f"'{name}' is shared by every copy of the data"
        data.attrs[name][piece.id] = value
    else:
        raise RuleRuntimeError(f"a {piece.kind} has no attribute '{name}'", span)
    where = data.loc[piece.id]
    if type(where) is Site:
        data.changes.append(where.index)  # queries over the board must see it


def slot(data: GameData, category: str, name: str, player: Any, of: bool, span: Any) -> Slot:
    """The table and key of a counter or var (`points`, or `points of player` when `of`)."""
    owner = None
    if of:
        if not isinstance(player, Player):
            raise RuleRuntimeError(f"'of' needs a player, not {show(player)}", span)
        owner = player.index
    table = data.counters if category == "counter" else data.vars
    if (name, owner) not in table:
        raise RuleRuntimeError(f"'{name}' belongs to each player: write '{name} of "
                               "<player>'", span)
    return table, (name, owner)


def clamp(bounds: tuple[int | None, int | None], value: int) -> int:
    """A counter's value kept within its bounds (gains above the cap are lost)."""
    lo, hi = bounds
    if hi is not None and value > hi:
        value = hi
    if lo is not None and value < lo:
        value = lo
    return value


def chance_draw(data: GameData, values: list[Any], span: Any) -> Any:
    """`choose x in D at random`: a uniform draw from the state's seeded generator, or the
    outcome stated for this draw (a scenario's `given chance "…"`: first stated, first
    drawn), which must be one of the outcomes."""
    if data.stated_chance:
        (want, stated_at), data.stated_chance = data.stated_chance[0], data.stated_chance[1:]
        for value in values:
            if show(value) == want:
                return value
        shown = ", ".join(show(v) for v in values[:20]) + (" …" if len(values) > 20 else "")
        raise StatedChanceError(f"the stated chance outcome '{want}' is not one of this "
                                f"draw's outcomes ({shown})", span, stated_at)
    value = values[data.rng.randrange(len(values))]
    watch = chance_watch
    if watch is not None and (watch[0] is None or watch[0] is data):
        watch[1].append((data, span, value))
    return value


# A tool's watch on the draws at random (`rulelang evaluate` counts their outcomes): None, or
# [data, draws]: each draw made with that GameData is appended to draws as (data, span,
# value); with None for the data, every draw is (the caller keeps its own state's later).
# Draws only: nothing of the game changes.
chance_watch: list[Any] | None = None
