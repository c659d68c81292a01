"""The generated mode is proven equal to the reference (rulelang/gen): seeded random games of
every rulebook the generator takes, compared after every action in everything the state
holds (bridge.canonical of its GameData: pieces, zones, last, mover, turn, result, history,
the generator's seed), the menu's strings, the player to move and the returns; clones taken
mid-game play on equally; play_out draws as apply_action(rng.choice(...)) does."""
from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import rulelang
import rulelang.gen.bits as bits
import rulelang.gen.forms as F
import rulelang.gen.helpers as H
import rulelang.gen.turns as turns
from rulelang.errors import RulelangError
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical, from_data
from rulelang.gen.pieces import target_ok
from rulelang.library.builtins import UNASKED

# a game whose groups lose pieces (captures), so the kept groups are dropped and built anew,
# and whose kept queries lose sites as well as gain them
CAPTURES = """use hexgrid
use connection
game "Captures"
players A, B
board hexgrid.rhombus(4, 4)
piece stone
zone supply each player: 40 stone
def free = each s in sites where empty(s)
def taken = each s in sites where occupied(s) and any t in hexgrid.neighbours(s): empty(t)
action place
  choose site s in free
  put stone of mover at s
action take
  choose site s in taken where owner(s) != mover and turn % 3 == 0
  remove top(s)
turn
  do take or place
end
  when last.site != none and size(group(last.site, hexgrid.neighbours)) >= 5
    winner mover
  when connection.joins(last.site, hexgrid.neighbours, hexgrid.north_edge, hexgrid.south_edge)
    winner mover
  when turn > 40
    draw
"""

# the same on a square board with lines: the owner bits lose sites too
LINES_CAPTURES = """use square
use lines
game "Line captures"
players A, B
board square.grid(5, 5, 4)
piece stone
zone supply each player: 40 stone
def free = each s in sites where empty(s)
action place
  choose site s in free
  put stone of mover at s
action take
  choose site s in sites where occupied(s) and owner(s) != mover and turn % 3 == 0
  remove top(s)
turn
  do take or place
end
  when lines.full_line_through(square.in_a_row, last.site, mover)
    winner mover
  when turn > 40
    draw
"""

TAKEN = [("tic_tac_toe", {}), ("connect_four", {}), ("hex", {"size": 5}), ("hex", {}),
         ("breakthrough", {"size": 6}), ("breakthrough", {}), ("spline", {}), ("spava", {}),
         ("sponnect", {}), ("splice", {}), ("splade", {}), ("spao", {}), ("spodd", {}),
         ("spline_plus", {}), ("spought", {}), ("spyramid", {}), ("spaiji", {}),
         ("spargo", {}), ("spaniel", {}), ("spire", {}), ("spice", {}),
         ("muso_sakura", {"players": 3}), ("muso_sakura", {"players": 4, "abilities": "by_hand"}),
         ("tatara", {}), ("tatara", {"players": 4}), ("karesansui", {}),
         ("karesansui", {"players": 3})]


def _same(gen: object, ref: object, where: str) -> None:
    assert gen.current_player() == ref.current_player(), where  # type: ignore[attr-defined]
    labels = [ref.action_to_string(a) for a in ref.legal_actions()]  # type: ignore[attr-defined]
    assert [gen.action_to_string(a) for a in gen.legal_actions()] == labels, where  # type: ignore[attr-defined]
    came = type(gen).hides  # (where the pieces came from: kept only where the game hides)
    assert canonical(gen.data, came) == canonical(ref.data, came), where  # type: ignore[attr-defined]
    assert gen.returns() == ref.returns(), where  # type: ignore[attr-defined]
    assert gen.scores() == ref.scores(), where  # type: ignore[attr-defined]
    assert gen.ended_by == getattr(ref, "ended_by", None), where  # type: ignore[attr-defined]
    # the kept structures mean what ones made anew from the board mean
    fresh = from_data(type(gen), gen.game, gen.data)  # type: ignore[attr-defined]
    assert gen._kept_now() == fresh._kept_now(), where  # type: ignore[attr-defined]


@pytest.mark.parametrize(("name", "options"), TAKEN, ids=lambda x: str(x))
def test_random_games_equal_to_the_reference(name: str, options: dict[str, int]) -> None:
    gen = rulelang.load_game(name, options, mode="generated")
    ref = rulelang.load_game(name, options, mode="interpreted")
    assert isinstance(gen, GenGame)
    for seed in range(2):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        rng, ply = random.Random(seed), 0
        while True:
            _same(g, r, f"{name} seed {seed} ply {ply}")
            if r.is_terminal():
                break
            if ply == 3:  # a clone taken mid-game plays on as the original does
                g = g.clone()
                g.clone().apply_action(0)  # (and is independent of its own copies)
            action = rng.randrange(len(r.legal_actions()))
            g.apply_action(action)
            r.apply_action(action)
            ply += 1
        assert g.history() == r.history() and g.winners() == r.winners()


# two puts from one zone: the menu needs two pieces there (three each: one turn, then none)
PAIRS = """use square
game "Pairs"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 3 stone
def free = each s in sites where empty(s)
action place
  choose site a in free
  choose site b in free where b != a
  put stone of mover at a
  put stone of mover at b
turn
  do place
end
  when turn > 20
    draw
"""


# a rule passed to a builtin (group's link): a function of the state in generated code
LINKED = """use square
game "Linked"
players A, B
board square.grid(4, 4, 0)
piece stone
zone supply each player: 9 stone
def free = each s in sites where empty(s)
def same_row(a, b) = a.r == b.r and occupied(b)
action place
  choose site s in free
  put stone of mover at s
turn
  do place
end
  when size(group(last.site, square.orthogonal, same_row)) >= 3
    winner mover
  when size(free) == 0
    draw
"""


def _side_by_side(tmp_path: object, text: str, seeds: int) -> tuple[Any, list[str]]:
    """A test rulebook generated and interpreted, seeded random games compared after every
    action (_same): the generated game and every action string the games took."""
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(text)
    gen = rulelang.load_game(path, mode="generated")
    ref = rulelang.load_game(path, mode="interpreted")
    assert isinstance(gen, GenGame)
    taken: list[str] = []
    for seed in range(seeds):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        rng = random.Random(seed)
        while not r.is_terminal():
            _same(g, r, f"seed {seed}")
            action = rng.randrange(len(r.legal_actions()))
            taken.append(r.action_to_string(action))
            g.apply_action(action)
            r.apply_action(action)
        _same(g, r, f"seed {seed} end")
    return gen, taken


def test_a_rule_passed_to_a_builtin_as_the_reference(tmp_path: object) -> None:
    gen, _ = _side_by_side(tmp_path, LINKED, 4)
    assert "lambda" in gen.state_class.generated.source
    # (the group's search over the flat state: helpers.group_bits)
    assert any(v is H.group_bits for v in gen.state_class.generated.constants.values())


# reach's cost and stop read a site's pieces, their attributes and the mover: their values
# kept per player by site (gen/layout.py), forgotten where a walker moves, a log is dropped
# or made heavy
WALKERS = """use square
game "Walkers"
players A, B
board square.grid(5, 5, 0)
piece walker
piece log with heavy = false
zone supply each player: 1 walker
zone pile: 8 log
var figure each player = none
# a log costs 2 (3 once heavy); another's walker blocks; a heavy log cannot be stopped on
def blocked(s) = any x in pieces(s): kind(x) == "walker" and owner(x) != mover
def log_cost(s) = 3 if any x in pieces(s): x.heavy else 2
def cost(s) = none if blocked(s) else (log_cost(s) if occupied(s) else 1)
def can_stop(s) = not (any x in pieces(s): x.heavy) and not blocked(s)
def here = site(figure of mover)
def goals = reach(here, square.orthogonal, 3, cost, can_stop)
setup
  for each p in players
    choose site s in sites where empty(s) by p ask "start where?"
    put walker of p at s as w
    set figure of p = w
action walk
  choose site s in goals
  move figure of mover to s
action drop
  choose site s in sites where empty(s) and s != here
  put log from pile at s
action weigh
  choose site s in sites where any x in pieces(s): kind(x) == "log" and not x.heavy
  set (first x in pieces(s) where kind(x) == "log").heavy = true
turn
  do walk or drop or weigh
end
  when turn > 30
    draw
"""


def test_kept_site_values_for_reach_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, WALKERS, 4)
    assert {"v0", "v1"} <= set(gen.state_class.generated.slots)
    assert all(sum(t.startswith(a) for t in taken) > 5 for a in ("walk", "drop", "weigh"))


def test_a_negative_cost_for_reach_is_the_same_error_in_both_modes(tmp_path: object) -> None:
    """A move's cost below zero has no cheapest path (the search would go round for ever,
    filling the memory: bench/fuzz.py seed 223658): both modes refuse it where reach
    first asks it, with the same message, at the same action."""
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(WALKERS.replace("3 if any x in pieces(s): x.heavy else 2",
                                    "-5 if any x in pieces(s): x.heavy else 2"))
    met = []
    for mode in ("generated", "interpreted"):
        game = rulelang.load_game(path, mode=mode)
        found = []
        for seed in range(6):
            state, rng = game.new_initial_state(seed), random.Random(seed)
            try:
                while not state.is_terminal():
                    state.apply_action(rng.choice(state.legal_actions()))
            except rulelang.RuleRuntimeError as err:
                found.append((seed, len(state.history()), str(err.diagnostic.span),
                              err.diagnostic.message))
        met.append(found)
    assert met[0] == met[1] and len(met[0]) >= 3, met
    assert all("costs -5: a move's cost cannot be negative" in m for *_, m in met[0])


def test_the_debug_check_finds_a_wrong_kept_site_value(tmp_path: object) -> None:
    """A kept value that is not the rule's value now is found by the debug check (what
    RULELANG_CHECK_KEPT=1 runs after every action)."""
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(WALKERS)
    state = rulelang.load_game(path, mode="generated").new_initial_state(0)
    while not any(v is not UNASKED for t in state.v0 for v in t):  # type: ignore[attr-defined]
        state.apply_action(0)
    state._verify_kept()  # type: ignore[attr-defined]  # (right: quiet)
    row = next(t for t in state.v0 if any(v is not UNASKED for v in t))  # type: ignore[attr-defined]
    j = next(j for j, v in enumerate(row) if v is not UNASKED)
    row[j] = 99  # (a cost no rule gives)
    with pytest.raises(AssertionError, match="kept structure"):
        state._verify_kept()  # type: ignore[attr-defined]


# the piece put is chosen: each way's put checked as the walk meets it (two stones, five
# pebbles each: the stones run out)
CHOSEN_KIND = """use square
game "Chosen kind"
players A, B
board square.grid(3, 3, 0)
piece stone
piece pebble
zone supply each player: 2 stone, 5 pebble
def free = each s in sites where empty(s)
action place
  choose site s in free
  choose k in ["stone", "pebble"]
  put k from supply of mover at s
turn
  do place
end
  when size(free) == 0
    draw
"""


def test_a_chosen_piece_kind_as_the_reference(tmp_path: object) -> None:
    _side_by_side(tmp_path, CHOSEN_KIND, 3)


def test_puts_that_run_out_as_the_reference(tmp_path: object) -> None:
    _, taken = _side_by_side(tmp_path, PAIRS, 1)
    assert len(taken) == 2  # (each player once: one stone left each, no pair)


# the option's chosen site is empty until the action's first effect (gen/puts.py writes
# that put without reading the pile): the put after it, the puts of a loop, a move's and
# the put after the move add to the pile they find
STACKS = """use square
game "Stacks"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 30 stone
def free = each s in sites where empty(s)
def mine = each s in sites where occupied(s) and owner(s) == mover
action place
  choose site s in free
  put stone of mover at s
  put stone of mover at s
action pile
  choose site s in free
  for each n in [1, 2]
    put stone of mover at s
action hop
  choose site a in mine
  choose site s in free
  move top(a) to s
  put stone of mover at s
turn
  do place or pile or hop
end
  when size(free) == 0
    draw
"""


def test_puts_on_a_chosen_empty_site_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, STACKS, 6)
    assert {t.split()[0] for t in taken} == {"place", "pile", "hop"}
    assert "arrive(" in gen.state_class.generated.source


REPEATS = """use square
game "Repeats"
players A, B
board square.grid(4, 4, 0)
piece stone
zone supply each player: 9 stone
counter points each player = 0
def free = each s in sites where empty(s)
def beside(s) = each t in square.orthogonal(s) where occupied(t)
action place
  choose site s in free
  put stone of mover at s
  repeat size(beside(s)) times
    increase points of mover by 1
    if points of mover > 3
      repeat 2 times
        increase points of opponent by 1
  repeat (none if points of mover > 12 else 0) times
    increase points of mover by 1
turn
  do place
end
  when points of mover >= 9
    winner mover
  when size(free) == 0
    draw
"""


def test_repeat_as_the_reference(tmp_path: object) -> None:
    _, taken = _side_by_side(tmp_path, REPEATS, 6)
    assert len(taken) > 20


def test_a_repeat_count_that_is_not_a_number_fails_as_in_the_reference(tmp_path: object) -> None:
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(REPEATS.replace("> 12 else 0", "> 0 else 0"))
    errors = _errors_of(path, ["place a1"], "place a2")
    assert errors[0] == errors[1]
    assert "whole number" in errors[0] and "game.rule:18:11" in errors[0]


def _errors_of(path: Any, before: list[str], failing: str) -> list[str]:
    """The error each mode gives (rendered) at the action `failing`, after `before`."""
    errors = []
    for mode in ("generated", "interpreted"):
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        for action in before:
            state.apply_action(action)
        with pytest.raises(rulelang.RuleRuntimeError) as err:
            state.apply_action(failing)
        errors.append(err.value.render())
    return errors


# effects that call themselves (written as functions of the module), one tried by the menu
# before a later choose, one run in a turn of several decisions
RECURSIVE = """use square
game "Recursive"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 5 stone
counter points each player from -20 to 20 = 3
effect pay(k)
  if k > 0 and points of mover > -20
    decrease points of mover by 1
    pay(k - 1)
effect spread(s, n)
  for each t in square.orthogonal(s)
    if n > 0 and empty(t) and size(supply of mover) > 0
      put stone of mover at t
      spread(t, n - 1)
action build
  choose site s in sites where empty(s)
  put stone of mover at s
  pay(2)
  choose site t in square.orthogonal(s) where empty(t)
  put stone of mover at t
action grow
  choose site s in sites where empty(s)
  put stone of mover at s
  spread(s, 2)
  require points of mover > 0 else "too poor"
turn
  do grow or build
  choose n in 0..2
  pay(n)
end
  when turn >= 8
    highest score wins
score points(p) = points of p
"""


def test_effects_that_call_themselves_as_the_reference(tmp_path: object) -> None:
    _, taken = _side_by_side(tmp_path, RECURSIVE, 6)
    assert len(taken) > 20


def test_an_endless_recursion_is_the_references_error(tmp_path: object) -> None:
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(RECURSIVE.replace("    pay(k - 1)", "    pay(k + 1)")
                    .replace("  if k > 0 and points of mover > -20", "  if k > 0"))
    codes = []
    for mode in ("compiled", "interpreted"):
        game = rulelang.load_game(path, mode=mode)
        with pytest.raises(rulelang.RuleRuntimeError) as err:  # (the menu tries `build`)
            game.new_initial_state(0)
        d = err.value.diagnostic
        assert d.span is not None and 8 <= d.span.line <= 11, d.span  # (in `pay`)
        codes.append((d.code, d.message))
    assert codes[0] == codes[1] == ("R302", "rules call each other too deeply (endless "
                                    "recursion?)")


CARDS = (Path(__file__).parent / "cards.rule").read_text(encoding="utf-8")


def _came(state: Any) -> list[Any]:
    """What every player may know of where each piece came from, as plain values."""
    data = state.data
    return [repr(x) for x in data.came] + sorted(map(repr, data.revealed))


@pytest.mark.parametrize("rulebook", ["gen/cards.rule", "gen/bids.rule", "gen/setup.rule",
                                      "gen/came.rule", "flow/secret.rule",
                                      "flow/secret_rounds.rule"])
def test_hidden_zones_chance_and_secrets_as_the_reference(tmp_path: object,
                                                          rulebook: str) -> None:
    """Card games (a deck shuffled in the setup and again, hands seen by their owners,
    secret vars revealed; in bids.rule, secret choices one after another in a turn of
    several decisions, a draw at random, questions to the others): the same play,
    observations, knowledge of where the pieces came from, and resamples (the others'
    secret choices of the turn made again)."""
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text((Path(__file__).parents[1] / rulebook).read_text(encoding="utf-8"))
    gen = rulelang.load_game(path, mode="generated")
    ref = rulelang.load_game(path, mode="interpreted")
    assert isinstance(gen, GenGame) and gen.state_class.hides
    players, redone = range(ref.num_players), 0
    for seed in range(6):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        rng = random.Random(seed)
        while True:
            where = f"seed {seed} ply {len(r.history())}"
            _same(g, r, where)
            assert _came(g) == _came(r), where
            assert [g.observation(p) for p in players] == \
                [r.observation(p) for p in players], where
            if r.is_terminal():
                break
            for p in players:
                dealt = g.resample(p, seed + p)
                assert dealt.observation(p) == g.observation(p), where
                _same(dealt, r.resample(p, seed + p), where + f" resampled for {p}")
                redone += canonical(dealt.data) != canonical(g.data)
                for a in dealt.legal_actions():  # (nothing of the truth left in its menu)
                    dealt.clone().apply_action(a)
            action = rng.randrange(len(r.legal_actions()))
            g.apply_action(action)
            r.apply_action(action)
    assert redone > 0 or "secret" in rulebook  # (they deal nothing: a replay changes none)


@pytest.mark.parametrize("rulebook", ["rounds.rule", "rounds_until.rule"])
def test_rounds_as_the_reference(tmp_path: object, rulebook: str) -> None:
    """Rounds (after every player's turn, or as soon as `until` holds), their section's
    effects and results, the starter set for the next round: as the reference plays them."""
    text = (Path(__file__).parents[1] / "flow" / rulebook).read_text(encoding="utf-8")
    gen, taken = _side_by_side(tmp_path, text, 6)
    assert gen.state_class.rounders is not None and len(taken) > 10


@pytest.mark.parametrize("text", [CAPTURES, LINES_CAPTURES], ids=["groups", "lines"])
def test_kept_structures_losing_sites_equal_to_the_reference(tmp_path: object,
                                                             text: str) -> None:
    gen, taken = _side_by_side(tmp_path, text, 6)
    assert gen.state_class.generated.slots
    assert sum(t.startswith("take") for t in taken) > 3


@pytest.mark.parametrize("name", ["tic_tac_toe", "breakthrough", "spline", "hex", "spire"])
def test_play_out_plays_what_the_reference_plays(name: str) -> None:
    """A playout's actions, replayed on the reference, make the same game; where the menu
    is one choose over a kept query its draw is `rng.choice` of the listed menu (the same
    game as the reference's from the same generator); a lazy draw (Breakthrough's) is only
    as likely (tests/gen/test_generated_draws.py)."""
    gen = rulelang.load_game(name, mode="generated")
    ref = rulelang.load_game(name, mode="interpreted")
    for seed in range(3):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        g.play_out(random.Random(seed), 10_000)
        for action in g.history():
            r.apply_action(action)
        assert r.is_terminal() and canonical(g.data) == canonical(r.data)
        if name != "breakthrough":
            r, rng = ref.new_initial_state(seed), random.Random(seed)
            while not r.is_terminal():
                r.apply_action(rng.choice(r.legal_actions()))
            assert canonical(g.data) == canonical(r.data)
    # a play_out stopped part-way leaves the menu listed, and the game goes on equally
    for seed in range(3):
        g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
        g.play_out(random.Random(seed), 3 + seed)
        for action in g.history():
            r.apply_action(action)
        while True:
            _same(g, r, f"{name} seed {seed} after a play_out of {3 + seed}")
            if r.is_terminal():
                break
            g.apply_action(0)
            r.apply_action(0)


def test_strings_errors_and_cap_as_the_reference() -> None:
    gen = rulelang.load_game("tic_tac_toe", mode="generated")
    ref = rulelang.load_game("tic_tac_toe", mode="interpreted")
    g, r = gen.new_initial_state(0), ref.new_initial_state(0)
    g.apply_action("place b2")
    r.apply_action("place b2")
    assert g.string_to_action("place a1") == r.string_to_action("place a1")
    messages = []
    for state in (g, r):
        with pytest.raises(rulelang.IllegalActionError) as err:
            state.apply_action("place b2")
        messages.append(str(err.value))
    assert messages[0] == messages[1]
    gen.max_plies = 3
    capped = gen.new_initial_state(0)
    capped.play_out(random.Random(0), 100)
    assert capped.is_terminal() and capped.capped() and capped.returns() == [0.0, 0.0]
    gen.max_plies = None


def test_observation_and_scores_through_the_bridge() -> None:
    gen = rulelang.load_game("breakthrough", {"size": 5}, mode="generated")
    ref = rulelang.load_game("breakthrough", {"size": 5}, mode="interpreted")
    g, r = gen.new_initial_state(4), ref.new_initial_state(4)
    for action in ("move a5 a4", "move a1 a2"):
        g.apply_action(action)
        r.apply_action(action)
    for player in (0, 1):
        assert g.observation(player) == r.observation(player)
    assert g.scores() == r.scores()


def test_the_debug_switch_checks_the_kept_structures(monkeypatch: pytest.MonkeyPatch) -> None:
    """RULELANG_CHECK_KEPT=1 compares the kept structures with ones made anew after every
    apply_action: quiet while they agree, an error the moment one does not."""
    import rulelang.gen.rt as rt
    monkeypatch.setattr(rt, "CHECK_KEPT", True)
    state = rulelang.load_game("hex", {"size": 5}, mode="generated").new_initial_state(0)
    for _ in range(6):
        state.apply_action(0)
    state.q0.pop()  # type: ignore[attr-defined]  # (a free site forgotten)
    with pytest.raises(AssertionError, match="kept structure"):
        state.apply_action(0)


# quantifiers over the board's sites written in place: `first`, `any`, `count` and `each`
# of one condition (one kept query), and one whose condition may fail (not kept)
IN_PLACE = """use square
game "In place"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 9 stone
zone bin each player: 0 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action lift
  require any s in sites: occupied(s)
  move top(first s in sites where occupied(s)) to bin of mover
action spread
  require (count s in sites where occupied(s)) >= 3
  let full = each s in sites where occupied(s)
  move top(full[size(full) - 1]) to bin of mover
turn
  do place or lift or spread
end
  when turn >= 14 and any s in sites: s.r + 1 > 0 and occupied(s)
    draw
"""


def test_quantifiers_over_sites_in_place_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, IN_PLACE, 6)
    assert [k for k in gen.state_class.generated.slots if k.startswith("q")] == ["q0"]
    assert sum(t == "lift" for t in taken) > 3 and sum(t == "spread" for t in taken) > 3


def _in_step(gen: Any, ref: Any, seeds: int) -> Any:
    """Seeded random games of a bundled rulebook in both modes: (seed, the generated state,
    the reference's) after every action."""
    for seed in range(seeds):
        g, r, rng = gen.new_initial_state(seed), ref.new_initial_state(seed), random.Random(seed)
        while not r.is_terminal():
            action = rng.choice(r.legal_actions())
            g.apply_action(action)
            r.apply_action(action)
            yield seed, g, r


@pytest.mark.parametrize("cap", [bits._PILE_KEYS, 3])
def test_board_keys_are_the_references(monkeypatch: pytest.MonkeyPatch, cap: int) -> None:
    """A generated game's repetition keys number each pile's part (gen/bits.pile_code): the
    keys are the reference's, also after the remembered piles start anew at their cap and
    past the numbers' cap (a part is then its kinds and owners)."""
    monkeypatch.setattr(bits, "_PILE_KEYS", cap)
    gen = rulelang.load_game("spline_plus", mode="generated")
    ref = rulelang.load_game("spline_plus", mode="interpreted")
    assert isinstance(gen, GenGame)
    monkeypatch.setattr(bits, "_PILE_CODES", cap)
    gen.state_class.pile_keys.clear()
    for _, g, r in _in_step(gen, ref, 2):
        data = r.data  # (the reference's key: each pile's kinds and owners)
        board = ("board", tuple(tuple((p.kind, data.owner[p.id]) for p in st)
                                for st in data.at))
        assert bits.plain_key(g, ("board", bits.board_key(g))) == board
        assert bits.coded_key(g, board) == ("board", bits.board_key(g))
        if r.is_terminal():
            assert canonical(g.data) == canonical(r.data)  # (its position counts too)
    assert len(gen.state_class.pile_keys) <= max(cap, 2)
    assert len(gen.state_class.pile_codes) <= cap


def test_a_quantifier_over_sites_in_place_reads_a_kept_query(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Spyramid's settle (`while any s in sites: occupied(s) and not supported(s)`, then the
    `first` such site) reads one kept query for both (layout.inline_query); random games
    with the debug switch on and side by side with the reference agree."""
    import rulelang.gen.rt as rt
    monkeypatch.setattr(rt, "CHECK_KEPT", True)
    gen = rulelang.load_game("spyramid", mode="generated")
    ref = rulelang.load_game("spyramid", mode="interpreted")
    assert isinstance(gen, GenGame)
    inline = [k for k in gen.state_class.generated.slots if k.startswith("q")]
    assert len(inline) == 2  # (`playable`, and the settle's one condition)
    source = gen.state_class.generated.source
    assert "while any(" not in source and "while (S.q" in source
    for seed, g, r in _in_step(gen, ref, 2):
        _same(g, r, f"spyramid seed {seed}")
    # `all b in base(s): occupied(b)` is a mask test of the occupied sites' bits (kept):
    # the debug check finds a wrong one
    assert "occ" in gen.state_class.generated.slots and "& S.occ" in source
    g.occ ^= 1  # type: ignore[attr-defined]
    with pytest.raises(AssertionError, match="kept structure"):
        g._verify_kept()  # type: ignore[attr-defined]


# a player's zone when the player is found as the game runs (a rule's parameter), read in
# place, and the pieces of two zones joined (their pieces' attributes read in place)
ZONES_OF = """use square
game "Zones of"
players A, B
board square.grid(2, 2, 0)
piece chip with worth = 1
zone supply each player: 4 chip
zone kept each player: 0 chip
def all_chips(p) = pieces(supply of p) + pieces(kept of p)
def holding(p) = sum c in all_chips(p): c.worth
action keep
  choose site s in sites where empty(s)
  put chip of mover at s
  set top(s).worth = holding(mover) + size(kept of mover)
  move top(s) to kept of mover
turn
  do keep
end
  when turn >= 6
    winner first p in players where holding(p) == (max q in players: holding(q))
"""


def test_a_players_zone_found_as_the_game_runs_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, ZONES_OF, 3)
    source = gen.state_class.generated.source
    assert "S.attrs[" in source and ".index]]" in source  # (in place: S.zones[k[p.index]])
    assert len(taken) > 10


# a turn's `if` asks a rule of no argument and the `do` it begins with chooses from it: the
# value found once, kept for the menu (turns.memos)
GUARDED = """use square
game "Guarded"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 9 stone
def free = each s in sites where empty(s) and s.c != turn % 3
action place
  choose site s in free
  put stone of mover at s
action wait
  require true
turn
  if any(free)
    do place
  do wait
end
  when turn >= 12
    draw
"""


def test_a_rule_an_if_and_its_do_read_found_once_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, GUARDED, 4)
    source = gen.state_class.generated.source
    assert "S.m0 = " in source and source.count("S.m0") >= 4  # (set, the if, two menus)
    assert sum(t.startswith("place") for t in taken) > 10


# a turn of several decisions whose locals keep their values' forms where each is bound
# once (turns.kept_form): a loop's player, an effect's parameters, a let; a name bound twice
# (x: a number, then a site) is read as any value
LOCALS = """use square
game "Locals"
players A, B, C
board square.grid(3, 3, 0)
piece stone
zone supply each player: 9 stone
zone hand each player
counter score each player from 0 to 99 = 0
setup
  for each p in players
    move first c in supply of p to hand of p
effect offer(q, s)
  choose k in 0..2 by q
  if k > 0 and empty(s)
    put stone of q at s
  increase score of q by k + size(hand of q) + q.index
action pass
turn
  do pass
  let x = 1
  for each p in players
    choose k in 1..2 secretly by p
    increase score of p by k * x + size(hand of p)
  let x = first s in sites where empty(s)
  let n = count s in sites where occupied(s)
  if x != none
    offer(mover, x)
  increase score of mover by n
end
  when turn >= 9
    draw
"""


def test_turn_locals_keep_their_forms_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, LOCALS, 3)
    source = gen.state_class.generated.source
    assert re.search(r"S\.zones\[k\d+\[S\.tl\[k\d+\]\.index\]\]", source)  # (in place)
    assert len(taken) > 40


def test_only_locals_bound_once_keep_a_form(tmp_path: object) -> None:
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(LOCALS)
    program = rulelang.load_game(path, mode="interpreted").runtime.program
    turn = program.sections["turn"]
    assert turns._bound_once(turn.stmts) == {"p", "k", "n"}  # (x twice)
    offer = program.effects["offer"]
    assert turns._bound_once(offer.body.stmts, offer.params) == {"q", "s", "k"}
    assert turns.kept_form(F.PLAYER) == F.PLAYER and turns.kept_form(F.ANY) is None
    assert turns.kept_form(F.Form("site", static=object())) == F.SITE  # (the value only)


# sites known when written (a line of a line set, indexed by a number known then) are tested
# by the occupied sites' bits; the same line twice over counts each site twice
LINE_COUNTS = """use square
game "Line counts"
players A, B
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
def low = count s in square.horizontal[0] where occupied(s)
def twice = count s in square.horizontal[0] + square.horizontal[0] where empty(s)
action place
  choose site s in sites where empty(s) and (low < 2 or s.r > 0) and twice > 1
  put stone of mover at s
action wait
  require true
turn
  do place otherwise wait
end
  when turn >= 10
    draw
"""


def test_sites_known_when_written_by_the_occupied_bits_as_the_reference(
        tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, LINE_COUNTS, 6)
    source = gen.state_class.generated.source
    assert re.search(r"\(k\d+ & S\.occ\)\.bit_count\(\)", source)
    assert "wait" in taken and sum(t.startswith("place") for t in taken) > 20


# a tuple known when written, indexed by a player's number (below its length: in place, and
# a line's bits with it); a number that may be any (one branch not a player's) is the
# reference's indexing, its error too
ROWS_OF = """use square
game "Rows of"
players A, B, C
board square.grid(3, 3, 3)
piece stone
zone supply each player: 9 stone
def row_of(p) = square.horizontal[p.index]
def full_rows = count p in players where all s in row_of(p): occupied(s)
def odd(p) = square.horizontal[p.index if turn < LIMIT else 5]
action place
  choose site s in sites where empty(s) and (full_rows == 0 or s.r == 2) \\
      and all p in players: size(odd(p)) == 3
  put stone of mover at s
turn
  do place
end
  when turn >= 9
    draw
"""


def test_a_tuple_by_a_players_number_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, ROWS_OF.replace("LIMIT", "99"), 4)
    source = gen.state_class.generated.source
    assert re.search(r"\(k\d+\[v\d+\.index\] & S\.occ\)", source)  # (a line's bits)
    assert len(taken) > 20
    path = tmp_path / "odd.rule"  # type: ignore[operator]
    path.write_text(ROWS_OF.replace("LIMIT", "2"))
    errors = _errors_of(path, [], "place a1")  # (the next menu's)
    assert errors[0] == errors[1] and "indexing" in errors[0] and "odd.rule:9:" in errors[0]


# tables known when written: an entry at a key known then is a constant (`extra[2]`, the
# players' count), an entry at a key found as the game runs a number below the table's
# largest (`repeat by_row[s.r] times`: at most 2 turns in the writer's bound)
TABLES = """use square
game "Tables"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 20 stone
table extra: 1 -> 5, 2 -> 4, 3 -> 0
table by_row: 0 -> 1, 1 -> 2, 2 -> 0
action place
  choose site s in sites where empty(s)
  put stone of mover at s
  repeat by_row[s.r] times
    if any t in sites: empty(t)
      put stone of mover at (first t in sites where empty(t))
turn
  do place
end
  when turn >= extra[size(players)]
    draw
"""


def test_table_entries_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, TABLES, 4)
    generated = gen.state_class.generated
    assert not generated.counting and generated.steps < 2_000  # (2 turns, not the budget)
    assert len(taken) == 4 * 4  # (four turns: extra[2] is 4)


# the pieces on each of distinct sites are the game's pieces at most: the writer's bound of
# `[x for s in sites, x in pieces(s)]` is the pieces' count, not the sites' count squared;
# over sites that may repeat (sites + sites) it is not
PILES = """use square
game "Piles"
players A, B
board square.grid(5, 5, 0)
piece stone
zone supply each player: 3 stone
def stones = [x for s in DOMAIN, x in pieces(s)]
action place
  choose site s in sites where empty(s) and size(stones) < 6
  put stone of mover at s
action wait
  require true
turn
  do place otherwise wait
end
  when turn >= 8
    draw
"""


def test_the_pieces_on_distinct_sites_bound_as_the_pieces(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, PILES.replace("DOMAIN", "sites"), 3)
    assert "wait" in taken and len(taken) == 3 * 8
    distinct = gen.state_class.generated.steps
    path = tmp_path / "twice.rule"  # type: ignore[operator]
    path.write_text(PILES.replace("DOMAIN", "sites + sites"))
    twice = rulelang.load_game(path, mode="generated").state_class.generated.steps
    assert 25 * 25 * 25 < twice and distinct < 25 * 25 * 6  # (the menu asks it per site)


# after the last choose, `if C` of one put: the menu tests C, the put's piece and target
# in place of trying the put on a scratch copy (gen/walk.py _guarded_put); the supplies run
# out (a second stone refused), the second choose's values of a form known (sites or none)
# and not known (a list made by a condition)
SECOND = """use square
game "Second"
players A, B
board square.grid(3, 3, 0)
piece stone
zone supply each player: 3 stone
def free = each s in sites where empty(s)
def later = (each s in sites where empty(s)) if turn > 2 else ()
action place
  choose site s in free
  put stone of mover at s
  optionally choose site t in free
  if t != none
    put stone of mover at t
action spread
  choose site s in free
  put stone of mover at s
  optionally choose t in later
  if t != none and t != s
    put stone of mover at t
turn
  do place or spread
end
  when size(free) == 0
    draw
"""


def test_a_put_under_an_if_after_the_last_choose_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, SECOND, 8)
    constants = gen.state_class.generated.constants.values()
    assert any(v is target_ok for v in constants)  # (the test written in place)
    assert any(t.startswith("spread") and len(t.split()) > 2 for t in taken)
    assert any(t.startswith("place") and len(t.split()) > 2 for t in taken)


def test_a_put_under_an_if_to_what_is_no_place_fails_as_the_reference(
        tmp_path: object) -> None:
    text = SECOND.replace("optionally choose t in later",
                          "optionally choose t in later if turn < 3 else [1, 2]")
    path = tmp_path / "game.rule"  # type: ignore[operator]
    path.write_text(text)
    errors = []
    for mode in ("generated", "interpreted"):
        state = rulelang.load_game(path, mode=mode).new_initial_state(0)
        with pytest.raises(RulelangError) as err:
            for _ in range(9):  # (the third turn's menu tries a put at 1)
                state.apply_action(0)
        errors.append((str(err.value), getattr(err.value, "code", None), state.history()))
    assert errors[0] == errors[1]
    assert "not 1" in errors[0][0]


# positions that come again: the end section's `repeated` reads the key just counted
# (GenState.key_now), a menu's `repeated(1)` makes it again (this board with the other
# player to move: the key counted last would always say yes)
AGAIN = """use square
game "Back and forth"
players A, B
board square.grid(2, 2, 0)
piece stone
zone supply each player: 2 stone
def free = each s in sites where empty(s)
def mine = each s in sites where owner(s) == mover
action place
  choose site s in free
  put stone of mover at s
action lift
  choose site s in mine
  move top(s) to supply of mover
action wait
  require repeated(1)
turn
  do place or lift or wait
end
  when repeated(3)
    draw
"""


def test_repetition_as_the_reference(tmp_path: object) -> None:
    gen, taken = _side_by_side(tmp_path, AGAIN, 10)
    ends = set()
    for seed in range(10):
        state = gen.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.randrange(len(state.legal_actions())))
        ends.add(state.ended_by)
    assert len(ends) == 1 and None not in ends  # (every game ends by the repetition)
