"""`state.resample(p, seed)` for every player p, not only the one to move (in the style of
OpenSpiel's ResampleInfostateTest): the copy's decision is made from the copy's own dealt
hands, so every option it offers applies, it names no hidden card that the copy's mover
does not hold, and the copy plays on to the end; every mode gives the same copy."""
from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rulelang

MOVES_50 = ("wander, party Ochiba Someiyoshino, visit Ochiba, party Ochiba Hazakura, wander, "
            "party Yaezakura Ochiba, wander, party Someiyoshino Kanzakura, visit Ochiba, "
            "party Ochiba Kobukuzakura, visit Someiyoshino, party Someiyoshino Outou, "
            "visit Ochiba, party Ochiba Kareki, visit Someiyoshino").split(", ")


def load(players: int, mode: str = "compiled") -> Any:
    return rulelang.load_game("muso_sakura", options={"players": players}, mode=mode)


def names(state: Any, zone: str, owner: int | None = None) -> set[str]:
    return {state.ctx.data.attrs["name"][c.id] for ref, pile in state.ctx.data.zones.items()
            if ref.name == zone and ref.owner == owner for c in pile}


def check_names(copy: Any, label: str) -> None:
    """Every card the option names is where the option takes it from, in the copy."""
    m = copy.current_player()
    hidden, opened = names(copy, "hidden", m), names(copy, "open", m)
    words = label.replace("(", "").replace(")", "").replace(",", "").split()
    if words[0] == "tea":
        assert words[1] in hidden, f"'{label}': not in the mover's hidden hand"
    elif words[0] == "party":
        assert words[1] in opened and words[2] in hidden, f"'{label}': not in the mover's hand"
    elif words[0] == "visit":
        assert words[1] in names(copy, "field")
    elif words[0] not in ("wander", "close", "muse", "rest", "deck"):  # a role, or a pick
        pool = hidden | opened | names(copy, "scenic", m) | names(copy, "field")
        assert set(words) <= pool, f"'{label}': a card the player has not got"


def check_copy(state: Any, player: int, seed: int) -> Any:
    """The copy's options come from its own hands and every one applies."""
    copy = state.resample(player, seed)
    labels = [copy.action_to_string(a) for a in copy.legal_actions()]
    for label in labels:
        check_names(copy, label)
    teas = {x.split()[1] for x in labels if x.startswith("tea ")}
    if teas:  # the menu lists the copy's hidden hand, all of it
        assert teas == names(copy, "hidden", copy.current_player())
    for action in copy.legal_actions():
        state.resample(player, seed).apply_action(action)  # (the same copy: no error)
    return copy


def test_the_reported_resample_offers_the_observers_own_deal() -> None:
    state = load(3).new_initial_state(seed=0)
    for move in MOVES_50:
        state.apply_action(move)
    assert state.current_player() == 1
    truth = [state.action_to_string(a) for a in state.legal_actions()]
    assert "tea Jugatsuzakura" in truth
    dealt = [check_copy(state, 2, seed) for seed in (701326, 1, 2, 3)]
    menus = {tuple(c.action_to_string(a) for a in c.legal_actions()) for c in dealt}
    assert len(menus) > 1  # the mover's hidden hand is dealt again, and its menu with it


@pytest.mark.parametrize("players", [3, 5])
def test_every_observers_copy_offers_what_it_holds_and_plays_to_the_end(players: int) -> None:
    game, rng = load(players), random.Random(players)
    final = game.new_initial_state(seed=players)
    final.play_out(random.Random(players), 10_000)
    moves = final.history()
    plies = sorted(rng.sample(range(len(moves)), 7))
    state, done, checked, others = game.new_initial_state(seed=players), 0, 0, 0
    for ply in plies:
        while done < ply:
            state.apply_action(moves[done])
            done += 1
        for p in range(players):
            seed = rng.randrange(1 << 30)
            copy = check_copy(state, p, seed)
            others += copy.current_player() != p
            checked += 1
            copy.play_out(random.Random(seed), 10_000)
            assert copy.is_terminal()
    assert others > checked // 2


@pytest.mark.parametrize("players", [3, 5])
def test_the_modes_make_the_same_copy(players: int) -> None:
    games = [load(players, mode) for mode in ("interpreted", "compiled")]
    states = [g.new_initial_state(seed=7) for g in games]
    rng = random.Random(7)
    for ply in range(60):
        if states[0].is_terminal():
            break
        if ply % 12 == 11:
            for p in range(players):
                views = []
                for state in states:
                    copy = state.resample(p, ply)
                    views.append(json.dumps([copy.observation(q) for q in range(players)]
                                            + [copy.action_to_string(a)
                                               for a in copy.legal_actions()]))
                assert views[0] == views[1], f"ply {ply}, player {p}"
        action = rng.choice(states[0].legal_actions())
        for state in states:
            state.apply_action(action)


def test_a_generated_games_copy_is_the_references() -> None:
    """A game the generator takes hides nothing: its copy is the state with the chance
    generator seeded anew, as the reference's is (mid-turn too: Spire's turns decide twice)."""
    games = [rulelang.load_game("spire", mode=mode) for mode in ("interpreted", "generated")]
    assert type(games[1]).__name__ == "GenGame"
    states = [g.new_initial_state(seed=3) for g in games]
    rng = random.Random(3)
    for ply in range(24):
        if states[0].is_terminal():
            break
        copies = [s.resample(ply % 2, ply) for s in states]
        outs = []
        for copy in copies:
            copy.play_out(random.Random(ply), 12)
            outs.append((copy.history(), copy.observation(0)))
        assert outs[0] == outs[1]
        action = rng.choice(states[0].legal_actions())
        for state in states:
            state.apply_action(action)


@pytest.mark.parametrize("book", ["muso_sakura", "karesansui", "tatara"])
def test_every_hidden_information_games_copies_play_on(book: str) -> None:
    """Every player's copy, at a few positions of a seeded game: every option applies and
    the copy plays to its end."""
    game, rng = rulelang.load_game(book), random.Random(11)
    assert game.has_hidden_information
    final = game.new_initial_state(seed=11)
    final.play_out(random.Random(11), 10_000)
    moves = final.history()
    state, done = game.new_initial_state(seed=11), 0
    for ply in sorted(rng.sample(range(len(moves)), 3)):
        while done < ply:
            state.apply_action(moves[done])
            done += 1
        for p in range(game.num_players):
            copy = state.resample(p, ply)
            assert copy.current_player() == state.current_player()
            for action in copy.legal_actions():
                state.resample(p, ply).apply_action(action)
            copy.play_out(random.Random(ply), 10_000)
            assert copy.is_terminal()
