"""A generated state resampled in the middle of a turn by the reference's procedure
(game/resample.py) played on the flat state itself: `Segment` gives a GenState the few
members of the engine's State that the procedure reads (the segment's checkpoint, trail
and decisions made, starting it again from a dealt copy, replaying a choice), so the
checkpoint is dealt and the turn replayed by the generated code. The same deal and the same
redos as the reference's, without a GameData or a replay by the reference."""
from __future__ import annotations

from typing import Any

import rulelang.gen.bridge as bridge
from rulelang.game.resample import resample as reference_resample
from rulelang.gen.rt import GenState


def resample(state: GenState, player: int, seed: int) -> GenState:
    """A copy of a state in the middle of a turn of a game that hides, dealt and chosen
    again for `player` (game/resample.py)."""
    bridge.history(state)  # (its history's Decisions made once, on the state a search
    segment = Segment(state.clone())  # resamples often: every copy shares them)
    segment._views = state._views  # (what the procedure found of this position once: the
    done = reference_resample(segment, player, seed)  # same for every seed, kept on the
    state._views = segment._views                      # state, which a search resamples often)
    new: GenState = done.state
    new.rng, new.stated_chance = done.ctx.data.rng, ()
    return new


class _Data:
    """What the procedure reads of a segment's data: the decisions made (as the engine's
    history holds them), the zones, places and origins of the pieces, and the generator it
    seeds anew."""

    def __init__(self, state: GenState) -> None:
        self.state = state
        self.zones, self.loc, self.came, self.owner = state.zones, state.loc, state.came, \
            state.owner
        self.rng, self.stated_chance = state.rng, state.stated_chance

    @property
    def history(self) -> list[tuple[Any, int]]:
        return bridge.history(self.state)

    def own_zones(self) -> None:  # (before the deal changes them in place)
        self.state.own_zones()


class Segment:
    """A GenState in the middle of a turn, as game/resample.py reads an engine State."""

    def __init__(self, state: Any) -> None:
        self.state = state  # (a generated game's State: gen/__init__.py)
        self.game = state.game
        self.ctx = _Ctx(state)
        self._gen = True  # (in the middle of a segment)
        self._resampled = False

    @property
    def _checkpoint(self) -> GenState | None:
        start: GenState | None = self.state._segment_start()
        return start

    @property
    def _trail(self) -> list[int]:
        trail: list[int] = self.state._trail
        return trail

    @property
    def _views(self) -> Any:
        return self.state._views

    @_views.setter
    def _views(self, value: Any) -> None:
        self.state._views = value

    @property
    def _decision(self) -> Any:
        return self.state._decision

    def observation(self, player: int) -> dict[str, Any]:
        view: dict[str, Any] = self.state.observation(player)
        return view

    def clone(self) -> Segment:
        return Segment(self.state.clone())

    def _at_segment_start(self, log: Any = None, data: GenState | None = None) -> Segment:
        """The segment started again from its checkpoint (or from `data`, a dealt copy of
        it): played by the generated code to its first decision."""
        start = self.state._segment_start()
        assert start is not None
        bridge.history(start)  # (its entries' Decisions made once: each copy shares them,
        new = (start if data is None else data).clone()  # and their labels, found once)
        new._trail, new._views = [], None
        new._guarded(lambda _: new._resume(), None)
        return Segment(new)

    def _replay(self, action: int) -> None:
        self.state.apply_action(action)


class _Ctx:
    def __init__(self, state: GenState) -> None:
        self.data = _Data(state)
        self.log = None
