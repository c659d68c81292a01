"""Karesansui (rulebooks/karesansui.rule): the game flow, rule by rule, in both engine modes.

Each test is written from the rules text (../shared/rules/karesansui.md sections 2-6 and
the seed); the expected moves and numbers come from the rules, worked out by hand. The tiles
are shuffled, so a test arranges what it needs first, as a player would stack a deck for a
demonstration: the next tiles of stack1, a gardener card in a hand, a virtue value, or
tiles already laid in a garden (through the state's data, which logs the changed sites as
any rule would). Everything after that goes through the public API (action strings).
Sites: "1a1" is Player1's top-left cell, "1a3" their bottom-left, "2e3" Player2's
bottom-right.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import rulelang
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
def _zone(state: Any, name: str, owner: int | None = None) -> list[Any]:
    return state.ctx.data.zones[zone_ref(name, owner)]


def _stacks(state: Any) -> list[list[Any]]:
    return [_zone(state, f"stack{i}") for i in range(1, 10)]


def _attr(state: Any, piece: Any, name: str) -> Any:
    return state.ctx.data.attrs[name][piece.id]


def _site(state: Any, name: str) -> Any:
    return next(s for s in state.game.runtime.board.sites if s.name == name)


def _free_tile(state: Any, design: str) -> Any:
    """A tile of that design ("sand": any sand tile) still in a stack (taken out of it)."""
    for pile in _stacks(state):
        for piece in pile:
            if _attr(state, piece, "design") == design or (
                    design == "sand" and not _attr(state, piece, "moss")):
                pile.remove(piece)
                state.ctx.data.loc[piece.id] = None
                return piece
    raise AssertionError(f"no {design} tile left in the stacks")


def next_tiles(state: Any, *designs: str) -> None:
    """The next tiles drawn from stack1 are these designs, in this order."""
    pieces = [_free_tile(state, design) for design in designs]
    for piece in reversed(pieces):
        _zone(state, "stack1").append(piece)
        state.ctx.data.loc[piece.id] = zone_ref("stack1", None)


def lay(state: Any, player: int, *cells: str, design: str = "sand") -> None:
    """Tiles of one design (default: any sand tile) on these cells; the monk comes with the
    first one if it is not out yet."""
    data = state.ctx.data
    for name in cells:
        data.put(_free_tile(state, design), _site(state, name))
    pawn = data.vars[("pawn", player)]
    if data.loc[pawn.id] == zone_ref("supply", player):
        data.put(pawn, _site(state, cells[0]))


def put_stone(state: Any, cell: str, kind: str) -> None:
    data = state.ctx.data
    stone = next(s for s in _zone(state, "temple") if _attr(state, s, "type") == kind)
    data.put(stone, _site(state, cell))


def hand_card(state: Any, player: int, name: str) -> None:
    """The player's gardener cards become this one card."""
    data = state.ctx.data
    for card in list(_zone(state, "gardeners", player)):
        data.to_zone(card, zone_ref("gardener_deck", None))
    card = next(c for z, pile in data.zones.items() for c in pile
                if c.kind == "gardener" and _attr(state, c, "name") == name)
    data.to_zone(card, zone_ref("gardeners", player))


def empty_stacks(state: Any) -> None:
    for pile in _stacks(state):
        for t in list(pile):
            state.ctx.data.to_zone(t, zone_ref("discards", None))


def set_virtue(state: Any, player: int, value: int) -> None:
    state.ctx.data.counters[("virtue", player)] = value


def store(state: Any, player: int, design: str) -> None:
    piece = _free_tile(state, design)
    state.ctx.data.to_zone(piece, zone_ref("storage", player))


# ---- reading a position ------------------------------------------------------------------
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
    return state.ctx.data.counters[("virtue", player)]


def count(state: Any, zone: str, owner: int | None = None) -> int:
    return len(_zone(state, zone, owner))


PHASE_TWO = {"zazen", "move_monk", "take_stone", "use_gardener"}


def phase_two(state: Any) -> bool:
    return {t.split()[0] for t in legal(state)} <= PHASE_TWO and "zazen" in legal(state)


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
    assert all(zones[(f"stack{i}", None)]["pieces"] is None for i in range(1, 10))
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


# ---- first half (4.1) --------------------------------------------------------------------
def test_first_tile_in_a_left_corner_and_the_monk_comes_with_it(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Jozan")
    next_tiles(state, "P", "QA")
    assert legal(state) == {f"draw stack{i}" for i in range(1, 10)}
    play(state, (P1, "draw stack1"))
    # no discard at virtue 0
    assert legal(state) == {"place drawn 1a1", "place drawn 1a3", "give", "store"}
    play(state, (P1, "place drawn 1a3"))                # Player2 has 0 virtue: no steal asked
    assert cell(state, "1a3")[1:] == ["monk"]
    assert phase_two(state) and "move_monk" not in legal(state)      # no tile next to it
    assert "take_stone" not in " ".join(legal(state))                  # virtue 0
    play(state, (P1, "zazen"))
    assert virtue(state, P1) == 1
    play(state, (P2, "draw stack2"), (P2, "store"), (P2, "zazen"), (P1, "draw stack1"))
    # later tiles: orthogonally next to a placed tile
    assert {t for t in legal(state) if t.startswith("place")} == {"place drawn 1a2",
                                                                   "place drawn 1b3"}


def test_discard_costs_a_virtue_and_needs_one(new: Any) -> None:
    state = new(2)
    set_virtue(state, P1, 1)
    play(state, (P1, "draw stack4"))
    assert "discard" in legal(state)
    before = count(state, "discards")
    play(state, (P1, "discard"))
    assert virtue(state, P1) == 0 and count(state, "discards") == before + 1
    assert phase_two(state)


def test_store_needs_an_empty_storage_and_a_stored_tile_is_placed_instead(new: Any) -> None:
    state = new(2)
    next_tiles(state, "HL", "HR")
    play(state, (P1, "draw stack1"), (P1, "store"), (P1, "zazen"),
         (P2, "draw stack2"), (P2, "place drawn 2a1"), (P2, "zazen"), (P1, "draw stack1"))
    assert "store" not in legal(state)                     # the storage holds HL
    assert "place stored 1a1" in legal(state) and "place drawn 1a1" in legal(state)
    play(state, (P1, "place stored 1a1"))                  # HR goes to storage
    assert cell(state, "1a1") == ["HL", "monk"]
    assert [_attr(state, t, "design") for t in _zone(state, "storage", P1)] == ["HR"]


def test_tiles_run_out_place_from_storage_only(new: Any) -> None:
    # nobody can draw: phase 1 is placing the stored tile, if any
    state = new(2)
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"))
    store(state, P2, "MT")
    empty_stacks(state)
    play(state, (P1, "zazen"))
    assert legal(state) == {"place stored 2a1", "place stored 2a3"}
    play(state, (P2, "place stored 2a1"))
    assert phase_two(state)


# ---- steal (4.3) -------------------------------------------------------------------------
def test_steal_fewest_tiles_wins_and_pays_two(new: Any) -> None:
    state = new(3)
    lay(state, P2, "2a1")                                  # Player2 has 1 tile, Player3 none
    set_virtue(state, P2, 3)
    set_virtue(state, P3, 2)
    next_tiles(state, "QB")
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"))
    assert state.current_player() == P2 and legal(state) == {"steal", "allow"}
    play(state, (P2, "steal"), (P3, "steal"))
    assert state.current_player() == P3                     # fewest tiles: Player3
    assert legal(state) == {"3a1", "3a3"}                   # their first tile: a left corner
    play(state, (P3, "3a3"))
    assert cell(state, "3a3") == ["QB", "monk"] and virtue(state, P3) == 0
    assert virtue(state, P2) == 3 and tiles_of(state, P1) == 0
    assert count(state, "supply", P1) == 1                  # [A-15] Player1's monk waits
    assert phase_two(state) and state.current_player() == P1


def test_steal_tie_goes_clockwise_from_the_active_player(new: Any) -> None:
    state = new(3)
    for p in (P1, P3):
        set_virtue(state, p, 2)
    lay(state, P1, "1a1")
    lay(state, P3, "3a1")
    play(state, (P1, "draw stack1"), (P1, "store"), (P1, "zazen"),
         (P2, "draw stack1"), (P2, "place drawn 2a1"))
    # others of Player2, clockwise: Player3 then Player1; both have one tile
    play(state, (P3, "steal"), (P1, "steal"), (P3, "3a2"))
    assert len(cell(state, "3a2")) == 1 and tiles_of(state, P3) == 2
    assert virtue(state, P3) == 0 and virtue(state, P1) == 3
    assert tiles_of(state, P2) == 0


def test_who_may_steal_virtue_two_and_room(new: Any) -> None:
    state = new(3)
    set_virtue(state, P2, 1)                               # too little virtue: not asked
    set_virtue(state, P3, 6)
    lay(state, P3, *[f"3{c}{r}" for r in (1, 2, 3) for c in "abcde"])   # full: not asked
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"))
    assert phase_two(state) and state.current_player() == P1
    assert cell(state, "1a1")[1:] == ["monk"]


def test_a_stored_tile_placed_can_be_stolen(new: Any) -> None:
    state = new(2)
    store(state, P1, "VL")
    set_virtue(state, P2, 2)
    play(state, (P1, "draw stack1"), (P1, "place stored 1a1"), (P2, "steal"), (P2, "2a1"))
    assert cell(state, "2a1") == ["VL", "monk"] and tiles_of(state, P1) == 0
    assert count(state, "storage", P1) == 1                 # the drawn tile was stored


# ---- gift (4.1 ②) ------------------------------------------------------------------------
def test_gift_offer_accept_and_choose_plus_two_capped(new: Any) -> None:
    state = new(3)
    set_virtue(state, P1, 5)
    set_virtue(state, P2, 4)                                # could steal, but a gift is safe
    next_tiles(state, "MB")
    play(state, (P1, "draw stack1"), (P1, "give"), (P2, "accept"), (P3, "accept"))
    assert state.current_player() == P1 and legal(state) == {"Player2", "Player3"}
    play(state, (P1, "Player3"), (P3, "3a3"))
    assert cell(state, "3a3") == ["MB", "monk"]
    assert virtue(state, P1) == 6 and virtue(state, P2) == 4   # +2, capped at 6; no steal
    assert phase_two(state) and state.current_player() == P1


def test_gift_declined_by_all_choose_again(new: Any) -> None:
    state = new(3)
    play(state, (P1, "draw stack1"), (P1, "give"), (P2, "decline"), (P3, "decline"))
    assert state.current_player() == P1
    assert legal(state) == {"place drawn 1a1", "place drawn 1a3", "store"}   # [F-01]
    play(state, (P1, "store"))
    assert virtue(state, P1) == 0 and phase_two(state)


def test_gift_goes_only_to_those_with_room(new: Any) -> None:
    state = new(2)
    lay(state, P2, *[f"2{c}{r}" for r in (1, 2, 3) for c in "abcde"])
    play(state, (P1, "draw stack1"))
    assert "give" not in legal(state) and "discard" not in legal(state)   # and: complete


# ---- once a garden is complete (section 5) ------------------------------------------------
def test_after_a_completion_no_give_no_discard_and_complete_players_skip_phase_one(
        new: Any) -> None:
    state = new(2)
    lay(state, P2, *[f"2{c}{r}" for r in (1, 2, 3) for c in "abcde"])
    set_virtue(state, P1, 3)
    play(state, (P1, "draw stack1"))
    assert legal(state) == {"place drawn 1a1", "place drawn 1a3", "store"}
    play(state, (P1, "store"), (P1, "zazen"))
    assert state.current_player() == P2 and phase_two(state)   # Player2 is complete
    play(state, (P2, "zazen"))
    assert not state.is_terminal() and state.current_player() == P1


# ---- second half (4.2) -------------------------------------------------------------------
def test_zazen_caps_at_six(new: Any) -> None:
    state = new(2)
    set_virtue(state, P1, 6)
    play(state, (P1, "draw stack1"), (P1, "store"), (P1, "zazen"))
    assert virtue(state, P1) == 6


def test_monk_moves_one_step_onto_tiles(new: Any) -> None:
    state = new(2)
    lay(state, P1, "1a1", "1b1", "1a2", "1c2")
    play(state, (P1, "draw stack1"), (P1, "store"))
    assert {t for t in legal(state) if t.startswith("move_monk")} == {"move_monk 1b1",
                                                                       "move_monk 1a2"}
    play(state, (P1, "move_monk 1b1"))
    assert cell(state, "1b1")[-1] == "monk" and "monk" not in cell(state, "1a1")


def test_take_stone_thresholds_monk_column_and_virtue_to_zero(new: Any) -> None:
    state = new(2)
    lay(state, P1, "1b1", "1a1", "1b2", "1b3", "1c2")       # monk on 1b1
    set_virtue(state, P1, 3)
    play(state, (P1, "draw stack1"), (P1, "store"))
    stones = {t for t in legal(state) if t.startswith("take_stone")}
    assert {t.split()[1] for t in stones} == {"Y", "s", "F"}            # virtue 3: 1, 2, 3
    assert {t.split()[2] for t in stones} == {"1b1", "1b2", "1b3"}       # the monk's column
    play(state, (P1, "take_stone F 1b3"))
    assert cell(state, "1b3")[1:] == ["stone F"] and virtue(state, P1) == 0
    assert state.current_player() == P2                                   # no bonus: not on monk


def test_stone_on_the_monk_gives_a_bonus_step(new: Any) -> None:
    state = new(2)
    lay(state, P1, "1b1", "1a1", "1b2")
    set_virtue(state, P1, 1)
    play(state, (P1, "draw stack1"), (P1, "store"), (P1, "take_stone Y 1b1"))
    assert state.current_player() == P1 and legal(state) == {"stay", "1a1", "1b2"}
    play(state, (P1, "1b2"))
    assert cell(state, "1b1")[1:] == ["stone Y"] and cell(state, "1b2")[1:] == ["monk"]


def test_no_orthogonal_stones_unless_both_on_moss(new: Any) -> None:
    state = new(2)
    lay(state, P1, "1a1", "1a2", "1a3")
    put_stone(state, "1a1", "Y")
    set_virtue(state, P1, 1)
    play(state, (P1, "draw stack1"), (P1, "store"))
    assert {t for t in legal(state) if t.startswith("take_stone")} == {"take_stone Y 1a3"}
    # on moss: both stones on moss tiles may touch
    state = new(2)
    lay(state, P1, "1a1", "1a2", design="MT")
    lay(state, P1, "1a3")
    put_stone(state, "1a1", "Y")
    set_virtue(state, P1, 1)
    play(state, (P1, "draw stack1"), (P1, "store"))
    assert {t for t in legal(state) if t.startswith("take_stone")} == {"take_stone Y 1a2",
                                                                        "take_stone Y 1a3"}


def test_one_boat_stone_per_player(new: Any) -> None:
    state = new(4)
    lay(state, P1, "1a1", "1a2", "1a3")
    put_stone(state, "1a3", "B")
    set_virtue(state, P1, 5)
    play(state, (P1, "draw stack1"), (P1, "store"))
    kinds = {t.split()[1] for t in legal(state) if t.startswith("take_stone")}
    assert kinds == {"Y", "s", "F", "T"}


# ---- gardener cards (section 6) ----------------------------------------------------------
def _to_phase_two(state: Any, player: int = P1) -> None:
    play(state, (player, "draw stack9"), (player, "store"))


def test_muso_any_stone_any_tile_no_virtue_spent(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Muso")
    lay(state, P1, "1a1", "1b1", "1c1", "1d1", "1e1")      # monk on 1a1
    set_virtue(state, P1, 2)
    _to_phase_two(state)
    play(state, (P1, "use_gardener Muso"))
    assert legal(state) == {"Y", "s", "F", "T", "B"}         # any stone, whatever the virtue
    play(state, (P1, "T"))
    assert legal(state) == {"1a1", "1b1", "1c1", "1d1", "1e1"}   # any tile, any column
    play(state, (P1, "1e1"))
    assert cell(state, "1e1")[1:] == ["stone T"] and virtue(state, P1) == 2
    assert count(state, "used", P1) == 1 and count(state, "gardeners", P1) == 0
    assert state.current_player() == P2


def test_zenami_draws_two_and_lays_both_unstealable(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Zenami")
    set_virtue(state, P2, 6)
    _to_phase_two(state)
    next_tiles(state, "QC", "QD")
    play(state, (P1, "use_gardener Zenami"), (P1, "stack1"), (P1, "stack1"))
    assert legal(state) == {"QC", "QD"}
    play(state, (P1, "QD"), (P1, "place"), (P1, "1a1"), (P1, "QC"))
    assert legal(state) == {"place", "discard"}
    play(state, (P1, "place"), (P1, "1b1"))
    assert cell(state, "1a1") == ["QD", "monk"] and cell(state, "1b1") == ["QC"]
    assert state.current_player() == P2 and virtue(state, P2) == 6   # never asked to steal


def test_sesshu_draws_three_lays_one_discards_two(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Sesshu")
    _to_phase_two(state)
    next_tiles(state, "ML", "MR", "ML")
    before = count(state, "discards")
    play(state, (P1, "use_gardener Sesshu"), (P1, "stack1"), (P1, "stack1"), (P1, "stack1"))
    assert legal(state) == {"none", "ML", "MR"}
    play(state, (P1, "MR"), (P1, "1a3"))
    assert cell(state, "1a3") == ["MR", "monk"] and count(state, "discards") == before + 2


def test_rikyu_monk_anywhere_then_a_stone(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Rikyu")
    lay(state, P1, "1a1", "1b1", "1c1", "1d1", "1e1", "1e2")
    set_virtue(state, P1, 2)
    _to_phase_two(state)
    play(state, (P1, "use_gardener Rikyu"), (P1, "1e1"))
    assert "pass" in legal(state) and "take_stone s 1e2" in legal(state)
    play(state, (P1, "take_stone s 1e2"))
    assert cell(state, "1e1")[-1] == "monk" and cell(state, "1e2")[1:] == ["stone s"]
    assert virtue(state, P1) == 0


def test_kentei_takes_another_players_stored_tile(new: Any) -> None:
    state = new(3)
    hand_card(state, P1, "Kentei")
    store(state, P3, "CTL")
    set_virtue(state, P2, 6)
    _to_phase_two(state)
    play(state, (P1, "use_gardener Kentei"))
    assert legal(state) == {"Player3"}
    play(state, (P1, "Player3"), (P1, "1a1"))
    assert cell(state, "1a1") == ["CTL", "monk"] and count(state, "storage", P3) == 0
    assert state.current_player() == P2                       # not stealable


def test_shigemori_protects_from_steals(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Shigemori")
    set_virtue(state, P2, 6)
    _to_phase_two(state)
    play(state, (P1, "use_gardener Shigemori"), (P2, "draw stack1"), (P2, "store"),
         (P2, "zazen"), (P1, "draw stack1"), (P1, "place drawn 1a1"))
    assert phase_two(state) and state.current_player() == P1   # Player2 was not asked


def test_kobori_swaps_two_tiles_with_their_stones(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Kobori")
    lay(state, P1, "1a1", "1b1")
    lay(state, P1, "1c1", design="MT")
    put_stone(state, "1c1", "T")
    _to_phase_two(state)
    play(state, (P1, "use_gardener Kobori"), (P1, "1c1"), (P1, "1a1"))
    assert cell(state, "1a1") == ["MT", "stone T"] and cell(state, "1c1")[1:] == ["monk"]


def test_kobori_refuses_a_swap_that_breaks_the_stone_rule(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Kobori")
    lay(state, P1, "1a1", "1b1", "1c1", "1d1")
    put_stone(state, "1a1", "Y")
    put_stone(state, "1c1", "s")
    _to_phase_two(state)
    play(state, (P1, "use_gardener Kobori"), (P1, "1b1"))
    # 1a1's or 1c1's stone would travel to 1b1, next to the other one, on sand: refused
    assert legal(state) == {"1d1"}
    play(state, (P1, "1d1"))
    assert cell(state, "1c1")[-1] == "stone s" and len(cell(state, "1d1")) == 1


def test_jozan_virtue_to_six(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Jozan")
    _to_phase_two(state)
    play(state, (P1, "use_gardener Jozan"))
    assert virtue(state, P1) == 6


def test_kanamori_moves_a_stone_to_another_legal_tile(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Kanamori")
    lay(state, P1, "1a1", "1b1", "1c1", "1d1", "1e1")
    put_stone(state, "1a1", "F")
    put_stone(state, "1c1", "Y")
    _to_phase_two(state)
    play(state, (P1, "use_gardener Kanamori"))
    assert legal(state) == {"1a1", "1c1"}
    play(state, (P1, "1a1"))
    assert legal(state) == {"1e1"}              # 1b1 and 1d1 touch 1c1's stone, on sand
    play(state, (P1, "1e1"))
    assert cell(state, "1e1")[-1] == "stone F" and "stone F" not in cell(state, "1a1")


# ---- end (section 5) ---------------------------------------------------------------------
ALL = [f"{c}{r}" for r in (1, 2, 3) for c in "abcde"]


def test_game_ends_after_the_last_completers_second_half(new: Any) -> None:
    state = new(2)
    lay(state, P2, *[f"2{x}" for x in ALL])
    lay(state, P1, *[f"1{x}" for x in ALL[:14]])
    play(state, (P1, "draw stack1"), (P1, "place drawn 1e3"))
    assert not state.is_terminal() and phase_two(state)
    play(state, (P1, "zazen"))
    assert state.is_terminal()
    assert len(state.score_breakdown(P1)) == 9


def test_a_garden_completed_by_a_steal_the_game_goes_on_while_one_is_open(new: Any) -> None:
    state = new(2)
    lay(state, P1, *[f"1{x}" for x in ALL[:14]])
    lay(state, P2, *[f"2{x}" for x in ALL[:14]])
    set_virtue(state, P2, 2)
    play(state, (P1, "draw stack1"), (P1, "place drawn 1e3"), (P2, "steal"), (P2, "2e3"))
    play(state, (P1, "zazen"))                               # Player1 still has a hole
    assert not state.is_terminal()
    play(state, (P2, "zazen"), (P1, "draw stack1"), (P1, "place drawn 1e3"), (P1, "zazen"))
    # Player1 completed last, in their own turn: the game ends after it
    assert state.is_terminal()


def test_exhausted_tiles_end_the_game_after_the_round(new: Any) -> None:
    state = new(3)
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"))
    empty_stacks(state)
    play(state, (P1, "zazen"), (P2, "zazen"))
    assert not state.is_terminal()
    play(state, (P3, "zazen"))
    assert state.is_terminal()


def test_a_tile_only_kentei_could_bring_does_not_keep_the_game_going(new: Any) -> None:
    """[F-06] Player2 is complete with a stored tile, Player1 is not and holds Kentei, the
    stacks are empty: the game used to wait for Kentei forever (seed 3, zazen after zazen);
    it now ends with the round, and Kentei may still be played in it."""
    for kentei_first in (False, True):
        state = new(2, seed=3)
        hand_card(state, P1, "Kentei")
        lay(state, P2, *[f"2{x}" for x in ALL])
        lay(state, P1, *[f"1{x}" for x in ALL[:10]])
        store(state, P2, "CTL")
        play(state, (P1, "draw stack1"), (P1, "place drawn 1a3"))
        empty_stacks(state)
        if kentei_first:
            assert "use_gardener Kentei" in legal(state)
            play(state, (P1, "use_gardener Kentei"), (P1, "Player2"))
            play(state, (P1, sorted(legal(state))[0]))
            assert count(state, "storage", P2) == 0 and tiles_of(state, P1) == 12
        else:
            play(state, (P1, "zazen"))
        assert not state.is_terminal()
        play(state, (P2, "zazen"))
        assert state.is_terminal()


def test_score_breakdown_has_the_nine_items(new: Any) -> None:
    state = new(2)
    set_virtue(state, P1, 4)
    breakdown = state.score_breakdown(P1)
    assert list(breakdown) == ["sand", "moss", "symmetry", "vortices", "ripples",
                               "stone_kinds", "arrangements", "famous", "virtue"]
    assert breakdown["virtue"] == 4


# ---- hidden information ------------------------------------------------------------------
def test_no_secret_card_in_another_players_observation(new: Any) -> None:
    state = new(3)
    data = state.ctx.data
    for p in range(3):
        secret = [_attr(state, c, "name") for z in ("famous", "gardeners")
                  for c in _zone(state, z, p)]
        for q in range(3):
            if q != p:
                text = json.dumps(state.observation(q), ensure_ascii=False)
                assert not any(f'"{name}"' in text for name in secret), (p, q)
    assert data is state.ctx.data


# ---- the picture for `rulelang play` ---------------------------------------------------------
def test_render_draws_gardens_storage_and_the_temple(new: Any) -> None:
    from rulelang.tools.render import render_observation

    state = new(2)
    next_tiles(state, "MT", "QA")
    lay(state, P1, "1a1", "1b1")
    put_stone(state, "1b1", "T")
    set_virtue(state, P1, 4)
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a2"), (P1, "zazen"),
         (P2, "draw stack1"), (P2, "store"))
    text = render_observation(state.observation(P1))
    lines = text.splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("| ") and "m" in line)
    # 1a1 (a sand tile under the monk), 1b1 (a sand tile under a 立石(大)), 1a2 MT
    assert "monk 1" in text and "[T]" in text
    assert any("ms MT~ ms" in line for line in lines)        # MT: moss, its side edges
    assert lines[row].count("|") == 6                          # five columns of boxes
    assert "storage (Player2): [p / s QA s / aR]" in text       # QA's edges: n p, s aR
    assert "temple: 4 [Y], 5 [s], 2 [F], 2 [T], [B]" in text    # one 立石(大) in the garden
    assert "virtue (Player1) 5" in text and "stack1: " in text and "hidden" in text


def test_a_resample_after_the_steal_keeps_the_thief_and_the_virtue(new: Any) -> None:
    """The declarations were secret, but who steals is seen: a resample made while the
    thief lays the tile (or later in the turn) may not undo the steal, give it to another
    player or take the thief's virtue back, whatever it redoes of the declarations."""
    state = new(3)
    set_virtue(state, P2, 2)
    set_virtue(state, P3, 2)
    lay(state, P3, "3a1")
    state._start(state.game.flow.turn)  # the turn from the data as arranged (replayable)
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"), (P2, "allow"), (P3, "steal"))
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
    state = new(3)
    set_virtue(state, P2, 2)
    set_virtue(state, P3, 2)
    lay(state, P3, "3a1")
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"), (P2, "allow"))
    assert state.observation(P3)["history"][-1] == "(secret choice)"
    assert state.observation(P2)["history"][-1] == "allow"
    wants = {v["owner"]: v["value"] for v in state.observation(P3)["vars"]
             if v["var"] == "wants"}
    assert wants["Player2"] is None                       # not even the stored answer
    play(state, (P3, "steal"), (P3, "3a2"))
    assert tiles_of(state, P3) == 2 and virtue(state, P3) == 0


# ---- famous gardens (section 7): a secret card, or in the duo variant the best of three ------
def _famous(state: Any, zone: str, owner: int | None, *names: str) -> None:
    """These famous-garden cards, and only these, in the zone."""
    data = state.ctx.data
    for card in list(_zone(state, zone, owner)):
        data.to_zone(card, zone_ref("garden_deck", None))
    for name in names:
        card = next(c for pile in data.zones.values() for c in pile
                    if c.kind == "garden_card" and _attr(state, c, "name") == name)
        data.to_zone(card, zone_ref(zone, owner))


def _ryoanji_and_card9(state: Any) -> None:
    """Stones matching 龍安寺 (*...* / ..*.. / *...*, 9) and 名庭園9 (..F.. / *...*, 7)."""
    lay(state, P1, *[f"1{x}" for x in ALL])
    for cell_name, kind in (("1a1", "Y"), ("1e1", "Y"), ("1c2", "F"), ("1a3", "s"),
                            ("1e3", "s")):
        put_stone(state, cell_name, kind)


def test_famous_garden_scores_its_points_when_the_stones_match(new: Any) -> None:
    state = new(2)
    _famous(state, "famous", P1, "龍安寺")
    _famous(state, "famous", P2, "円通寺")
    _ryoanji_and_card9(state)
    assert state.score_breakdown(P1)["famous"] == 9
    assert state.score_breakdown(P2)["famous"] == 0


def test_duo_famous_gardens_score_only_the_best_one(new: Any) -> None:
    state = new(2, "duo")
    _famous(state, "common_gardens", None, "名庭園9", "龍安寺", "円通寺")
    _ryoanji_and_card9(state)
    assert state.score_breakdown(P1)["famous"] == 9          # not 9 + 7
    assert state.score_breakdown(P2)["famous"] == 0


# ---- more from the assumptions ----------------------------------------------------------------
def test_after_a_completion_others_still_steal_and_the_complete_use_cards(new: Any) -> None:
    # stealing stays open to incomplete players; a complete player may still
    # use a gardener card in the second half
    state = new(3)
    lay(state, P2, *[f"2{x}" for x in ALL])
    hand_card(state, P2, "Jozan")
    set_virtue(state, P3, 2)
    play(state, (P1, "draw stack1"), (P1, "place drawn 1a1"), (P3, "steal"), (P3, "3a1"),
         (P1, "zazen"))
    assert state.current_player() == P2 and "use_gardener Jozan" in legal(state)
    play(state, (P2, "use_gardener Jozan"))
    assert virtue(state, P2) == 6


def test_muso_stone_on_the_monk_gives_the_bonus_step(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Muso")
    lay(state, P1, "1a1", "1b1")                            # the monk on 1a1
    _to_phase_two(state)
    play(state, (P1, "use_gardener Muso"), (P1, "Y"), (P1, "1a1"))
    assert legal(state) == {"stay", "1b1"}
    play(state, (P1, "stay"))
    assert cell(state, "1a1")[1:] == ["monk", "stone Y"]


def test_zenami_may_discard_for_free(new: Any) -> None:
    state = new(2)
    hand_card(state, P1, "Zenami")
    set_virtue(state, P1, 0)
    _to_phase_two(state)
    before = count(state, "discards")
    play(state, (P1, "use_gardener Zenami"), (P1, "stack2"), (P1, "stack2"))
    for _ in range(2):
        play(state, (P1, sorted(legal(state))[0]), (P1, "discard"))
    assert count(state, "discards") == before + 2 and virtue(state, P1) == 0
    assert tiles_of(state, P1) == 0 and state.current_player() == P2


def test_cli_plays_a_whole_game(capsys: pytest.CaptureFixture[str]) -> None:
    from rulelang.tools.cli import main

    code = main(["play", str(BOOK), "--players", "3", "--seed", "2",
                 "--agents", "random,random,random"])
    out = capsys.readouterr().out
    assert code == 0 and "draw stack" in out and "scores:" in out


def test_famous_gardens_are_shown_at_the_end(new: Any) -> None:
    state = new(2)
    lay(state, P2, *[f"2{x}" for x in ALL])
    lay(state, P1, *[f"1{x}" for x in ALL[:14]])
    names = [_attr(state, c, "name") for p in (P1, P2) for c in _zone(state, "famous", p)]
    text = json.dumps(state.observation(P1), ensure_ascii=False)
    assert f'"{names[1]}"' not in text                       # Player2's card: secret
    play(state, (P1, "draw stack1"), (P1, "place drawn 1e3"), (P1, "zazen"))
    assert state.is_terminal()
    text = json.dumps(state.observation(P1), ensure_ascii=False)
    assert all(f'"{n}"' in text for n in names)              # both shown now
    assert [count(state, "shown", p) for p in (P1, P2)] == [1, 1]
