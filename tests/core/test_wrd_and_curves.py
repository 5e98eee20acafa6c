"""The WRD gives exact probabilities; calibrated curves pass through their knots, monotone."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.core.curves import MonotoneCurve
from rulekeeper.core.errors import InvalidStatError
from rulekeeper.core.wrd import with_fixed, wrd_exact, wrd_probabilities


def test_wrd_probabilities_match_exact_fractions() -> None:
    weights = {"Attack": 60, "Block": 20, "Evade": 0, "Deflect": 10}
    exact = wrd_exact(weights)
    assert exact == {"Attack": Fraction(2, 3), "Block": Fraction(2, 9), "Evade": 0, "Deflect": Fraction(1, 9)}
    approx = wrd_probabilities({k: float(v) for k, v in weights.items()})
    for k in weights:
        assert approx[k] == pytest.approx(float(exact[k]), abs=1e-15)


def test_fixed_outcomes_take_their_share_off_the_top() -> None:
    out = dict(with_fixed({"Luck": 0.05, "Bad Luck": 0.05}, {"Attack": 3.0, "Blocked": 1.0}))
    assert out == pytest.approx({"Attack": 0.675, "Blocked": 0.225, "Luck": 0.05, "Bad Luck": 0.05})
    with pytest.raises(InvalidStatError):
        with_fixed({"Luck": 0.7, "Bad Luck": 0.4}, {"a": 1.0})


KNOTS = ((0.5, 0.66), (1.0, 1.0), (2.0, 1.5), (3.25, 2.0))


def test_curve_passes_through_every_knot() -> None:
    c = MonotoneCurve(KNOTS, transform="log", low_asymptote=1 / 3, high_asymptote=2.5)
    for x, y in KNOTS:
        assert c(x) == pytest.approx(y, abs=1e-12)


@given(st.floats(min_value=1e-6, max_value=1e6), st.floats(min_value=1e-6, max_value=1e6))
def test_curve_is_monotone_and_within_asymptotes(a: float, b: float) -> None:
    c = MonotoneCurve(KNOTS, transform="log", low_asymptote=1 / 3, high_asymptote=2.5)
    lo, hi = sorted((a, b))
    assert c(lo) <= c(hi) + 1e-12
    assert 1 / 3 <= c(lo) <= 2.5


def test_curve_refuses_bad_knots() -> None:
    with pytest.raises(InvalidStatError):
        MonotoneCurve(((1.0, 1.0),))
    with pytest.raises(InvalidStatError):
        MonotoneCurve(((1.0, 1.0), (1.0, 2.0)))
