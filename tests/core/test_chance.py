"""Chance requests carry their full odds; results can be re-checked and replayed."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.core.chance import ChanceRequest, Fate, discrete, verify_replay
from rulekeeper.core.errors import InvalidStatError, ReplayMismatchError
from rulekeeper.core.rng import Rng


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1, max_size=12).filter(lambda ws: sum(ws) > 0))
def test_probabilities_of_every_draw_sum_to_one(weights: list[float]) -> None:
    req = discrete("w", [(f"o{i}", w) for i, w in enumerate(weights)])
    assert math.isclose(sum(req.probabilities), 1.0, rel_tol=1e-12)
    assert all(p >= 0 for p in req.probabilities)


@given(st.floats(min_value=0, max_value=1, exclude_max=True))
def test_pick_never_selects_a_zero_probability_outcome(u: float) -> None:
    req = discrete("z", [("never", 0.0), ("a", 1.0), ("never2", 0.0), ("b", 3.0), ("never3", 0.0)])
    assert req.outcomes[req.pick(u)] in ("a", "b")


def test_pick_is_the_inverse_cdf() -> None:
    req = discrete("cdf", [("a", 1), ("b", 1), ("c", 2)])
    assert [req.outcomes[req.pick(u)] for u in (0.0, 0.2499, 0.25, 0.4999, 0.5, 0.9999)] == ["a", "a", "b", "b", "c", "c"]


def test_same_seed_same_record_and_replay_verifies() -> None:
    def run(seed: int) -> Fate:
        fate = Fate.from_seed(seed)
        for i in range(50):
            fate.choose(f"draw {i}", [("x", 1), ("y", 2), ("z", 3)])
            fate.uniform(f"spread {i}", 0.8, 1.2)
            fate.chance(f"coin {i}", 0.3)
        return fate

    a, b = run(11), run(11)
    assert a.record_dicts() == b.record_dicts()
    assert a.start is not None
    verify_replay(a.start, a.records)
    assert run(12).record_dicts() != a.record_dicts()


def test_tampered_record_is_detected() -> None:
    fate = Fate.from_seed(3)
    fate.choose("d", [("x", 1), ("y", 1)])
    rec = fate.records[0]
    forged = type(rec)(rec.request, rec.u, index=1 - rec.index)
    with pytest.raises(ReplayMismatchError):
        forged.recheck()
    with pytest.raises(ReplayMismatchError):
        verify_replay(Rng.from_seed(4).state, fate.records)


def test_bad_requests_are_typed_errors() -> None:
    with pytest.raises(InvalidStatError):
        discrete("neg", [("a", -1.0), ("b", 2.0)])
    with pytest.raises(InvalidStatError):
        discrete("zero", [("a", 0.0)])
    with pytest.raises(InvalidStatError):
        discrete("dup", [("a", 1.0), ("a", 2.0)])
    with pytest.raises(InvalidStatError):
        Fate.from_seed(0).uniform("bad", 2.0, 1.0)


def test_record_is_json_ready_with_odds_and_u() -> None:
    fate = Fate.from_seed(5)
    fate.choose("roll", [("hit", 3), ("miss", 1)], explain=("3 marbles of hit, 1 of miss",))
    d = fate.record_dicts()[0]
    assert d["odds"] == [["hit", 0.75], ["miss", 0.25]]
    assert d["outcome"] in ("hit", "miss") and 0 <= d["u"] < 1
    assert d["explain"] == ["3 marbles of hit, 1 of miss"]
    assert isinstance(ChanceRequest("u", "uniform", low=1, high=2).to_dict()["low"], int)


def test_monte_carlo_agrees_with_exact_odds_within_4_sigma() -> None:
    req = discrete("mc", [("a", 5), ("b", 3), ("c", 2), ("d", 0.5)])
    fate = Fate.from_seed(2024)
    n = 100_000
    counts = dict.fromkeys(req.outcomes, 0)
    for _ in range(n):
        counts[fate.draw(req).outcome] += 1
    for o, p in req.odds():
        sigma = math.sqrt(n * p * (1 - p))
        assert abs(counts[o] - n * p) <= 4 * sigma, (o, counts[o], n * p)
