"""Incremental site queries: which predicates qualify, their dependency tables, and that the
maintained set always equals a full recomputation."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.fast.incremental import analyse, dependents, local_reads
from rulelang.language import ast

RULES = Path(__file__).parent / "rules"


def quant(program: object, name: str) -> ast.Quant:
    body = program.defs[name].body  # type: ignore[attr-defined]
    assert isinstance(body, ast.Quant)
    return body


def test_local_predicate_reads_the_subject_and_its_relations() -> None:
    game = rulelang.load_game(RULES / "line.rule")
    program = game.runtime.program
    q = quant(program, "open_sites")
    assert local_reads(program, q.cond, q.var) == {(), ("beside",)}


def test_a_predicate_that_reads_the_mover_is_kept_per_mover() -> None:
    program = rulelang.load_game(RULES / "line.rule").runtime.program
    q = quant(program, "mine")
    assert analyse(program, q.cond, q.var) == ({()}, True)


def test_a_predicate_that_reads_the_last_action_is_not_local() -> None:
    program = rulelang.load_game(RULES / "line.rule").runtime.program
    q = quant(program, "beside_last")
    assert local_reads(program, q.cond, q.var) is None


def test_dependents_are_the_site_and_the_sites_that_reach_it() -> None:
    board = rulelang.load_game(RULES / "line.rule").runtime.board
    deps = dependents(board, {(), ("beside",)})
    assert [s.name for s in deps[0]] == ["s0", "s1"]
    assert [s.name for s in deps[3]] == ["s2", "s3", "s4"]
    assert [s.name for s in dependents(board, {()})[3]] == ["s3"]


@pytest.mark.parametrize("seed", range(20))
def test_maintained_set_equals_recomputation(seed: int) -> None:
    """Along random games (puts, attribute changes, removals) the compiled, incremental
    `open_sites` equals the interpreter's full evaluation, on the state and on clones."""
    compiled = rulelang.load_game(RULES / "line.rule", mode="closures")
    interpreted = rulelang.load_game(RULES / "line.rule", mode="interpreted")
    a, b = compiled.new_initial_state(seed), interpreted.new_initial_state(seed)
    rng = random.Random(seed)
    while not a.is_terminal():
        names = [a.action_to_string(x) for x in a.legal_actions()]
        assert names == [b.action_to_string(x) for x in b.legal_actions()]
        pick = rng.choice(names)
        if rng.random() < 0.3:
            a = a.clone()
        a.apply_action(pick)
        b.apply_action(pick)
    assert a.history() == b.history()


ROW = """
geometry row(n)
  sites (i) for i in 0..n-1
  name "s" + str(i)
  relation right (i) -> (i + 1)
"""
BANDS = ROW + """
game "Bands"
players A, B
board row(6)
piece stone
zone supply each player: 9 stone

action place
  let band = turn % 3
  choose site s in sites where empty(s) and s.i % 3 == band
  put stone of mover at s

turn
  do place

end
  when turn > 6
    draw
"""


def test_a_choose_kept_per_player_lists_its_sites_for_other_values(tmp_path: Path) -> None:
    """`choose site s in sites where … == band`, band a number: the kept query keeps its sites
    per player only, so for a number the choose lists them as it would without it (it gave
    the query's 'not kept' marker as its values, a traceback)."""
    book = tmp_path / "bands.rule"
    book.write_text(BANDS)
    games = [rulelang.load_game(book, mode=m).new_initial_state(0)
             for m in ("closures", "interpreted")]
    while not games[0].is_terminal():
        menus = [[g.action_to_string(a) for a in g.legal_actions()] for g in games]
        assert menus[0] == menus[1] and menus[0]
        band = games[0].ctx.data.turn % 3
        assert all(int(m.split()[-1][1:]) % 3 == band for m in menus[0])
        for g in games:
            g.apply_action(menus[0][-1])
    assert games[1].is_terminal() and games[0].history() == games[1].history()


STATIC = BANDS.replace("""action place
  let band = turn % 3
  choose site s in sites where empty(s) and s.i % 3 == band""",
                        """def band(b) = each s in sites where s.i % 3 == b
def named(x) = each s in sites where str(x) == "1"
score named_sites(p) = size(named(1 if turn % 2 == 0 else true))

action place
  choose site s in band(turn % 3) where empty(s)""")


def test_a_query_that_reads_no_position_is_kept_for_the_game(tmp_path: Path) -> None:
    """`each s in sites where s.i % 3 == b` reads the sites' coordinates and b only: the
    compiled game keeps its sites once per value of b (the same tuple in every state), by
    the value's type too (`named(1)` is every site, `named(true)` none, asked at one place),
    and plays as the interpreter does."""
    book = tmp_path / "static.rule"
    book.write_text(STATIC)
    games = [rulelang.load_game(book, mode=m).new_initial_state(0)
             for m in ("closures", "interpreted")]
    runtime = rulelang.load_game(book, mode="closures").runtime
    query = runtime.fn(runtime.program.defs["band"].body)
    seen = []
    while not games[0].is_terminal():
        menus = [[g.action_to_string(a) for a in g.legal_actions()] for g in games]
        assert menus[0] == menus[1] and menus[0]
        named = 6.0 if games[0].ctx.data.turn % 2 == 0 else 0.0
        assert [g.scores() for g in games] == [[named, named]] * 2
        seen.append(query(games[0].ctx, {"b": 1}))
        for g in games:
            g.apply_action(menus[0][0])
    assert games[0].history() == games[1].history()
    assert [s.name for s in seen[0]] == ["s1", "s4"] and all(x is seen[0] for x in seen)
    # a kept value costs the steps of the loop, as the interpreter counts them
    reference = rulelang.load_game(book, mode="interpreted").runtime
    steps = []
    for rt, state in ((runtime, games[0]), (runtime, games[0]), (reference, games[1])):
        before = state.ctx.steps
        rt.fn(rt.program.defs["band"].body)(state.ctx, {"b": 2})
        steps.append(state.ctx.steps - before)
    assert steps[0] == steps[1] == steps[2] == 6  # (a step per site)


SLIDE = ROW + """
game "Slide"
players A, B
board row(7)
piece stone
zone supply each player: 9 stone

def open = each s in sites where empty(s)

action place
  choose site s in sites where empty(s) and s.i >= 0
  put stone of mover at s

# a stone lifted and put on an empty site: `open` is asked only in the ways tried
action slide
  choose site src in sites where owner(src) == mover
  let b = top(src)
  remove b
  choose site dest in open where dest != src
  put b at dest

turn
  do place or slide

end
  when turn > 12
    draw
"""


def test_a_way_tried_brings_the_kept_query_of_its_state_up_to_date(tmp_path: Path) -> None:
    """A kept query asked only on scratch copies (the ways of `slide` tried, each after its
    `remove`) is brought up to date on the state the copies are made from, the first way
    tried doing it for the others (GameData.parent); the menus are the reference's."""
    book = tmp_path / "slide.rule"
    book.write_text(SLIDE)
    compiled = rulelang.load_game(book, mode="closures")
    games = [compiled.new_initial_state(0),
             rulelang.load_game(book, mode="interpreted").new_initial_state(0)]
    query = compiled.runtime.program.defs["open"].body
    rng, caught_up = random.Random(3), 0
    while not games[0].is_terminal():
        menus = [[g.action_to_string(a) for a in g.legal_actions()] for g in games]
        assert menus[0] == menus[1]
        data = games[0].ctx.data
        entry = data.cache.get(query)
        if any(m.startswith("slide") for m in menus[0]) and entry is not None:
            assert entry[1] == len(data.changes)  # (up to date here, not only in the copies)
            assert entry[2] == tuple(s for s in compiled.runtime.board.sites
                                     if not data.at[s.index])
            caught_up += 1
        pick = rng.choice(menus[0])
        for g in games:
            g.apply_action(pick)
    assert caught_up >= 4
    assert games[0].history() == games[1].history()
