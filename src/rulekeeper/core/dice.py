"""Exact dice distributions (via icepool) as chance requests.

Ex illis uses no dice, but the other rule systems do: Dragon Noir's d10 against a
ratio table, the Battle System's 5d10 + skill − reduction, Confrontation's d6 tests.
A dice pool becomes an ordinary :class:`~rulekeeper.core.chance.ChanceRequest` listing
every total with its exact probability, so it is drawn, recorded and replayed like
any other chance.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool

from .chance import ChanceRequest, discrete
from .errors import InvalidStatError


def sum_of_dice(count: int, sides: int, modifier: int = 0) -> dict[int, Fraction]:
    """Exact distribution of ``count``d``sides`` + ``modifier`` (e.g. 5d10 − 14)."""
    if count < 1 or sides < 2:
        raise InvalidStatError(f"need at least 1 die of at least 2 sides, got {count}d{sides}")
    die: Any = icepool.d(sides)
    pool: Any = count @ die + modifier
    denom = int(pool.denominator())
    return {int(o): Fraction(int(q), denom) for o, q in pool.items()}


def dice_request(label: str, count: int, sides: int, modifier: int = 0) -> ChanceRequest:
    """A chance request whose outcomes are the totals of the roll, as strings."""
    dist = sum_of_dice(count, sides, modifier)
    sign = f"{modifier:+d}" if modifier else ""
    return discrete(
        label, [(str(o), float(p)) for o, p in sorted(dist.items())], (f"{count}d{sides}{sign}, exact via icepool",)
    )
