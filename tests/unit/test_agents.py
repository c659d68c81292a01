"""Agents against the fake n-in-a-row game in tests/fakes.py."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import fakes  # noqa: E402

from rulelang.agents import (  # noqa: E402
    DEFAULT_ITERATIONS,
    DEFAULT_SECONDS,
    LEVELS,
    HumanAgent,
    MCTSAgent,
    QuitGame,
    RandomAgent,
    make_agent,
)
from rulelang.errors import RulelangError  # noqa: E402


@pytest.fixture
def game(tmp_path: Path) -> fakes.FakeGame:
    book = tmp_path / "fake.rule"
    book.write_text("fake\n")
    return fakes.load_game(str(book))


def _after(game: fakes.FakeGame, *moves: str) -> fakes.FakeState:
    state = game.new_initial_state()
    for move in moves:
        state.apply_action(move)
    return state


def _play_out(state: fakes.FakeState, agents: list) -> fakes.FakeState:
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].choose(state))
    return state


def test_random_agent_picks_legal_actions_to_the_end(game):
    state = _play_out(game.new_initial_state(), [RandomAgent(1), RandomAgent(2)])
    assert state.is_terminal() and state.legal_actions() == []


def test_random_agent_is_reproducible_for_a_seed(game):
    runs = [_play_out(game.new_initial_state(), [RandomAgent(5), RandomAgent(6)]).history()
            for _ in range(2)]
    assert runs[0] == runs[1]


def test_random_agent_seeds_differ(game):
    state = game.new_initial_state()
    picks = {tuple(RandomAgent(seed).choose(state) for _ in range(5)) for seed in range(8)}
    assert len(picks) > 1


def test_mcts_takes_an_immediate_win(game):
    state = _after(game, "a1", "a2", "b1", "b2")
    assert state.action_to_string(MCTSAgent(300, seed=1).choose(state)) == "c1"


def test_mcts_blocks_the_opponent(game):
    state = _after(game, "a1", "c3", "b1")
    assert state.action_to_string(MCTSAgent(400, seed=2).choose(state)) == "c1"


def test_mcts_leaves_the_state_alone(game):
    state = _after(game, "a1")
    MCTSAgent(50, seed=0).choose(state)
    assert state.history() == ["a1"]


def test_mcts_is_reproducible_for_a_seed(game):
    state = game.new_initial_state()
    assert MCTSAgent(100, seed=4).choose(state) == MCTSAgent(100, seed=4).choose(state)


def test_mcts_with_three_players_wins_for_the_player_to_move(tmp_path):
    book = tmp_path / "fake.rule"
    book.write_text("fake\n")
    game = fakes.load_game(str(book), {"players": 3, "size": 4})
    state = _after(game, "a1", "d1", "a3", "b1", "d2", "b3", "d4", "c4")  # Pat: c3 wins
    assert state.current_player() == 2
    state.apply_action(MCTSAgent(300, seed=3).choose(state))
    assert state.winners() == [2]


def test_mcts_plays_three_player_games_to_the_end(tmp_path):
    book = tmp_path / "fake.rule"
    book.write_text("fake\n")
    game = fakes.load_game(str(book), {"players": 3, "size": 4})
    state = _play_out(game.new_initial_state(), [MCTSAgent(20, seed=i) for i in range(3)])
    assert state.is_terminal()


def test_mcts_returns_the_only_legal_action_at_once(game):
    state = _after(game, "a1", "b1", "c1", "a2", "b2", "c2", "b3", "a3")
    assert state.legal_actions() == [8]
    assert MCTSAgent(10_000_000).choose(state) == 8


@pytest.mark.parametrize(("name", "kind"), [("human", HumanAgent), ("random", RandomAgent),
                                            ("mcts", MCTSAgent), ("MCTS:25", MCTSAgent)])
def test_make_agent_knows_the_names(name, kind):
    assert isinstance(make_agent(name, seed=1), kind)


def test_make_agent_budgets():
    assert make_agent("mcts").iterations == DEFAULT_ITERATIONS
    assert make_agent("mcts").seconds == DEFAULT_SECONDS == 2.0  # the default answers in time
    assert make_agent("mcts:25").iterations == 25
    assert make_agent("mcts:25").seconds is None  # mcts:N: fixed playouts, reproducible


def test_a_playout_budget_is_bounded():
    assert make_agent("mcts:1000000").iterations == 1_000_000
    for huge in ("mcts:1000001", "mcts:99999999999999999999999", "mcts:" + "9" * 5000):
        with pytest.raises(RulelangError) as err:
            make_agent(huge)
        assert "whole number from 1 to 1,000,000" in err.value.render()


@pytest.mark.parametrize("name", ["alphazero", "mcts:0", "mcts:many", "random:3", "mcts:\u0663",
                                  ""])
def test_make_agent_refuses_unknown_names(name):
    with pytest.raises(RulelangError) as err:
        make_agent(name)
    assert "error[R412]" in err.value.render()
    assert "human, random, mcts, mcts:N" in err.value.render()


def test_a_human_without_a_console_quits(game):
    with pytest.raises(QuitGame):
        HumanAgent().choose(game.new_initial_state())


def test_a_human_answers_through_ask(game):
    agent = HumanAgent(ask=lambda state: state.legal_actions()[-1])
    assert agent.choose(game.new_initial_state()) == 8


def test_time_budgets_and_named_levels():
    timed = make_agent("mcts:0.2s")
    assert timed.iterations is None and timed.seconds == 0.2
    assert make_agent("mcts:2s").seconds == 2.0
    for level, (playouts, seconds) in LEVELS.items():
        agent = make_agent(level)
        assert (agent.iterations, agent.seconds, agent.name) == (playouts, seconds, level)
    for bad in ("mcts:0s", "mcts:xs", "easy:3"):
        with pytest.raises(RulelangError):
            make_agent(bad)


def test_a_time_budget_stops_the_search_and_progress_is_told(game):
    calls: list[tuple[int, float]] = []
    agent = MCTSAgent(None, seed=1, seconds=0.05)
    agent.progress = lambda playouts, seconds: calls.append((playouts, seconds))
    assert agent.choose(game.new_initial_state()) in game.new_initial_state().legal_actions()
    assert agent.playouts >= 1 and calls and calls[-1][0] <= agent.playouts
    assert all(b[1] >= a[1] for a, b in zip(calls, calls[1:], strict=False))  # time goes on
    capped = MCTSAgent(5, seed=1, seconds=60.0)  # the playouts run out first
    capped.choose(game.new_initial_state())
    assert capped.playouts == 5


@pytest.mark.parametrize("enabled", [True, False])
def test_mcts_pauses_the_collector_while_it_searches_and_leaves_it_as_found(game, enabled):
    """The cyclic garbage collector is off during a search (a search makes no cycles; the
    collector's passes cost it 2-7 %) and as it was found after, also after an error."""
    import gc

    seen: list[bool] = []

    class Watched(fakes.FakeState):
        def clone(self):
            seen.append(gc.isenabled())
            return super().clone()

    state = _after(game, "a1")
    state.__class__ = Watched
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        MCTSAgent(20, seed=0).choose(state)
        assert gc.isenabled() is enabled
        with pytest.raises(ZeroDivisionError):
            agent = MCTSAgent(20, seed=0)
            agent._iterate = lambda root, sample: 1 / 0  # type: ignore[method-assign]
            agent.choose(state)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
    assert seen and not any(seen)
