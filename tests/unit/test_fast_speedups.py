"""The fast evaluator's speed-ups (tests/unit/test_fast_speedups.py): each new fast path is
taken where it applies, and gives what the reference evaluator gives — the value, the steps
charged to the budget, and the error (message and position) when a value is of the wrong
kind."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.fast import compiler as fast_compiler

_BOOK = """game "Speed-ups"
players A, B
use square
use lines
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
var out = none
def hidden(x) = x  # x, of a type the checker does not know
def at(r, c) = first s in sites where s.r == r and s.c == c
setup
  for each s in each s in sites where (s.r, s.c) in [{a}]
    put stone of A at s
  for each s in each s in sites where (s.r, s.c) in [{b}]
    put stone of B at s
  set out = {expr}
action go
  require true
turn
  do go
end
  when turn >= 1
    draw
"""


def outcome(tmp_path: Path, mode: str, expr: str, book: str = _BOOK,
            shown: Any = None, **where: str) -> Any:
    """(value of out, steps of the setup) in one mode, or (error message, line, col); the
    value as `shown` writes it (default: sites by their names)."""
    path = tmp_path / f"{mode}.rule"
    path.write_text(book.format(expr=expr, **{"a": "", "b": "", **where}))
    try:
        state = rulelang.load_game(path, mode=mode).new_initial_state()
    except rulelang.RuleRuntimeError as err:
        span = err.diagnostic.span
        return ("error", str(err), span.line, span.column)
    value = state.ctx.data.vars[("out", None)]
    return (shown or sites_named)(value), state.ctx.steps


def sites_named(value: Any) -> Any:
    """Sites by their names (each game has sites of its own)."""
    if type(value).__name__ == "Site":
        return value.name
    if type(value) is tuple:
        return tuple(sites_named(v) for v in value)
    return value


def both(tmp_path: Path, expr: str, book: str = _BOOK, shown: Any = None,
         **where: str) -> Any:
    """The outcome in both modes, which must agree; the steps are those of expr alone (the
    evaluators charge the setup around it differently)."""
    found = []
    for mode in ("interpreted", "closures"):
        got = outcome(tmp_path, mode, expr, book, shown, **where)
        if got[0] != "error":
            got = (got[0], got[1] - outcome(tmp_path, mode, "none", book, shown, **where)[1])
        found.append(got)
    assert found[1] == found[0]
    return found[1]


def spied(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[Any]:
    """The closures module.name (a maker of fast paths) makes from now on (None: declined,
    not listed)."""
    made: list[Any] = []
    original = getattr(module, name)

    def spy(*args: Any) -> Any:
        f = original(*args)
        if f is not None:
            made.append(f)
        return f
    monkeypatch.setattr(module, name, spy)
    return made


@pytest.fixture
def fused(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The closures nested.fuse_owner_lines made while a rulebook was compiled."""
    return spied(monkeypatch, fast_compiler, "fuse_owner_lines")


ROW = "(0, 0), (0, 1), (0, 2)"


@pytest.mark.parametrize("expr, a, b, expected", [
    ("lines.full_line(square.in_a_row, A)", ROW, "", True),
    ("lines.full_line(square.in_a_row, B)", ROW, "(1, 1)", False),
    ("lines.full_line(square.in_a_row, A)", "(0, 0), (1, 1)", "(2, 2)", False),
    ("lines.full_line_through(square.in_a_row, at(0, 0), mover)", "(0, 0), (1, 0), (2, 0)", "",
     True),
    ("lines.full_line_through(square.in_a_row, at(1, 1), opponent)", ROW, "", False),
    ("all l in through(square.in_a_row, at(1, 1)): all x in l: owner(x) == none", "", "", True),
    ("all l in through(square.in_a_row, at(1, 1)): any x in l: owner(x) == A", ROW, "", False),
    ("any l in square.in_a_row: any x in l: owner(x) == B", ROW, "(2, 1)", True),
])
def test_full_lines_are_one_fused_loop_equal_to_the_reference(
        tmp_path: Path, fused: list[Any], expr: str, a: str, b: str, expected: bool) -> None:
    value, steps = both(tmp_path, expr, a=a, b=b)
    assert value is expected and steps > 0
    assert fused  # the fast path was taken


@pytest.mark.parametrize("expr", [
    "any l in hidden([[1, 2]]): all x in l: owner(x) == A",  # not sites: the owner loop says so
    "any l in hidden([1]): all x in l: owner(x) == A",  # a line that is no collection
])
def test_wrong_values_in_full_lines_fail_as_in_the_reference(tmp_path: Path,
                                                             expr: str) -> None:
    found = both(tmp_path, expr)
    assert found[0] == "error"


# ---- a builtin of one site (owner, top, empty, occupied) given an inlined rule's parameter
# that is a plain local reads that local directly (calls._plain_local, loops.INLINE_LOCAL)
_RULES = """
def mine(x) = owner(x) == A
def topmost(x) = top(x)
def free(x) = empty(x)
def taken(x) = occupied(x)
def row_of(x) = x.r
def kind_of(x) = kind(x)
def on(x) = pieces(x)
"""


def rules_outcome(tmp_path: Path, expr: str) -> Any:
    book = _BOOK.replace('def hidden(x) = x', _RULES + 'def hidden(x) = x')
    return both(tmp_path, expr, book, a=ROW, b="(1, 1)")


@pytest.fixture
def local_reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The builtins compiled to read a local directly while a rulebook was compiled."""
    from rulelang.fast import loops
    made: list[str] = []
    for key, make in list(loops.INLINE_LOCAL.items()):
        def spy(name: str, slow: Any, key: str = key, make: Any = make) -> Any:
            made.append(key)
            return make(name, slow)
        monkeypatch.setitem(loops.INLINE_LOCAL, key, spy)
    return made


@pytest.mark.parametrize("expr, builtin, expected", [
    ("count s in hidden(sites) where mine(s)", "owner", 3),
    ("[s for s in sites where topmost(s) != none]", "top", ("a1", "b1", "c1", "b2")),
    ("count s in hidden(sites) where free(s)", "empty", 5),
    ("count s in hidden(sites) where taken(s)", "occupied", 4),
    ("count s in hidden(sites) where size(on(s)) > 0", "pieces", 4),
    ("[kind_of(x) for s in sites, x in pieces(s)]", "kind", ("stone",) * 4),
])
def test_a_builtin_of_an_inlined_parameter_reads_the_local(
        tmp_path: Path, local_reads: list[str], expr: str, builtin: str, expected: Any) -> None:
    assert rules_outcome(tmp_path, expr) == (expected, rules_outcome(tmp_path, expr)[1])
    assert builtin in local_reads


@pytest.mark.parametrize("expr", [
    "mine(hidden(3))", "topmost(hidden(3))", "free(hidden([1]))", "row_of(hidden(3))",
    "first x in hidden([A]): x.r", "kind_of(hidden(3))", "kind_of(hidden(at(0, 0)))",
    "on(hidden(3))", "kind(hidden(A))", "pieces(hidden(3))",
])
def test_a_builtin_of_a_parameter_that_is_no_site_fails_as_in_the_reference(
        tmp_path: Path, expr: str) -> None:
    assert rules_outcome(tmp_path, expr)[0] == "error"


@pytest.mark.parametrize("expr, expected", [
    ("kind(top(at(0, 0)))", "stone"),
    ("size(pieces(supply of A)) + size(pieces(at(1, 1)))", 7),
    ("[kind(x) for x in pieces(supply of B)]", ("stone",) * 8),
])
def test_kind_and_pieces_written_in_place_give_the_reference_values(
        tmp_path: Path, expr: str, expected: Any) -> None:
    """kind(x) of a piece and pieces(s) of a site or a zone without the builtin's call
    (loops.INLINE): the same values and steps as the reference."""
    assert rules_outcome(tmp_path, expr)[0] == expected


def test_a_coordinate_of_a_local_site_reads_it_directly(tmp_path: Path) -> None:
    expr = "[row_of(s) + s.c for s in sites where s.r == 1]"
    assert rules_outcome(tmp_path, expr)[0] == (1, 2, 3)
    path = tmp_path / "probe.rule"
    path.write_text(_BOOK.format(expr="none", a="", b="").replace(
        'def hidden(x) = x', 'def probe(s) = s.r\ndef hidden(x) = x'))
    runtime = rulelang.load_game(path, mode="closures").runtime
    closure = runtime.fn(runtime.program.defs["probe"].body)
    assert closure.__name__ == "local_coordinate"


# ---- menus: a put's piece checked by one closure (executor.put_possible_fn); one-`do`
# turns applied without the general turn's calls (flow.apply, State.apply_action)
_MENU = """game "Menus"
players A, B
use square
board square.grid(2, 2, 2)
piece stone
piece flag
zone supply each player: {stones}
def hidden(x) = x
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action plant
  put flag of mover at {target}
action wait
  require true
turn
  do place or plant or wait
end
  when size(each s in sites where occupied(s)) == 4
    draw
"""


def menus(tmp_path: Path, stones: str, target: str = "first s in sites where empty(s)"
          ) -> list[Any]:
    """Per mode: the labels of every decision of the first-option playthrough (or the
    error met: message and position, and whether it names its source)."""
    found = []
    for mode in ("interpreted", "closures"):
        path = tmp_path / f"menu_{mode}.rule"
        path.write_text(_MENU.format(stones=stones, target=target))
        state = rulelang.load_game(path, mode=mode).new_initial_state()
        seen: list[Any] = []
        try:
            while not state.is_terminal() and len(seen) < 12:
                labels = [state.action_to_string(a) for a in state.legal_actions()]
                seen.append(labels)
                state.apply_action(0 if len(seen) % 2 else len(labels) - 1)
        except rulelang.RuleRuntimeError as err:
            span = err.diagnostic.span
            seen.append(("error", str(err), span.line, span.column, bool(err.sources)))
        seen.append(state.returns() if state.is_terminal() else None)
        found.append(seen)
    assert found[1] == found[0]
    return found[1]


@pytest.mark.parametrize("stones, includes, excludes", [
    ("3 stone, 1 flag", "place", None),  # a flag under the stones: plant still possible
    ("1 flag, 3 stone", "plant", None),
    ("2 stone", "place", "plant"),  # no flag: plant is never offered
    ("0 stone", "wait", "place"),
])
def test_a_put_that_cannot_take_its_piece_is_left_out_as_in_the_reference(
        tmp_path: Path, stones: str, includes: str, excludes: str | None) -> None:
    found = menus(tmp_path, stones)
    first = found[0]
    assert any(label.startswith(includes) for label in first)
    if excludes is not None:
        assert not any(label.startswith(excludes) for label in first)


def test_an_error_in_an_applied_action_is_positioned_as_in_the_reference(
        tmp_path: Path) -> None:
    found = menus(tmp_path, "1 flag, 3 stone", target="hidden(3)")
    error = next(x for x in found if isinstance(x, tuple))
    assert error[0] == "error" and error[2] == 13 and error[4]  # the put's line, with sources


# ---- loops over pieces reading one attribute: the column read directly (columns.py)
_CARDS = """game "Columns"
players A, B
use square
board square.grid(2, 2, 2)
piece card with name = "", points = 0, tags = ()
zone hand: 4 card
var out = none
def hidden(x) = x
def cards = each c in hand: c
def rows = [(name: "ash", points: 1), (name: "elm", points: 2), (name: "ash", points: 4)]
def named(u, n) = count x in u where x.name == n
def tagged(u, t) = each x in u where x.tags == t
setup
  for each c in cards
    set c.name = "ash" if c == cards[0] or c == cards[2] else "elm" if c == cards[1] else ""
    set c.points = 3 if c == cards[2] else 0
    set c.tags = (1, 2) if c == cards[3] else ()
  set out = {expr}
action go
  require true
turn
  do go
end
  when turn >= 1
    draw
"""


def plain(value: Any) -> Any:
    """Pieces by their ids (each game has pieces of its own)."""
    if type(value).__name__ == "Piece":
        return ("piece", value.id)
    if type(value) is tuple:
        return tuple(plain(v) for v in value)
    return value


def cards(tmp_path: Path, expr: str) -> Any:
    return both(tmp_path, expr, _CARDS, plain)


@pytest.fixture
def columns(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The column loops made while a rulebook was compiled."""
    from rulelang.fast import loops
    made: list[str] = []
    for name in ("values_over", "filter_over", "test_over"):
        original = getattr(loops, name)

        def spy(*args: Any, name: str = name, make: Any = original, **kw: Any) -> Any:
            f = make(*args, **kw)
            if f is not None:
                made.append(name)
            return f
        monkeypatch.setattr(loops, name, spy)
    return made


@pytest.mark.parametrize("expr, loop, expected", [
    ("each x in cards: x.name", "values_over", ("ash", "elm", "ash", "")),
    ("sum x in cards: x.points", "values_over", 3),
    ("max x in rows: x.points", "values_over", 4),
    ("named(cards, \"ash\")", "filter_over", 2),
    ("named(rows, \"ash\")", "filter_over", 2),
    ("count x in cards where x.name != \"ash\"", "filter_over", 2),
    ("tagged(cards, (1, 2))", "filter_over", None),  # tuples compared: through the closure
    ("first x in cards where x.points == 3", "filter_over", None),
    ("first x in rows where x.points == 9", "filter_over", None),
    ("any x in cards: x.name == \"elm\"", "test_over", True),
    ("all x in rows: x.name == \"ash\"", "test_over", False),
    ("all x in cards: x.points != 7", "test_over", True),
    ("any x in cards: x.points", "test_over", True),
    ("all x in rows: x.points", "test_over", True),
    ("all x in cards: x.points", "test_over", False),
])
def test_loops_over_one_attribute_read_the_column_as_the_reference_does(
        tmp_path: Path, columns: list[str], expr: str, loop: str, expected: Any) -> None:
    value, steps = cards(tmp_path, expr)
    if expected is not None:
        assert value == expected
    assert steps > 0 and loop in columns


@pytest.mark.parametrize("expr", [
    "each x in hidden([1, 2]): x.name",  # no pieces: the attribute's own error
    "count x in hidden([1]) where x.name == \"ash\"",
    "any x in hidden([(name: 1)]): x.points == 2",
])
def test_loops_over_other_values_fail_as_in_the_reference(tmp_path: Path, expr: str) -> None:
    assert cards(tmp_path, expr)[0] == "error"


# ---- any|count|first s in sites with a local test: read from the kept `each` (site_queries.
# kept_site_quant); and the board of the position keys built once per board (runtime)
_KEPT = """game "Kept"
players A, B
use square
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
var seen = none
def mine(s) = owner(s) == mover
action place
  choose site s in sites where empty(s)
  put stone of mover at s
turn
  do place
  set seen = (any s in sites: occupied(s) and s.r == 2, count s in sites where mine(s), \
    first s in sites where empty(s) and s.c == 1, repeated(2), repeated_board(2))
end
  when turn > 6
    draw
"""


def test_kept_site_quantifiers_agree_with_the_reference_move_by_move(tmp_path: Path) -> None:
    path = tmp_path / "kept.rule"
    path.write_text(_KEPT)
    runs = []
    for mode in ("interpreted", "closures"):
        state = rulelang.load_game(path, mode=mode).new_initial_state()
        seen = []
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[len(seen) * 5 % len(actions)])
            value = state.ctx.data.vars[("seen", None)]
            seen.append(tuple(getattr(v, "name", v) for v in value))
        runs.append(seen)
    assert runs[1] == runs[0]
    assert {row[0] for row in runs[0]} == {True, False}  # both answers met
    runtime = rulelang.load_game(path, mode="closures").runtime
    turn = runtime.program.sections["turn"].stmts[1]
    names = [runtime.fn(item).__qualname__ for item in turn.value.items[:3]]
    assert all("kept_site_quant" in name for name in names)


def test_the_board_of_the_position_keys_is_kept_until_the_board_changes(tmp_path: Path) -> None:
    path = tmp_path / "kept.rule"
    path.write_text(_KEPT)
    game = rulelang.load_game(path, mode="closures")
    state = game.new_initial_state()
    runtime, data = game.runtime, state.ctx.data

    def fresh() -> Any:
        return tuple(tuple((p.kind, data.owner[p.id]) for p in stack) for stack in data.at)
    first = runtime.board_of(data)
    assert first == fresh() and runtime.board_of(data) is first  # kept
    state.apply_action(4)
    data = state.ctx.data
    assert runtime.board_of(data) == fresh() != first  # the board changed: built again
    assert runtime.position_key(data, 0)[0] is runtime.board_key(data)[1]


@pytest.mark.parametrize("expr, a, b, expected", [
    ("lines.longest(square.in_a_row, A)", ROW, "", 3),
    ("[lines.longest(square.in_a_row, p) for p in players]", ROW, "(1, 0), (1, 1), (1, 2)",
     (3, 3)),
    ("[lines.full_line(square.in_a_row, p) for p in players]", ROW, "(1, 1)", (True, False)),
    ("each l in square.in_a_row where all x in l: owner(x) == none", ROW, "(1, 1)", None),
    ("max l in hidden([[1]]) where all x in l: owner(x) == A: 1", "", "", None),
])
def test_lines_of_one_player_are_one_loop_equal_to_the_reference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expr: str, a: str, b: str,
        expected: Any) -> None:
    from rulelang.fast import loops
    made = spied(monkeypatch, loops, "owner_where_over")
    found = both(tmp_path, expr, a=a, b=b)
    if expected is not None:
        assert found[0] == expected
    if "full_line" not in expr:
        assert made  # the fast path was taken


def test_a_rule_passed_to_reach_is_run_through_its_kept_body() -> None:
    """RuleFunction keeps the rule's parameters and compiled body per runtime (rule_calls);
    in the compiled mode a rule whose value at a site is local (can_stop) is kept per site
    instead (tests/unit/test_site_rules.py)."""
    walk = Path(__file__).parent / "rules" / "walk.rule"
    found = []
    for mode in ("interpreted", "closures"):
        state = rulelang.load_game(walk, mode=mode).new_initial_state(0)
        state.apply_action("run s4")
        state.apply_action("rest")
        found.append([state.action_to_string(a) for a in state.legal_actions()])
        expected = {"cost", "can_stop"} if mode == "interpreted" else {"cost"}
        assert set(state.game.runtime.rule_calls) == expected
    assert found[1] == found[0] and len(found[0]) > 1


# ---- occupancy loops over sites run in C (loops.site_loop, loops.occupancy_filter)
@pytest.mark.parametrize("expr, expected", [
    ("all s in through(square.in_a_row, at(0, 0))[0]: occupied(s)", True),
    ("all s in sites: occupied(s)", False),
    ("any s in sites: empty(s)", True),
    ("all s in through(square.in_a_row, at(0, 0))[0]: empty(s)", False),
    ("any s in through(square.in_a_row, at(2, 2))[0]: occupied(s)", False),
    ("count s in hidden(sites) where occupied(s)", 4),
    ("each s in hidden(sites) where empty(s)", ("a2", "c2", "a3", "b3", "c3")),
    ("all s in hidden([at(0, 0), 1]): occupied(s)", None),  # not a site: the general loop
    ("any s in hidden([at(1, 1), 1]): occupied(s)", True),  # decided before the 1
])
def test_occupancy_loops_in_c_agree_with_the_reference(tmp_path: Path, expr: str,
                                                       expected: Any) -> None:
    found = both(tmp_path, expr, a=ROW, b="(1, 1)")
    if expected is not None:
        assert found[0] == expected
    else:
        assert found[0] == "error"


# ---- `let g = group(s, rel)` used only as `any x in g: x in R`: no tuple made (groups.
# KeptGroup, calls._find_lazy_groups, loops.member_loop)
_GROUPS = """use connection
def joined(s) = connection.joins(s, square.orthogonal, square.bottom_row, square.top_row)
def near(s)
  let g = group(s, square.orthogonal)
  return (any x in g: x in [at(2, 0)]) and (all x in g: x not in square.right_column)
def spread(s)
  let g = group(s, square.orthogonal)
  return size(g) + (1 if any x in g: x in square.top_row else 0)
def hidden(x) = x"""


@pytest.mark.parametrize("expr, a, expected, lazy", [
    ("joined(at(0, 0))", "(0, 0), (1, 0), (2, 0)", True, True),
    ("joined(at(0, 0))", ROW, False, True),
    ("joined(at(1, 1))", ROW, False, True),  # an empty site: no group
    ("near(at(0, 0))", "(0, 0), (1, 0), (2, 0)", True, True),  # a list: the tuple made
    ("near(at(0, 0))", "(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)", False, True),
    ("spread(at(0, 0))", "(0, 0), (1, 0), (2, 0)", 4, False),  # g used otherwise
])
def test_a_group_only_tested_against_regions_makes_no_tuple(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expr: str, a: str, expected: Any,
        lazy: bool) -> None:
    from rulelang.fast import calls
    flags: list[bool] = []
    original = calls.kept_group

    def spy(rt: Any, search: Any, lazy: bool = False) -> Any:
        flags.append(lazy)
        return original(rt, search, lazy)
    monkeypatch.setattr(calls, "kept_group", spy)
    book = _BOOK.replace("def hidden(x) = x", _GROUPS)
    found = []
    for mode in ("interpreted", "closures"):
        path = tmp_path / f"groups_{mode}.rule"
        path.write_text(book.format(expr=expr, a=a, b=""))
        state = rulelang.load_game(path, mode=mode).new_initial_state()
        path.write_text(book.format(expr="none", a=a, b=""))
        none = rulelang.load_game(path, mode=mode).new_initial_state()
        found.append((state.ctx.data.vars[("out", None)], state.ctx.steps - none.ctx.steps))
    assert found[1][0] == found[0][0] == expected
    if not expr.startswith("near"):  # (at(…) in a list costs other steps in the two modes)
        assert found[1][1] == found[0][1]
    assert (True in flags) is lazy


@pytest.mark.parametrize("test, a, expected", [
    ("all x in g: x not in square.right_column", "(0, 0), (1, 0), (2, 0)", True),
    ("all x in g: x not in square.right_column", ROW, False),
    ("all x in g: x in square.left_column", "(0, 0), (1, 0), (2, 0)", True),
    ("all x in g: x in square.left_column", ROW, False),
    ("any x in g: x not in square.left_column", ROW, True),
])
def test_all_over_a_kept_group_against_a_region_is_the_reference_answer(
        tmp_path: Path, test: str, a: str, expected: bool) -> None:
    """(The bitset answer of `all x in g: x in R` / `not in R` was the `any` one before.)"""
    rule = f"def probe(s)\n  let g = group(s, square.orthogonal)\n  return {test}\n"
    book = _BOOK.replace("def hidden(x) = x", rule + "def hidden(x) = x")
    values = []
    for mode in ("interpreted", "closures"):
        path = tmp_path / f"probe_{mode}.rule"
        path.write_text(book.format(expr="probe(at(0, 0))", a=a, b=""))
        values.append(rulelang.load_game(path, mode=mode).new_initial_state().ctx.data.vars[
            ("out", None)])
    assert values[1] == values[0] == expected


@pytest.mark.parametrize("expr, expected", [
    ('any x in pieces(supply of A): kind(x) == "stone"', True),
    ("any x in pieces(supply of B): kind(x) == stone", True),
    ('all x in pieces(supply of A): kind(x) != "stone"', False),
    ('any x in pieces(at(0, 0)) + pieces(supply of B): kind(x) == "ball"', False),
    ('[any x in hidden(pieces(supply of A)): kind(x) == k for k in ["ball", "stone"]]',
     (False, True)),
])
def test_a_kind_test_over_pieces_reads_each_kind_as_the_reference(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expr: str, expected: Any) -> None:
    """`any|all x in D: kind(x) == V`: each piece's kind read in one loop (columns._kind_over),
    the same value and steps as the reference."""
    from rulelang.fast import columns
    made = spied(monkeypatch, columns, "_kind_over")
    assert both(tmp_path, expr, a=ROW)[0] == expected
    assert made


@pytest.mark.parametrize("expr", [
    'any x in hidden([1, 2]): kind(x) == "stone"',
    'all x in hidden([at(0, 0)]): kind(x) != "stone"',
])
def test_a_kind_test_over_other_values_fails_as_in_the_reference(tmp_path: Path,
                                                                 expr: str) -> None:
    assert both(tmp_path, expr)[0] == "error"
