"""Between a generated state and the reference's `GameData`, off the hot path: `to_data`
(observations, pictures, explanations and the proofs read the reference's data),
`from_data` (a generated state made from the data the reference's setup left), and
`canonical` (what two datas must agree on to be the same game state)."""
from __future__ import annotations

from typing import Any

from rulelang.gen.bits import coded_key, plain_key
from rulelang.gen.rt import GenState
from rulelang.language.decisions import explain as explain_refusal
from rulelang.library.decision import Decision
from rulelang.library.semantics import Ctx
from rulelang.model.state import GameData
from rulelang.model.values import Site


def to_data(s: GenState) -> GameData:
    """The reference's data of this state (a copy: changing it changes nothing here)."""
    data = GameData(0, 0)
    data.at, data.loc, data.owner = s.at.copy(), s.loc.copy(), list(s.owner)
    data.zones = {k: v.copy() for k, v in s.zones.items()}
    data.attrs = {k: v.copy() for k, v in s.attrs.items()}
    data.counters, data.vars, data.last = s.counters.copy(), s.vars.copy(), s.last.copy()
    data.mover, data.turn, data.result, data.idle = s.mover, s.turn, s.result, s.idle
    data.history = history(s)
    data.rng, data.capped = s.rng.copy(), s.was_capped
    data.moved = set(s.moved)
    data.positions = {plain_key(s, k): n for k, n in s.positions.items()}
    data.came = s.came.copy() if s.came is not None else [None] * len(s.loc)
    data.revealed = set(s.revealed)
    data.round, data.starter, data.round_turns = s.round, s.starter, s.round_turns
    data.stated_chance = s.stated_chance
    data.fixed = s.rt.template.fixed
    return data


def from_data(cls: type[GenState], game: Any, data: GameData) -> GenState:
    """A generated state holding what `data` holds."""
    s = cls.__new__(cls)
    s.game = game
    s.at, s.loc, s.owner = data.at.copy(), data.loc.copy(), data.owner.copy()
    s.zones, s.zown = {k: v.copy() for k, v in data.zones.items()}, -1  # (all its own)
    s.attrs = s._own_attrs(data.attrs)
    s.counters, s.vars, s.last = data.counters.copy(), data.vars.copy(), data.last.copy()
    s.mover, s.turn, s.result, s.idle = data.mover, data.turn, data.result, data.idle
    s.hist = [(d.player, list(d.options), k, *point(cls, d)) for d, k in data.history]
    s._made = [d for d, _ in data.history]
    s.rng, s.was_capped = data.rng.copy(), data.capped
    owners = cls.piece_owner
    s.top = [owners[st[-1].id] if st else None for st in s.at]
    s.menu, s._labels, s.ended_by = None, None, None
    s.moved, s.steps = set(data.moved), [0]
    s.positions = {coded_key(s, k): n for k, n in data.positions.items()}
    s.pc, s.point, s.decided = 1, 0, False  # (a turn's start)
    s.came = data.came.copy() if cls.hides else None
    s.revealed = frozenset(data.revealed)
    s.round, s.starter, s.round_turns = data.round, data.starter, data.round_turns
    s.tl, s.chooser, s.stated_chance = [None] * cls.turn_slots, None, data.stated_chance
    s._checkpoint, s._trail, s._views, s._defer = None, [], None, None
    s.phase, s.key_now = 0, None
    s._init_kept()
    return s


def history(s: GenState) -> list[tuple[Decision, int]]:
    """The state's history as the engine's GameData holds it: each entry's Decision (made
    once per entry and kept: their labels are then found once too) and the choice made."""
    made = s._made
    for entry in s.hist[len(made):]:
        made.append(decision(s, entry))
    return [(d, entry[2]) for d, entry in zip(made, s.hist, strict=True)]


def decision(s: GenState, entry: tuple[Any, ...]) -> Decision:
    """The reference's Decision of a history entry (who, menu, k[, decision point])."""
    who, menu = entry[0], entry[1]
    if len(entry) < 4:
        return Decision(who, menu, menu=s.do_node)
    at = entry[3]
    if at < len(s.do_nodes):
        return Decision(who, menu, menu=s.do_nodes[at])
    k = at - len(s.do_nodes)
    node = s.chooses[k][0]
    env = {name: s.tl[slot] for name, slot in s.choose_locals[k].items()}  # (its `ask` text)
    return Decision(who, menu, secret=node.mode == "secret", choose=node, env=env)


def point(cls: type[GenState], d: Decision) -> tuple[int, ...]:
    """The decision point of a reference Decision, for a turn of several decisions."""
    if cls.steppers is None:
        return ()
    if d.choose is not None:
        return (len(cls.do_nodes) + [c for c, _ in cls.chooses].index(d.choose), )
    return (cls.do_nodes.index(d.menu) if d.menu in cls.do_nodes else 0, )


def canonical(data: GameData, came: bool = False) -> tuple[Any, ...]:
    """The game state a data holds, as plain values: pieces by id, sites and zones by
    name, the history as its strings; not what only the evaluators' bookkeeping keeps
    (versions, change logs, caches, the pieces moved in the current action) nor, unless
    `came` (for a game that hides: generated states keep it only there), where each piece
    came from (read only by resample)."""
    def place(x: Any) -> Any:
        if x is None:
            return None
        if type(x) is Site:
            return ("site", x.name)
        return ("zone", x.name, x.owner)

    def value(v: Any) -> Any:
        if isinstance(v, (tuple, list)):
            return tuple(value(x) for x in v)
        if hasattr(v, "id") and hasattr(v, "kind"):
            return ("piece", v.id)
        if hasattr(v, "coords"):
            return ("site", v.name)
        if hasattr(v, "index") and hasattr(v, "name"):
            return ("player", v.index)
        return v

    return (
        tuple(tuple(p.id for p in st) for st in data.at),
        tuple(place(x) for x in data.loc),
        tuple(sorted(((z.name, z.owner), tuple(p.id for p in ps))
                     for z, ps in data.zones.items())),
        tuple(data.owner),
        tuple(sorted((k, tuple(value(x) for x in v)) for k, v in data.attrs.items())),
        tuple(sorted(data.counters.items(), key=repr)),
        tuple(sorted(((k, value(v)) for k, v in data.vars.items()), key=repr)),
        tuple(sorted((k, value(v)) for k, v in data.last.items())),
        data.mover, data.turn, data.result, data.idle, data.capped,
        data.round, data.starter, data.round_turns,
        tuple((d.player, d.labels()[k]) for d, k in data.history),
        tuple(sorted(data.positions.items(), key=repr)),
        data.rng.state,
        tuple(repr(x) for x in data.came) if came else (),
    )


def explain(s: GenState, text: str) -> str:
    """Why `text` is not among the options of the state's decision (the reference's
    words)."""
    flow = s.game.flow
    data = to_data(s)
    d = s._decision or Decision(s.mover, [], menu=s.do_node)  # type: ignore[attr-defined]
    return explain_refusal(s.rt.program, d, text, Ctx(s.rt, data), flow.statements.value,
                           flow.statements.run_through)


def kinds_hold(cls: type[GenState], data: GameData) -> bool:
    """Does each zone the generated code takes to hold one kind of piece hold only that
    kind in this data (a setup run by the reference, a stated position)?"""
    return all(all(p.kind == kind for p in data.zones.get(zone, ())) for zone, kind
               in cls.one_kind)
