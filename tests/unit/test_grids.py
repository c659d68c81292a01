"""Builtins over collections, grids of values and the pieces on sites (rulelang/grids.py):
each on its own in Python, and through a rulebook (tests/unit/rules/grids.rule), its rules
evaluated one by one by the reference evaluator; best_matching against networkx; cached() and
memo in the reference."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

import rulelang
from rulelang.library import grids
from rulelang.library.semantics import Ctx
from rulelang.model.values import zone_ref

RULES = Path(__file__).parent / "rules"
MODES = ["interpreted"]  # (a rule evaluated on its own: the reference in every mode)


# ---- pure builtins, in Python -----------------------------------------------------------
def test_chunks_reversed_distinct_masked() -> None:
    from rulelang.library import builtins
    assert grids.chunks(None, (1, 2, 3, 4, 5), 2) == ((1, 2), (3, 4), (5,))
    assert builtins.reversed_(None, [1, 2, 3]) == (3, 2, 1)
    assert builtins.distinct(None, ("b", None, "a", "b", None)) == ("b", None, "a")
    assert grids.masked(None, ("a", "b", "c"), (True, False, 1)) == ("a", None, "c")
    assert grids.masked(None, (("a", "b"), ("c", "d")), ((True, False), (False, True))) == \
        (("a", None), (None, "d"))
    with pytest.raises(rulelang.RulelangError):
        grids.chunks(None, (1, 2), 0)


@pytest.mark.parametrize("rows, area", [
    ([], 0),
    (["...."], 0),
    (["#..#"], 1),
    (["##.#", "##.#", ".###"], 4),
    (["#####", "#####", "###.#"], 10),
    (["#####", "#####", "####."], 12),
    ([".###.", "#####", ".###."], 9),
    (["#.#.#", "#####", "#.#.#"], 5),
])
def test_largest_rectangle(rows: list[str], area: int) -> None:
    grid = [[ch == "#" for ch in row] for row in rows]
    assert grids.largest_rectangle(None, grid) == area
    brute = max((len(cells) for r1 in range(len(rows)) for r2 in range(r1, len(rows))
                 for c1 in range(len(rows[0])) for c2 in range(c1, len(rows[0]))
                 for cells in [[grid[r][c] for r in range(r1, r2 + 1)
                                for c in range(c1, c2 + 1)]] if all(cells)), default=0)
    assert area == brute


def test_mismatches_between_grids_at_an_offset() -> None:
    right = (("x", "y", None), ("x", "x", "x"))
    left = (("x", "y", "x"), ("q", "x", "x"))
    # right edge of (r, c) against the left edge of (r, c + 1): (0,0) x/y and (0,1) y/x
    # differ, row 1 is all x
    assert grids.mismatches(None, right, left, 0, 1) == 2
    assert grids.mismatches(None, right, left, 1, 0) == 2    # (0,0) x/q, (0,1) y/x; (0,2) none
    assert grids.mismatches(None, right, left, -1, 0) == 1   # (1,1) x/y
    assert grids.mismatches(None, right, left, 0, 5) == 0


def test_occurrences_with_wildcards() -> None:
    g = (("a", "b", None), ("c", "d", "a"), ("a", "b", "x"))
    assert grids.occurrences(None, g, [("a", "b")]) == 2
    assert grids.occurrences(None, g, ["ab"]) == 2          # a string row: one cell a letter
    assert grids.occurrences(None, g, [("a",), ("c",)]) == 1
    assert grids.occurrences(None, g, ["*"]) == 8           # every cell that is not none
    assert grids.occurrences(None, g, ["."]) == 9           # every cell
    assert grids.occurrences(None, g, ["a.", ".*"]) == 1   # the a at the top left, d below right
    assert grids.occurrences(None, g, ["b*"]) == 1          # only the bottom b has a right cell
    assert grids.occurrences(None, g, [("a", "b", "x", "y")]) == 0   # wider than the grid
    assert grids.occurrences(None, g, []) == 0


def test_corner_pairs() -> None:
    g = [["Y", None, None, None], [None, None, "Y", "Y"]]
    # a 2 x 3 block a1..c2 holds a1 and c2 only; b1..d2 holds c2 and d2 and is no pair
    assert grids.corner_pairs(None, g, 2, 3) == (((0, 0), (1, 2)),)
    assert grids.corner_pairs(None, g, 2, 3, 5) == (((0, 0), (1, 2), 5),)
    assert grids.corner_pairs(None, g, 1, 2) == (((1, 2), (1, 3)),)   # a 1 x 2 block
    assert grids.corner_pairs(None, g, 2, 4) == ()                    # three stones inside
    anti = [[None, None, "T"], [None, None, None], ["T", None, None]]
    assert grids.corner_pairs(None, anti, 3, 3) == (((0, 2), (2, 0)),)


def _networkx(edges: list[tuple[Any, Any, int]]) -> int:
    g = nx.Graph()
    for a, b, w in edges:
        if not g.has_edge(a, b) or g[a][b]["weight"] < w:
            g.add_edge(a, b, weight=w)
    return sum(g[a][b]["weight"] for a, b in nx.max_weight_matching(g))


def test_best_matching_agrees_with_networkx() -> None:
    assert grids.best_matching(None, []) == 0
    assert grids.best_matching(None, [("a", "b", 5), ("b", "c", 7), ("c", "d", 5)]) == 10
    rng = random.Random(3)
    for n in (4, 6, 9, 12, 25):  # 25 items: the networkx path itself
        for _ in range(20):
            edges = [(a, b, rng.choice([5, 7])) for a in range(n) for b in range(a + 1, n)
                     if rng.random() < 0.3]
            assert grids.best_matching(None, edges) == _networkx(edges)


# ---- through a rulebook, both modes ---------------------------------------------------------
def _state(mode: str, looks: str) -> Any:
    """A state with tiles of these looks on a1 b1 c1 a2 b2 c2 ('-' for none)."""
    state = rulelang.load_game(RULES / "grids.rule", mode=mode).new_initial_state(seed=0)
    data, sites = state.ctx.data, state.game.runtime.board.sites
    box = data.zones[zone_ref("box", None)]
    for site, look in zip(sites, looks.split(), strict=True):
        if look != "-":
            tile = next(t for t in box if data.attrs["look"][t.id] == look)
            data.put(tile, site)
    return state


def _eval(state: Any, name: str, *args: Any) -> Any:
    rt = state.game.runtime
    return rt.call_def(name, list(args), Ctx(rt, state.ctx.data), rt.program.defs[name])


@pytest.mark.parametrize("mode", MODES)
def test_attr_at_reads_a_site_a_row_or_a_grid(mode: str) -> None:
    state = _state(mode, "L R - A M -")
    assert _eval(state, "looks") == (("L", "R", None), ("A", "M", None))
    assert _eval(state, "bottom_looks") == ("L", "R", None)
    assert _eval(state, "corner_look") == "L"
    stone = state.ctx.data.zones[zone_ref("quarry", None)][0]
    state.ctx.data.put(stone, state.game.runtime.board.sites[0])  # a stone above the tile
    assert _eval(state, "corner_look") == "L"


@pytest.mark.parametrize("mode", MODES)
def test_pieces_at_and_attr_at_over_pieces(mode: str) -> None:
    state = _state(mode, "L R - A M -")
    tiles = _eval(state, "tile_pieces")
    data = state.ctx.data
    assert [[t and data.attrs["look"][t.id] for t in row] for row in tiles] == \
        [["L", "R", None], ["A", "M", None]]
    assert all(t is None or t.kind == "tile" for row in tiles for t in row)
    assert _eval(state, "piece_looks") == _eval(state, "looks")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name, message", [
    ("no_such_attribute", "a tile has no attribute 'colour'"),
    ("no_such_kind", "there is no piece kind 'card'"),
])
def test_attr_at_mistakes_are_positioned(mode: str, name: str, message: str) -> None:
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        _eval(_state(mode, "A A A A - -"), name)
    assert message in str(info.value)
    span = info.value.diagnostic.span
    assert span is not None and span.path.endswith("grids.rule")
    line = (RULES / "grids.rule").read_text().splitlines()[span.line - 1]
    assert line.startswith(f"def {name} = ") and line[span.column - 1:].startswith("attr_at(")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("looks, broken", [
    # tiles (grid_tiles.yaml): A e x w x n p s p; L e y w x n p s q; R e x w y n q s p
    ("A A A A A A", 0),
    ("L R A A A A", 1),    # L|R: y meets y; but b1 (R, north edge q) under A (south edge p)
    ("R L A A A A", 2),    # L|A: y against x; a1 (R, north q) under A (south p)
    ("L A - - - -", 1),    # L|A; the empty cells have no borders
    ("A L - A R -", 1),    # a2|b2: A's x against R's y; L under R: p meets p
])
def test_mismatched_counts_borders_whose_labels_differ(mode: str, looks: str,
                                                       broken: int) -> None:
    assert _eval(_state(mode, looks), "broken") == broken


@pytest.mark.parametrize("mode", MODES)
def test_largest_rectangle_and_mirrored_rows_through_rules(mode: str) -> None:
    assert _eval(_state(mode, "A A M A A A"), "sand_area") == 4    # a1 b1 a2 b2
    assert _eval(_state(mode, "A A A A A A"), "sand_area") == 6
    assert _eval(_state(mode, "L A R A A A"), "mirrored_rows") == 2  # R A L mirrored is L A R
    assert _eval(_state(mode, "L A L A M A"), "mirrored_rows") == 1


# ---- cached --------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_a_rule_kept_inside_an_inlined_rule_with_the_same_parameter_name(mode: str) -> None:
    # kept_look(x) is inlined with x held in a fresh local; look_on(x) is compiled as a rule
    # of its own, whose x is its own parameter (once a KeyError in the compiled mode)
    assert _eval(_state(mode, "L A R A A A"), "first_look") == "L"


def test_the_interpreter_computes_cached_values_every_time() -> None:
    state = _state("interpreted", "L A R A A A")
    row = state.game.runtime.board.sites[:3]
    first = _eval(state, "kept_looks", row)
    again = _eval(state, "kept_looks", row)
    assert first == again == ("L", "A", "R") and first is not again


def test_no_reuse_across_states_when_a_rule_sets_attributes(tmp_path: Path) -> None:
    for name in ("grids.rule", "grid_tiles.yaml"):
        text = (RULES / name).read_text()
        if name == "grids.rule":
            text = text.replace("action rest\n  require true",
                                "action rest\n  set first(pieces(box)).look = \"Z\"")
        (tmp_path / name).write_text(text)
    game = rulelang.load_game(tmp_path / "grids.rule")
    assert game.runtime.content_cache is None
    assert rulelang.load_game(RULES / "grids.rule").runtime.content_cache is not None


# ---- memo -----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", ["kept_colour", "cached_colour"])
def test_a_mistake_in_a_kept_rule_points_into_that_rule(mode: str, name: str) -> None:
    with pytest.raises(rulelang.RuleRuntimeError) as info:
        _eval(_state(mode, "A A A A - -"), name)
    span = info.value.diagnostic.span
    line = (RULES / "grids.rule").read_text().splitlines()[span.line - 1]
    assert "no attribute 'colour'" in str(info.value) and line.startswith("def colour_of(x)")


def test_the_interpreter_computes_memo_values_every_time() -> None:
    state = _state("interpreted", "L A R A A A")
    assert _eval(state, "memo_looks") is not _eval(state, "memo_looks")


def test_memo_remembers_nothing_when_a_rule_sets_attributes(tmp_path: Path) -> None:
    for name in ("grids.rule", "grid_tiles.yaml"):
        text = (RULES / name).read_text()
        if name == "grids.rule":
            text = text.replace("action rest\n  require true",
                                "action rest\n  set first(pieces(box)).look = \"Z\"")
        (tmp_path / name).write_text(text)
    game = rulelang.load_game(tmp_path / "grids.rule")
    state = game.new_initial_state(seed=0)
    data, sites = state.ctx.data, game.runtime.board.sites
    data.put(data.zones[zone_ref("box", None)][0], sites[0])
    first = _eval(state, "memo_looks")
    assert first == _eval(state, "memo_looks") and first is not _eval(state, "memo_looks")


# ---- what a kept rule may read (R211) -------------------------------------------------------
KEPT_GAME = """\
use square
{use}
game "Kept"
players White, Black
board square.grid(3, 3, 3)
piece stone
counter bonus each player = 0
var best = 0
zone bag

def plain(x) = x + 1
def again(x) = again(x - 1) if x > 0 else plain(x)
{defs}
score s(p) = {score}

action place
  choose site s in sites where empty(s)
  put stone of mover at s

turn
  do place

end
  when turn >= 9
    highest score wins
"""


def _kept(tmp_path: Path, defs: str, score: str, module: str = "") -> str:
    """The R211 messages of a game with these rules and this score (empty: none)."""
    if module:
        (tmp_path / "helpers.rule").write_text(module)
    path = tmp_path / "kept.rule"
    path.write_text(KEPT_GAME.format(use="use helpers" if module else "", defs=defs,
                                     score=score))
    try:
        rulelang.load_game(path)
    except rulelang.RulebookError as exc:
        return "\n".join(d.message for d in exc.diagnostics if d.code == "R211")
    return ""


@pytest.mark.parametrize("body, word", [
    ("bonus of p", "the counter 'bonus'"), ("best", "the var 'best'"),
    ("size(bag)", "the zone 'bag'"), ("1 if mover == p else 0", "'mover'"),
    ("turn", "'turn'"), ("count s in sites where occupied(s)", "'occupied'"),
])
def test_memo_refuses_a_rule_that_reads_the_state(tmp_path: Path, body: str, word: str) -> None:
    found = _kept(tmp_path, f"def reads(p) = {body}", "memo(reads, p)")
    assert found == f"memo: the rule 'reads' reads {word} (line 13), which a kept value " \
        "would not follow"


def test_a_kept_rule_is_checked_through_the_rules_it_calls(tmp_path: Path) -> None:
    found = _kept(tmp_path, "def outer(p) = 2 * inner(p)\ndef inner(p) = bonus of p",
                  "memo(outer, p) + memo(again, 3)")
    assert found.startswith("memo: the rule 'outer' reads the counter 'bonus' (line 14)")


def test_a_read_in_another_module_names_its_file(tmp_path: Path) -> None:
    found = _kept(tmp_path, "", "memo(helpers.whose, sites[0])",
                  module="def whose(s) = 1 if owner(s) == mover else 0\n")
    assert "reads 'owner' (" in found and "helpers.rule:1)" in found


def test_cached_may_read_the_pieces_on_sites_but_not_the_turn(tmp_path: Path) -> None:
    assert _kept(tmp_path, "def here(s) = 1 if occupied(s) else 0",
                 "cached(sites, here, sites[0]) + memo(plain, 2) + memo(again, 2)") == ""
    assert "cached: the rule 'mine' reads 'mover'" in _kept(
        tmp_path, "def mine(s) = 1 if owner(s) == mover else 0", "cached(sites, mine, sites[0])")


def test_a_kept_rule_may_call_reach_with_rules_that_read_nothing(tmp_path: Path) -> None:
    """reach reads what the rules it is given read: nothing, or the board, or (given a
    parameter) anything."""
    walk = "def step(s) = 1\ndef walk(s) = size(reach(s, square.orthogonal, 2, step))"
    assert _kept(tmp_path, walk, "memo(walk, sites[0])") == ""
    board = "def step(s) = 1 if empty(s) else none\n" \
        "def walk(s) = size(reach(s, square.orthogonal, 2, step))"
    assert "memo: the rule 'walk' reads 'empty' (line 13)" in _kept(
        tmp_path, board, "memo(walk, sites[0])")
    given = "def walk(s, f) = size(reach(s, square.orthogonal, 2, f))\n" \
        "def apply(s) = walk(s, apply)"
    assert "reads the function 'f' given to 'reach'" in _kept(
        tmp_path, given, "cached(sites, apply, sites[0])")


def test_the_state_readers_are_builtins() -> None:
    """The builtins R211 refuses are those whose facts say they read the turn (memo and
    cached) or the board (memo), as the lists the checker once kept by hand."""
    from rulelang.library import BUILTINS, Reads
    reads_turn = {n for n, b in BUILTINS.items() if b.facts.reads & (Reads.MOVER | Reads.TURN)}
    reads_board = {n for n, b in BUILTINS.items()
                   if b.facts.reads & Reads.BOARD and n not in reads_turn}
    assert reads_turn == {"mover", "opponent", "others", "last", "round", "starter", "turn",
                          "repeated", "moved", "repeated_board"}
    assert reads_board == {"occupied", "empty", "top", "pieces", "owner", "site", "group",
                           "mismatched", "cached"}  # reach: what its functions read
    assert reads_turn | reads_board <= set(BUILTINS) and not reads_turn & reads_board
