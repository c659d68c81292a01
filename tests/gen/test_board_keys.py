"""A generated game's repetition keys remember each pile's part (gen/bits.board_key): the
keys are the reference's, also after the remembered parts start anew at their cap."""
from __future__ import annotations

import random

import pytest

import rulelang
import rulelang.gen.bits as bits
from rulelang.gen import GenGame
from rulelang.gen.bridge import canonical


@pytest.mark.parametrize("cap", [bits._PILE_KEYS, 3])
def test_board_keys_are_the_references(monkeypatch: pytest.MonkeyPatch, cap: int) -> None:
    monkeypatch.setattr(bits, "_PILE_KEYS", cap)
    gen = rulelang.load_game("spline_plus", mode="generated")
    ref = rulelang.load_game("spline_plus", mode="interpreted")
    assert isinstance(gen, GenGame)
    gen.state_class.pile_keys.clear()
    gen.state_class.pile_keys[()] = ()
    for seed in range(2):
        g, r, rng = gen.new_initial_state(seed), ref.new_initial_state(seed), random.Random(seed)
        while not r.is_terminal():
            action = rng.choice(r.legal_actions())
            g.apply_action(action)
            r.apply_action(action)
            data = r.data  # (the reference's key: each pile's kinds and owners)
            assert bits.board_key(g) == tuple(tuple((p.kind, data.owner[p.id]) for p in st)
                                              for st in data.at)
        assert canonical(g.data) == canonical(r.data)  # (its position counts too)
    assert len(gen.state_class.pile_keys) <= max(cap, 2)
