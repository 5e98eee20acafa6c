"""Every branch of a resolution's draws (issue 27, preview = roll): the rules' own code run once per sequence of
outcomes, with the requests' own probabilities."""

from __future__ import annotations

import pytest

from rulekeeper.core.chance import Fate, discrete
from rulekeeper.core.draws import NotEnumerable, enumerate_draws, middle


def two_dice(fate: Fate) -> int:
    """A d6, and a second d6 only on a 6 (a draw that depends on the first)."""
    first = int(fate.draw(discrete("d6", [(str(k), 1.0) for k in range(1, 7)])).outcome)
    if first < 6:
        return first
    return first + int(fate.draw(discrete("again", [(str(k), 1.0) for k in range(1, 7)])).outcome)


def test_every_branch_with_its_probability() -> None:
    leaves = enumerate_draws(two_dice)
    assert len(leaves) == 5 + 6
    assert sum(leaf.probability for leaf in leaves) == pytest.approx(1.0)
    by_value = {leaf.value: leaf.probability for leaf in leaves}
    assert by_value[3] == pytest.approx(1 / 6)
    assert by_value[12] == pytest.approx(1 / 36)
    assert [len(leaf.draws) for leaf in leaves if leaf.value > 6] == [2] * 6


def test_the_middle_u_picks_its_outcome_and_a_zero_chance_none() -> None:
    request = discrete("uneven", [("a", 0.1), ("never", 0.0), ("b", 0.6), ("c", 0.3)])
    assert [middle(request, k) is not None and request.pick(middle(request, k) or 0.0) == k
            for k in range(4)] == [True, False, True, True]


def test_a_continuous_draw_or_too_many_branches_is_refused() -> None:
    with pytest.raises(NotEnumerable, match="continuous"):
        enumerate_draws(lambda fate: fate.uniform("spread", 0.8, 1.2))
    with pytest.raises(NotEnumerable, match="more than 3"):
        enumerate_draws(two_dice, max_leaves=3)
