"""The statistics of `rulelang evaluate` and `rulelang compare`: Wilson intervals for rates,
mean and spread, paired differences with normal intervals, and a sequential probability
ratio test on the discordant pairs of two paired runs.  Pure functions, no dependencies."""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

Z95 = 1.959963984540054  # the two-sided 95 % point of the standard normal


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of k successes in n trials (0, 1 when n is 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    scale = 1 + z * z / n
    return (max(0.0, (centre - half) / scale), min(1.0, (centre + half) / scale))


def rate(k: int, n: int) -> dict[str, float | int]:
    """A rate with its 95 % Wilson interval, as the JSON report holds it."""
    low, high = wilson(k, n)
    return {"count": k, "of": n, "rate": k / n if n else 0.0, "low": low, "high": high}


def mean_sd(values: Sequence[float]) -> dict[str, float]:
    """Mean, sample standard deviation, min and max (zeros for no values)."""
    if not values:
        return {"mean": 0.0, "sd": 0.0, "min": 0.0, "max": 0.0}
    n = len(values)
    mean = math.fsum(values) / n
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    return {"mean": mean, "sd": math.sqrt(var), "min": float(min(values)),
            "max": float(max(values))}


def paired(a: Sequence[float], b: Sequence[float]) -> dict[str, float]:
    """The mean of b - a over pairs, with its 95 % normal interval."""
    diffs = [y - x for x, y in zip(a, b, strict=True)]
    summary = mean_sd(diffs)
    n = len(diffs)
    half = Z95 * summary["sd"] / math.sqrt(n) if n > 1 else math.inf
    return {"a": math.fsum(a) / n if n else 0.0, "b": math.fsum(b) / n if n else 0.0,
            "diff": summary["mean"], "low": summary["mean"] - half,
            "high": summary["mean"] + half, "pairs": n}


def histogram(values: Sequence[int], bins: int = 20) -> list[dict[str, int]]:
    """Counts of whole numbers in at most `bins` equal bins: [{low, high, count}, ...]."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    counts: dict[int, int] = {}
    for v in values:
        counts[(v - low) // width] = counts.get((v - low) // width, 0) + 1
    last = (high - low) // width
    return [{"low": low + i * width, "high": low + (i + 1) * width - 1,
             "count": counts.get(i, 0)} for i in range(last + 1)]


@dataclass
class Sprt:
    """Wald's SPRT on the discordant pairs of two paired runs.

    A pair is discordant when the metric differs between the two sides (a game won by seat 0
    on side A and not on side B, or the reverse).  Under H0 (no difference) B is the higher of
    a discordant pair half the time; under H1 it is so with probability `q1` or `1 - q1`.  Two
    one-sided tests run together: H1 is accepted when either shows its difference, H0 when
    both rule theirs out."""

    q1: float = 0.6
    alpha: float = 0.05
    beta: float = 0.05
    metric: str = "p0-win"  # what is compared: only named here, the caller scores pairs
    b_higher: int = 0
    a_higher: int = 0
    # after each pair: the log likelihood ratios of B higher (q1) and of A higher (1 - q1)
    path: list[tuple[float, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.upper = math.log((1 - self.beta) / (self.alpha / 2))
        self.lower = math.log(self.beta / (1 - self.alpha / 2))

    def add(self, a: float, b: float) -> None:
        if b > a:
            self.b_higher += 1
        elif a > b:
            self.a_higher += 1

    def llr(self, q: float) -> float:
        """The log likelihood ratio of B-higher-with-probability-q against one half."""
        return (self.b_higher * math.log(q / 0.5)
                + self.a_higher * math.log((1 - q) / 0.5))

    def decision(self) -> str | None:
        """'H1' (a difference is shown), 'H0' (ruled out) or None (play on)."""
        up, down = self.llr(self.q1), self.llr(1 - self.q1)
        if up >= self.upper or down >= self.upper:
            return "H1"
        if up <= self.lower and down <= self.lower:
            return "H0"
        return None

    def fixed_pairs(self) -> int:
        """The discordant pairs a fixed-size two-sided binomial test at the same alpha and
        beta needs to tell q1 from one half."""
        za, zb = _z(1 - self.alpha / 2), _z(1 - self.beta)
        n = ((za * 0.5 + zb * math.sqrt(self.q1 * (1 - self.q1))) / (self.q1 - 0.5)) ** 2
        return math.ceil(n)


def _z(p: float) -> float:
    """The standard normal quantile, by bisection on erf (accurate to 1e-12)."""
    low, high = -10.0, 10.0
    while high - low > 1e-12:
        mid = (low + high) / 2
        if 0.5 * (1 + math.erf(mid / math.sqrt(2))) < p:
            low = mid
        else:
            high = mid
    return (low + high) / 2
