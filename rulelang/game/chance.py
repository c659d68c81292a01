"""Chance drawn from outside: a state whose generator is a `ScriptedRng` takes each draw
from a list of outcomes given to it (an OpenSpiel chance node's outcome: rulelang/openspiel.py)
and, when the list runs out, stops the step that draws with `NeedChance(n)`: a draw of one of
n equally likely outcomes is to be made. Every draw of the engine (a shuffle, `choose … at
random`) is `randrange(n)` on the state's generator, so the outcomes are exactly the game's.

The list is shared by the generator's copies (a state's clone, its checkpoints) and only
grows, each copy reading from its own position: a replay reads the same outcomes again."""
from __future__ import annotations

from rulelang.errors import RulelangError
from rulelang.model.rng import Rng


class NeedChance(BaseException):  # noqa: N818 - (not an error: a pause; BaseException, so
    """A draw of one of n outcomes is to be made.""" # that no `except Exception` takes it)

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class ScriptedRng(Rng):
    __slots__ = ("script", "at")

    def __init__(self, script: list[int]) -> None:
        super().__init__(0)
        self.script, self.at = script, 0

    def seed(self, seed: int) -> None:
        """(A scripted generator takes no seed: its outcomes are given.)"""

    def copy(self) -> ScriptedRng:
        new = ScriptedRng(self.script)
        new.at = self.at
        return new

    def randrange(self, n: int) -> int:
        if n <= 0:
            raise ValueError("empty range")
        if self.at == len(self.script):
            raise NeedChance(n)
        k = self.script[self.at]
        if not 0 <= k < n:
            raise RulelangError(f"chance outcome {k} is not one of 0..{n - 1}")
        self.at += 1
        return k

    def next64(self) -> int:
        raise RulelangError("a scripted generator draws only outcomes in a range")
