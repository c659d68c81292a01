"""Random games of Tatara and the Forest checked at every step against the printed rules,
through observations only (shared by tests/games/test_tatara_games.py and
bench/tatara_games.py).

At every state: pieces are conserved (board + every zone, removed pieces included), a space
holds at most one tree, one building, one pawn and never a tree with a building, every player
has one pawn on the board, money and material are never negative. At every decision an
independent model of the rules (written here from the rulebook's text, not from the engine)
gives the expected options: the move destinations (weighted search: 1 per space, 2 per
standing tree, others' pawns and buildings closed, no stop on a standing tree), plants,
fells and builds. After every forest phase closed by a pass the board must be the old board
with the revealed cards' events applied (growth, then succession of the trees standing before
the event). At the end: the winners by the end rule that fired.
"""
from __future__ import annotations

import heapq
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

TREES = ("pine", "cedar", "sawtooth", "oak", "beech")
BLOCKERS = ("pawn", "tatara", "eitai")
SUCCESSOR = {"pine": "sawtooth", "sawtooth": "beech", "cedar": "beech"}
SIDES = {"cedar": 2}
MONEY = {"oak": 3, "pine": 2, "sawtooth": 2, "cedar": 1}
MATERIAL = {"oak": 3, "cedar": 3}
COST = {"tatara": 2, "eitai": 10}
ROUND_CAP = 60


@dataclass
class Outcome:
    reason: str                        # "eitai", "beech", "cap"
    rounds: int
    winners: list[int]
    steps: int
    checks: dict[str, int] = field(default_factory=dict)


class Board:
    """The observation's board as plain data: name -> pieces, the grid neighbours."""

    def __init__(self, obs: dict[str, Any], per_row: int) -> None:
        self.pieces = {s["site"]: s["pieces"] for s in obs["board"]}
        self.coords = {s["site"]: tuple(s["coords"]) for s in obs["board"]}
        xy = {name: self._xy(c, per_row) for name, c in self.coords.items()}
        at = {p: name for name, p in xy.items()}
        steps = ((-1, 0), (0, 1), (1, 0), (0, -1))
        self.near = {name: [at[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in at]
                     for name, (x, y) in xy.items()}

    @staticmethod
    def _xy(coords: tuple[int, ...], per_row: int) -> tuple[int, int]:
        b, r, c = coords                  # board b of 3x3, laid out per_row boards a row
        return ((b - 1) // per_row * 3 + r, (b - 1) % per_row * 3 + c)

    def tree(self, site: str) -> dict[str, Any] | None:
        return next((p for p in self.pieces[site] if p["kind"] in TREES), None)

    def standing(self, site: str) -> bool:
        t = self.tree(site)
        return t is not None and t["attrs"]["standing"] is True

    def pawn_of(self, player: str) -> str:
        return next(s for s, ps in self.pieces.items()
                    if any(p["kind"] == "pawn" and p["owner"] == player for p in ps))


def expected_moves(board: Board, player: str, budget: int) -> set[str]:
    start = board.pawn_of(player)
    best, todo = {start: 0}, [(0, start)]
    while todo:
        spent, s = heapq.heappop(todo)
        if spent > best[s]:
            continue
        for t in board.near[s]:
            if any(p["kind"] in BLOCKERS and p["owner"] != player for p in board.pieces[t]):
                continue
            total = spent + (2 if board.standing(t) else 1)
            if total <= budget and total < best.get(t, budget + 1):
                best[t] = total
                heapq.heappush(todo, (total, t))
    return {s for s in best if s != start and not board.standing(s)}


def expected_actions(board: Board, obs: dict[str, Any], player: str) -> set[str]:
    here = board.pawn_of(player)
    supply = _zone(obs, "supply", player)
    money, material = _counter(obs, "money", player), _counter(obs, "material", player)
    out = {"pass"}
    for s in board.near[here]:
        if not board.pieces[s]:
            out |= {f"plant {k} {s}" for k in ("pine", "cedar") if supply.get(k, 0) > 0}
        t = board.tree(s)
        if t is None or not t["attrs"]["standing"] or t["kind"] == "beech":
            continue
        if t["owner"] not in (None, player) and money < 1:
            continue
        out |= {f"fell {s} {use}" for use, table in (("money", MONEY), ("material", MATERIAL))
                if t["kind"] in table}
    for k in ("tatara", "eitai"):
        if supply.get(k, 0) > 0 and money >= COST[k] and material >= COST[k]:
            out |= {f"build {k} {s}" for s, ps in board.pieces.items() if not ps}
    return out


def forest(board: Board, obs: dict[str, Any], drawn: list[int]) -> dict[str, list[Any]]:
    """The board (site -> [(kind, owner, standing, side)]) after the events of `drawn`."""
    sites = {s: [(p["kind"], p["owner"], p["attrs"].get("standing"), p["attrs"].get("side"))
                 for p in ps] for s, ps in board.pieces.items()}
    stock = {(z["owner"], p["kind"]): p.get("count", 1) for z in obs["zones"]
             if z["zone"] in ("supply", "forest") for p in z["pieces"] or []}
    for b in drawn:
        here = [s for s in sites if board.coords[s][0] == b]
        young = [s for s in here for t in sites[s] if t[0] in TREES and not t[2]]
        old = [s for s in here for t in sites[s] if t[0] in TREES and t[2]]
        for s in young:
            sites[s] = [_grow(t) if t[0] in TREES else t for t in sites[s]]
        for s in old:
            t = next(t for t in sites[s] if t[0] in TREES)
            nxt = SUCCESSOR.get(t[0])
            if nxt is None:
                continue
            owner = None if nxt == "beech" else t[1]
            rest = [x for x in sites[s] if x is not t]
            if stock.get((owner, nxt), 0) > 0:
                stock[(owner, nxt)] -= 1
                rest.append((nxt, owner, False, 1))
            sites[s] = rest
    return {s: sorted(v, key=str) for s, v in sites.items()}


def _grow(t: tuple[Any, ...]) -> tuple[Any, ...]:
    kind, owner, _, side = t
    if side < SIDES.get(kind, 1):
        return (kind, owner, False, side + 1)
    return (kind, owner, True, side)


def _zone(obs: dict[str, Any], name: str, owner: str | None) -> dict[str, int]:
    z = next(z for z in obs["zones"] if z["zone"] == name and z["owner"] == owner)
    out: dict[str, int] = {}
    for p in z["pieces"] or []:
        out[p["kind"]] = out.get(p["kind"], 0) + p.get("count", 1)
    return out


def _counter(obs: dict[str, Any], name: str, owner: str) -> int:
    return next(int(c["value"]) for c in obs["counters"]
                if c["counter"] == name and c["owner"] == owner)


def _deck(obs: dict[str, Any]) -> int:
    return next(int(z["count"]) for z in obs["zones"] if z["zone"] == "deck")


def _var(obs: dict[str, Any], name: str, owner: str | None = None) -> Any:
    return next(v["value"] for v in obs["vars"] if v["var"] == name and v["owner"] == owner)


def check_invariants(obs: dict[str, Any], total: int) -> None:
    pieces = sum(len(s["pieces"]) for s in obs["board"]) + sum(z["count"] for z in obs["zones"])
    assert pieces == total, f"pieces not conserved: {pieces} != {total}"
    for s in obs["board"]:
        kinds = [p["kind"] for p in s["pieces"]]
        trees = sum(k in TREES for k in kinds)
        buildings = sum(k in ("tatara", "eitai") for k in kinds)
        assert trees <= 1 and buildings <= 1 and kinds.count("pawn") <= 1, (s["site"], kinds)
        assert not (trees and buildings), (s["site"], kinds)
    for name in obs["players"]:
        assert _counter(obs, "money", name) >= 0 and _counter(obs, "material", name) >= 0
        pawns = [p for s in obs["board"] for p in s["pieces"]
                 if p["kind"] == "pawn" and p["owner"] == name]
        assert len(pawns) == 1 or not obs["history"] or len(obs["history"]) < len(obs["players"])


def play_checked(game: Any, seed: int) -> Outcome:
    """One random game (random.Random(seed)), checked at every step."""
    state, rng = game.new_initial_state(seed), random.Random(seed)
    n = game.num_players
    names = game.player_names
    per_row = 2 if n == 2 else 3
    obs = state.observation(0)
    total = sum(len(s["pieces"]) for s in obs["board"]) + sum(z["count"] for z in obs["zones"])
    checks = {"moves": 0, "menus": 0, "forest": 0, "blocked": 0, "reshuffles": 0,
              "beech next to the pawn": 0}
    rounds, built_in, round_players, turn = 1, {}, set(), 0
    steps = 0
    for obs, action, after in _steps(state, rng):
        steps += 1
        check_invariants(after, total)
        me = obs["players"][obs["current_player"]]
        labels = obs["_legal"]
        if len(obs["history"]) >= n:            # after setup: a turn's decisions
            _check_decision(obs, labels, me, per_row, checks, obs["turn"] != turn)
            round_players.add(me)
            turn = obs["turn"]
        if action.startswith("build eitai"):
            built_in[me] = rounds
        if _deck(after) != _deck(obs):          # a forest phase ran: the round is over
            assert round_players == set(names), "a round without every player's turn"
            if action == "pass":
                board = Board(obs, per_row)
                got = {s: sorted([(p["kind"], p["owner"], p["attrs"].get("standing"),
                                   p["attrs"].get("side")) for p in ps], key=str)
                       for s, ps in Board(after, per_row).pieces.items()}
                assert got == forest(board, obs, _var(after, "drawn")), "forest phase"
                checks["forest"] += 1
            _check_cards(obs, after, n, checks)
            rounds += 1
            round_players = set()
    final = state.observation(0)
    return _outcome(final, state, names, rounds, built_in, steps, checks)


def _steps(state: Any, rng: random.Random) -> Iterator[tuple[dict[str, Any], str, dict[str, Any]]]:
    while not state.is_terminal():
        obs = state.observation(0)
        obs["_legal"] = {state.action_to_string(a) for a in state.legal_actions()}
        action = rng.choice(state.legal_actions())
        label = state.action_to_string(action)
        state.apply_action(action)
        yield obs, label, state.observation(0)


def _check_cards(before: dict[str, Any], after: dict[str, Any], n: int,
                 checks: dict[str, int]) -> None:
    """n cards revealed, in the drawn order; an empty deck takes back the revealed cards."""
    deck, shown = _deck(before), _count(before, "revealed")
    assert len(_var(after, "drawn")) == n
    if deck >= n:
        assert (_deck(after), _count(after, "revealed")) == (deck - n, shown + n)
    else:                                   # [B-11] reshuffle after `deck` draws
        assert (_deck(after), _count(after, "revealed")) == (shown + deck - (n - deck), n - deck)
        checks["reshuffles"] += 1


def _count(obs: dict[str, Any], zone: str) -> int:
    return next(int(z["count"]) for z in obs["zones"] if z["zone"] == zone)


def _check_decision(obs: dict[str, Any], labels: set[str], me: str, per_row: int,
                    checks: dict[str, int], first: bool) -> None:
    """The options of one decision; `first`: the first of a turn (the move, if any)."""
    board = Board(obs, per_row)
    if first and not any(a.startswith("move ") for a in labels):
        assert expected_moves(board, me, _var(obs, "allowance")) == set(), "a move was possible"
        checks["blocked"] += 1  # [B-21] nowhere to go: straight to the actions
    if not first:
        assert not any(a.startswith("move ") for a in labels), "a second move"
    if any(a.startswith("move ") for a in labels):
        assert all(a.startswith("move ") for a in labels)
        want = expected_moves(board, me, _var(obs, "allowance"))
        assert {a.split()[1] for a in labels} == want, "move destinations"
        checks["moves"] += 1
        return
    want = expected_actions(board, obs, me)
    assert labels == want, f"actions: {sorted(labels ^ want)[:6]}"
    checks["menus"] += 1
    beeches = [s for s in board.near[board.pawn_of(me)]
               if board.standing(s) and board.tree(s)["kind"] == "beech"]
    assert not any(a.startswith(f"fell {s} ") for s in beeches for a in labels)
    checks["beech next to the pawn"] += bool(beeches)


def _outcome(final: dict[str, Any], state: Any, names: list[str], rounds: int,
             built_in: dict[str, int], steps: int, checks: dict[str, int]) -> Outcome:
    assert state.is_terminal()
    winners = state.winners()
    builders = [i for i, p in enumerate(names) if _var(final, "finished", p)]
    if builders:
        assert winners == builders, "the eitai builders win"
        assert all(built_in[names[i]] == rounds for i in builders), "built in the last round"
        reason = "eitai"
    else:
        totals = [_counter(final, "money", p) + _counter(final, "material", p)
                  + (4 if _var(final, "built", p) else 0) for p in names]
        assert winners == [i for i, t in enumerate(totals) if t == max(totals)], "most wins"
        if _var(final, "beech_out"):
            reason = "beech"
        else:
            assert rounds - 1 == ROUND_CAP, f"ended after {rounds - 1} rounds without a reason"
            reason = "cap"
    assert rounds - 1 <= ROUND_CAP
    returns = state.returns()
    if len(winners) == 1:
        assert returns == [1.0 if i in winners else -1.0 for i in range(len(names))]
    else:
        assert returns == [0.0 if i in winners else -1.0 for i in range(len(names))]
    return Outcome(reason, rounds - 1 if reason != "eitai" else rounds, winners, steps, checks)
