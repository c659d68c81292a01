"""The rulebooks as OpenSpiel games (rulelang/openspiel.py), checked by OpenSpiel's own
tests: random_sim_test (with serialisation), a resample check in the style of its
ResampleInfostateTest, its MCTSBot and IS-MCTS playing to the end, and its playthrough of
tic-tac-toe against the C++ game's."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
import rulelang  # noqa: E402
import rulelang.openspiel  # noqa: E402  (registers the bundled rulebooks)

SIMS = ["rulelang_tic_tac_toe", "rulelang_hex(size=5)",
        "rulelang_karesansui(max_plies=40)", "rulelang_tatara(players=3,max_plies=20)",
        "rulelang_muso_sakura(abilities=by_hand,max_plies=60)"]


@pytest.mark.parametrize("name", SIMS)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_game_type_is_read_from_the_rulebook() -> None:
    t = pyspiel.GameType
    hex5 = pyspiel.load_game("rulelang_hex(size=5)")
    assert hex5.get_type().chance_mode == t.ChanceMode.DETERMINISTIC
    assert hex5.get_type().information == t.Information.PERFECT_INFORMATION
    assert hex5.get_type().utility == t.Utility.ZERO_SUM
    assert hex5.num_distinct_actions() == 25 and hex5.num_players() == 2
    kare = pyspiel.load_game("rulelang_karesansui(players=3)")
    assert kare.get_type().chance_mode == t.ChanceMode.EXPLICIT_STOCHASTIC
    assert kare.get_type().information == t.Information.IMPERFECT_INFORMATION
    assert kare.get_type().utility == t.Utility.GENERAL_SUM and kare.num_players() == 3


def test_each_draw_is_a_chance_node() -> None:
    """Muso Sakura's setup shuffles its deck of k cards: k-1 chance nodes, Fisher-Yates
    (the i-th draws among k-i places), each outcome as likely; the outcomes given are the
    engine's own draws (`randrange`), so a seed's draws give that seed's game."""
    import rulelang
    from rulelang.model.rng import Rng
    game = pyspiel.load_game("rulelang_muso_sakura")
    state, rng, sizes = game.new_initial_state(), Rng(5), []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert {p for _, p in outcomes} == {1 / len(outcomes)}
        sizes.append(len(outcomes))
        state.apply_action(rng.randrange(len(outcomes)))
    deck = sizes[0]
    assert sizes == list(range(deck, 1, -1))
    seeded = rulelang.load_game("muso_sakura").new_initial_state(seed=5)
    assert state.rl.observation(0) == seeded.observation(0)
    assert state.legal_actions() == seeded.legal_action_ids()


def test_register_names_a_choose_that_cannot_be_numbered(tmp_path: Path) -> None:
    path = tmp_path / "numbers.rule"
    path.write_text(NUMBERS)
    with pytest.raises(rulelang.RulebookError) as info:
        rulelang.openspiel.register(path, short_name="rulelang_test_numbers")
    assert "numbers.rule:10:3: error[R270]: the values of 'n' cannot be numbered" \
        in info.value.render()
    assert "rulelang_test_numbers" not in pyspiel.registered_names()


def test_register_a_rulebook_with_options(tmp_path: Path) -> None:
    path = tmp_path / "numbers.rule"
    path.write_text(NUMBERS.replace("(total + 2)", "3"))
    name = rulelang.openspiel.register(path, {"players": 2}, "rulelang_test_numbers_ok")
    game = pyspiel.load_game(name)
    assert game.num_distinct_actions() == 3 * 4
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


NUMBERS = """
use square
game "Numbers"
players A, B
board square.grid(2, 2, 2)
piece stone
zone supply each player: 4 stone
counter total = 0
action pick
  choose number n in 1..(total + 2)
  choose site s in sites where empty(s)
  increase total by n
  put stone of mover at s
turn
  do pick
end
  when total >= 6
    winner mover
"""


def _playing(game: object, seed: int, plies: int) -> object:
    rng = random.Random(seed)
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal() and plies > 0:
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        plies -= 1
    while state.is_chance_node():  # (to a player's turn)
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


@pytest.mark.parametrize(("name", "plies"), [("rulelang_karesansui(max_plies=60)", 112),
                                             ("rulelang_muso_sakura", 110)])
def test_resampled_states_keep_the_information_state(name: str, plies: int) -> None:
    """As OpenSpiel's ResampleInfostateTest: a state resampled for the player to move has
    that player's information state, the same player to move and the same legal actions,
    and plays on to the end; what the player cannot see does change in some resample."""
    game = pyspiel.load_game(name)
    differs = False
    for seed in range(3):
        state = _playing(game, seed, plies + 5 * seed)
        p = state.current_player()
        for k in range(3):
            sampler = iter([random.Random(k).random()]).__next__
            new = state.resample_from_infostate(p, sampler)
            assert new.information_state_string(p) == state.information_state_string(p)
            assert new.information_state_tensor(p) == state.information_state_tensor(p)
            assert new.current_player() == p
            assert new.legal_actions() == state.legal_actions()
            differs |= str(new) != str(state)
            if k == 0:  # (it plays on, its chance drawn anew)
                copy, rng = new.clone(), random.Random(k)
                while not copy.is_terminal():
                    copy.apply_action(rng.choice([a for a, _ in copy.chance_outcomes()]
                                                 if copy.is_chance_node()
                                                 else copy.legal_actions()))
    assert differs


def test_mcts_bot_plays_to_the_end() -> None:
    """OpenSpiel's Python MCTSBot (its C++ MCTSBot crashes on any Python game in
    open-spiel 2.0.2, its own python_tic_tac_toe too)."""
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import mcts
    game = pyspiel.load_game("rulelang_connect_four")
    bots = [mcts.MCTSBot(game, 2, 20, mcts.RandomRolloutEvaluator(1, np.random.RandomState(s)),
                         random_state=np.random.RandomState(s)) for s in (1, 2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    assert sum(state.returns()) == 0


def test_ismcts_plays_a_hidden_information_game_to_the_end() -> None:
    np = pytest.importorskip("numpy")
    from open_spiel.python.algorithms import ismcts, mcts
    game = pyspiel.load_game("rulelang_karesansui(max_plies=20)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(2))
    state, rng = game.new_initial_state(), random.Random(3)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(len(state.chance_outcomes())))
        else:
            state.apply_action(bot.step(state))
    assert state.is_terminal() and len(state.rl.history()) <= 20
