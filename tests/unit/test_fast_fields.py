"""The compiled mode's field reads and text switches (rulelang/fast/fields.py): the fast paths
are taken for the shapes they are for, and give what the reference gives, with the same steps
and the same errors."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from scenario_tools import load_text

from rulelang.errors import RuleRuntimeError
from rulelang.language import ast
from rulelang.library.semantics import Ctx
from rulelang.model.values import Piece, Record

RULEBOOK = """use square
game "Fields"
players A, B
board square.grid(2, 2, 2)
piece card with name = "", points = 0
zone deck: 2 card
enum tree: oak, pine, elm, ash
def worth(oak, n) = 3 * n
def worth(pine, n) = n
def worth(elm, n) = n - 1
def worth(other, n) = 0
def two(oak, n) = 1
def two(other, n) = 2
def name_of(x) = x.name
def points_of(x) = x.points
def cards_of(r) = r.cards
def deep(r) = r.card.points
def label_of(r) = r.card.label
def twice(t) = worth(t, 1) + worth(t, 2)
def made(a) = (name: a, points: 2)
def with_n(x) = n + x
def with_v(x) = v + x
def deck_of(x) = deck
def near(s) = square.orthogonal(s)
def near_first(xs) = square.orthogonal(first(xs))
def made3(a) = (name: a, points: 2, card: [a])
def made4(a) = (name: a, points: 2, card: [a], final: false)
counter n = 0
var v = 3
action pass_turn
  increase n by 1
turn
  do pass_turn
end
  when true
    draw
"""


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = Path(tmp_path_factory.mktemp("fields"))
    return {mode: load_text(folder, RULEBOOK, mode=mode)
            for mode in ("interpreted", "closures")}


def body(game: Any, name: str) -> tuple[ast.Expr, tuple[str, ...]]:
    d = game.runtime.program.defs[name]
    return d.body, tuple(d.params)


def run(game: Any, name: str, args: tuple[Any, ...]) -> tuple[str, Any, int]:
    """(outcome, value or message, steps) of a rule's body on args, in the game's mode."""
    node, params = body(game, name)
    state = game.new_initial_state()
    c = Ctx(game.runtime, state.data)
    fn = game.runtime.fn(node)
    try:
        value = fn(c, dict(zip(params, args, strict=True)))
    except RuleRuntimeError as err:
        return "error", str(err), c.steps
    return "value", value, c.steps


def compiled_name(games: dict[str, Any], rule: str) -> str:
    node, _ = body(games["closures"], rule)
    return str(games["closures"].runtime.fn(node).__name__)


def same(games: dict[str, Any], rule: str, *args: Any) -> tuple[str, Any, int]:
    found = {mode: run(g, rule, args) for mode, g in games.items()}
    assert found["closures"] == found["interpreted"], found
    return found["closures"]


def test_a_rule_written_as_clauses_is_one_switch(games: dict[str, Any]) -> None:
    assert compiled_name(games, "worth") == "switch"
    assert compiled_name(games, "two") != "switch"  # one symbol: the plain conditional


@pytest.mark.parametrize("subject", ["oak", "pine", "elm", "ash", "maple", 3, None])
def test_the_switch_gives_the_reference_value(games: dict[str, Any], subject: Any) -> None:
    outcome, value, _ = same(games, "worth", subject, 5)
    expected = {"oak": 15, "pine": 5, "elm": 4}.get(subject, 0)
    assert (outcome, value) == ("value", expected)


@pytest.mark.parametrize("subject", ["oak", "ash", 3])
def test_an_inlined_switch_counts_the_calls_steps(games: dict[str, Any], subject: Any) -> None:
    outcome, value, steps = same(games, "twice", subject)
    assert steps >= 2  # (the two calls: the same count in both modes, `same` says)


def test_field_reads_take_their_fast_closures(games: dict[str, Any]) -> None:
    assert compiled_name(games, "name_of") == "local_piece_attribute"  # also a piece attribute
    assert compiled_name(games, "cards_of") == "local_field"
    assert compiled_name(games, "deep") == "piece_attribute"
    assert compiled_name(games, "label_of") == "field"


def test_record_fields_read_as_the_reference_reads_them(games: dict[str, Any]) -> None:
    first = Record(("name", "points"), ("ember", 3))
    other_order = Record(("points", "name"), (4, "frost"))  # the kept place is not reused
    for r in (first, first, other_order, first, Record(("name",), ("x",))):
        assert same(games, "name_of", r)[:2] == ("value", r.get("name"))
    assert same(games, "points_of", other_order)[:2] == ("value", 4)
    assert same(games, "points_of", first)[:2] == ("value", 3)
    role = Record(("cards", "final"), ((1, 2), False))
    assert same(games, "cards_of", role)[:2] == ("value", (1, 2))
    use = Record(("name", "card"), ("oak", Record(("points",), (7,))))
    assert same(games, "deep", use)[:2] == ("value", 7)
    labelled = Record(("card",), (Record(("label", "points"), ("l", 1)),))
    for r in (labelled, Record(("card",), (Record(("points", "label"), (1, "m")),)), labelled):
        assert same(games, "label_of", r)[:2] == ("value", r.get("card").get("label"))


def test_a_missing_field_is_the_same_error(games: dict[str, Any]) -> None:
    assert same(games, "name_of", Record(("points",), (1,)))[0] == "error"
    assert same(games, "cards_of", Record(("name", "points"), ("a", 1)))[0] == "error"
    assert same(games, "deep", Record(("card",), (5,)))[0] == "error"
    assert same(games, "cards_of", 3)[0] == "error"
    assert same(games, "label_of", Record(("card",), (Record(("points",), (1,)),)))[0] == "error"


def test_a_piece_attribute_still_reads_the_piece(games: dict[str, Any]) -> None:
    for g in games.values():
        state = g.new_initial_state()
        assert state.data.attrs["name"], "the deck's cards have attribute columns"
    assert same(games, "points_of", Piece(0, "card"))[:2] == ("value", 0)
    made = same(games, "made", "x")[1]
    assert same(games, "name_of", made)[:2] == ("value", "x")


@pytest.mark.parametrize(("rule", "fields"), [("made", ("name", "points")),
                                               ("made3", ("name", "points", "card")),
                                               ("made4", ("name", "points", "card", "final"))])
def test_records_made_are_the_references(games: dict[str, Any], rule: str,
                                         fields: tuple[str, ...]) -> None:
    assert compiled_name(games, rule) in ("pair", "triple", "record")
    outcome, value, _ = same(games, rule, "x")
    assert type(value) is Record and value.fields == fields and value.get("name") == "x"
    assert hash(value) == hash(run(games["interpreted"], rule, ("x",))[1])


def test_a_relation_call_finds_the_site_or_says_what_is_wrong(games: dict[str, Any]) -> None:
    assert compiled_name(games, "near") == "related"
    assert compiled_name(games, "near_first") == "related_value"

    def both(rule: str, make: Any) -> tuple[str, Any, int]:
        """The rule run in both modes on make(the mode's board sites), the sites by name."""
        found = {}
        for mode, g in games.items():
            outcome, value, steps = run(g, rule, (make(g.runtime.board.sites),))
            found[mode] = (outcome, [getattr(x, "name", x) for x in value]
                           if outcome == "value" else value, steps)
        assert found["closures"] == found["interpreted"], found
        return found["closures"]

    for i in range(4):
        outcome, names, _ = both("near", lambda sites, i=i: sites[i])
        assert outcome == "value" and names
        assert both("near_first", lambda sites, i=i: (sites[i],)) == (outcome, names, 0)
    # not the board's own site object: found by the general call
    assert both("near", lambda sites: copy.copy(sites[1])) == both("near", lambda sites: sites[1])
    for wrong in (games["closures"].runtime.players[0], 3, "a1", (1, 2)):
        assert both("near", lambda sites, w=wrong: w)[0] == "error"
        assert both("near_first", lambda sites, w=wrong: (w,))[0] == "error"
    assert both("near", lambda sites: [sites[0]])[0] == "error"  # (unhashable)


def test_a_counter_var_or_zone_of_the_game_is_read_straight(games: dict[str, Any]) -> None:
    for rule, left in (("with_n", "counter_value"), ("with_v", "var_value")):
        node, _ = body(games["closures"], rule)
        assert isinstance(node, ast.BinOp)
        assert games["closures"].runtime.fn(node.left).__name__ == left
        assert same(games, rule, 2)[:2] == ("value", {"with_n": 2, "with_v": 5}[rule])
    node, _ = body(games["closures"], "deck_of")
    zone = games["closures"].runtime.fn(node)
    assert getattr(zone, "const", None) is not None  # made once, for the game
    assert str(same(games, "deck_of", 0)[1]) == str(run(games["interpreted"], "deck_of", (0,))[1])
