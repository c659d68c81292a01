"""Problems the fuzzer (tests/fuzz, bench/fuzz.py) found after the loading work, each kept as
a test of its own."""
from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.gen import explain


def test_sites_made_after_a_relation_have_no_edges_in_it(tmp_path: Path) -> None:
    """bench/fuzz.py seed 889 (a moved line): KeyError in the board's freeze."""
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\ngeometry line(n)\n  sites (i) for i in 0..n-1\n'
        "  relation next (i) -> (i + 1)\n  sites (i) for i in n..n+1\n"
        "board line(2)\npiece p\nzone supply each player: 4 p\n"
        "action place\n  choose site s in each s in sites where empty(s)\n"
        "  put p of mover at s\nturn\n  do place\n"
        "end\n  when size(each s in sites where empty(s)) == 0\n    draw\n", encoding="utf-8")
    for mode in ("compiled", "interpreted"):
        board = rulelang.load_game(tmp_path / "g.rule", mode=mode).runtime.board
        table = board.relations["next"].table
        assert [len(t) for t in table] == [1, 0, 0, 0]  # 0 -> 1; 1's target came later


GAME = ('game "G"\nplayers A, B\n{defs}\nvar v = 0\naction go\n  set v = {expr}\n'
        "turn\n  do go\n")


def _refusal(tmp_path: Path, defs: str, expr: str, mode: str) -> str:
    (tmp_path / "g.rule").write_text(GAME.format(defs=defs, expr=expr), encoding="utf-8")
    rulelang._PROGRAMS.clear()
    rulelang._RUNTIMES.clear()
    state = rulelang.load_game(tmp_path / "g.rule", mode=mode).new_initial_state(seed=0)
    try:
        state.apply_action("go")
    except rulelang.RuleRuntimeError as err:
        return err.diagnostic.code + " " + err.diagnostic.message
    return "ok"


def test_a_rule_recursing_through_memo_ends_at_once(tmp_path: Path) -> None:
    """bench/fuzz.py seed 209233 (a spliced expression): a rule whose memo argument calls the
    rule again was retried at every level of the recursion, 2^depth times (a hang); it is now
    the recursion error at once."""
    defs = "def again(y) = y\ndef loop(x) = memo(again, loop(x))"
    for mode in ("compiled", "interpreted"):
        assert _refusal(tmp_path, defs, "loop(1)", mode).startswith(
            "R302 rules call each other too deeply")


def test_a_range_too_long_for_len_is_over_the_budget(tmp_path: Path) -> None:
    """bench/fuzz.py seed 204120 (a number made huge): len() of a range of more items than a
    C integer holds raised OverflowError where a comprehension or a loop counts its steps."""
    huge = "1" + "0" * 30
    for expr in (f"size([x for x in 0..{huge}])", f"count x in 0..{huge}",
                 f"size(each x in 0..{huge}: x)"):
        for mode in ("compiled", "interpreted"):
            assert _refusal(tmp_path, "", expr, mode).startswith("R302 step budget"), expr


def _diagnostics(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "g.rule").write_text(text, encoding="utf-8")
    try:
        rulelang.load_game(tmp_path / "g.rule")
    except rulelang.RulebookError as err:
        return [f"{d.code} {d.span.line}: {d.message}" for d in err.diagnostics]
    return []


def test_a_starting_value_that_reads_the_state_is_refused_at_check(tmp_path: Path) -> None:
    """bench/fuzz.py seeds 302889 and 317449 (spliced expressions): a var's starting value
    that read the var itself, and a piece's attribute default that read a zone, were
    KeyErrors while the game was made."""
    base = ('game "G"\nplayers A, B\npiece p with w = {attr}\nzone bag: 2 p\n'
            "var v = {var}\ncounter k = {counter}\naction go\n  set v = 1\nturn\n  do go\n")
    found = _diagnostics(tmp_path, base.format(attr="size(bag)", var="v + 1",
                                               counter="size(players)"))
    assert [d.split(":")[0] for d in found] == ["R250 3", "R250 5"]
    assert "the attribute 'w' of 'p'" in found[0] and "the var 'v'" in found[1]
    assert _diagnostics(tmp_path, base.format(attr="size(players)", var="[1, 2]",
                                              counter="2 * 3")) == []


def test_a_geometry_line_before_its_sites_is_a_diagnostic(tmp_path: Path) -> None:
    """bench/fuzz.py seed 309630 (a moved line): a `name` line above the geometry's `sites`
    line was an UnboundLocalError in the checker."""
    found = _diagnostics(tmp_path, 'game "G"\nplayers A, B\ngeometry line(n)\n'
                         "  name str(i)\n  sites (i) for i in 0..n-1\nboard line(3)\n"
                         "var v = 0\naction go\n  set v = 1\nturn\n  do go\n")
    assert found == ["R209 4: the geometry 'line' uses its sites before its 'sites' line"]


def test_a_site_query_inside_a_rule_may_rebind_a_parameter_name(tmp_path: Path) -> None:
    """bench/fuzz.py seeds 301476 and 310367 (spliced expressions): in the compiled mode, a
    kept-up-to-date `each s in sites where …` (and `any s in sites: …`) inside a rule with a
    parameter also named s read the rule's argument instead of each site."""
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\ngeometry line(n)\n  sites (i) for i in 0..n-1\n'
        "board line(4)\npiece p\nzone supply each player: 4 p\n"
        "def low(s) = each s in sites where s.i < 2\n"
        "def some(s) = any s in sites: occupied(s)\n"
        "action place\n  choose site s in low(last.site) where empty(s) and not some(s)\n"
        "  put p of mover at s\nturn\n  do place\n"
        "end\n  when some(none)\n    draw\n", encoding="utf-8")
    offered = {}
    for mode in ("compiled", "interpreted"):
        state = rulelang.load_game(tmp_path / "g.rule", mode=mode).new_initial_state(seed=0)
        offered[mode] = [state.action_to_string(a) for a in state.legal_actions()]
    assert offered["compiled"] == offered["interpreted"] == ["place 0", "place 1"]


def test_repeated_of_what_is_no_number_is_a_rule_error(tmp_path: Path) -> None:
    """bench/fuzz.py seed 13102 (a literal of another type in Spline+): `repeated(none)` was a
    Python TypeError in the generated code; it is the reference's R301 in both modes."""
    defs = "def nothing(x) = none"
    for key in ("repeated", "repeated_board"):
        found = {_refusal(tmp_path, defs, f"{key}(nothing(1))", mode)
                 for mode in ("compiled", "interpreted")}
        assert len(found) == 1 and found.pop().startswith("R301"), (key, found)


def test_a_chain_of_1000_rules_under_a_kept_rule_is_a_diagnostic(tmp_path: Path) -> None:
    """bench/fuzz.py seed 2921 (a chain of 1,000 rules read by a rule given to `memo`): the
    checker's search for what a kept rule reads followed the chain by recursion, a
    RecursionError; the chain is R108, as anywhere else."""
    chain = "\n".join(f"def c{i} = c{i + 1}" for i in range(1000)) + "\ndef c1000 = 1"
    found = _diagnostics(tmp_path, GAME.format(defs=chain + "\ndef f(x) = x + c0",
                                               expr="memo(f, 1)"))
    assert [d.split(":")[0] for d in found] == ["R108 903"], found


def test_a_chain_of_rules_named_by_a_table_is_a_diagnostic(tmp_path: Path) -> None:
    """bench/fuzz.py seed 45784 (a chain of 200 rules named by one of Karesansui's table
    values): the type checker reached the chain through the table's type, outside its walk
    of the rules callees first, by recursion, a RecursionError; it is R108."""
    chain = "\n".join(f"def c{i} = c{i + 1}" for i in range(1000)) + "\ndef c1000 = 1"
    table = "table costs: 1 -> 2, 2 -> c0"
    found = _diagnostics(tmp_path, GAME.format(defs=table + "\ndef f(x) = costs[x] + 1\n"
                                               + chain, expr="f(2)"))  # (the chain last)
    assert [d.split(" ")[0] for d in found] == ["R108"], found


def test_a_chain_of_rules_named_by_a_table_key_is_a_diagnostic(tmp_path: Path) -> None:
    """bench/fuzz.py seed 145711 (a chain of 1,000 rules named by a key of Muso Sakura's
    table): the walk of the rules callees first followed a table's values, not its keys, so
    the type checker reached the chain by recursion, a RecursionError; it is R108."""
    chain = "\n".join(f"def c{i} = c{i + 1}" for i in range(1000)) + "\ndef c1000 = 1"
    table = "table costs: 1 -> 2, c0 -> 3"
    found = _diagnostics(tmp_path, GAME.format(defs=table + "\ndef f(x) = costs[x] + 1\n"
                                               + chain, expr="f(1)"))  # (the chain last)
    assert [d.split(" ")[0] for d in found] == ["R108"], found


def _endless(tmp_path: Path, defs: str, mode: str) -> str:
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\nuse square\nboard square.grid(2, 2, 0)\npiece p\n'
        "zone supply each player: 2 p\ndef spin(x) = spin(x + 1)\n" + defs +
        "\naction place\n  choose site s in each s in sites where empty(s)\n"
        "  put p of mover at s\nturn\n  do place\n", encoding="utf-8")
    rulelang._PROGRAMS.clear()
    rulelang._RUNTIMES.clear()
    try:
        state = rulelang.load_game(tmp_path / "g.rule", mode=mode).new_initial_state(seed=0)
        state.apply_action(state.legal_actions()[0])
        state.observation(0)
    except rulelang.RuleRuntimeError as err:
        return f"{err.diagnostic.code} {err.diagnostic.span.line}: {err.diagnostic.message}"
    return "ok"


def test_rules_calling_each_other_without_end_while_the_game_is_made_or_drawn(
        tmp_path: Path) -> None:
    """bench/fuzz.py seed 8737 (a chain of rules a mutated number closed into a cycle, read
    by the board's geometry): the recursion while the game was made was a RecursionError,
    and so was a picture's; both are R302 at the rule that recurs, in both modes."""
    for defs in ("var v = spin(1)", 'picture p(x) = "P" if spin(1) > 0 else "Q"'):
        for mode in ("compiled", "interpreted"):
            assert _endless(tmp_path, defs, mode) == \
                "R302 7: rules call each other too deeply (endless recursion?)", (defs, mode)
    assert _endless(tmp_path, 'picture p(x) = "P"', "compiled") == "ok"


def test_a_setup_reading_a_rule_that_calls_itself_is_r302(tmp_path: Path) -> None:
    """bench/fuzz.py seed 69352 (Breakthrough's `white_home` made to read itself): the setup,
    run by the reference for a generated game, let the RecursionError through in mode
    compiled; it is R302 at the rule, as in mode interpreted."""
    (tmp_path / "g.rule").write_text(
        'game "G"\nplayers A, B\nuse square\nboard square.grid(2, 2, 0)\npiece p\n'
        "zone supply each player: 4 p\ndef home = each s in home where s.r == 0\n"
        "setup\n  for each s in home\n    put p of A at s\n"
        "action place\n  choose site s in each s in sites where empty(s)\n"
        "  put p of mover at s\nturn\n  do place\n", encoding="utf-8")
    found = set()
    for mode in ("compiled", "interpreted"):
        rulelang._PROGRAMS.clear()
        rulelang._RUNTIMES.clear()
        with pytest.raises(rulelang.RuleRuntimeError) as err:
            rulelang.load_game(tmp_path / "g.rule", mode=mode).new_initial_state(seed=0)
        found.add(f"{err.value.diagnostic.code} {err.value.diagnostic.span.line}")
    assert found == {"R302 7"}


def test_a_zone_of_many_equal_pieces_is_shown_as_runs(tmp_path: Path) -> None:
    """bench/fuzz.py seed 967 (Karesansui's stones with 1,000 more rows of 5 copies): each
    observation drew every piece and compared it with the one before; equal pieces now only
    count in their run. The runs are as before: maximal, adding up to the zone's count."""
    for f in rulelang.BUNDLED.glob("karesansui*"):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    with (tmp_path / "karesansui_stones.yaml").open("a", encoding="utf-8") as out:
        out.write('\n' + '- {type: "T", copies: 5}\n' * 250)
    for mode in ("compiled", "interpreted"):
        state = rulelang.load_game(tmp_path / "karesansui.rule", mode=mode).new_initial_state(
            seed=0)
        zones = {z["zone"]: z for z in state.observation(0)["zones"]}
        runs = zones["stone_box"]["pieces"]
        assert sum(r["count"] for r in runs) == zones["stone_box"]["count"] == 1260
        assert runs[-1] == {"kind": "stone", "owner": None, "attrs": {"type": "T"},
                            "picture": ["[T]"], "count": 1250}
        assert all({**a, "count": 0} != {**b, "count": 0}
                   for a, b in zip(runs, runs[1:], strict=False))


def test_pieces_made_with_different_attributes_keep_one_value_each() -> None:
    """bench/fuzz.py seed 10806 (Karesansui's tiles with 1,000 more rows of 14 copies): each
    new piece made a list as long as the pieces before it (a default of `setdefault`), 2 s
    for 14,130 pieces; an attribute's column is now made once, padded for the pieces made
    before it."""
    from rulelang.model.state import GameData
    from rulelang.model.values import Piece

    data = GameData(0, 0)
    for i, (kind, attrs) in enumerate([("a", {}), ("b", {"x": 1}), ("a", {"y": 2}),
                                       ("b", {"x": 3, "y": 4}), ("a", {})]):
        data.new_piece(Piece(i, kind), None, attrs)
    assert data.attrs == {"x": [None, 1, None, 3, None], "y": [None, None, 2, 4, None]}
    assert len(data.loc) == len(data.owner) == len(data.came) == 5


NESTED = """use square
game "Nested"
players X, O
board square.grid(3, 3, 3)
piece mark
zone supply each player: 9 mark
def free = each s in sites where empty(s)
action place
  choose site s in free
  put mark of mover at s
  do {inner}
action bonus
  choose site s in free
  put mark of mover at s
turn
  do place or bonus
end
  when size(free) < 2
    draw
"""


@pytest.mark.parametrize("inner", ["place", "bonus"])
def test_an_action_whose_do_asks_more_plays_alike_in_both_modes(tmp_path: Path,
                                                                 inner: str) -> None:
    """bench/fuzz.py seed 86087 (a copied line: `do place` inside `action place`): the
    generated game took the turn for one decision and never ran the action, so its end
    found no last site (R301) where the reference played on. A `do` offering an action that
    asks more makes the turn a machine; an action its own `do` offers again is not written
    (the reference plays it)."""
    import random

    from rulelang.gen import GenGame, explain

    (tmp_path / "g.rule").write_text(NESTED.format(inner=inner), encoding="utf-8")
    compiled = rulelang.load_game(tmp_path / "g.rule")
    interpreted = rulelang.load_game(tmp_path / "g.rule", mode="interpreted")
    why = explain(interpreted.runtime)
    if inner == "place":
        assert why is not None and "offered again" in why.what
    else:
        assert isinstance(compiled, GenGame) and why is None
    for seed in range(4):
        a, b = compiled.new_initial_state(seed), interpreted.new_initial_state(seed)
        rng = random.Random(seed)
        while not b.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            assert a.current_player() == b.current_player()
            action = rng.choice(b.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
        assert a.is_terminal() and a.history() == b.history() and a.returns() == b.returns()


def test_a_do_in_the_setup_runs_on_the_reference(tmp_path: Path) -> None:
    """bench/fuzz.py seed 300110 (a turn's `do` copied into the setup): a ValueError in the
    generator; the game runs on the reference, and `compile --explain` names the `do`."""
    path = tmp_path / "g.rule"
    path.write_text('game "G"\nplayers A, B\nvar v = 0\naction go\n  increase v by 1\n'
                    "action wait\n  require v >= 0\nsetup\n  do go otherwise wait\n"
                    "turn\n  do go\nend\n  when v >= 4\n    draw\n", encoding="utf-8")
    game = rulelang.load_game(path, mode="compiled")
    why = explain(game.runtime)
    assert why is not None and "'do' in the setup" in why.what and why.span.line == 9
    state = game.new_initial_state(0)
    ref = rulelang.load_game(path, mode="interpreted").new_initial_state(0)
    while not ref.is_terminal():
        assert state.legal_actions() == ref.legal_actions()
        state.apply_action(0)
        ref.apply_action(0)
    assert state.is_terminal() and state.returns() == ref.returns()


@pytest.mark.parametrize("where", ["setup", "effect"])
def test_a_result_in_the_setup_runs_on_the_reference(tmp_path: Path, where: str) -> None:
    """bench/fuzz.py seed 421688 (Spice's `winner …` copied into its setup's loop): the
    reference ends the game before its first turn, the generated game met the result as a
    traceback (GameOver). A result the setup can reach, in it or in an effect it calls,
    keeps the game on the reference, and `compile --explain` names the statement."""
    setup = "  winner A\n" if where == "setup" else "  start\n"
    path = tmp_path / "g.rule"
    path.write_text('game "G"\nplayers A, B\nvar v = 0\naction go\n  increase v by 1\n'
                    "effect start\n  set v = 1\n  winner A\n"
                    f"setup\n{setup}turn\n  do go\nend\n  when v >= 4\n    draw\n",
                    encoding="utf-8")
    game = rulelang.load_game(path, mode="compiled")
    why = explain(game.runtime)
    assert why is not None and "result statement in the setup" in why.what
    assert why.span is not None and why.span.line == (10 if where == "setup" else 8)
    state = game.new_initial_state(0)
    ref = rulelang.load_game(path, mode="interpreted").new_initial_state(0)
    assert state.is_terminal() and ref.is_terminal()
    assert state.returns() == ref.returns() == [1.0, -1.0]
