"""A quantifier over the board's sites whose condition begins with `owner(s) == P` (P a
player known when written) goes over P's kept owner bits (gen/comprehensions.owned_sites),
the rest of the condition as written, as the reference; a bitset's sites are read a byte
at a time (gen/bits.chunk_sites)."""
from __future__ import annotations

import random
from typing import Any

import rulelang
from rulelang.gen.bits import bit_sites, chunk_sites, site_chunks
from rulelang.gen.bridge import canonical

from .test_generated_equal import _side_by_side

OWNED = """use square
game "Owned"
players A, B
board square.grid(4, 5, 3)
piece stone
zone supply each player: 12 stone
def mine = each s in sites where owner(s) == mover and s.r + s.c != {skip}
def theirs = count s in sites where owner(s) == opponent
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action lift
  choose site s in mine where theirs >= 1
  remove top(s)
turn
  do place or lift
end
  when turn > 24
    draw
"""


def test_the_sites_of_a_players_owner_bits_as_the_reference(tmp_path: object) -> None:
    for skip in (2, 5):
        gen, taken = _side_by_side(tmp_path, OWNED.format(skip=skip), 5)
        source = gen.state_class.generated.source
        assert ", S.own[" in source  # (the owner bits, read as sites)
        assert any(t.startswith("lift") for t in taken)


def test_a_bitsets_sites_by_bytes_are_its_sites_in_order() -> None:
    sites = tuple(f"s{i}" for i in range(29))  # (any items: the board's sites in order)
    chunks = site_chunks(sites)
    rng = random.Random(3)
    for _ in range(300):
        bits = rng.getrandbits(29) & rng.getrandbits(29)
        assert chunk_sites(chunks, bits) == bit_sites(sites, bits)
    assert chunk_sites(chunks, 0) == () and chunk_sites(chunks, (1 << 29) - 1) == sites


# chooses over the board's sites of one player's (a simple action, a walked one whose
# first choose is also drawn lazily in a playout)
OWNED_CHOICES = """use square
game "Owned choices"
players A, B
board square.grid(4, 4, 3)
piece stone
zone supply each player: 10 stone
action place
  choose site s in sites where empty(s)
  put stone of mover at s
action lift
  choose site s in sites where owner(s) == mover and s.r != {skip}
  remove top(s)
action shift
  choose site src in sites where owner(src) == opponent and src.c != {skip}
  let b = top(src)
  remove b
  choose site dest in sites where empty(dest) and dest != src
  put b at dest
turn
  do place or lift or shift
end
  when turn > 24
    draw
"""


def test_chooses_over_a_players_sites_as_the_reference(tmp_path: Any) -> None:
    for skip in (1, 3):
        gen, taken = _side_by_side(tmp_path, OWNED_CHOICES.format(skip=skip), 5)
        source = gen.state_class.generated.source
        assert "owner" not in source and source.count("S.own[") >= 6  # (menus and draws)
        assert {t.split()[0] for t in taken} == {"place", "lift", "shift"}
        ref = rulelang.load_game(tmp_path / "game.rule", mode="interpreted")
        for seed in range(20):  # a playout's lazy draws are the reference's options
            g, r = gen.new_initial_state(seed), ref.new_initial_state(seed)
            g.play_out(random.Random(seed), 10_000)
            for action in g.history():
                r.apply_action(action)
            assert r.is_terminal() and canonical(g.data) == canonical(r.data)
