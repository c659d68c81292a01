"""Muso Sakura positions for the Python tests that scenario files cannot express (most are in
rulebooks/muso_sakura.test): hands, field and 勝景札 set by card name, then the round end."""
from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import rulelang
from rulelang.game.position import restate
from rulelang.model.state import GameData
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
    return _pile(state.data, name, owner)


def _pile(data: GameData, name: str, owner: int | None) -> list[Any]:
    return data.zones[_ref(data, name, owner)]


def _ref(data: GameData, name: str, owner: int | None) -> ZoneRef:
    return next(z for z in data.zones if z.name == name and z.owner == owner)


def name_of(state: rulelang.State, card: Any) -> str:
    return str(state.data.attrs["name"][card.id])


def names(state: rulelang.State, name: str, owner: int | None = None) -> list[str]:
    data = state.data
    return [str(data.attrs["name"][c.id]) for c in _pile(data, name, owner)]


def every_card(state: rulelang.State) -> Counter[int]:
    """How many places hold each card (every card must be in exactly one)."""
    data = state.data
    seen: Counter[int] = Counter()
    for pile in data.zones.values():
        seen.update(c.id for c in pile)
    for stack in data.at:
        seen.update(c.id for c in stack)
    return seen


def _move_cards(data: GameData, card_names: list[str], to: str, owner: int | None = None,
                source: str = "reserve") -> None:
    """Move cards by name from a source zone (by default the reserve) to a zone."""
    for n in card_names:
        card = next(c for c in _pile(data, source, None) if data.attrs["name"][c.id] == n)
        data.to_zone(card, _ref(data, to, owner))


def _clear(data: GameData) -> None:
    """Every card to the reserve; no one has closed; no 勝景札."""
    reserve = _ref(data, "reserve", None)
    for ref, pile in list(data.zones.items()):
        if ref != reserve:
            for card in list(pile):
                data.to_zone(card, reserve)


def at_round_end(state: rulelang.State, hands: list[tuple[list[str], list[str]]],
                 scenic: list[list[str]] | None = None, field: tuple[str, ...] = (),
                 round_no: int = 1) -> rulelang.State:
    """A new state from `state` (at a turn's start) where each player p holds the 5-card hand
    hands[p] = (hidden names, open names), the 勝景札 scenic[p] and the field; players 1.. have
    closed with 幕引き札 1.. (the fifth with none), and player 0, to move, has drawn the last of
    its hidden cards from an otherwise empty deck ('wander') and closed, which ends the round.
    The position is stated as a scenario's `given` is (rulelang.game.position.restate)."""
    def edit(st: rulelang.State, data: GameData) -> None:
        _clear(data)
        for p, (hidden, open_) in enumerate(hands):
            _move_cards(data, hidden if p else hidden[:-1], "hidden", p)
            _move_cards(data, open_, "open", p)
            _move_cards(data, (scenic or [[] for _ in hands])[p], "scenic", p)
            if p > 0:
                data.vars[("closed", p)] = True
                data.vars[("curtain", p)] = p if p <= 4 else 0
        _move_cards(data, list(field), "field")
        _move_cards(data, hands[0][0][-1:], "deck")
        data.counters[("curtains_taken", None)] = min(len(hands) - 1, 4)
        data.round = round_no
    state = restate(state, edit)
    assert state.current_player() == 0
    state.apply_action("wander")
    state.apply_action("close")
    return state


def legal(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
