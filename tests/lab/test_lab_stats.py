"""Wilson's interval against published values, and the histogram summaries."""

from __future__ import annotations

from collections import Counter

import pytest

from rulekeeper.lab.stats import Proportion, histogram_mean, histogram_quantile, shares, wilson


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    # Newcombe (1998), "Two-sided confidence intervals for the single proportion", Table II, method 3
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_wilson_matches_newcombes_table(k: int, n: int, low: float, high: float) -> None:
    got = wilson(k, n)
    assert got[0] == pytest.approx(low, abs=5e-5)
    assert got[1] == pytest.approx(high, abs=5e-5)


def test_wilson_is_symmetric_and_bounded() -> None:
    low, high = wilson(3, 10)
    flipped = wilson(7, 10)
    assert (low, high) == pytest.approx((1 - flipped[1], 1 - flipped[0]))
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_an_exact_proportion_has_no_interval() -> None:
    assert Proportion(1, 4, exact=True).interval == (0.25, 0.25)
    assert Proportion(1, 4, exact=True).text() == "25.0 % (exact)"
    assert Proportion(81, 263).text() == "30.8 % (25.5–36.6)"
    assert Proportion(70, 100000).text() == "0.070 % (0.055–0.088)"
    assert Proportion(5400, 100000).text() == "5.40 % (5.26–5.54)"


def test_histogram_summaries() -> None:
    hist = Counter({1: 2, 2: 5, 3: 2, 10: 1})
    assert histogram_mean(hist) == pytest.approx((2 + 10 + 6 + 10) / 10)
    assert histogram_quantile(hist, 0.5) == 2
    assert histogram_quantile(hist, 0.95) == 10
    assert histogram_quantile(hist, 0.05) == 1
    assert shares(Counter({0: 1, 4: 3})) == [(0, 0.25), (4, 0.75)]
