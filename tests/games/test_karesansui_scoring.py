"""Karesansui (枯山水) gardens and their nine scoring items (sections 1, 7, 8 of the game's
rules and the original Japanese text), on gardens laid by hand; every expected value is
computed by hand from the rules text in the comment beside it. Both modes. The nine items on
gardens laid by hand are scenarios in rulebooks/karesansui.test; here: the board, the module,
and random gardens against an independent scorer."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import karesansui_reference
import pytest
import yaml
from karesansui_tools import fixture_book, give_card, lay, new_state, rule

import rulelang

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
    state = lay(state, 1, "QA - - - - / - - - - - / - - - - -", "T..../...../.....")
    corner, other = garden[0], garden[1]
    data = state.data
    assert data.attrs["design"][rule(state, "tile_at", corner).id] == "QA"
    assert data.attrs["type"][rule(state, "stone_at", corner).id] == "T"
    assert rule(state, "tile_at", other) is None and rule(state, "stone_at", other) is None


def test_the_module_is_not_a_bundled_game(capsys: pytest.CaptureFixture[str]) -> None:
    from rulelang.tools import cli
    module = ROOT / "rulebooks" / "karesansui_garden.rule"
    assert rulelang.is_library(module)
    assert all(p.name != "karesansui_garden.rule" for p in cli.bundled())
    assert cli.main(["check", str(module), str(ROOT / "stdlib" / "tilegrid.rule")]) == 0
    assert capsys.readouterr().out.count(": ok") == 2




# ---- the scoring items: scenarios in rulebooks/karesansui.test (gardens laid by hand) ------


# ---- random gardens: the rulebook against an independent scorer, both modes ----------------
def _take(rng: random.Random, pool: list[Any], want: Any = None) -> Any:
    """A random tile of the pool (one that `want` accepts, if any does), removed from it."""
    fits = [t for t in pool if want is None or want(t)] or pool
    tile = rng.choice(fits)
    pool.remove(tile)
    return tile


def _random_garden(rng: random.Random, pool: list[Any], card: Any
                   ) -> tuple[list[list[Any]], list[list[Any]]]:
    """15 tiles of the pool (rows often mirror-symmetric), a few empty cells now and then,
    stones on random tiles, often the card's layout."""
    grid = []
    for _ in range(3):
        row = [_take(rng, pool) for _ in range(2)]
        if rng.random() < 0.5:
            row.append(_take(rng, pool, lambda t: t["symmetric"]))
            row += [_take(rng, pool, lambda t, m=row[c]["mirror"]: t["look"] == m)
                    for c in (1, 0)]
        else:
            row += [_take(rng, pool) for _ in range(3)]
        grid.append(row)
    for r, c in rng.sample(CELLS, rng.choice([0, 0, 0, 1, 2])):
        grid[r][c] = None
    stones: list[list[Any]] = [[None] * 5 for _ in range(3)]
    for r, c in rng.sample(CELLS, rng.randint(0, 7)):
        stones[r][c] = rng.choice("YsFTB")
    if card is not None and rng.random() < 0.5:
        for r, marks in enumerate(card["grid"]):
            for c, mark in enumerate(marks):
                if mark != ".":
                    stones[r][c] = rng.choice("YsFTB") if mark == "*" else mark
    for r, c in CELLS:
        if grid[r][c] is None:
            stones[r][c] = None
    return grid, stones


CELLS = [(r, c) for r in range(3) for c in range(5)]


def _text(grid: list[list[Any]], stones: list[list[Any]]) -> tuple[str, str]:
    tiles = " / ".join(" ".join(t["design"] if t else "-" for t in row) for row in grid)
    return tiles, "/".join("".join(s or "." for s in row) for row in stones)


CATALOGUE = yaml.safe_load((ROOT / "rulebooks" / "karesansui_tiles.yaml").read_text())
TILES = [dict(row) for row in CATALOGUE for _ in range(row.get("copies", 1))]
CARDS = yaml.safe_load((ROOT / "rulebooks" / "karesansui_gardens.yaml").read_text())


def test_random_gardens_score_as_the_reference_scorer(book: Path) -> None:
    rng = random.Random(5)
    games = {m: rulelang.load_game(book, {"players": 2}, mode=m)
             for m in ("interpreted", "compiled")}
    for _ in range(60):
        pool = list(TILES)  # two gardens from one box; two players never hold one card
        cards = rng.sample([None, None, *CARDS], 2)
        grids = [_random_garden(rng, pool, cards[0]), _random_garden(rng, pool, cards[1])]
        for game in games.values():
            state = game.new_initial_state(seed=0)
            for p in range(2):
                state = lay(state, p, *_text(*grids[p]))
                if cards[p] is not None:
                    state = give_card(state, p, cards[p]["name"])
            for p in range(2):
                want = karesansui_reference.score(*grids[p], cards[p])
                got = state.score_breakdown(p)
                assert {k: got[k] for k in want} == want, (p, _text(*grids[p]), cards[p])


def _grids_of(state: Any, player: int) -> tuple[list[list[Any]], list[list[Any]]]:
    """The garden as the reference scorer reads it: catalogue rows and stone letters."""
    data, board = state.data, state.game.runtime.board
    by_design = {row["design"]: row for row in CATALOGUE}
    tiles: list[list[Any]] = [[None] * 5 for _ in range(3)]
    stones: list[list[Any]] = [[None] * 5 for _ in range(3)]
    for r, c in CELLS:
        for piece in data.at[board.by_coords[(player, r, c)].index]:
            if piece.kind == "tile":
                tiles[r][c] = by_design[data.attrs["design"][piece.id]]
            elif piece.kind == "stone":
                stones[r][c] = data.attrs["type"][piece.id]
    return tiles, stones
