"""The Asymptotic Ratio 2.5 (AR 2.5) and its modified forms.

The seed prints only key points of the AR 2.5 S-curve (companion document, "Stats
ratio / Multiplier"): infinitely small ≈ 33 %, 1/2 ≈ 66 %, 3/4 ≈ 85 %, 1 = 100 %,
2 ≈ 150 %, 3.25 ≈ 200 %, infinitely big ≈ 250 %, plus two worked damage examples:
``35 × AR(21/22) = 33.6`` (so AR(21/22) = 0.96) and ``33.6 × AR(28/40) = 27.2`` (so
AR(0.7) = 0.81).

How it is built: a shape-preserving monotone cubic (PCHIP) in log-ratio space
through all seven printed points (the two worked-example points and the five table
points), continued beyond 1/2 and 3.25 by exponentials in log-ratio that approach
1/3 and 5/2 with a continuous slope. It is therefore monotone, equals 1 at ratio 1,
reproduces every printed number exactly, and has the seed's limits. Working in
log-ratio makes "twice as strong" and "half as strong" equally far from 1.
"""

from __future__ import annotations

import math

from rulekeeper.core.curves import MonotoneCurve
from rulekeeper.core.errors import InvalidStatError

AR_LOW = 1.0 / 3.0
AR_HIGH = 2.5

#: (ratio, multiplier) points printed by the seed; every one is a golden test.
AR25_KNOTS: tuple[tuple[float, float], ...] = (
    (0.5, 0.66),  # table: 1/2 roughly 66 %
    (0.7, 0.81),  # worked example: AR 2.5 (28 / 40) = 0.81
    (0.75, 0.85),  # table: 3/4 roughly 85 %
    (21.0 / 22.0, 0.96),  # worked example: AR 2.5 (21 / 22) = 0.96
    (1.0, 1.0),  # table: 1 = 100 %
    (2.0, 1.5),  # table: 2 roughly 150 %
    (3.25, 2.0),  # table: 3.25 roughly 200 %
)

_AR25 = MonotoneCurve(AR25_KNOTS, transform="log", low_asymptote=AR_LOW, high_asymptote=AR_HIGH)


def _ratio(numerator: float, denominator: float, what: str) -> float:
    for name, v in (("numerator", numerator), ("denominator", denominator)):
        if not math.isfinite(v) or v < 0:
            raise InvalidStatError(f"{what}: {name} must be a finite number >= 0, got {v}")
    if denominator == 0:
        return math.inf if numerator > 0 else 1.0
    return numerator / denominator


def ar25_ratio(ratio: float) -> float:
    """AR 2.5 of an already computed ratio (>= 0; 0 gives 1/3, inf gives 2.5)."""
    if math.isnan(ratio) or ratio < 0:
        raise InvalidStatError(f"AR 2.5 ratio must be >= 0, got {ratio}")
    if ratio == 0:
        return AR_LOW
    return _AR25(ratio)


def ar25(attacker: float, defender: float) -> float:
    """AR 2.5 of attacker/defender, e.g. Strength vs Toughness multiplying Weapon Damage."""
    return ar25_ratio(_ratio(attacker, defender, "AR 2.5"))


def armour_ar(armour_piercing: float, armour: float) -> float:
    """The modified AR for Armour Piercing vs Armour, capped at 1.

    "if the Armour Piercing value is higher than the Armour value, we simply use the
    Raw damage as Final damage" — so the multiplier never exceeds 1.
    """
    return min(1.0, ar25_ratio(_ratio(armour_piercing, armour, "armour AR")))
