"""Muso Sakura positions for the Python tests that scenario files cannot express (most are in
rulebooks/muso_sakura.test): hands, field and 勝景札 set by card name, then the round end."""
from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import rulelang
from rulelang.model.values import ZoneRef

RULEBOOK = rulelang.BUNDLED / "muso_sakura.rule"


def load(players: int = 3, engine: str = "compiled", **options: Any) -> rulelang.Game:
    """The game for a number of players; `engine` is the evaluation mode, `options` the
    rulebook's options (mode=long, abilities=by_hand). Loaded once per process (load_game
    parses the rulebook again on every call; its runtime is cached, the parse is not)."""
    return _load(players, engine, tuple(sorted(options.items())))


@functools.cache
def _load(players: int, engine: str, options: tuple[tuple[str, Any], ...]) -> rulelang.Game:
    return rulelang.load_game(RULEBOOK, options={"players": players, **dict(options)},
                              mode=engine)


def zone(state: rulelang.State, name: str, owner: int | None = None) -> list[Any]:
    return state.ctx.data.zones[_ref(state, name, owner)]


def _ref(state: rulelang.State, name: str, owner: int | None) -> ZoneRef:
    return next(z for z in state.ctx.data.zones if z.name == name and z.owner == owner)


def name_of(state: rulelang.State, card: Any) -> str:
    return str(state.ctx.data.attrs["name"][card.id])


def names(state: rulelang.State, name: str, owner: int | None = None) -> list[str]:
    return [name_of(state, c) for c in zone(state, name, owner)]


def every_card(state: rulelang.State) -> Counter[int]:
    """How many places hold each card (every card must be in exactly one)."""
    data = state.ctx.data
    seen: Counter[int] = Counter()
    for pile in data.zones.values():
        seen.update(c.id for c in pile)
    for stack in data.at:
        seen.update(c.id for c in stack)
    return seen


def move_cards(state: rulelang.State, card_names: list[str], to: str,
               owner: int | None = None, source: str = "reserve") -> None:
    """Move cards by name from a source zone (by default the reserve) to a zone."""
    data = state.ctx.data
    for n in card_names:
        card = next(c for c in zone(state, source) if name_of(state, c) == n)
        data.to_zone(card, _ref(state, to, owner))


def clear(state: rulelang.State) -> None:
    """Every card to the reserve; no one has closed; no 勝景札."""
    data = state.ctx.data
    reserve = _ref(state, "reserve", None)
    for ref, pile in list(data.zones.items()):
        if ref != reserve:
            for card in list(pile):
                data.to_zone(card, reserve)


def at_round_end(state: rulelang.State, hands: list[tuple[list[str], list[str]]],
                 scenic: list[list[str]] | None = None, field: tuple[str, ...] = (),
                 round_no: int = 1) -> rulelang.State:
    """Give each player p the 5-card hand hands[p] = (hidden names, open names), the
    勝景札 scenic[p] and the field; players 1.. have closed with 幕引き札 1.. (the fifth with
    none), and player 0, to move, draws the last of its hidden cards from an otherwise empty
    deck ('wander') and closes, which ends the round."""
    clear(state)
    data = state.ctx.data
    for p, (hidden, open_) in enumerate(hands):
        move_cards(state, hidden if p else hidden[:-1], "hidden", p)
        move_cards(state, open_, "open", p)
        move_cards(state, (scenic or [[] for _ in hands])[p], "scenic", p)
        if p > 0:
            data.vars[("closed", p)] = True
            data.vars[("curtain", p)] = p if p <= 4 else 0
    move_cards(state, list(field), "field")
    move_cards(state, hands[0][0][-1:], "deck")
    data.counters[("curtains_taken", None)] = min(len(hands) - 1, 4)
    data.round = round_no
    state._start(state.game.flow.turn)  # the turn again, from the data as it is now (clonable)
    assert state.current_player() == 0
    state.apply_action("wander")
    state.apply_action("close")
    return state


def legal(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
