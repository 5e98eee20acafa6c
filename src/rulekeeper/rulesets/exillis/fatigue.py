"""Fatigue and Veil: the efficiency curve, thresholds and what they lower.

The seed's "Gradual Effect on Efficiency" table and the companion document's key
points (0 = 100 %, 2 = 97 %, 4 = 90 %, 6 = 80 %, 8 = 66 %, 10 = 52 %, 12 = 38 %,
14 = 30 %, 16 = 24 %, 21+ = 20 %) are the knots of a monotone cubic with zero slope
at both ends ("an S curve ranging from 100 % efficiency all the way down to 20 %"),
flat at 20 % from 21 points on.
"""

from __future__ import annotations

import math

from rulekeeper.core.curves import MonotoneCurve
from rulekeeper.core.errors import InvalidStatError

from .options import ExIllisOptions

EFFICIENCY_KNOTS: tuple[tuple[float, float], ...] = (
    (0, 1.00),
    (2, 0.97),
    (4, 0.90),
    (6, 0.80),
    (8, 0.66),
    (10, 0.52),
    (12, 0.38),
    (14, 0.30),
    (16, 0.24),
    (21, 0.20),
)

_EFFICIENCY = MonotoneCurve(EFFICIENCY_KNOTS, end_slopes=(0.0, 0.0))

THRESHOLD_POINTS = 4

def efficiency(points: float) -> float:
    """Efficiency (0.2–1.0) after ``points`` Fatigue (or Veil) points."""
    if math.isnan(points) or points < 0:
        raise InvalidStatError(f"fatigue/veil points must be >= 0, got {points}")
    if points >= 21:
        return 0.20
    return _EFFICIENCY(points)


def thresholds(fatigue: float, veil: float = 0.0) -> int:
    """Thresholds reached: one per 4 Fatigue points plus one per 4 Veil points."""
    if fatigue < 0 or veil < 0:
        raise InvalidStatError(f"fatigue/veil must be >= 0, got {fatigue}/{veil}")
    return int(fatigue // THRESHOLD_POINTS) + int(veil // THRESHOLD_POINTS)


def initiative(basic: float, fatigue: float, veil: float, options: ExIllisOptions) -> float:
    """Initiative lowered per threshold (10 % or 20 % per option), compounded so it stays > 0."""
    loss = options.initiative_loss_fraction
    return basic * (1.0 - loss) ** thresholds(fatigue, veil)


def morale_sensitivity(basic: float, fatigue: float, veil: float, options: ExIllisOptions) -> float:
    """Morale Sensitivity grown per threshold: +20 % each (additive) or ×1.2 each (compound)."""
    n = thresholds(fatigue, veil)
    if options.sensitivity_growth == "compound":
        return basic * 1.2**n
    return basic * (1.0 + 0.2 * n)
