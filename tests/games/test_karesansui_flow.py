"""Karesansui (rulebooks/karesansui.rule): the game flow, in both engine modes. The turns,
steals, gifts and gardener cards from a stated position are scenarios in
rulebooks/karesansui.test; what stays here is setup, hidden information,
the picture, and positions the scenario language cannot state.

Each test is written from the rules text (sections 2-6 of the game's rules and the original
Japanese text); the expected moves and numbers come from the rules, worked out by hand. The tiles
are shuffled, so a test arranges what it needs first, as a player would stack a deck for a
demonstration: the next tiles of stack[1], a gardener card in a hand, a virtue value, or
tiles already laid in a garden (edits of the data the turn starts from, made as a stated
position is: rulelang.game.position.restate). Everything after that goes through the public
API (action strings).
Sites: "1a1" is Player1's top-left cell, "1a3" their bottom-left, "2e3" Player2's
bottom-right.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.game.position import restate
from rulelang.model.values import zone_ref

ROOT = Path(__file__).resolve().parents[2]
BOOK = ROOT / "rulebooks" / "karesansui.rule"
_GAMES: dict[tuple[int, str, str], Any] = {}
P1, P2, P3, P4 = 0, 1, 2, 3


@pytest.fixture(params=["interpreted", "compiled"])
def new(request: pytest.FixtureRequest) -> Any:
    """new(players=2, variant="standard", seed=0) -> a fresh state in the parametrized mode."""

    def _new(players: int = 2, variant: str = "standard", seed: int = 0) -> Any:
        key = (players, variant, request.param)
        if key not in _GAMES:
            _GAMES[key] = rulelang.load_game(
                BOOK, {"players": players, "variant": variant}, mode=request.param)
        return _GAMES[key].new_initial_state(seed=seed)
    return _new


# ---- arranging a position --------------------------------------------------------------
# Each arranging helper gives an edit of the data a turn starts from; arrange() restarts the
# turn from its data so edited (rulelang.game.position.restate, in every mode).
Edit = Callable[[Any, Any], None]


def arrange(state: Any, *edits: Edit) -> Any:
    """A new state: `state`'s turn restarted from its starting data with `edits` made."""
    def edit(st: Any, data: Any) -> None:
        for each in edits:
            each(st, data)
    return restate(state, edit)


def _site(state: Any, name: str) -> Any:
    return next(s for s in state.game.runtime.board.sites if s.name == name)


def _free_tile(data: Any, design: str) -> Any:
    """A tile of that design ("sand": any sand tile) still in a stack (taken out of it)."""
    for i in range(1, 10):
        pile = data.zones[zone_ref(f"stack[{i}]", None)]
        for piece in pile:
            if data.attrs["design"][piece.id] == design or (
                    design == "sand" and not data.attrs["moss"][piece.id]):
                pile.remove(piece)
                data.loc[piece.id] = None
                return piece
    raise AssertionError(f"no {design} tile left in the stacks")


def next_tiles(*designs: str) -> Edit:
    """The next tiles drawn from stack[1] are these designs, in this order."""
    def edit(st: Any, data: Any) -> None:
        pieces = [_free_tile(data, design) for design in designs]
        for piece in reversed(pieces):
            data.zones[zone_ref("stack[1]", None)].append(piece)
            data.loc[piece.id] = zone_ref("stack[1]", None)
    return edit


def lay(player: int, *cells: str, design: str = "sand") -> Edit:
    """Tiles of one design (default: any sand tile) on these cells; the monk comes with the
    first one if it is not out yet."""
    def edit(st: Any, data: Any) -> None:
        for name in cells:
            data.put(_free_tile(data, design), _site(st, name))
        pawn = data.vars[("pawn", player)]
        if data.loc[pawn.id] == zone_ref("supply", player):
            data.put(pawn, _site(st, cells[0]))
    return edit


def put_stone(cell: str, kind: str) -> Edit:
    def edit(st: Any, data: Any) -> None:
        stone = next(s for s in data.zones[zone_ref("temple", None)]
                     if data.attrs["type"][s.id] == kind)
        data.put(stone, _site(st, cell))
    return edit


def set_virtue(player: int, value: int) -> Edit:
    def edit(st: Any, data: Any) -> None:
        data.counters[("virtue", player)] = value
    return edit


# ---- reading a position ------------------------------------------------------------------
def _zone(state: Any, name: str, owner: int | None = None) -> list[Any]:
    return state.data.zones[zone_ref(name, owner)]


def _stacks(state: Any) -> list[list[Any]]:
    return [_zone(state, f"stack[{i}]") for i in range(1, 10)]


def _attr(state: Any, piece: Any, name: str) -> Any:
    return state.data.attrs[name][piece.id]


def legal(state: Any) -> set[str]:
    return {state.action_to_string(a) for a in state.legal_actions()}


def play(state: Any, *steps: tuple[int, str]) -> None:
    """Apply (player, action string) pairs, checking who decides and that it is legal."""
    for player, text in steps:
        assert not state.is_terminal(), (player, text)
        assert state.current_player() == player, (player, text, state.history()[-5:])
        assert text in legal(state), (text, sorted(legal(state)))
        state.apply_action(text)


def cell(state: Any, name: str) -> list[str]:
    """The pieces on a cell, bottom first: the tile's design, a stone's type, 'monk'."""
    obs = state.observation(0)
    site = next(s for s in obs["board"] if s["site"] == name)
    out = []
    for p in site["pieces"]:
        if p["kind"] == "tile":
            out.append(p["attrs"]["design"])
        elif p["kind"] == "stone":
            out.append("stone " + p["attrs"]["type"])
        else:
            out.append(p["kind"])
    return out


def tiles_of(state: Any, player: int) -> int:
    obs = state.observation(0)
    return sum(1 for s in obs["board"] if s["coords"][0] == player and s["pieces"])


def virtue(state: Any, player: int) -> int:
    return state.data.counters[("virtue", player)]


def count(state: Any, zone: str, owner: int | None = None) -> int:
    return len(_zone(state, zone, owner))


# ---- setup (spec 2) --------------------------------------------------------------------
@pytest.mark.parametrize(("players", "stones"), [
    (2, {"Y": 4, "s": 5, "F": 2, "T": 3, "B": 1}),
    (3, {"Y": 5, "s": 6, "F": 3, "T": 4, "B": 2}),
    (4, {"Y": 6, "s": 7, "F": 4, "T": 5, "B": 3}),
])
def test_setup_stacks_stones_cards_and_virtue(new: Any, players: int, stones: dict) -> None:
    state = new(players)
    assert sorted(len(p) for p in _stacks(state)) == [8] + [9] * 8   # 80 tiles in 9 stacks
    assert Counter(_attr(state, s, "type") for s in _zone(state, "temple")) == stones
    for p in range(players):
        assert count(state, "famous", p) == 1 and count(state, "gardeners", p) == 1
        assert virtue(state, p) == 0 and count(state, "supply", p) == 1   # the monk waits
    assert count(state, "garden_deck") == 14 - players
    assert count(state, "gardener_deck") == 9 - players
    obs = state.observation(P1)
    zones = {(z["zone"], z["owner"]): z for z in obs["zones"]}
    assert zones[("famous", "Player1")]["pieces"] is not None
    assert zones[("famous", "Player2")]["pieces"] is None       # secret
    assert zones[("gardeners", "Player2")]["pieces"] is None
    assert all(zones[(f"stack[{i}]", None)]["pieces"] is None for i in range(1, 10))
    assert all(not s["pieces"] for s in obs["board"])


def test_duo_variant_three_common_gardens_and_three_cards_each(new: Any) -> None:
    state = new(2, "duo")
    assert count(state, "common_gardens") == 3
    assert count(state, "gardeners", P1) == 3 and count(state, "gardeners", P2) == 3
    assert count(state, "famous", P1) == 0
    zones = {(z["zone"], z["owner"]): z for z in state.observation(P2)["zones"]}
    assert zones[("common_gardens", None)]["pieces"] is not None    # face up


def test_duo_variant_needs_two_players() -> None:
    game = rulelang.load_game(BOOK, {"players": 3, "variant": "duo"})
    with pytest.raises(rulelang.RulelangError, match="duo variant is for 2 players"):
        game.new_initial_state()


# ---- the turns and gardener cards: scenarios in rulebooks/karesansui.test ----------------
# ---- the end of the game (section 5): scenarios in rulebooks/karesansui.test ------------
ALL = [f"{c}{r}" for r in (1, 2, 3) for c in "abcde"]


def test_score_breakdown_has_the_nine_items(new: Any) -> None:
    state = arrange(new(2), set_virtue(P1, 4))
    breakdown = state.score_breakdown(P1)
    assert list(breakdown) == ["sand", "moss", "symmetry", "vortices", "ripples",
                               "stone_kinds", "arrangements", "famous", "virtue"]
    assert breakdown["virtue"] == 4


# ---- hidden information ------------------------------------------------------------------
def test_no_secret_card_in_another_players_observation(new: Any) -> None:
    state = new(3)
    for p in range(3):
        secret = [_attr(state, c, "name") for z in ("famous", "gardeners")
                  for c in _zone(state, z, p)]
        for q in range(3):
            if q != p:
                text = json.dumps(state.observation(q), ensure_ascii=False)
                assert not any(f'"{name}"' in text for name in secret), (p, q)


# ---- the picture for `rulelang play` ---------------------------------------------------------
def test_render_draws_gardens_storage_and_the_temple(new: Any) -> None:
    from rulelang.tools.pictures.render import render_observation

    state = arrange(new(2), next_tiles("MT", "QA"), lay(P1, "1a1", "1b1"),
                    put_stone("1b1", "T"), set_virtue(P1, 4))
    play(state, (P1, "draw stack[1]"), (P1, "place drawn 1a2"), (P1, "zazen"),
         (P2, "draw stack[1]"), (P2, "store"))
    text = render_observation(state.observation(P1))
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("| ") and "m" in line)
    # 1a1 (a sand tile under the monk), 1b1 (a sand tile under a 立石(大)), 1a2 MT
    assert "monk 1" in text and "[T]" in text
    assert any("ms MT~ ms" in line for line in lines)        # MT: moss, its side edges
    assert lines[row].count("|") == 6                          # five columns of boxes
    assert "storage (Player2): [p / s QA s / aR]" in text       # QA's edges: n p, s aR
    assert "temple: 4 [Y], 5 [s], 2 [F], 2 [T], [B]" in text    # one 立石(大) in the garden
    assert "virtue (Player1) 5" in text and "stack[1]: " in text and "hidden" in text


def test_a_resample_after_the_steal_keeps_the_thief_and_the_virtue(new: Any) -> None:
    """The declarations were secret, but who steals is seen: a resample made while the
    thief lays the tile (or later in the turn) may not undo the steal, give it to another
    player or take the thief's virtue back, whatever it redoes of the declarations."""
    state = arrange(new(3), set_virtue(P2, 2), set_virtue(P3, 2), lay(P3, "3a1"))
    play(state, (P1, "draw stack[1]"), (P1, "place drawn 1a1"), (P2, "allow"), (P3, "steal"))
    for position in range(2):
        assert state.current_player() == (P3 if position == 0 else P1)
        for me in (P1, P2, P3):
            seen = json.dumps(state.observation(me), sort_keys=True)
            for seed in range(12):
                sample = state.resample(me, seed)
                assert json.dumps(sample.observation(me), sort_keys=True) == seen
                assert sample.current_player() == state.current_player()
                assert virtue(sample, P3) == 0 and virtue(sample, P2) == 2
        if position == 0:
            play(state, (P3, sorted(legal(state))[0]))


def test_steal_declarations_are_secret_until_the_outcome(new: Any) -> None:
    state = arrange(new(3), set_virtue(P2, 2), set_virtue(P3, 2), lay(P3, "3a1"))
    play(state, (P1, "draw stack[1]"), (P1, "place drawn 1a1"), (P2, "allow"))
    assert state.observation(P3)["history"][-1] == "(secret choice)"
    assert state.observation(P2)["history"][-1] == "allow"
    wants = {v["owner"]: v["value"] for v in state.observation(P3)["vars"]
             if v["var"] == "wants"}
    assert wants["Player2"] is None                       # not even the stored answer
    play(state, (P3, "steal"), (P3, "3a2"))
    assert tiles_of(state, P3) == 2 and virtue(state, P3) == 0


# ---- more from the assumptions ----------------------------------------------------------------
def test_cli_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    from rulelang.tools.cli import main

    code = main(["play", str(BOOK), "--players", "3", "--seed", "2",
                 "--agents", "random,random,random"])
    out = capsys.readouterr().out
    assert code == 0 and "draw stack" in out and "scores:" in out


def test_famous_gardens_are_shown_at_the_end(new: Any) -> None:
    state = arrange(new(2), lay(P2, *[f"2{x}" for x in ALL]),
                    lay(P1, *[f"1{x}" for x in ALL[:14]]))
    names = [_attr(state, c, "name") for p in (P1, P2) for c in _zone(state, "famous", p)]
    text = json.dumps(state.observation(P1), ensure_ascii=False)
    assert f'"{names[1]}"' not in text                       # Player2's card: secret
    play(state, (P1, "draw stack[1]"), (P1, "place drawn 1e3"), (P1, "zazen"))
    assert state.is_terminal()
    text = json.dumps(state.observation(P1), ensure_ascii=False)
    assert all(f'"{n}"' in text for n in names)              # both shown now
    assert [count(state, "shown", p) for p in (P1, P2)] == [1, 1]
