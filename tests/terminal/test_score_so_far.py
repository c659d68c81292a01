"""`score` at the prompt during a game: each term's value for each player when the viewer may
know it (rulelang/language/visibility.py: what the term reads, judged against what each zone
and var shows to whom), "hidden" otherwise. Never a leak: for the bundled card and board
games, the table a player is shown is the same in every position their observations allow
(resamples: other hidden cards, other secret choices)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.language.visibility import Visibility
from rulelang.resources import bundled_dir
from rulelang.tools.terminal.ending import open_terms, score_table

BOOK = """\
game "Scored"
players White, Black
board strip(3)
geometry strip(n)
  sites (r, c) for r in 0..0, c in 0..n-1
  name letter(c) + str(r + 1)
piece stone with weight = 1
zone supply each player: 9 stone
zone hand each player visible to owner: 2 stone
zone pile visible to nobody: 3 stone
zone table: 1 stone
var bid each player secret = 0
var shown each player = 0
counter rounds = 0

def mine(p) = size(hand of p)
def everyones = sum q in players: size(hand of q)
def weight_of(p) = sum x in hand of p: x.weight
def relabel(p) = sum p in players: size(hand of p)
def opponent(p) = first q in players where q != p

action place
  choose site s in sites where empty(s)
  put stone of mover at s

turn
  do place

end
  when turn > 2
    highest score wins

score board(p) = count s in sites where owner(s) == p
score rounds_played(p) = rounds
score public_var(p) = shown of p
score own_hand(p) = mine(p)
score own_weights(p) = weight_of(p)
score own_bid(p) = bid of p
score all_hands(p) = everyones
score other_hand(p) = size(hand of opponent(p))
score shadowed(p) = relabel(p)
score pile(p) = size(pile)
score table(p) = size(table)
"""
# term: (known for the player's own value, known for another player's)
EXPECTED = {"board": (True, True), "rounds_played": (True, True), "public_var": (True, True),
            "own_hand": (True, False), "own_weights": (True, False), "own_bid": (True, False),
            "all_hands": (False, False), "other_hand": (False, False),
            "shadowed": (False, False), "pile": (False, False), "table": (True, True)}


def test_what_each_term_reads_decides_who_may_know_it(tmp_path: Path) -> None:
    path = tmp_path / "scored.rule"
    path.write_text(BOOK)
    game = rulelang.load_game(path)
    program = game.runtime.program
    seen = Visibility(program)
    found = {t.name: (seen.open_to(t, own=True), seen.open_to(t, own=False))
             for t in program.scores}
    assert found == EXPECTED
    state = game.new_initial_state(seed=0)
    state.apply_action(state.legal_actions()[0])
    table = {r.plain.split()[0]: r.plain.split()[1:] for r in score_table(game, state,
                                                                          viewer=0)[1:]}
    for term, (own, other) in EXPECTED.items():
        assert (table[term][0] != "hidden") == own and (table[term][1] != "hidden") == other
    assert table["board"] == ["1", "0"] and table["own_hand"][0] == "2"
    assert table["total"] == ["hidden", "hidden"]
    assert [r.plain for r in score_table(game, state)][-1].split()[1:] != ["hidden"] * 2


def test_a_hidden_term_is_not_even_evaluated(tmp_path: Path) -> None:
    path = tmp_path / "scored.rule"
    path.write_text(BOOK.replace("score pile(p) = size(pile)",
                                 "score pile(p) = size(pile) // 0"))
    game = rulelang.load_game(path)
    state = game.new_initial_state(seed=0)
    rows = score_table(game, state, viewer=1)  # the division by zero is never reached
    assert any(r.plain.startswith("pile") and r.plain.split()[1:] == ["hidden", "hidden"]
               for r in rows)


GAMES = [("karesansui", {"players": 4}), ("tatara", {"players": 3}),
         ("muso_sakura", {"players": 3})]


@pytest.mark.parametrize(("book", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_the_score_so_far_is_the_same_in_every_position_the_viewer_allows(
        book: str, options: dict[str, int]) -> None:
    game = rulelang.load_game(bundled_dir() / f"{book}.rule", options)
    state = game.new_initial_state(seed=7)
    rng = random.Random(7)
    for _ in range(40):
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    assert not state.is_terminal()
    for viewer in range(game.num_players):
        shown = [r.plain for r in score_table(game, state, viewer=viewer)]
        assert shown and any(x not in ("hidden",) for r in shown[1:] for x in r.split()[1:])
        for seed in range(3):
            other = state.resample(viewer, seed)
            assert [r.plain for r in score_table(game, other, viewer=viewer)] == shown
        true = {i: state.score_breakdown(i) for i in range(game.num_players)}
        for i in range(game.num_players):  # the values shown are the true ones
            known = open_terms(game, viewer, i)
            assert known  # the board, the counters and the open vars are known to all
            assert state.score_breakdown(i, known) == {
                k: v for k, v in true[i].items() if k.split(" ")[0] in known}


def test_karesansui_shows_a_famous_garden_to_its_owner_only() -> None:
    game = rulelang.load_game(bundled_dir() / "karesansui.rule", {"players": 3})
    assert open_terms(game, 0, 0) - open_terms(game, 0, 1) == {"famous"}
    assert "famous" in open_terms(game, 1, 1) and "sand" in open_terms(game, 1, 0)


def test_score_at_the_prompt_prints_the_table_so_far() -> None:
    import io

    from rich.console import Console

    from rulelang.agents import HumanAgent
    from rulelang.tools.terminal.session import Session
    game = rulelang.load_game(bundled_dir() / "karesansui.rule", {"players": 2})
    out = io.StringIO()
    session = Session(game, [HumanAgent(), HumanAgent()], 1, "karesansui",
                      console=Console(file=out, width=120, height=50))
    assert session._command(0, "score") is None
    text = out.getvalue()
    assert "famous" in text and "sand" in text and "hidden" in text
    assert "what you may not see" in text and "refused" not in text
