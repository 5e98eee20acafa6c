"""Dice distributions via icepool, checked against a brute-force oracle (icepool's own habit)."""

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from rulekeeper.core.chance import Fate
from rulekeeper.core.dice import dice_request, sum_of_dice
from rulekeeper.core.errors import InvalidStatError


def brute(count: int, sides: int, modifier: int) -> dict[int, Fraction]:
    c = Counter(sum(r) + modifier for r in itertools.product(range(1, sides + 1), repeat=count))
    total = sides**count
    return {k: Fraction(v, total) for k, v in c.items()}


@pytest.mark.parametrize(("count", "sides", "modifier"), [(1, 10, 0), (2, 6, 0), (3, 10, -14), (5, 10, -14)])
def test_battle_system_5d10_matches_brute_force(count: int, sides: int, modifier: int) -> None:
    """Guide to the Battle System: 'Light infantry attack and roll 5d10+6+0-20 (or simply 5d10-14)'."""
    assert sum_of_dice(count, sides, modifier) == brute(count, sides, modifier)


def test_failed_attack_chance_of_military_police_vs_pikemen() -> None:
    """'Military Police attack and roll 5d10+2+0-25 (or simply 5d10-23)' — negative totals hurt the attacker."""
    dist = sum_of_dice(5, 10, -23)
    p_fail = sum(p for o, p in dist.items() if o < 0)
    assert p_fail == sum(p for o, p in brute(5, 10, -23).items() if o < 0)
    assert 0 < p_fail < 1


def test_dice_request_draws_through_fate() -> None:
    req = dice_request("5d10-14", 5, 10, -14)
    assert req.outcomes[0] == "-9" and req.outcomes[-1] == "36"
    assert abs(sum(req.probabilities) - 1) < 1e-12
    assert Fate.from_seed(1).draw(req).outcome in req.outcomes
    with pytest.raises(InvalidStatError):
        sum_of_dice(0, 10)
