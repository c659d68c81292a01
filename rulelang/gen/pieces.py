"""What generated effects call to move pieces over the flat state (the meaning of
GameData's and library/effects.py's, with the kept structures touched where a site
changes): lift, place, remove, take, the checks of `put` and `move`, shuffle and reveal; a
zone's list changed only as own_zone gives it."""
from __future__ import annotations

from typing import Any

from rulelang.errors import Refusal, RuleRuntimeError
from rulelang.gen.rt import GenState, own_zone
from rulelang.library.effects import zone_text
from rulelang.model.state import REVEALED, Mixed, pieces_in
from rulelang.model.values import Piece, PieceSource, Site, ZoneRef, piece_source, show


def lift(s: GenState, piece: Piece) -> None:
    """Take a piece from wherever it is (GameData.lift over the flat state)."""
    where = s.loc[piece.id]
    s.moved.add(piece.id)
    if where is None:
        return
    came = s.came
    if came is not None:
        came[piece.id] = where
    if type(where) is Site:
        i = where.index
        was = s.at[i]
        stack = s.at[i] = was[:-1] if was and was[-1] is piece else \
            tuple(p for p in was if p is not piece)  # (a piece is once in a pile: its top)
        s.top[i] = s.piece_owner[stack[-1].id] if stack else None
        s._touch(i, was)
    else:
        pile = s.zones[where]
        if not s.zown & s.zone_bit.get(where, 0):  # (shared with a copy: own_zone)
            pile = own_zone(s, where)
        if pile and pile[-1] is piece:
            pile.pop()
        else:
            pile.remove(piece)
    s.loc[piece.id] = None


def place(s: GenState, piece: Any, target: Any, span: Any, verb: str) -> None:
    """A piece put or moved (`verb`) to a site or a zone (effects.place and the checks of
    `move` and `put` before it)."""
    if not isinstance(piece, Piece):
        error = Refusal if piece is None else RuleRuntimeError
        raise error(f"'{verb}' needs a piece, not {show(piece)}", span)
    if type(target) is Site:
        lift(s, piece)
        i = target.index
        was = s.at[i]
        s.at[i] = was + (piece,)
        s.top[i] = s.piece_owner[piece.id]
        s._touch(i, was)
        s.loc[piece.id] = target
        s.last["site"] = target
    elif isinstance(target, ZoneRef):
        lift(s, piece)
        pile = s.zones[target]
        if not s.zown & s.zone_bit.get(target, 0):
            pile = own_zone(s, target)
        pile.append(piece)
        s.loc[piece.id] = target
    else:
        error = Refusal if target is None else RuleRuntimeError
        raise error(f"a piece can go to a site or a zone, not {show(target)}", span)
    s.last["piece"] = piece


def target_ok(target: Any, span: Any) -> bool:
    """Can a piece be put there (place's test): a site or a zone; none refuses (False),
    anything else is place's error."""
    if type(target) is Site or isinstance(target, ZoneRef):
        return True
    if target is None:
        return False
    raise RuleRuntimeError(f"a piece can go to a site or a zone, not {show(target)}", span)


def remove(s: GenState, piece: Any, span: Any) -> None:
    if not isinstance(piece, Piece):
        error = Refusal if piece is None else RuleRuntimeError
        raise error(f"'remove' needs a piece, not {show(piece)}", span)
    lift(s, piece)


def take(s: GenState, zone: ZoneRef, kind: str | None, span: Any, where: str) -> Piece:
    """The last piece of a kind in a zone (effects.take_piece; `place` takes it out), or
    the Refusal of a put that has no piece."""
    pile = s.zones.get(zone)
    if pile is None:
        raise RuleRuntimeError(f"there is no zone '{zone.name}' for this player", span)
    if isinstance(kind, Piece):  # (a piece itself: put as it is)
        return kind
    for piece in reversed(pile):
        if kind is None or piece.kind == kind:
            return piece
    raise Refusal(f"no {kind or 'piece'} left in {where}", span)


def has_piece(s: GenState, zone: ZoneRef, kind: str, span: Any) -> bool:
    """Has a `put` of a kind from a zone a piece to put (the menu's check)?"""
    pile = s.zones.get(zone)
    if pile is None:
        raise RuleRuntimeError(f"there is no zone '{zone.name}' for this player", span)
    if kind is None or isinstance(kind, Piece):
        return kind is not None or bool(pile)
    return bool(pile) and pile[-1].kind == kind or any(p.kind == kind for p in pile)


def has_pieces(s: GenState, zone: ZoneRef, kind: str, n: int, span: Any) -> bool:
    """Have n puts of a kind from a zone their pieces (the menu's check)?"""
    pile = s.zones.get(zone)
    if pile is None:
        raise RuleRuntimeError(f"there is no zone '{zone.name}' for this player", span)
    return sum(1 for p in pile if kind is None or p.kind == kind) >= n


def take_value(s: GenState, what: Any, source: Any, given: bool, span: Any) -> Piece:
    """The piece a `put` of a value found as the game runs puts (effects.take_piece): the
    piece itself, or the last of its kind in its zone (or in `source`, when `given`)."""
    if isinstance(what, Piece):
        return what
    if given:
        what = piece_source(what if isinstance(what, str) else None, source)
    if isinstance(what, PieceSource):
        if not isinstance(what.zone, ZoneRef):
            raise RuleRuntimeError(f"a piece is put from a zone, not from {show(what.zone)}",
                                   span)
        return take(s, what.zone, what.kind, span, zone_text(s.players, what.zone))
    error = Refusal if what is None else RuleRuntimeError
    raise error(f"'put' needs a piece, not {show(what)}", span)


def put_ok(s: GenState, what: Any, source: Any, given: bool, span: Any) -> bool:
    """Has a `put` of this value a piece to put (the menu's check; none: refused)?"""
    try:
        take_value(s, what, source, given, span)
    except Refusal:
        return False
    return True


def put_piece(s: GenState, value: Any, target: Any, piece_span: Any, span: Any) -> None:
    """`put p at t` of a piece itself (effects.take_piece, then place)."""
    if not isinstance(value, Piece):
        error = Refusal if value is None else RuleRuntimeError
        raise error(f"'put' needs a piece, not {show(value)}", piece_span)
    place(s, value, target, span, "put")


def shuffle(s: GenState, zone: Any, span: Any) -> None:
    """`shuffle Z` (GameData.shuffle over the flat state)."""
    if not isinstance(zone, ZoneRef):
        raise RuleRuntimeError(f"only a zone can be shuffled, not {show(zone)}", span)
    pile = own_zone(s, zone)
    s.rng.shuffle(pile)
    came = s.came
    if came is not None:
        for piece in pile:
            was = came[piece.id]
            if was is not None and type(was) is not Mixed:
                came[piece.id] = Mixed(was)


def reveal(s: GenState, name: str) -> None:
    """`reveal V` (GameData.reveal over the flat state)."""
    keys = [k for k in s.vars if k[0] == name]
    s.revealed = s.revealed.union(keys)
    came = s.came
    if came is not None:
        for key in keys:
            for piece in pieces_in(s.vars[key]):
                came[piece.id] = REVEALED


def kind_of(what: Any, span: Any) -> Any:
    """What `put X from Z` takes, X found as the game runs (effects.take_piece): a piece
    itself, the last of a kind (a text), else the last piece of any kind (None)."""
    return what if isinstance(what, (Piece, str)) else None
