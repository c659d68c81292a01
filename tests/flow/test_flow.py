"""Flow features of DESIGN.md section 4, each shown by a small rulebook in this folder:
reactions with priority (reaction.rule), offers (offer.rule), simultaneous secret choices
(secret.rule) and chance (chance.rule). Every test runs interpreted and compiled.

Tests marked xfail(strict=True) pin a known bug or language gap (the reason says which);
they start failing, on purpose, once the engine is fixed, so the marker can be removed.
"""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rulelang

HERE = Path(__file__).resolve().parent
N, E, S = 0, 1, 2  # seats of the three-player rulebooks: North, East, South


@pytest.fixture(params=["interpreted", "compiled"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def load(name: str, mode: str) -> rulelang.Game:
    return rulelang.load_game(HERE / f"{name}.rule", mode=mode)


def play(state: rulelang.State, script: list[tuple[int, str]]) -> None:
    """Apply (player, action string) pairs, checking who is asked each time."""
    for player, action in script:
        assert state.current_player() == player, (player, action, state.history())
        state.apply_action(action)


def labels(state: rulelang.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def zone(obs: dict[str, Any], name: str, owner: str | None) -> dict[str, Any]:
    return next(z for z in obs["zones"] if z["zone"] == name and z["owner"] == owner)


def board(obs: dict[str, Any]) -> dict[str, str | None]:
    """site -> owner of the top piece, for occupied sites."""
    return {s["site"]: s["pieces"][-1]["owner"] for s in obs["board"] if s["pieces"]}


def counters(obs: dict[str, Any], name: str) -> dict[str, int]:
    return {c["owner"]: c["value"] for c in obs["counters"] if c["counter"] == name}


def dump(obs: dict[str, Any], *, without: tuple[str, ...] = ()) -> str:
    return json.dumps({k: v for k, v in obs.items() if k not in without})


# ---- 1. reactions with priority ---------------------------------------------------------
def test_reaction_window_asks_each_other_player_clockwise_from_the_mover(mode: str) -> None:
    state = load("reaction", mode).new_initial_state(seed=0)
    for mover, others in ((N, (E, S)), (E, (S, N)), (S, (N, E))):
        assert state.current_player() == mover
        assert labels(state)[0].startswith("place ")
        state.apply_action(state.legal_actions()[0])
        for p in others:
            assert state.current_player() == p
            assert labels(state) == ["claim", "decline"]
            state.apply_action("decline")


def test_reaction_fewest_pieces_wins_then_clockwise_from_the_mover(mode: str) -> None:
    state = load("reaction", mode).new_initial_state(seed=0)
    taken = {"North": 0, "East": 0, "South": 0}

    def turn(mover: int, site: str, answers: dict[int, str], taker: str | None) -> None:
        others = [(mover + i) % 3 for i in (1, 2)]
        play(state, [(mover, f"place {site}")] + [(p, answers[p]) for p in others])
        obs = state.observation(N)
        if taker is None:
            assert site in board(obs)
        else:
            assert site not in board(obs), "a claimed token leaves the board"
            taken[taker] += 1
        assert {k: zone(obs, "taken", k)["count"] for k in taken} == taken

    turn(N, "s0", {E: "decline", S: "decline"}, None)   # nobody claims: it stays
    turn(E, "s1", {S: "decline", N: "claim"}, "North")  # a single claimant takes it
    # on the board: North 1, East 0, South 0
    turn(S, "s2", {N: "claim", E: "claim"}, "East")     # North is first clockwise; East has fewer
    turn(N, "s3", {E: "claim", S: "claim"}, "East")     # East 0 = South 0: East is first clockwise
    turn(E, "s4", {S: "claim", N: "claim"}, "South")    # South 0 < North 1
    turn(S, "s5", {N: "claim", E: "decline"}, "North")  # the only claimant, though it has most
    assert board(state.observation(E)) == {"s0": "North"}
    assert state.is_terminal()
    assert state.scores() == [2.0, 2.0, 1.0]
    assert state.winners() == [N, E]
    assert state.returns() == [0.0, 0.0, -1.0]


def test_reaction_tie_goes_to_the_first_clockwise_from_the_mover_across_seat_zero(
        mode: str) -> None:
    state = load("reaction", mode).new_initial_state(seed=0)
    play(state, [(N, "place s0"), (E, "decline"), (S, "decline"),
                 (E, "place s1"), (S, "decline"), (N, "decline"),
                 # South moves; North and East both have one token on the board
                 (S, "place s2"), (N, "claim"), (E, "claim")])
    obs = state.observation(S)
    assert zone(obs, "taken", "North")["count"] == 1
    assert zone(obs, "taken", "East")["count"] == 0
    assert board(obs) == {"s0": "North", "s1": "East"}


def test_reaction_claim_is_a_decision_of_the_claimant_only(mode: str) -> None:
    state = load("reaction", mode).new_initial_state(seed=0)
    play(state, [(N, "place s0")])
    with pytest.raises(rulelang.IllegalActionError):
        state.apply_action("place s1")  # East must answer the window, not place
    assert state.current_player() == E


def test_reaction_taken_token_belongs_to_the_taker(mode: str) -> None:
    state = load("reaction", mode).new_initial_state(seed=0)
    play(state, [(N, "place s0"), (E, "claim"), (S, "decline")])
    pieces = zone(state.observation(N), "taken", "East")["pieces"]
    assert [p["owner"] for p in pieces] == ["East"]


# ---- 2. offers ----------------------------------------------------------------------------
def test_offer_mover_picks_among_the_acceptors(mode: str) -> None:
    state = load("offer", mode).new_initial_state(seed=0)
    assert labels(state) == ["offer 1", "offer 2", "offer 3"]
    play(state, [(N, "offer 3"), (E, "accept"), (S, "accept")])
    assert state.current_player() == N
    assert labels(state) == ["East", "South"]
    state.apply_action("South")
    assert counters(state.observation(E), "points") == {"North": 0, "East": 0, "South": 3}
    assert state.current_player() == E  # the next turn


def test_offer_choice_lists_only_acceptors_clockwise_from_the_mover(mode: str) -> None:
    state = load("offer", mode).new_initial_state(seed=0)
    play(state, [(N, "offer 1"), (E, "decline"), (S, "decline"),
                 (E, "offer 1"), (S, "decline"), (N, "accept"),
                 (E, "North"),
                 (S, "offer 2"), (N, "accept"), (E, "accept")])
    assert state.current_player() == S
    assert labels(state) == ["North", "East"]
    state.apply_action("East")
    # North paid 1 for the first offer, then received 1
    assert counters(state.observation(N), "points") == {"North": 0, "East": 2, "South": 0}


def test_offer_single_acceptor_is_still_a_choice_and_a_decliner_cannot_be_chosen(
        mode: str) -> None:
    state = load("offer", mode).new_initial_state(seed=0)
    play(state, [(N, "offer 2"), (E, "decline"), (S, "accept")])
    assert labels(state) == ["South"]
    with pytest.raises(rulelang.IllegalActionError):
        state.apply_action("East")
    state.apply_action("South")
    assert counters(state.observation(N), "points")["South"] == 2


def test_offer_nobody_accepts_then_the_mover_pays(mode: str) -> None:
    state = load("offer", mode).new_initial_state(seed=0)
    play(state, [(N, "offer 3"), (E, "decline"), (S, "decline")])
    assert state.current_player() == E  # no choice by North: straight to the next turn
    assert labels(state) == ["offer 1", "offer 2", "offer 3"]
    assert counters(state.observation(S), "points") == {"North": -1, "East": 0, "South": 0}


def test_offer_game_ends_with_highest_score(mode: str) -> None:
    state = load("offer", mode).new_initial_state(seed=0)
    play(state, [(N, "offer 3"), (E, "accept"), (S, "decline"), (N, "East"),
                 (E, "offer 1"), (S, "decline"), (N, "decline"),
                 (S, "offer 2"), (N, "accept"), (E, "decline"), (S, "North"),
                 (N, "offer 1"), (E, "accept"), (S, "accept"), (N, "South")])
    assert state.is_terminal()
    assert state.scores() == [2.0, 2.0, 1.0]
    assert state.winners() == [N, E]


# ---- 3. simultaneous secret choices ------------------------------------------------------
BIDS = ("71", "72", "73")  # secret.rule bids these; no other part of an observation has them


def test_secret_choices_are_asked_one_player_at_a_time(mode: str) -> None:
    state = load("secret", mode).new_initial_state(seed=0)
    for p in (N, E, S):
        assert state.current_player() == p
        assert labels(state) == list(BIDS)
        state.apply_action("72")
    assert state.is_terminal()
    assert state.winners() == [N, E, S]


def test_secret_choice_is_hidden_from_the_others_until_the_reveal(mode: str) -> None:
    state = load("secret", mode).new_initial_state(seed=0)
    play(state, [(N, "73")])
    assert state.history() == ["73"]  # the full history has it
    for q in (E, S):
        text = json.dumps(state.observation(q))
        assert "73" not in text, f"player {q} can see North's bid: {text}"
        assert state.observation(q)["history"] == ["(secret choice)"]
    play(state, [(E, "71")])
    assert state.history() == ["73", "71"]
    text = json.dumps(state.observation(S))
    assert "73" not in text and "71" not in text
    assert "71" not in json.dumps(state.observation(N))
    assert "73" not in json.dumps(state.observation(E))
    clone = state.clone()  # a clone hides the same things
    assert json.dumps(clone.observation(S)) == json.dumps(state.observation(S))


def test_secret_choice_is_in_its_owners_history(mode: str) -> None:
    state = load("secret", mode).new_initial_state(seed=0)
    play(state, [(N, "73"), (E, "71")])
    assert state.observation(N)["history"] == ["73", "(secret choice)"]
    assert state.observation(E)["history"] == ["(secret choice)", "71"]


def test_secret_owner_sees_own_variable_before_the_reveal(mode: str) -> None:
    state = load("secret", mode).new_initial_state(seed=0)
    play(state, [(N, "73")])
    assert "73" in dump(state.observation(N), without=("history",))


def test_secret_values_are_seen_by_everyone_after_the_reveal(mode: str) -> None:
    state = load("secret", mode).new_initial_state(seed=0)
    play(state, [(N, "73"), (E, "71"), (S, "72")])
    assert state.is_terminal()
    for q in (N, E, S):
        text = dump(state.observation(q), without=("history",))
        assert all(b in text for b in BIDS), f"player {q} after the reveal: {text}"


def test_secret_bid_of_a_later_round_is_hidden_until_its_reveal(mode: str) -> None:
    state = load("secret_rounds", mode).new_initial_state(seed=0)
    play(state, [(N, "71"), (E, "72")])  # round 1, revealed
    assert "72" in dump(state.observation(N), without=("history",))
    play(state, [(N, "73")])  # round 2: East has not chosen yet
    assert state.current_player() == E
    text = json.dumps(state.observation(E))
    assert "73" not in text, f"East sees North's round-2 bid before choosing: {text}"


def test_secret_highest_bid_wins_and_ties_share(mode: str) -> None:
    game = load("secret", mode)
    state = game.new_initial_state(seed=0)
    play(state, [(N, "71"), (E, "73"), (S, "72")])
    assert (state.winners(), state.returns()) == ([E], [-1.0, 1.0, -1.0])
    state = game.new_initial_state(seed=0)
    play(state, [(N, "73"), (E, "71"), (S, "73")])
    assert (state.winners(), state.returns()) == ([N, S], [0.0, -1.0, 0.0])


# ---- 4. chance ----------------------------------------------------------------------------
CARDS = ("amber", "beryl", "coral", "dune", "ember", "frost")


def random_game(game: rulelang.Game, seed: int, agent_seed: int = 1) -> rulelang.State:
    rng, state = random.Random(agent_seed), game.new_initial_state(seed=seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def hand(obs: dict[str, Any], owner: str) -> list[str] | None:
    """The kinds of the cards in a hand, or None when the observer may not see them."""
    pieces = zone(obs, "hand", owner)["pieces"]
    return None if pieces is None else [p["kind"] for p in pieces]


def own_hand(obs: dict[str, Any], owner: str) -> list[str]:
    cards = hand(obs, owner)
    assert cards is not None, f"{owner} cannot see their own hand"
    return cards


def test_chance_same_seed_same_game(mode: str) -> None:
    game = load("chance", mode)
    assert game.has_chance and game.has_hidden_information
    a, b = random_game(game, seed=5), random_game(game, seed=5)
    assert a.history() == b.history()
    assert a.scores() == b.scores()
    for p in (0, 1):
        assert a.observation(p) == b.observation(p)


def test_chance_different_seeds_give_different_games(mode: str) -> None:
    game = load("chance", mode)
    games = {json.dumps([random_game(game, seed=s).observation(p) for p in (0, 1)])
             for s in range(6)}
    assert len(games) > 1


def test_chance_modes_agree(mode: str) -> None:
    other = "compiled" if mode == "interpreted" else "interpreted"
    for seed in range(4):
        a, b = random_game(load("chance", mode), seed), random_game(load("chance", other), seed)
        assert a.observation(0) == b.observation(0)
        assert a.observation(1) == b.observation(1)


def test_chance_deck_and_other_hand_are_hidden(mode: str) -> None:
    state = load("chance", mode).new_initial_state(seed=3)
    names = {0: "North", 1: "South"}
    while not state.is_terminal():
        for p in (0, 1):
            obs = state.observation(p)
            mine = own_hand(obs, names[p])
            assert zone(obs, "deck", None)["pieces"] is None
            assert hand(obs, names[1 - p]) is None
            text = json.dumps(obs)
            assert [c for c in CARDS if c in text] == [c for c in CARDS if c in mine]
        state.apply_action(state.legal_actions()[0])
    assert zone(state.observation(0), "deck", None)["count"] == 0
    hands = own_hand(state.observation(0), "North") + own_hand(state.observation(1), "South")
    assert sorted(hands) == sorted(CARDS)


def test_chance_random_choose_draws_from_the_states_generator(mode: str) -> None:
    """choose x in 1..6 at random: total = points of the drawn card + the roll."""
    game, rolls = load("chance", mode), set()
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        state.apply_action("draw")
        obs = state.observation(0)
        points = dict(zip(CARDS, range(1, 7), strict=True))[own_hand(obs, "North")[0]]
        roll = counters(obs, "total")["North"] - points
        assert 1 <= roll <= 6
        rolls.add(roll)
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_chance_clone_continues_the_same_way(mode: str) -> None:
    state = load("chance", mode).new_initial_state(seed=9)
    state.apply_action("draw")
    clone = state.clone()
    while not state.is_terminal():
        state.apply_action("draw")
        clone.apply_action("draw")
    assert state.observation(0) == clone.observation(0)
    assert state.scores() == clone.scores()


def test_chance_roll_inside_a_single_decision_action(mode: str) -> None:
    state = load("roll_in_action", mode).new_initial_state(seed=0)
    state.apply_action("throw")
    assert 1 <= counters(state.observation(0), "rolled")["A"] <= 6


def test_statement_after_do_in_a_single_decision_turn_runs(mode: str) -> None:
    state = load("after_do", mode).new_initial_state(seed=0)
    state.apply_action("pass")
    assert counters(state.observation(0), "bonus")["A"] == 10
