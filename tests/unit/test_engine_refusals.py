"""IllegalActionError says why in the designer's words (`require … else`, `choose … else`)
or in plain words with the values it read, never in the rules' code: in the card and board
games at random positions, and in a rulebook that words nothing (language/refusals.py)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import rulelang
from rulelang.errors import IllegalActionError

# what rule code looks like: a call of a rule, `where`, `each x in`, a choose's local quoted
CODE = re.compile(r"\b[a-z_]+\.[a-z_]+\(|\b\w+_\w+\(|\(s\)|\bwhere\b|\beach \w+ in\b|"
                  r"\(from |is not a choice for '|\bThenMark|\bNOTHING\b")
BOOK = """use square
game "Plain"
players A, B
board square.grid(1, 4, 2)
piece stone
zone supply each player: 5 stone
counter coins each player = 0
def free_next_to(s) = empty(s) and (any t in square.orthogonal(s): empty(t))
action put
  choose site s in sites where free_next_to(s)
  put stone of mover at s
  increase coins of mover by 1
action buy
  require coins of mover >= 3
  choose site s in sites where occupied(s) and owner(s) == mover
  remove top(s)
turn
  do put or buy
"""


def _refusal(state: rulelang.State, text: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        state.apply_action(text)
    return str(err.value)


def test_a_rulebook_without_words_is_refused_in_plain_words(tmp_path: Path) -> None:
    path = tmp_path / "plain.rule"
    path.write_text(BOOK, encoding="utf-8")
    state = rulelang.load_game(path, mode="interpreted").new_initial_state()
    assert _refusal(state, "buy a1") == \
        "'buy' is not possible now: coins of A is 0; it must be at least 3"
    state.apply_action("put a1")
    state.apply_action("put d1")
    assert _refusal(state, "put a1") == "'put a1' is not a legal way to put: a1 is occupied " \
        "(by A)"
    assert _refusal(state, "put z9") == "'put z9' is not a legal way to put: there is no " \
        "site z9 on this board"


def _wrong_texts(state: rulelang.State, rng: random.Random) -> list[str]:
    """Texts near the legal ones: each legal action's name with another value, a site
    of the board that is no choice here, and a name of no action."""
    labels = [state.action_to_string(a) for a in state.legal_actions()]
    sites = [s.name for s in state.game.runtime.board.sites] or ["a1"]
    wrong = [f"{rng.choice(labels).split()[0]} {rng.choice(sites)}", rng.choice(sites),
             "nonsense", f"{rng.choice(labels)} extra"]
    return [w for w in wrong if w not in labels]


@pytest.mark.parametrize("name,players", [("tatara", 2), ("karesansui", 2),
                                          ("muso_sakura", 3)])
def test_the_card_and_board_games_refuse_without_rule_code(name: str, players: int) -> None:
    game = rulelang.load_game(name, options={"players": players})
    rng = random.Random(7)
    state = game.new_initial_state(seed=7)
    said = []
    for _ in range(24):
        if state.is_terminal():
            break
        for text in _wrong_texts(state, rng):
            try:
                state.string_to_action(text)
            except IllegalActionError as err:
                said.append(str(err))
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(said) > 30
    coded = [m for m in said if CODE.search(m)]
    assert not coded, coded[:5]


def test_the_web_table_asks_in_the_rulebook_words() -> None:
    from rulelang.tools.serve.views import question

    game = rulelang.load_game("tatara", options={"players": 2})
    asked = question(game, game.new_initial_state(seed=1))  # the setup's choose of a site
    assert asked and not CODE.search(asked) and not asked.startswith("choose ")


def test_the_movers_of_a_history_hide_who_chose_in_secret() -> None:
    from rulelang.game.engine import shown_history, shown_movers

    game = rulelang.load_game("muso_sakura", options={"players": 3})
    state = game.new_initial_state(seed=3)
    rng = random.Random(3)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    made = state.ctx.data.history
    assert any(d.secret for d, _ in made)  # the roles were chosen in secret
    for p in range(3):
        shown, movers = shown_history(made, p), shown_movers(made, p)
        assert len(shown) == len(movers)
        for text, who in zip(shown, movers, strict=True):
            assert (who is None) == (text == "(secret choice)")


HIDDEN = """use square
game "Hidden"
players A, B
board square.grid(1, 2, 2)
piece card with value = 0
zone deck ordered visible to nobody: 3 card
zone hand each player visible to owner
setup
  for each c in deck
    set c.value = 7
action peek
  require (first c in deck: c.value) == 2
action take
  require (first c in hand of mover: c.value) == 2 else "you need a two in hand"
action pass
turn
  do peek or take or pass
"""


def test_plain_words_never_tell_what_a_player_may_not_see(tmp_path: Path) -> None:
    path = tmp_path / "hidden.rule"
    path.write_text(HIDDEN, encoding="utf-8")
    state = rulelang.load_game(path, mode="interpreted").new_initial_state()
    said = _refusal(state, "peek")
    assert "7" not in said and said.endswith("a requirement of the rules does not hold")
    assert _refusal(state, "take").endswith("you need a two in hand")  # the designer's
