"""tools/evidence/stats.py: Wilson intervals, spreads, paired differences, histograms and the
SPRT."""
from __future__ import annotations

import random

import pytest

from rulelang.tools.evidence.stats import Sprt, histogram, mean_sd, paired, wilson


def test_wilson_matches_the_textbook_values() -> None:
    low, high = wilson(5, 10)  # Newcombe (1998), 95 %: 0.2366 to 0.7634
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_spread_paired_and_histogram() -> None:
    s = mean_sd([1, 2, 3, 4])
    assert s["mean"] == 2.5 and s["sd"] == pytest.approx(1.2909944) and s["max"] == 4
    d = paired([0, 1, 0, 1], [1, 1, 1, 1])
    assert d["diff"] == 0.5 and d["low"] < 0.5 < d["high"] and d["pairs"] == 4
    bins = histogram([5, 5, 7, 9])
    assert sum(b["count"] for b in bins) == 4 and bins[0] == {"low": 5, "high": 5, "count": 2}


def test_sprt_shows_a_difference_and_rules_out_none() -> None:
    rng = random.Random(1)
    shown = Sprt(q1=0.6)
    while shown.decision() is None:
        shown.add(0, 1 if rng.random() < 0.7 else 0)  # B higher 70 % of the time
        shown.add(1 if rng.random() < 0.3 else 0, 0)
    assert shown.decision() == "H1"
    even = Sprt(q1=0.6)
    while even.decision() is None:
        if rng.random() < 0.5:
            even.add(0, 1)
        else:
            even.add(1, 0)
    assert even.decision() == "H0"
    assert Sprt(q1=0.6).fixed_pairs() == pytest.approx(320, abs=10)
