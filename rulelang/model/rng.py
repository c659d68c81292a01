"""The state's random generator: SplitMix64 on one integer, so copying a state copies one
number (random.Random's state is 625 words). Same seed, same calls -> same numbers."""
from __future__ import annotations

from typing import Any

_MASK = (1 << 64) - 1


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def seed(self, seed: int) -> None:
        self.state = seed & _MASK

    def copy(self) -> Rng:
        new = Rng.__new__(Rng)
        new.state = self.state
        return new

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """Uniform in 0..n-1 (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("empty range")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]
