"""Karesansui (枯山水) gardens and their nine scoring items (spec ../shared/rules/karesansui.md
sections 1, 7, 8; seed karesansui.ja.txt), on gardens laid by hand; every expected value is
computed by hand from the rules text in the comment beside it. Both modes."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from games.karesansui_tools import fixture_book, lay, new_state, rule

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return fixture_book(tmp_path_factory.mktemp("karesansui"))


@pytest.fixture(params=["interpreted", "compiled"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# ---- the gardens: the board sized by the player count -------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_garden_of_3_by_5_per_player(book: Path, mode: str, players: int) -> None:
    board = rulelang.load_game(book, {"players": players}, mode=mode).runtime.board
    assert len(board.sites) == 15 * players
    names = {s.coords: s.name for s in board.sites}
    assert names[(0, 0, 0)] == "1a1" and names[(1, 2, 4)] == "2e3"
    assert names[(players - 1, 1, 2)] == f"{players}c2"


def test_neighbours_stay_in_one_garden(book: Path, mode: str) -> None:
    board = rulelang.load_game(book, mode=mode).runtime.board
    orth = board.relations["orthogonal"]
    by = board.by_coords
    assert {s.name for s in orth.table[by[(0, 0, 4)].index]} == {"1d1", "1e2"}
    assert {s.name for s in orth.table[by[(1, 1, 0)].index]} == {"2a1", "2b2", "2a3"}
    assert {s.name for s in board.relations["east"].table[by[(0, 2, 3)].index]} == {"1e3"}
    assert board.relations["east"].table[by[(0, 2, 4)].index] == ()


def test_garden_owner_tile_and_stone(book: Path, mode: str) -> None:
    state = new_state(book, mode, players=3)
    p1, p2 = state.game.runtime.players[1], state.game.runtime.players[2]
    garden = rule(state, "garden", p1)
    assert [s.name for s in garden] == [f"2{c}{r}" for r in "123" for c in "abcde"]
    assert rule(state, "owner_of", garden[7]) is p1
    assert rule(state, "owner_of", rule(state, "garden", p2)[0]) is p2
    lay(state, 1, "QA - - - - / - - - - - / - - - - -", "T..../...../.....")
    corner, other = garden[0], garden[1]
    data = state.ctx.data
    assert data.attrs["design"][rule(state, "tile_at", corner).id] == "QA"
    assert data.attrs["type"][rule(state, "stone_at", corner).id] == "T"
    assert rule(state, "tile_at", other) is None and rule(state, "stone_at", other) is None


def test_the_module_is_not_a_bundled_game() -> None:
    from rulelang import cli
    assert rulelang.is_library(ROOT / "rulebooks" / "karesansui_garden.rule")
    assert all(p.name != "karesansui_garden.rule" for p in cli.bundled())


def _scores(state: Any, player: int = 0) -> dict[str, float]:
    return state.score_breakdown(player)
