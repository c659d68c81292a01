"""Karesansui (枯山水) gardens and their nine scoring items (spec ../shared/rules/karesansui.md
sections 1, 7, 8; seed karesansui.ja.txt), on gardens laid by hand; every expected value is
computed by hand from the rules text in the comment beside it. Both modes."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import karesansui_reference
import pytest
import yaml
from karesansui_tools import ITEMS, fixture_book, give_card, lay, new_state, rule

import rulelang
from rulelang.model.values import zone_ref

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


def test_the_module_is_not_a_bundled_game(capsys: pytest.CaptureFixture[str]) -> None:
    from rulelang.tools import cli
    module = ROOT / "rulebooks" / "karesansui_garden.rule"
    assert rulelang.is_library(module)
    assert all(p.name != "karesansui_garden.rule" for p in cli.bundled())
    assert cli.main(["check", str(module), str(ROOT / "stdlib" / "tilegrid.rule")]) == 0
    assert capsys.readouterr().out.count(": ok") == 2




# ---- the scoring items ------------------------------------------------------------------
PLAIN = "P P P P P / P P P P P / P P P P D1"  # 14 P + D1: all sand, every border connects


def score(book: Path, mode: str, tiles: str, stones: str = "", card: str = "") -> dict[str, Any]:
    state = new_state(book, mode)
    lay(state, 0, tiles, stones)
    if card:
        give_card(state, 0, card)
    breakdown = state.score_breakdown(0)
    assert list(breakdown) == ITEMS
    return breakdown


def test_a_full_garden_scores_all_nine_items(book: Path, mode: str) -> None:
    state = new_state(book, mode)
    lay(state, 0, "QA QB P HL HR / QC QD MI1 VL VR / MT MT D1 U1 P", "T.s.F/..Y../B...T")
    give_card(state, 0, "龍安寺")
    state.ctx.data.counters[("virtue", 0)] = 3
    assert state.score_breakdown(0) == {
        # sand tiles everywhere but MI1 (1,2) and MT MT (2,0) (2,1): columns d-e, 3 rows
        "sand": 6,
        "moss": 6,           # MI1, MT, MT
        "symmetry": 0,       # row 1: mirror(QA) = QB is not HR; row 2: QC/P; row 3: MT/P
        "vortices": 14,      # circle QA QB / QC QD 8, HL HR 2, VL VR 2, D1 1, U1 1
        "ripples": -6,       # MT|D1 (ms/s), QC over MT (p/m), QD over MT (p/m)
        "stone_kinds": 10,   # T s F Y B
        # keima c2-a3 and c2-e3 share the stone on c2: one of them, 5; 舟石 on row 3: 3
        "arrangements": 8,
        "famous": 9,         # 龍安寺 *...* / ..*.. / *...*: a1 e1 c2 a3 e3 all hold stones
        "virtue": 3,
    }
    assert state.score_breakdown(1)["ripples"] == 0  # an empty garden has no ripples


@pytest.mark.parametrize("tiles, area", [
    (PLAIN, 15),
    ("P P P P P / P P P P P / P P P P MT", 12),   # rows 1-3 x columns a-d
    ("P P P P P / P P P P P / P P MT P P", 10),   # rows 1-2
    ("P P P P MT / P P P P P / P P MB P P", 8),   # rows 1-2 x columns a-d
    ("MT MT MT MB MB / MB MM MM ML ML / ML MR MR MR MI1", 0),   # moss only
])
def test_sand_is_the_largest_rectangle_of_sand_tiles(book: Path, mode: str, tiles: str,
                                                    area: int) -> None:
    assert score(book, mode, tiles)["sand"] == area


def test_moss_is_2_points_a_moss_tile(book: Path, mode: str) -> None:
    assert score(book, mode, PLAIN)["moss"] == 0
    assert score(book, mode, "MT P P P MB / P MI1 P P P / P P P P CBR")["moss"] == 8


@pytest.mark.parametrize("row, symmetric", [
    ("HL HR P HL HR", True),      # its mirror image: HL HR P HL HR
    ("QA P MT P QB", True),       # QA mirrored is QB; MT may stand in the centre
    ("ML D1 U1 D1 MR", True),
    ("MI1 MI2 MM MI3 MI4", True),  # the four moss islands count as one design
    ("QA P P P QA", False),
    ("P P QA P P", False),        # QA may not stand in the centre
    ("HL HR P HR HL", False),
    ("P P P P -", False),         # five tiles are needed
])
def test_a_symmetric_row_is_5_points(book: Path, mode: str, row: str, symmetric: bool) -> None:
    tiles = f"{row} / VL VL VL VL VL / VR VR VR VR VR"
    assert score(book, mode, tiles)["symmetry"] == (5 if symmetric else 0)


def test_symmetric_rows_add_up(book: Path, mode: str) -> None:
    assert score(book, mode, "P P P P P / P P P P P / P P P P D1")["symmetry"] == 10
    assert score(book, mode, "P P P P P / P P P P P / P D1 MT D1 P")["symmetry"] == 15


@pytest.mark.parametrize("tiles, points", [
    ("QA QB P P P / QC QD P P P / P P P P P", 8),     # a circle of four tiles
    ("P P P QA QB / P P P QC QD / P P P P P", 8),
    ("QA QB P P P / QD QC P P P / P P P P P", 0),     # quarters in the wrong places
    ("HL HR P VL VR / P P P P P / P P P P P", 4),     # two semicircles of two tiles
    ("HR HL P VR VL / P P P P P / P P P P P", 0),     # halves the wrong way round
    ("D1 U1 P P P / P P P P P / P P P P D1", 3),       # three one-tile vortices
    ("QA QB HL HR D1 / QC QD P P P / P P P P P", 11),
])
def test_vortices(book: Path, mode: str, tiles: str, points: int) -> None:
    assert score(book, mode, tiles)["vortices"] == points


@pytest.mark.parametrize("tiles, points", [
    (PLAIN, 7),                                       # no broken border: +7
    ("MT P P P MT / P P P P P / P P P P P", -4),       # MT|P and P|MT (ms against s): 2
    ("P P P P MT / MT P P P P / P P P P P", -6),       # P|MT, MT|P and P over MT (p/m): 3
    ("MR ML P P P / MR ML P P P / MR ML P P D1", 7),   # moss edges meet moss edges
    ("QA QB P P P / QC QD P P P / P P P P P", 7),      # arcs meet arcs
    # QA over P (aR/p), QB over P (aL/p); the arcs of QC QD lie on the garden's edge
    ("QC QD P P P / QA QB P P P / P P P P P", -4),
])
def test_ripples_minus_2_a_broken_border_or_7(book: Path, mode: str, tiles: str,
                                               points: int) -> None:
    assert score(book, mode, tiles)["ripples"] == points


def test_stone_kinds_count_kinds_not_stones(book: Path, mode: str) -> None:
    assert score(book, mode, PLAIN)["stone_kinds"] == 0
    assert score(book, mode, PLAIN, "Y.Y.Y/...../T.T.T")["stone_kinds"] == 4
    assert score(book, mode, PLAIN, "Y.s.F/...../T.B..")["stone_kinds"] == 10


@pytest.mark.parametrize("stones, points", [
    ("Y..../..Y../.....", 5),   # 桂馬 a1-c2: opposite corners of a 2 x 3 block
    ("YY.../..Y../.....", 0),   # b1 lies inside that block: no bonus (b1-c2, a1-b1: no shape)
    ("Y..../...../.Y...", 5),   # 桂馬 a1-b3: opposite corners of a 3 x 2 block
    ("Y..../.Y.../.Y...", 0),   # b2 inside it
    ("..Y../...../Y....", 7),   # 斜め c1-a3: opposite corners of a 3 x 3 block
    ("..Y../.Y.../Y....", 0),   # b2 inside it: three on a diagonal score nothing
    ("Y..../...../..Y.Y", 7),   # a1-c3; e3 lies outside the block and spoils nothing
    ("..Y../...../Y...Y", 7),   # c1-a3 and c1-e3 share c1: one of them
    ("..Y../..Y../Y...Y", 5),   # 桂馬 c2-a3, c2-e3 share c2; c2 spoils c1-a3 and c1-e3
])
def test_keima_and_diagonal_pairs(book: Path, mode: str, stones: str, points: int) -> None:
    assert score(book, mode, PLAIN, stones)["arrangements"] == points


def test_the_best_disjoint_set_of_pairs_not_the_greedy_one(book: Path, mode: str) -> None:
    # a1-b3 (3 x 2) and d1-e3 (3 x 2) are 桂馬 worth 5 each; d1-b3 is a 斜め worth 7 (its
    # block b1-d3 holds no other stone). Taking the 7 first leaves a1 and e3 without a pair
    # (7); the best set takes both 桂馬: 10 [ASSUMED A-13]
    assert score(book, mode, PLAIN, "Y..Y./...../.Y..Y")["arrangements"] == 10


MOSS_TOP = "MT MT MT MB MB / P P P P P / P P P P P"  # the top row all moss tiles


@pytest.mark.parametrize("tiles, stones, points", [
    (MOSS_TOP, ".TT../...../.....", 10),   # 蓬莱山: two 立石(大) side by side on moss, top row
    (MOSS_TOP, "TTTT./...../.....", 10),   # four in a row: still only once
    (MOSS_TOP, ".T.T./...../.....", 0),    # not side by side
    (PLAIN, ".TT../...../.....", 0),       # on sand tiles
    ("P P P P P / MT MT MT MB MB / P P P P P", "...../.TT../.....", 0),   # not the top row
    ("MT P MT P P / P P P P P / P P P P P", "TT.../...../.....", 0),      # b1 is sand
    (MOSS_TOP, ".sTs./...../.....", 15),   # 三尊石: 立石(小) 立石(大) 立石(小) on moss, top row
    (MOSS_TOP, ".TsT./...../.....", 0),    # the wrong order
    (MOSS_TOP, "sTsTT/...../.....", 25),   # 三尊石 and 蓬莱山 both
    (PLAIN, ".sTs./...../.....", 0),       # on sand
    (PLAIN, "..F../...../..F..", 6),       # 臥石 in the centre column: 3 each
    (PLAIN, "F...F/...../.....", 0),       # not the centre column
    (PLAIN, "...../...../...B.", 3),       # 舟石 in the bottom row
    (PLAIN, "...../...B./.....", 0),
    # A shares stones with E and F: 臥石 c1 (E 3) and 横石 a2 are a 桂馬 (A 5); 舟石 a3 (F 3)
    # and c1 would be a 斜め, but a2 lies in their block a1-c3: 3 + 5 + 3 = 11
    (PLAIN, "..F../Y..../B....", 11),
])
def test_stone_arrangements(book: Path, mode: str, tiles: str, stones: str,
                            points: int) -> None:
    assert score(book, mode, tiles, stones)["arrangements"] == points


@pytest.mark.parametrize("stones, card, points", [
    ("T..../..F../....B", "南禅寺", 10),   # T.... / ..F.. / ....B
    ("T...Y/..F../Y...B", "南禅寺", 10),   # other stones do not matter
    ("Y..../..F../....B", "南禅寺", 0),    # a 横石 where a 立石(大) is needed
    ("T..../...../....B", "南禅寺", 0),    # c2 empty
    ("...../.YT../.....", "龍源院", 8),    # ..... / .**.. / .....: any stones
    ("...../.Y.../.....", "龍源院", 0),
    ("T..../..F../....B", "", 0),          # no card
])
def test_famous_garden(book: Path, mode: str, stones: str, card: str, points: int) -> None:
    assert score(book, mode, PLAIN, stones, card)["famous"] == points


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
                lay(state, p, *_text(*grids[p]))
                if cards[p] is not None:
                    give_card(state, p, cards[p]["name"])
            for p in range(2):
                want = karesansui_reference.score(*grids[p], cards[p])
                got = state.score_breakdown(p)
                assert {k: got[k] for k in want} == want, (p, _text(*grids[p]), cards[p])


def _grids_of(state: Any, player: int) -> tuple[list[list[Any]], list[list[Any]]]:
    """The garden as the reference scorer reads it: catalogue rows and stone letters."""
    data, board = state.ctx.data, state.game.runtime.board
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


def test_kept_scores_follow_the_gardens_as_they_change(book: Path) -> None:
    """Stones come, move and go, tiles are swapped, on copies of the state as moves make
    them: the compiled mode's kept values always equal a fresh count (reference scorer)."""
    rng = random.Random(11)
    game = rulelang.load_game(book, {"players": 2}, mode="compiled")
    state = game.new_initial_state(seed=0)
    pool = list(TILES)
    for p in range(2):
        lay(state, p, *_text(*_random_garden(rng, pool, None)))
    board, quarry = game.runtime.board, zone_ref("quarry", None)
    for step in range(80):
        state = state.clone()
        data = state.ctx.data
        p = rng.randrange(2)
        cells = [board.by_coords[(p, r, c)] for r, c in CELLS]
        stones = [x for s in cells for x in data.at[s.index] if x.kind == "stone"]
        free = [s for s in cells if data.at[s.index] and
                all(x.kind != "stone" for x in data.at[s.index])]
        roll = rng.random()
        if roll < 0.4 and free:
            data.put(rng.choice(data.zones[quarry]), rng.choice(free))      # a new stone
        elif roll < 0.7 and stones and free:
            data.put(rng.choice(stones), rng.choice(free))                  # a stone moves
        elif roll < 0.85 and stones:
            data.to_zone(rng.choice(stones), quarry)                        # a stone leaves
        else:
            a, b = rng.sample(cells, 2)                                     # two cells swap
            stack_a, stack_b = data.at[a.index], data.at[b.index]
            for x in stack_a:
                data.put(x, b)
            for x in stack_b:
                data.put(x, a)
        for q in range(2):
            got = state.score_breakdown(q)
            want = karesansui_reference.score(*_grids_of(state, q), None)
            assert {k: got[k] for k in want} == want, (step, q)
