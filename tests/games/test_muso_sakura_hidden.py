"""Muso Sakura hidden information: hidden hands, the deck order and the secret roles never
reach another player — not in observations, the history shown to them, a record replayed for
them, or the terminal during `rulelang play`."""
from __future__ import annotations

import io
import json
import random
import re
import sys

import pytest
from muso_tools import RULEBOOK, every_card, load, zone

from rulelang.tools import cli

MODES = ["interpreted", "compiled"]


def swap_unseen(state, viewer: int) -> None:
    """Exchange cards between the deck and the other players' hidden hands (what `viewer`
    cannot see), keeping every zone's size: in the reference's data, which an observation is
    made from in every mode (a generated state's, converted to it)."""
    data = state.data
    unseen = [z for z in data.zones if z.name == "deck" or
              (z.name == "hidden" and z.owner != viewer)]
    cards = [c for z in unseen for c in data.zones[z]]
    random.Random(len(cards)).shuffle(cards)
    for z in unseen:
        n = len(data.zones[z])
        data.zones[z], cards = cards[:n], cards[n:]
        for c in data.zones[z]:
            data.loc[c.id] = z


@pytest.mark.parametrize("players", [3, 5])
def test_an_observation_does_not_change_with_what_the_player_cannot_see(players: int) -> None:
    game = load(players, "interpreted")  # the one whose data the test can change in place
    for seed in range(3 - players // 2):  # (two games of 3 players, one of 5)
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            for viewer in range(players):
                before = json.dumps(state.observation(viewer))
                other = state.clone()
                swap_unseen(other, viewer)
                assert json.dumps(other.observation(viewer)) == before
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("mode", MODES)
def test_roles_are_secret_until_revealed_together(mode: str) -> None:
    state, rng = load(3, mode).new_initial_state(seed=4), random.Random(4)
    while not state.legal_actions() or not state.action_to_string(0).startswith("("):
        state.apply_action(rng.choice(state.legal_actions()))
    chosen = []
    for p in range(3):
        text = state.action_to_string(state.legal_actions()[-1])
        state.apply_action(text)
        chosen.append(text)
        if p < 2:  # before the reveal nobody else sees the choice
            for q in range(3):
                obs = state.observation(q)
                shown = json.dumps(obs, ensure_ascii=False)
                assert obs["history"][-1] == (text if q == p else "(secret choice)")
                roles = {v["owner"]: v["value"] for v in obs["vars"] if v["var"] == "chosen"}
                assert all(roles[obs["players"][r]] is None for r in range(3) if r != q)
                if q != p:
                    assert text not in shown
    roles = {v["owner"]: v["value"] for v in state.observation(0)["vars"] if v["var"] == "chosen"}
    assert ["(" + ", ".join(r) + ")" for r in roles.values()] == chosen  # shown to all


def run_cli(capsys, monkeypatch, *argv: str, stdin: str = "") -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out + err


def test_a_record_replayed_for_a_player_shows_only_their_view(capsys, monkeypatch,
                                                              tmp_path) -> None:
    record = str(tmp_path / "game.yaml")
    code, _ = run_cli(capsys, monkeypatch, "play", str(RULEBOOK), "--players", "3",
                      "--agents", "random", "--seed", "5", "--record", record)
    assert code == 0
    code, full = run_cli(capsys, monkeypatch, "replay", record)
    assert code == 0 and "reproduce" in full
    code, out = run_cli(capsys, monkeypatch, "replay", record, "--as", "Player2")
    assert code == 0 and out.startswith("the game as Player2 saw it:")
    assert "(secret choice)" in out and "seed" not in out
    others = [line for line in out.splitlines() if line.startswith(("Player1:", "Player3:"))]
    assert len(others) == 2  # the position is drawn as `rulelang play` draws it
    for line in others:
        assert re.match(r"Player[13]: hidden hand: \d+ hidden$", line) or \
            "hidden hand" not in line, line
    assert re.search(r"table: deck: \d+ hidden", out)
    mine = next(line for line in out.splitlines() if line.startswith("you: "))
    assert mine.startswith("you: hidden hand: ") and not mine.split(" · ")[0].endswith("hidden")
    code, out = run_cli(capsys, monkeypatch, "replay", record, "--as", "Nobody")
    assert code == 1 and "R415" in out and "Player1, Player2, Player3" in out


def test_play_shows_each_human_only_their_own_hand(capsys, monkeypatch) -> None:
    code, out = run_cli(capsys, monkeypatch, "play", str(RULEBOOK), "--players", "3",
                        "--agents", "human,human,random", "--seed", "2", stdin="1\n" * 400)
    assert code == 0
    screens = out.split("pass the device to ")[1:]
    assert len(screens) > 5
    seen_cards = 0
    for screen in screens:
        viewer = screen.split(" — press Enter")[0]
        other = {"Player1": "Player2", "Player2": "Player1"}[viewer]
        lines = [line.strip() for line in screen.splitlines()]
        theirs = [line for line in lines if line.startswith(f"{other}: ")]
        assert theirs and any(f"you are {viewer}" in line for line in lines)
        hand = theirs[0].split("hidden hand: ", 1)
        assert len(hand) == 1 or re.match(r"\d+ hidden( ·|$)", hand[1])  # a count only
        mine = [line for line in lines if line.startswith("you: hidden hand: ")]
        seen_cards += bool(mine and not re.match(r"you: hidden hand: \d+ hidden", mine[0]))
    assert seen_cards > 0  # each viewer's own hand shows its cards


def test_resample_keeps_the_view_and_deals_the_rest_again() -> None:
    state, rng = load(4).new_initial_state(seed=8), random.Random(8)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    me = state.current_player()
    seen = json.dumps(state.observation(me))
    deals = set()
    for seed in range(6):
        sample = state.resample(me, seed)
        assert json.dumps(sample.observation(me)) == seen
        assert sorted(every_card(sample).values()) == [1] * 56
        deals.add(tuple(c.id for c in zone(sample, "deck")))
    assert len(deals) > 1  # the deck is dealt again
    other = state.clone()
    swap_unseen(other, me)  # the same view, another truth: the same samples
    assert [c.id for c in zone(other.resample(me, 3), "deck")] == \
        [c.id for c in zone(state.resample(me, 3), "deck")]


def test_mcts_does_not_peek_at_hidden_cards() -> None:
    # The search reads the real state only for what its player sees (the legal moves) and
    # plays out resamples, which depend on the view alone (the test above): the same view
    # with other hidden cards gives the same move.
    from rulelang.agents import make_agent

    class Spy:
        def __init__(self, state):
            self.state, self.calls = state, []

        def __getattr__(self, name):
            self.calls.append(name)
            return getattr(self.state, name)

    state, rng = load(3).new_initial_state(seed=2), random.Random(2)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    me = state.current_player()
    spy = Spy(state)
    first = make_agent("mcts:60", seed=5).choose(spy)
    assert set(spy.calls) <= {"legal_actions", "current_player", "resample", "action_to_string",
                              "is_terminal"}
    assert spy.calls.count("resample") == 1  # fetched once, called for each of the 60 playouts
    other = state.clone()
    swap_unseen(other, me)
    assert make_agent("mcts:60", seed=5).choose(other) == first


def test_resample_chooses_the_others_secret_roles_again() -> None:
    # Player 0 has chosen a role in secret; player 1 is to choose. A sample for player 1 must
    # not carry player 0's real choice: it is made again at random, so two truths that differ
    # only in that choice give the same samples, and the samples do not all agree with it.
    from muso_tools import at_round_end
    hands = [(["Yaezakura", "Kobukuzakura", "Jugatsuzakura", "Kanzakura"], ["Outou"])] * 3
    start = at_round_end(load(3).new_initial_state(seed=1), hands)
    assert start.current_player() == 0 and len(start.legal_actions()) > 2
    truths = []
    for choice in (0, 2):
        truth = start.clone()
        truth.apply_action(choice)
        assert truth.current_player() == 1
        truths.append(truth)
    assert json.dumps(truths[0].observation(1)) == json.dumps(truths[1].observation(1))

    def revealed(sample, seed):  # play on the same way, up to player 0's role shown
        rng = random.Random(seed)
        while sample.current_player() in (1, 2):
            sample.apply_action(rng.choice(sample.legal_actions()))
        return json.dumps(sample.observation(1))

    for seed in range(4):
        assert revealed(truths[0].resample(1, seed), seed) == \
            revealed(truths[1].resample(1, seed), seed)
    at = len(start.data.history)  # player 0's choice, as each sample holds it

    def chosen(state):
        d, action = state.data.history[at]
        return d.labels()[action]
    assert len({chosen(truths[0].resample(1, seed)) for seed in range(12)}) > 2


def test_resample_after_the_reveal_keeps_the_roles_and_the_hands_that_hold_them() -> None:
    # Every role has been chosen in secret and shown; the 勝景札 are being taken. A sample
    # for any player must show the same roles (they are no longer secret: not chosen
    # again), and every card of a shown role must still be in its owner's hand (the deal of
    # the hidden cards may not move it), up to the next deal.
    from muso_tools import at_round_end, names

    def choose_roles(state, roles):  # each player in turn, a role of these card names
        for p, r in enumerate(roles):
            assert state.current_player() == p
            state.apply_action("(" + ", ".join(sorted(r)) + ")")
    hands = [(["Yaezakura", "Kobukuzakura", "Jugatsuzakura", "Kanzakura"], ["Outou"]),
             (["Hazakura", "Ochiba", "Kareki", "Outou"], ["Kuruizaki"]),
             (["Someiyoshino", "Outou", "Ochiba", "Hazakura"], ["Kanzakura"])]
    state = at_round_end(load(3).new_initial_state(seed=4), hands)
    choose_roles(state, [hands[0][0], hands[1][0][:3] + ["Kuruizaki"], hands[2][0]])
    assert "reveal" not in str(state) and state.current_player() in (0, 1, 2)
    checked = 0
    while state.current_player() in (0, 1, 2) and checked < 6:
        for me in range(3):
            seen = json.dumps(state.observation(me))
            for seed in range(4):
                sample = state.resample(me, seed)
                assert json.dumps(sample.observation(me)) == seen
                data = sample.data
                for q in range(3):
                    role = data.vars[("chosen", q)]
                    held = {c.id for z in ("hidden", "open") for c in zone(sample, z, q)}
                    scenic = {c.id for c in zone(sample, "scenic", q)}
                    assert {c.id for c in role} <= held | scenic, (me, q, seed)
                checked += 1
        state.apply_action(state.legal_actions()[0])
    assert checked >= 12 and names(state, "field") is not None
