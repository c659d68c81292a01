"""A generated game's random playout (`GenState.play_out`, a search's): uniformly random
legal actions until the game ends or `limit` are applied, each option as likely as with
`apply_action(rng.choice(legal_actions()))`. Where the writer gives `draws` (gen/draws.py),
an option is drawn without listing its menu, and the history keeps only the one taken;
the last menu is listed (the state goes on from it).

A number below n is drawn from the generator's random bits (`bits(k)`: k of them) as
Python's generator draws `randrange(n)`: n.bit_length() bits until they are below n, the
same numbers; the generated draws write that loop in place (no call per number)."""
from __future__ import annotations

import random
from typing import Any

from rulelang.library.decision import bound
from rulelang.limits import MAX_PLAYERS

TURN, ROUND, SETUP = 0, 1, 2  # GenState.phase: what a turn's machine runs (rt.py)


class Tried(tuple):  # type: ignore[type-arg]
    """An option a draw found by running its whole action on a scratch copy (gen/walk.py
    `final`, in a game whose steps are not counted and that hides nothing): the option's
    tuple, with that copy, the state the action leaves. A playout goes on from the copy
    (its loop takes it as the state when the option is drawn), and act<m> only finishes the
    action there (`finish`) instead of performing it again; the state play_out was asked of
    takes the last copy's slots as the playout returns (or fails)."""

    state: Any

    def __new__(cls, option: tuple[Any, ...], state: Any = None) -> Tried:
        tried = tuple.__new__(cls, option)
        tried.state = state
        return tried


def finish(s: Any, tried: Tried, player: Any) -> None:
    """A tried option's action on its copy (s): `last.action` and `last.player` set as
    act<m> sets them, the copy let go by the option (the history keeps the option)."""
    tried.state = None
    last = s.last
    last["action"] = tried[0]
    last["player"] = player


def _become(start: Any, final: Any) -> None:
    """`start` holds what `final` holds (the copy a playout went on from)."""
    cls = type(start)
    names = _SLOTS.get(cls)
    if names is None:  # (every slot of the class: its kept structures' too)
        names = _SLOTS[cls] = tuple(dict.fromkeys(
            name for c in cls.__mro__ for name in getattr(c, "__slots__", ())))
    for name in names:
        try:
            value = getattr(final, name)
        except AttributeError:  # (unset there: a turn's start kept only where asked)
            continue
        setattr(start, name, value)


_SLOTS: dict[type, tuple[str, ...]] = {}


class TurnOver(Exception):
    """A result statement in a turn of several decisions: the game ends at once."""

    def __init__(self, winners: list[int]) -> None:
        super().__init__("the game is over")
        self.winners = winners


def play(s: Any, rng: Any, limit: int) -> None:
    if s.steppers is not None:
        _machine(s, rng, limit)
    elif s.draws is None:
        _listed(s, rng, limit)
    elif s.rounders is None and not s.repetition:
        _plain(s, rng, limit)
    else:
        _drawn(s, rng, limit)


def _plain(s: Any, rng: Any, limit: int) -> None:
    """`_drawn` where each turn is one decision, without rounds or repetition counts: the
    turn's end (GenState._next_turn) written into the loop for a turn after a decision, the
    flow's values in locals (and in the state, where the generated functions read them);
    turns without an option go through `_skipped`, the last action's next menu through the
    state's own flow."""
    menu = s.menu
    if menu is None or limit <= 0:
        return
    start = s
    try:
        cap, bits, history = s.game.max_plies, random_bits(rng), s.hist
        acts, ends, draws, steps, adopts = s.acts, s.ends, s.draws, s.steps, s.adopts
        mover, idle, append = s.mover, s.idle, history.append
        following = FOLLOWING[len(s.players)]
        k = below(bits, len(menu))
        append((mover, menu, k))
        option = menu[k]
        # the actions applied: `limit`, or as many as the cap on the history's length leaves
        count = limit if cap is None else min(limit, max(1, cap - len(history) + 1))
        for _ in range(count - 1):
            steps[0] = 0  # (the budget of an apply_action: its action and next menu)
            acts[mover](s, option)
            winners = ends[mover](s)
            if winners is not None:
                s.result, s.menu = winners, None
                return
            if idle:  # (a decision was taken: nobody is idle)
                s.idle = idle = 0
            s.turn += 1
            s.mover = mover = following[mover]
            option = draws[mover](s, bits)
            if option is None:
                option = _skipped(s, bits)
                if option is None:
                    return
                mover, idle = s.mover, s.idle
            if adopts and option.__class__ is Tried:  # (act<m> finishes it on its copy)
                s = option.state
            append((mover, [option], 0))
        steps[0] = 0
        acts[mover](s, option)
        decided = True
        while True:  # (GenState._advance: the next menu listed)
            if not s._next_turn(decided):
                return
            menu = s.menus[s.mover](s)
            if menu:
                s.menu = menu
                break
            decided = False
        if cap is not None and len(history) >= cap:
            s.was_capped, s.result, s.menu = True, None, None
    finally:  # (the copy the playout went on from, where it took one)
        if s is not start:
            _become(start, s)


def _skipped(s: Any, bits: Any) -> Any:
    """After a turn with a decision, the next player has no option: the turns that follow
    as GenState._next_turn ends them (each turn's end section, nobody deciding for a whole
    round ends the game), until a player has an option (it is drawn) or the game is over
    (None)."""
    while True:
        winners = s.ends[s.mover](s)
        if winners is not None:
            s.result, s.menu = winners, None
            return None
        s.idle += 1
        if s.idle >= len(s.players):
            s.result, s.menu = [], None
            return None
        s.turn += 1
        s.mover = (s.mover + 1) % len(s.players)
        option = s.draws[s.mover](s, bits)
        if option is not None:
            return option


def _drawn(s: Any, rng: Any, limit: int) -> None:
    """The loop with the draws, the turn's end through the state (repetition, rounds)."""
    menu = s.menu
    if menu is None or limit <= 0 or s.draws is None:
        return
    start = s
    try:
        cap, history, bits, draws = s.game.max_plies, s.hist, random_bits(rng), s.draws
        adopts = s.adopts
        k = below(bits, len(menu))
        history.append((s.mover, menu, k))
        option = menu[k]
        steps = s.steps
        for n in range(1, limit + 1):
            steps[0] = 0  # (the budget of an apply_action: its action and next menu)
            s.acts[s.mover](s, option)
            last = n == limit or (cap is not None and len(history) >= cap)
            decided = True
            while True:  # _advance, drawing the next option where it would list the menu
                if not s._next_turn(decided):
                    return
                if last:
                    menu = s.menus[s.mover](s)
                    if menu:
                        s.menu = menu
                        break
                else:
                    option = draws[s.mover](s, bits)
                    if option is not None:
                        break
                decided = False
            if last:
                if cap is not None and len(history) >= cap:
                    s.was_capped, s.result, s.menu = True, None, None
                return
            if adopts and option.__class__ is Tried:  # (act<m> finishes it on its copy)
                s = option.state
            history.append((s.mover, [option], 0))
    finally:  # (the copy the playout went on from, where it took one)
        if s is not start:
            _become(start, s)


def _machine(s: Any, rng: Any, limit: int) -> None:
    """The loop of a turn of several decisions (each menu listed): GenState._play written
    into it, and, where the turn goes on after a decision, its next block run in place; a
    turn's end, a round's section and the setup through the state's own _resume."""
    cap, history, bits, steps = s.game.max_plies, s.hist, random_bits(rng), s.steps
    append, steppers, acts, chooses = history.append, s.steppers, s.acts, s.chooses
    dos, slot, keeps = len(s.do_nodes), s.option_slot, s.keeps_segment
    menu = s.menu
    for _ in range(limit):
        if menu is None:
            return
        steps[0] = 0  # (the budget of an apply_action: its action and next menu)
        k = below(bits, len(menu))
        point, chooser, mover = s.point, s.chooser, s.mover
        append((mover if chooser is None else chooser, menu, k, point))
        if keeps:
            s._trail.append(k)
            s._views = None
        option = menu[k]
        at = point - dos
        if at >= 0:  # a choose of the turn: its value
            s.tl[chooses[at][1]] = bound(option[1][0])
        elif slot is not None:  # a `do`'s option, performed by the machine
            s.tl[slot] = option
        else:
            acts[mover](s, option)
        s.decided = True
        if s.phase == TURN:  # (the turn's next block: its next menu, or the turn is over)
            try:
                menu = steppers[s.mover](s, s.pc)
                if menu:
                    s.menu = menu
                elif s._block_ends():
                    s._resume()
            except TurnOver as over:  # a result statement of the turn
                s._over(over.winners)
        else:
            s._resume()
        menu = s.menu
        if cap is not None and len(history) >= cap and menu is not None:
            s.was_capped, s.result, s.menu = True, None, None
            return


def _listed(s: Any, rng: Any, limit: int) -> None:
    """The loop without draws, a turn one decision: each menu listed, one option taken."""
    cap, history, bits, steps = s.game.max_plies, s.hist, random_bits(rng), s.steps
    for _ in range(limit):
        menu = s.menu
        if menu is None:
            return
        steps[0] = 0  # (the budget of an apply_action: its action and next menu)
        k = below(bits, len(menu))
        history.append((s.mover, menu, k))
        s.acts[s.mover](s, menu[k])
        s.decided = True
        s._advance(True)
        if cap is not None and len(history) >= cap and s.menu is not None:
            s.was_capped, s.result, s.menu = True, None, None
            return


# the player after each, by the number of players
FOLLOWING = tuple(tuple((m + 1) % n for m in range(n)) for n in range(MAX_PLAYERS + 1))
SHORT = 1024  # numbers below it: their bit lengths in a table
BIT_LENGTH = tuple(n.bit_length() for n in range(SHORT))


def below(bits: Any, n: int) -> int:
    """A number in 0..n-1 (n > 0) from the generator's bits."""
    k = n.bit_length()
    r: int = bits(k)
    while r >= n:
        r = bits(k)
    return r


def random_bits(rng: Any) -> Any:
    """The playout's `bits(k)`: a Python generator's getrandbits, where its randrange(n) is
    `below(getrandbits, n)` (the same numbers); of any other generator with a randrange,
    k bits as randrange(2 ** k) gives them (as uniform)."""
    if type(rng) is random.Random:  # (its randrange draws with getrandbits)
        return rng.getrandbits
    python = random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]
    if isinstance(rng, random.Random) and type(rng)._randbelow is python:  # type: ignore
        return rng.getrandbits
    return lambda k: rng.randrange(1 << k)
