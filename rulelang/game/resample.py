"""`State.resample(p, seed)`: a copy of a state in which what player p cannot see is dealt
or chosen again at random, consistent with everything p has seen (determinization, for
search over what p may believe).

Two things are redone:

* **The other players' secret choices of the current segment** (the segment is replayed
  from its checkpoint, every other choice the same by its label). A choice whose result p
  has since seen (a value revealed, a piece moved because of it, another player to move,
  other options offered) may not be chosen otherwise: every redo is checked against p's
  observation after each choice of the true segment, and a redo that differs from it
  anywhere is refused. After a few refused tries, the choices before the first place where
  the refusal showed are kept as they were (p's view decides them), and the rest is redone
  again: the replay always ends, at worst with every choice as it was.
* **The pieces in the zones hidden from p** are shuffled among those zones, by kind and
  owner (every zone keeps its size and its pieces of each kind and owner), except what p
  knows of them (GameData.came): a piece p saw arrive where it lies, or that a revealed
  value names, stays where it is; a piece p saw arrive in a zone shuffled since stays in
  that zone, at a random place in it. The chance generator is seeded anew.

Everything here depends on p's view alone (the observations, not the hidden truth), so two
states that p cannot tell apart give the same resamples for the same seed.
"""
from __future__ import annotations

import random
from typing import Any

from rulelang.library.decision import GameOver
from rulelang.model.rng import Rng
from rulelang.model.state import REVEALED, GameData, Mixed
from rulelang.model.values import Site, ZoneRef

State = Any  # engine.State (which imports this module)

TRIES = 3  # random redos of the secret choices refused before the earliest are kept


def resample(state: State, player: int, seed: int) -> State:
    rng = random.Random(seed)
    new = replayed(state, player, rng) or state.clone()
    deal_again(new.ctx.data, state.game.runtime.program, player, rng)
    new.ctx.data.version += 1  # (the deal changed zones in place: nothing kept holds)
    new.ctx.data.rng = Rng(rng.getrandbits(63))
    new.ctx.data.stated_chance = ()  # future chance is drawn again
    new._resampled = True
    return new


# ---- the secret choices of the segment ----------------------------------------------------

def replayed(state: State, player: int, rng: random.Random) -> State | None:
    """A copy of `state` whose segment is replayed with the other players' secret choices
    made again at random, as far as p's view allows; None when there is none to redo."""
    if state._gen is None or state._checkpoint is None or not state._trail:
        return None
    made = state.ctx.data.history[-len(state._trail):]
    free = [k for k, (d, _) in enumerate(made) if d.secret and d.player != player]
    if not free:
        return None
    views, kept_before = _views(state, player, made, free[0])
    while True:
        mismatch = 0
        for _ in range(TRIES):
            new, mismatch = _attempt(state, player, made, views, kept_before, rng)
            if new is not None:
                return new
        if mismatch <= kept_before:  # cannot happen: choices kept as made replay the truth
            return None
        kept_before = mismatch


def _views(state: State, player: int, made: list[Any], first: int) -> tuple[list[Any], int]:
    """p's observation after each choice of the true segment, from choice `first` on (the
    same in every redo before it), and how many of the segment's first choices a redo
    keeps as they were: found once, by redos from a generator of its own (so it depends
    on p's view alone, not on the seed or on earlier resamples), and kept on the state,
    which may be resampled often (a search resamples it at every playout)."""
    key = (player, len(state.ctx.data.history))
    cached = state._views
    if cached is not None and cached[0] == key:
        return cached[1], cached[2]
    true = state._at_segment_start(state.ctx.log)  # the true segment, as it was logged
    views: list[Any] = []
    for k, action in enumerate(state._trail):
        true._replay(action)
        views.append(true.observation(player) if k >= first else None)
    kept_before, probe = 0, random.Random(0)
    while True:
        found, mismatch = None, 0
        for _ in range(TRIES):
            found, mismatch = _attempt(state, player, made, views, kept_before, probe)
            if found is not None:
                break
        if found is not None or mismatch <= kept_before:
            break
        kept_before = mismatch
    state._views = (key, views, kept_before)
    return views, kept_before


def _attempt(state: State, player: int, made: list[Any], views: list[Any], kept_before: int,
             rng: random.Random) -> tuple[State | None, int]:
    """One redo: (the copy, 0) if p's view is the same after every choice, else (None, the
    number of choices after which it first differed)."""
    redrawn = False
    try:
        new = state._at_segment_start()
        for k, (old, action) in enumerate(made):
            d = new._decision
            if d is None or d.player != old.player:
                return None, k
            if old.secret and old.player != player and k >= kept_before:
                action = rng.randrange(d.count)
                redrawn = True
            else:
                labels, wanted = d.labels(), old.labels()[action]
                if wanted not in labels:
                    return None, k
                action = labels.index(wanted)
            new._replay(action)
            if redrawn and new.observation(player) != views[k]:
                return None, k + 1
    except (StopIteration, GameOver):
        return None, len(made)
    now, then = new._decision, state._decision
    if now is None or then is None or now.player != then.player or (
            now.player == player and now.labels() != then.labels()):
        return None, len(made)
    return new, 0


# ---- the hidden pieces ----------------------------------------------------------------

def deal_again(data: GameData, program: Any, player: int, rng: random.Random) -> None:
    """Shuffle the pieces of the zones hidden from `player` among those zones (by kind and
    owner), keeping what the player knows of where they are (module docstring)."""
    slots: dict[tuple[str, int | None], list[tuple[ZoneRef, int]]] = {}
    for ref, pile in data.zones.items():
        if not _zone_seen(program, ref, player):
            for i, piece in enumerate(pile):
                slots.setdefault((piece.kind, data.owner[piece.id]), []).append((ref, i))
    for places in slots.values():
        free_places: list[tuple[ZoneRef, int]] = []
        free: list[Any] = []
        within: dict[ZoneRef, list[tuple[ZoneRef, int]]] = {}
        within_pieces: dict[ZoneRef, list[Any]] = {}
        for ref, i in places:
            piece = data.zones[ref][i]
            known = _known(data.came[piece.id], program, player)
            if known == "here":
                continue  # stays where it lies
            if known == "zone":
                within_pieces.setdefault(ref, []).append(piece)
            else:
                free.append(piece)
            within.setdefault(ref, []).append((ref, i))
        # the pieces known to be in a zone take random places of it; the others the rest
        for ref, mine in within_pieces.items():
            spots = within[ref]
            rng.shuffle(spots)
            for (zref, i), piece in zip(spots, _ordered(mine, rng), strict=False):
                data.zones[zref][i] = piece
                data.loc[piece.id] = zref
            within[ref] = spots[len(mine):]
        for ref in within:
            free_places.extend(within[ref])
        free_places.sort(key=lambda p: (str(p[0]), p[1]))
        for (ref, i), piece in zip(free_places, _ordered(free, rng), strict=True):
            data.zones[ref][i] = piece
            data.loc[piece.id] = ref


def _ordered(pieces: list[Any], rng: random.Random) -> list[Any]:
    """The pieces in a random order, drawn from one that does not depend on where they
    really are."""
    out = sorted(pieces, key=lambda p: p.id)
    rng.shuffle(out)
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
