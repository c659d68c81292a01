"""`State.resample(p, seed)`: a copy of a state in which what player p cannot see is dealt
or chosen again at random, consistent with everything p has seen (determinization, for
search over what p may believe).

Everything the copy holds is made from the resampled data, never carried over from the true
state: the decision waiting (its options, and whatever the segment computed before it from
hidden pieces) comes from the copy's own hands. So the copy is made by playing the current
segment (its turn, from the checkpoint where it began) again:

* **The pieces in the zones hidden from p** at the segment's start are shuffled among those
  zones, by kind and owner (every zone keeps its size and its pieces of each kind and
  owner), except what p knows of them: a piece p saw arrive where it lies (GameData.came),
  or that a revealed value names, stays where it is, and so does one p has seen or learnt
  of since, in the segment (it is in a zone p sees now, or known there); a piece p saw
  arrive in a zone shuffled since stays in that zone, at a random place in it.
* **The segment's choices** are made again: the other players' secret choices at random,
  every other one the same by its label. A choice whose result p has since seen (a value
  revealed, a piece moved because of it, another player to move, other options offered)
  may not come out otherwise: p's observation after each choice of the replay must be the
  one p had after that choice of the true segment, and the same player must be waiting at
  the end (with the same options when it is p). A refused redo is tried again; after a few
  refused tries, the secret choices before the first place where the refusal showed are
  kept as they were (p's view decides them), and the rest is redone again; if even the
  choices as made are refused, the deal was (a piece p learnt of otherwise than the rules
  of `came` say), and the segment is replayed on the true pieces.

Between turns (a flow that plays single-decision turns without a generator segment) the
deal is made on the state's data and its turn started again from it. The chance generator
is seeded anew.

Everything here depends on p's view alone (the observations, not the hidden truth), so two
states that p cannot tell apart give the same resamples for the same seed.
"""
from __future__ import annotations

import random
from typing import Any

from rulelang.errors import RuleRuntimeError
from rulelang.library.decision import GameOver
from rulelang.model.rng import Rng
from rulelang.model.state import REVEALED, GameData, Mixed
from rulelang.model.values import Site, ZoneRef

State = Any  # engine.State (which imports this module)

Kept = tuple[frozenset[int], frozenset[int] | None]  # deal_again's `fixed` and `stays`

TRIES = 3  # random redos refused before the earliest secret choices are kept


def resample(state: State, player: int, seed: int) -> State:
    rng = random.Random(seed)
    if state._gen is not None and state._checkpoint is not None:
        new = _segment_again(state, player, rng)
    else:
        new = _turn_again(state, player, rng)
    new.ctx.data.rng = Rng(rng.getrandbits(63))
    new.ctx.data.stated_chance = ()  # future chance is drawn again
    new._resampled = True
    return new


def _dealt(data: GameData, program: Any, player: int, rng: random.Random,
           kept: Kept = (frozenset(), None)) -> GameData:
    """`data` dealt again for `player` (deal_again, keeping `kept`), nothing kept of what
    it held before."""
    deal_again(data, program, player, rng, *kept)
    if isinstance(data, GameData):  # (a generated state's copy keeps nothing of the kind)
        data.cache = {}  # the deal changed zones in place: nothing kept holds
    return data


def _turn_again(state: State, player: int, rng: random.Random) -> State:
    """A state waiting between turns (or terminal): its data dealt again and its turn
    started anew from it (nothing but `require` ran before the decision it holds)."""
    program = state.game.runtime.program
    new = state.clone()
    if new.is_terminal() or not _hides(program):
        _dealt(new.ctx.data, program, player, rng)
        return new
    again = type(state)(state.game, _dealt(new.ctx.data, program, player, rng))
    try:
        again._guard(again._start, state.game.flow.turn)
    except RuleRuntimeError:  # (a rule failed on the dealt pieces: the truth's are kept)
        return state.clone()
    if _same_view(again, state, player, state.observation(player)):
        return again
    return state.clone()  # (cannot happen: the turn's start shows nothing hidden)


def _same_view(new: State, state: State, player: int, view: Any) -> bool:
    """The same player waits in `new` as in `state` (with the same options when it is
    `player`), and `player` sees `view` there."""
    now, then = new._decision, state._decision
    if now is None or then is None or now.player != then.player or (
            now.player == player and now.labels() != then.labels()):
        return False
    return bool(new.observation(player) == view)


def _hides(program: Any) -> bool:
    return any(z.visible != "everyone" for z in program.zones.values())


# ---- the segment played again -------------------------------------------------------------

def _segment_again(state: State, player: int, rng: random.Random) -> State:
    """A copy of `state` whose segment is played again from its checkpoint dealt anew, the
    other players' secret choices made again, as far as p's view allows (module
    docstring)."""
    program = state.game.runtime.program
    made = state.ctx.data.history[-len(state._trail):] if state._trail else []
    free = any(d.secret and d.player != player for d, _ in made)
    hides = _hides(program)
    if not free and not hides:
        return state.clone()  # nothing to deal or choose again
    views, known, kept_before = _views(state, player, made, free, hides)
    new, _ = _redo(state, player, made, views, kept_before, rng, known, TRIES)
    if new is None:  # the deal was refused every time: the true pieces
        new, _ = _redo(state, player, made, views, 0, rng, None, TRIES if free else 1)
    return new if new is not None else state.clone()  # (the choices as made replay it)


def replayed(state: State, player: int, rng: random.Random) -> State | None:
    """A copy of `state` whose segment is replayed with the other players' secret choices
    made again, as far as p's view allows, on the true pieces (the caller deals them: the
    generated mode's resample); None when there is no such choice to redo."""
    if state._gen is None or state._checkpoint is None or not state._trail:
        return None
    made = state.ctx.data.history[-len(state._trail):]
    if not any(d.secret and d.player != player for d, _ in made):
        return None
    views, _, kept_before = _views(state, player, made, True, False)
    new, _ = _redo(state, player, made, views, kept_before, rng, None, TRIES)
    return new


def _redo(state: State, player: int, made: list[Any], views: list[Any], kept_before: int,
          rng: random.Random, fixed: Kept | None,
          tries: int) -> tuple[State | None, int]:
    """Redo the segment (_attempt) until p's view allows it, keeping more of the first
    secret choices as made after each `tries` refusals: (the copy or None when even the
    choices as made are refused, how many are kept)."""
    while True:
        mismatch = 0
        for _ in range(tries):
            new, mismatch = _attempt(state, player, made, views, kept_before, rng, fixed)
            if new is not None:
                return new, kept_before
        if mismatch <= kept_before:
            return None, kept_before
        kept_before = mismatch


def _views(state: State, player: int, made: list[Any], free: bool,
           hides: bool) -> tuple[list[Any], Kept | None, int]:
    """p's observation after each choice of the true segment (the last one p's observation
    now; with no choice, only that one), the pieces to keep in the deal (_known_now; None
    when the game hides no piece) and how many of the segment's first choices a redo keeps
    as they were: found once, by redos from a generator of its own (so it depends on p's
    view alone, not on the seed or on earlier resamples), and kept on the state, which may
    be resampled often (a search resamples it at every playout)."""
    key = (player, len(state.ctx.data.history))
    cached = state._views
    if cached is not None and cached[0] == key:
        return cached[1], cached[2], cached[3]
    views = []
    if state._trail:
        true = state._at_segment_start(state.ctx.log)  # the true segment, as it was logged
        for action in state._trail[:-1]:
            true._replay(action)
            views.append(true.observation(player))
    views.append(state.observation(player))
    known = None
    if hides:
        known = _known_now(state.ctx.data, state._checkpoint, state.game.runtime.program,
                           player)
    kept_before = 0
    if free:
        found, kept_before = _redo(state, player, made, views, 0, random.Random(0), known,
                                   TRIES)
        if found is None:
            kept_before = 0
    state._views = (key, views, known, kept_before)
    return views, known, kept_before


def _attempt(state: State, player: int, made: list[Any], views: list[Any], kept_before: int,
             rng: random.Random, fixed: Kept | None) -> tuple[State | None, int]:
    """One redo, from the checkpoint dealt again (keeping the pieces `fixed`; None: not
    dealt): (the copy, 0) if p's view is the same after every choice, else (None, the
    number of choices after which it first differed)."""
    program = state.game.runtime.program
    data = None
    if fixed is not None:
        start = state._checkpoint  # (a GameData, or a generated state: gen/resample.py)
        data = _dealt(start.copy() if isinstance(start, GameData) else start.clone(), program,
                      player, rng, fixed)
    changed, k = fixed is not None, -1
    try:
        new = state._at_segment_start() if data is None else state._at_segment_start(data=data)
        for k, (old, action) in enumerate(made):
            d = new._decision
            if d is None or d.player != old.player:
                return None, k
            if old.secret and old.player != player and k >= kept_before:
                action = rng.randrange(d.count)
                changed = True
            else:
                labels, wanted = d.labels(), old.labels()[action]
                if wanted not in labels:
                    return None, k
                action = labels.index(wanted)
            new._replay(action)
            if changed and k < len(made) - 1 and new.observation(player) != views[k]:
                return None, k + 1
    except (StopIteration, GameOver):
        return None, len(made)
    except RuleRuntimeError:  # (a rule failed on the dealt pieces where the truth's did not)
        return None, k + 1
    if not changed:
        return new, 0
    return (new, 0) if _same_view(new, state, player, views[-1]) else (None, len(made))


def _known_now(now: GameData, start: GameData, program: Any, player: int) -> Kept:
    """What a deal at the segment's start (`start`) keeps: the pieces hidden from `player`
    there that the player has seen or learnt of since (they stay where they were), and the
    pieces that have not moved since (what the player knows of them has not changed)."""
    fixed, stays = [], []
    for ref, pile in start.zones.items():
        if _zone_seen(program, ref, player):
            continue
        for piece in pile:
            where = now.loc[piece.id]
            if now.came[piece.id] == start.came[piece.id]:  # (not moved: p knows no more)
                stays.append(piece.id)
            if type(where) is Site or (isinstance(where, ZoneRef)
                                       and _zone_seen(program, where, player)):
                fixed.append(piece.id)
                continue
            known = _known(now.came[piece.id], program, player)
            if known == "here" or (known == "zone"
                                   and _known(start.came[piece.id], program, player) is None):
                fixed.append(piece.id)
    return frozenset(fixed), frozenset(stays)


# ---- the hidden pieces ----------------------------------------------------------------

def deal_again(data: GameData, program: Any, player: int, rng: random.Random,
               fixed: frozenset[int] = frozenset(), stays: frozenset[int] | None = None) -> None:
    """Shuffle the pieces of the zones hidden from `player` among those zones (by kind and
    owner), keeping what the player knows of where they are (module docstring) and the
    pieces `fixed` where they lie. With `stays` (a deal at the start of a segment: the
    pieces that are in the same zone at its end), a piece known to be in its zone and
    staying there takes the place of one that stays too."""
    data.own_zones()  # (the piles are changed in place: a generated state's may be shared)
    slots: dict[tuple[str, int | None], list[tuple[ZoneRef, int]]] = {}
    for ref, pile in data.zones.items():
        if not _zone_seen(program, ref, player):
            for i, piece in enumerate(pile):
                slots.setdefault((piece.kind, data.owner[piece.id]), []).append((ref, i))
    for places in slots.values():
        free: list[Any] = []
        within: dict[ZoneRef, list[tuple[ZoneRef, int]]] = {}
        within_pieces: dict[ZoneRef, list[Any]] = {}
        staying: set[tuple[ZoneRef, int]] = set()  # the places whose piece stays
        for ref, i in places:
            piece = data.zones[ref][i]
            known = "here" if piece.id in fixed else _known(data.came[piece.id], program,
                                                            player)
            if known == "here":
                continue  # stays where it lies
            if known == "zone":
                within_pieces.setdefault(ref, []).append(piece)
            else:
                free.append(piece)
            within.setdefault(ref, []).append((ref, i))
            if stays is None or piece.id in stays:
                staying.add((ref, i))
        # the pieces known to be in a zone take random places of it; the others the rest
        for ref, mine in within_pieces.items():
            spots = within[ref]
            rng.shuffle(spots)
            if stays is not None:  # the staying pieces at places of staying ones
                spots.sort(key=lambda spot: spot not in staying)
            for (zref, i), piece in zip(spots, _ordered(mine, rng, stays), strict=False):
                data.zones[zref][i] = piece
                data.loc[piece.id] = zref
            within[ref] = spots[len(mine):]
        free_places = [spot for spots in within.values() for spot in spots]
        free_places.sort(key=lambda p: (str(p[0]), p[1]))
        for (ref, i), piece in zip(free_places, _ordered(free, rng), strict=True):
            data.zones[ref][i] = piece
            data.loc[piece.id] = ref


def _ordered(pieces: list[Any], rng: random.Random,
             stays: frozenset[int] | None = None) -> list[Any]:
    """The pieces in a random order, drawn from one that does not depend on where they
    really are (with `stays`: those in it first)."""
    out = sorted(pieces, key=lambda p: p.id)
    rng.shuffle(out)
    if stays is not None:
        out.sort(key=lambda p: p.id not in stays)  # (a stable sort)
    return out


def _known(came: Any, program: Any, player: int) -> str | None:
    """"here": the player knows where the piece lies; "zone": only its zone; None: nothing."""
    if came is None:
        return None
    if came == REVEALED:
        return "here"
    if type(came) is Mixed:
        return "zone" if _known(came.source, program, player) else None
    if type(came) is Site or (isinstance(came, ZoneRef) and _zone_seen(program, came, player)):
        return "here"
    return None


def _zone_seen(program: Any, ref: ZoneRef, player: int) -> bool:
    visible = program.zones[ref.name].visible
    return bool(visible == "everyone" or (visible == "owner" and ref.owner == player))
