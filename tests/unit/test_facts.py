"""The facts each builtin declares in the registry (what it reads, whether it is pure, cheap,
calls functions), and what the one analysis derives from them for rules and expressions."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang.language import ast
from rulelang.language.analysis import KEPT_BY_CACHED, KEPT_BY_MEMO, Analysis, fixed
from rulelang.language.program import Category, Program
from rulelang.library import BUILTINS, PURE, UNKNOWN, Reads, builtin, facts_of


# ---- the facts of builtins -------------------------------------------------------------------
def test_every_builtin_declares_its_facts() -> None:
    undeclared = sorted(name for name, b in BUILTINS.items() if b.facts is UNKNOWN)
    assert undeclared == []


@pytest.fixture
def scratch_builtin() -> Iterator[str]:
    yield "scratch_builtin"
    BUILTINS.pop("scratch_builtin", None)


def test_a_builtin_without_facts_is_taken_to_read_everything(scratch_builtin: str) -> None:
    @builtin(1)
    def scratch_builtin(c: object, x: object) -> object:
        return x

    facts = facts_of("scratch_builtin")
    assert facts is UNKNOWN and facts.reads == Reads.EVERYTHING and facts.decides
    assert not facts.pure and not facts.cheap and facts.chance
    assert facts_of("no such builtin") is UNKNOWN


def test_the_facts_of_some_builtins() -> None:
    assert facts_of("mover").reads == Reads.MOVER and facts_of("mover").cheap
    assert facts_of("turn").reads == Reads.TURN and facts_of("turn").cheap
    assert facts_of("sites").reads == Reads.GAME
    occupied = facts_of("occupied")
    assert occupied.reads == Reads.BOARD and occupied.at_site and not occupied.pure
    assert Reads.PIECES in facts_of("owner").reads and facts_of("owner").at_site
    assert not facts_of("site").at_site  # where a piece is: any site
    for name in ("abs", "max", "str", "kind", "occurrences", "best_matching"):
        assert facts_of(name) is PURE and facts_of(name).pure, name
    assert facts_of("attr_at").reads & Reads.GIVEN_SITES
    assert facts_of("memo").calls == (0,) and facts_of("cached").calls == (1,)
    assert facts_of("reach").calls == (3, 4) and not facts_of("reach").pure
    assert Reads.HISTORY in facts_of("repeated").reads
    assert not any(b.facts.chance or b.facts.decides for b in BUILTINS.values())


def test_categories_say_what_naming_them_reads() -> None:
    assert Category("zone").reads == Reads.ZONES and Category.COUNTER.reads == Reads.COUNTERS
    assert Category.LOCAL.reads == Reads.NOTHING and Category.DEF.reads is None
    assert all(fixed(c) for c in ("relation", "region", "lines", "player", "option", "kind",
                                  "enum", "symbol", "table"))
    assert not any(fixed(c) for c in ("local", "zone", "counter", "var", "def", "builtin",
                                      "zones"))
    assert not fixed("no such category")
    not_callable = {c.value for c in Category if not c.callable}
    assert not_callable == {"option", "player", "zone", "counter", "var", "kind", "region",
                            "lines", "local", "enum", "symbol", "table", "zones"}
    assert ("local", "x") == (Category.LOCAL, "x")  # refs stay pairs of strings


# ---- what rules read -------------------------------------------------------------------------
GAME = """\
use square
game "Facts"
players White, Black
board square.grid(3, 3, 3)
piece stone with weight = 1
counter bonus each player = 0
zone bag: 2 stone
zone supply each player: 5 stone

def whose = mover
def whose_too(x) = x + (1 if whose == White else 0)
def arithmetic(x, y) = 2 * x + abs(y - 1)
def calls_arithmetic(x) = arithmetic(x, x) + plain_count(x)
def plain_count(x) = count i in 0..x where i > 1
def heavy(p) = p.weight + bonus of p
def stones_left = size(bag)
def ping(x) = 0 if x == 0 else pong(x - 1)
def pong(x) = ping(x) + (1 if occupied(sites[x]) else 0)
def step(s) = 1
def walk(s) = reach(s, square.orthogonal, 2, step)
def walk_with(s, f) = reach(s, square.orthogonal, 2, f)
def looks(tiles) = attr_at(tiles, "stone", "weight")
def mine(s) = owner(s) == mover
def lone(s) = empty(s) and (all t in square.orthogonal(s): empty(t))

action place
  choose site s in sites where empty(s)
  put stone of mover at s

turn
  do place

end
  when turn >= 9
    draw
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Program:
    path: Path = tmp_path_factory.mktemp("facts") / "facts.rule"
    path.write_text(GAME)
    return rulelang.load_game(path).runtime.program


def test_a_rule_reading_the_mover_reads_the_turn(program: Program) -> None:
    a = Analysis(program)
    assert a.rule_reads("whose") == Reads.MOVER
    assert Reads.MOVER in a.rule_reads("whose_too")  # through the rule it calls
    assert not a.pure("whose_too")


def test_a_rule_of_arithmetic_is_pure(program: Program) -> None:
    a = Analysis(program)
    assert a.pure("arithmetic") and a.pure("calls_arithmetic") and a.pure("plain_count")
    assert a.pure("step")
    assert a.rule_reads("walk") == Reads.GAME  # reach with a pure step: the board's sites


def test_counters_zones_and_pieces(program: Program) -> None:
    a = Analysis(program)
    assert a.rule_reads("heavy") == Reads.COUNTERS  # a piece's attribute: its argument
    assert a.rule_reads("stones_left") == Reads.ZONES
    assert Reads.GIVEN_SITES in a.rule_reads("looks")
    assert a.first_read("looks", KEPT_BY_MEMO) is None  # memo trusts it is given pieces


def test_mutually_recursive_rules_read_what_either_reads(program: Program) -> None:
    for first in ("ping", "pong"):  # whichever is asked first
        a = Analysis(program)
        a.rule_reads(first)
        assert Reads.BOARD in a.rule_reads("ping") and Reads.BOARD in a.rule_reads("pong")
        found = a.first_read("ping", KEPT_BY_MEMO)
        assert found is not None and found.what == "'occupied'"
        assert a.first_read("ping", KEPT_BY_CACHED) is None


def test_a_function_given_as_a_parameter_may_read_anything(program: Program) -> None:
    a = Analysis(program)
    assert a.rule_reads("walk_with") == Reads.EVERYTHING
    found = a.first_read("walk_with", KEPT_BY_CACHED)
    assert found is not None and found.what == "the function 'f' given to 'reach'"


def test_the_first_read_refused_names_what_and_where(program: Program) -> None:
    a = Analysis(program)
    found = a.first_read("whose_too", KEPT_BY_MEMO)
    assert found is not None and found.what == "'mover'" and found.reads == Reads.MOVER
    assert found.span.line == GAME.splitlines().index("def whose = mover") + 1
    heavy = a.first_read("heavy", KEPT_BY_MEMO)
    assert heavy is not None and heavy.what == "the counter 'bonus'"


def test_an_expression_reads_what_its_rules_read(program: Program) -> None:
    a = Analysis(program)
    body = program.defs["calls_arithmetic"].body
    assert isinstance(body, ast.Expr) and a.expr_reads(body) == Reads.NOTHING
    whose_too = program.defs["whose_too"].body
    assert isinstance(whose_too, ast.Expr)
    assert a.expr_reads(whose_too) == Reads.MOVER | Reads.GAME  # White: a player of the game


# ---- pictures remembered per piece -------------------------------------------------------------
@pytest.mark.parametrize("picture, remembered", [
    ('"pawn of " + str(owner(p))', True),
    ("str(p.weight) + str(max(1, 2))", True),
    ("str(owner(sites[0]))", False),      # the board at a site
    ("str(occupied(site(p)))", False),
    ("str(bonus of owner(p))", False),     # a counter
    ("str(count q in pieces(bag) where q == p)", False),
])
def test_a_picture_reading_only_its_piece_is_remembered(tmp_path: Path, picture: str,
                                                        remembered: bool) -> None:
    path = tmp_path / "pictures.rule"
    path.write_text(GAME.replace("action place", f"picture stone(p) = {picture}\n\naction place"))
    program = rulelang.load_game(path).runtime.program
    decl = program.pictures["stone"]
    assert Analysis(program).reads_only_its_piece(decl.expr, decl.param) is remembered
