"""Words for the players (docs/language.md, "Words for the players"): `ask "…"` on a choose
or a do, `else "…"` on a choose and a require, with `{expr}` filled in. Checked with
positions; ignored by every evaluation mode; shown by the terminal; and every question of
the bundled card and board games is worded."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import RulebookError
from rulelang.language import ast
from rulelang.language.astwalk import walk
from rulelang.tools.terminal.explain import question, why_illegal

BOOK = """\
use square
game "Words"
players White, Black
board square.grid(3, 3, 1)
piece stone
zone supply each player: 5 stone
counter placed each player = 0

def free_count = count s in sites where empty(s)

action place
  choose site s in sites where empty(s) else "{s} holds a stone of {owner(s)}" \\
    ask "Where does your stone go? ({free_count} free)"
  require placed of mover < 2 else "{mover} has placed {placed of mover} already"
  put stone of mover at s
  increase placed of mover by 1

action pass
  require placed of mover >= {passes} else "pass only after {{at least}} {passes} stones"

setup
  for each p in players
    choose site s in sites where empty(s) by p ask "{p}, your first stone: where?"
    put stone of p at s

turn
  do place or pass ask "Place a stone or pass, {mover}"

end at most 30 plies
  if all s in sites: occupied(s)
    draw
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "words.rule"
    path.write_text(text, encoding="utf-8")
    return path


def _book(passes: int = 2) -> str:
    return BOOK.replace("{passes}", str(passes), 1).replace(" {passes} ", f" {passes} ")


def test_the_texts_are_parsed_with_their_values(tmp_path: Path) -> None:
    game = rulelang.load_game(_write(tmp_path, _book()))
    program = game.runtime.program
    place = program.actions["place"].body.stmts[0]
    assert isinstance(place, ast.Choose) and place.ask is not None and place.reason is not None
    assert [type(p).__name__ for p in place.reason.parts] == ["Name", "str", "Call"]
    require = program.actions["pass"].body.stmts[0]
    assert isinstance(require, ast.Require) and require.reason is not None
    assert require.reason.parts[0] == "pass only after {at least} 2 stones"
    assert require.message == "pass only after {{at least}} 2 stones"  # as written
    # no analysis of the rules sees them
    assert not any(isinstance(n, ast.Words) for n in walk(program.actions["place"]))


def test_mistakes_in_texts_are_all_positioned(tmp_path: Path) -> None:
    bad = _book().replace("{free_count} free", "{free_cout} free") \
        .replace("Place a stone or pass, {mover}", "Place {} or {mover")
    with pytest.raises(RulebookError) as info:
        rulelang.load_game(_write(tmp_path, bad))
    text = info.value.render()
    assert "words.rule:27:31: error[R101]: an empty '{}' in a text" in text
    assert "words.rule:27:37: error[R101]: a '{' or '}' without its pair" in text
    with pytest.raises(RulebookError) as info:
        rulelang.load_game(_write(tmp_path, _book().replace("{free_count}", "{free_cout}")))
    assert "words.rule:13:38: error[R201]: unknown name 'free_cout'" in info.value.render()
    with pytest.raises(RulebookError) as info:
        rulelang.load_game(_write(tmp_path, _book().replace("{owner(s)}", "{owner(s) +}")))
    assert "words.rule:12:68: error[R101]: cannot read 'owner(s) +' as a value" in \
        info.value.render()


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
def test_every_mode_plays_the_same_game_with_or_without_words(tmp_path: Path,
                                                              mode: str) -> None:
    worded = rulelang.load_game(_write(tmp_path, _book()), mode=mode)
    bare_text = _book()
    for old in (' else "{s} holds a stone of {owner(s)}" \\\n    ask "Where does your stone '
                'go? ({free_count} free)"', ' ask "{p}, your first stone: where?"',
                ' ask "Place a stone or pass, {mover}"'):
        assert old in bare_text
        bare_text = bare_text.replace(old, "")
    (tmp_path / "bare.rule").write_text(bare_text, encoding="utf-8")
    bare = rulelang.load_game(tmp_path / "bare.rule", mode=mode)
    for seed in range(3):
        a, b = worded.new_initial_state(seed=seed), bare.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not a.is_terminal():
            assert a.legal_actions() == b.legal_actions()
            move = rng.choice(a.legal_actions())
            a.apply_action(move)
            b.apply_action(move)
        assert b.is_terminal() and a.returns() == b.returns()


def test_the_terminal_asks_and_refuses_in_the_rulebooks_words(tmp_path: Path) -> None:
    game = rulelang.load_game(_write(tmp_path, _book()))
    state = game.new_initial_state(seed=0)
    assert question(game, state) == "White, your first stone: where?"  # a local: p

    def why(typed: str) -> str:
        with pytest.raises(rulelang.IllegalActionError) as info:
            state.string_to_action(typed)
        return why_illegal(game, state, typed, str(info.value))

    state.apply_action("a1")
    assert question(game, state) == "Black, your first stone: where?"
    assert why("a1") == "a1 is occupied (by White)"  # no `else`: what `empty(s)` tested
    state.apply_action("b1")
    assert question(game, state) == "Place a stone or pass, White"
    assert why("place b1") == "b1 holds a stone of Black"
    assert why("pass") == "pass only after {at least} 2 stones"
    for move in ("place c1", "place c2", "place a2", "place a3"):
        state.apply_action(move)
    assert why("place c3") == "White has placed 2 already"


def test_a_choose_without_words_is_asked_in_words_not_code(tmp_path: Path) -> None:
    plain = _book().replace(' ask "{p}, your first stone: where?"', "")
    game = rulelang.load_game(_write(tmp_path, plain))
    state = game.new_initial_state(seed=0)
    assert question(game, state) == "Choose s, a site"


@pytest.mark.parametrize(("name", "options", "plies"), [
    ("tatara", {"players": 3}, 160),
    ("karesansui", {"players": 3}, 160),
    ("muso_sakura", {"players": 3, "abilities": "by_hand"}, 400),
])
def test_every_question_of_the_card_and_board_games_is_worded(
        name: str, options: dict[str, object], plies: int) -> None:
    game = rulelang.load_game(name, options=options)
    asked = set()
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(plies):
            if state.is_terminal():
                break
            text = question(game, state)
            assert text and "…" not in text and "{" not in text, (text, state.history())
            assert not text.startswith("Choose "), text  # the fallback: no `ask` there
            asked.add(text)
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(asked) >= 3
