"""`any` over lines as bits tested in one number (gen/bits.py lanes, within_lanes): the same
answer as the loop (some_within) for any masks and bits of n sites, edge cases included (no
mask, an empty mask, a mask of every site, bits of every site)."""
from __future__ import annotations

import random

from rulelang.gen.bits import lanes, some_within, within_lanes


def test_lanes_answer_as_the_loop() -> None:
    rng = random.Random(7)
    hits = 0
    for case in range(3000):
        n = rng.choice([1, 2, 9, 30, 42, 64, 121, 200])
        full = (1 << n) - 1
        masks = tuple(rng.choice([0, full, rng.getrandbits(n),
                                  rng.getrandbits(n) & rng.getrandbits(n)])
                      for _ in range(rng.randint(0, 16)))
        packed = lanes(masks, n)
        for bits in (0, full, rng.getrandbits(n), rng.getrandbits(n) | rng.getrandbits(n)):
            expected = some_within(masks, bits)
            assert within_lanes(packed, bits) == expected, (case, n, masks, bits)
            hits += expected
    assert hits > 1000  # (both answers are met)
