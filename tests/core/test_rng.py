"""The seeded RNG: state is plain data, and one seed's output is pinned (as boardgame.io does)."""

import json

import pytest

from rulekeeper.core.errors import InvalidStatError
from rulekeeper.core.rng import Rng, RngState

# Pinned: PCG64(seed=7). If numpy ever changes PCG64, every stored battle would replay
# differently, so this must fail loudly.
PINNED_SEED_7 = [0.625095466604667, 0.8972138009695755, 0.7756856902451935]


def test_pinned_output_of_seed_7() -> None:
    rng = Rng.from_seed(7)
    assert [rng.random() for _ in range(3)] == PINNED_SEED_7


def test_state_round_trips_through_json_and_resumes_exactly() -> None:
    rng = Rng.from_seed(42)
    rng.random()
    saved = json.loads(json.dumps(rng.state.to_dict()))
    expected = [rng.random() for _ in range(5)]
    resumed = Rng(RngState.from_dict(saved))
    assert [resumed.random() for _ in range(5)] == expected


def test_state_is_immutable_value() -> None:
    s = RngState.from_seed(1)
    with pytest.raises(AttributeError):
        s.state = 3  # type: ignore[misc]
    assert s == RngState.from_seed(1)
    assert s != RngState.from_seed(2)


def test_negative_seed_refused() -> None:
    with pytest.raises(InvalidStatError):
        RngState.from_seed(-1)
