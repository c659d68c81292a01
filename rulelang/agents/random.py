"""An agent that picks uniformly among the legal actions, reproducibly for a given seed."""
from __future__ import annotations

import random

from rulelang.agents.base import StateLike


class RandomAgent:
    is_human = False

    def __init__(self, seed: int = 0, name: str = "random") -> None:
        self.name = name
        self._rng = random.Random(seed)

    def choose(self, state: StateLike) -> int:
        return self._rng.choice(state.legal_actions())
