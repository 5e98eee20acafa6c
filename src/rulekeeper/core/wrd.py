"""The Weighted Random Draw (WRD): a bag of marbles, one drawn blindly.

Ex illis resolves almost everything with it (target assignment by Aggressiveness,
Melee Accuracy against Block/Evade/Deflect, where a shot lands), but nothing here
is specific to Ex illis. Probabilities are exact: ``weight / total``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

from .errors import InvalidStatError


def wrd_probabilities(weights: Mapping[str, float]) -> dict[str, float]:
    """Each outcome's probability in a WRD of ``weights`` (must be >= 0, not all 0)."""
    for k, w in weights.items():
        if not math.isfinite(w) or w < 0:
            raise InvalidStatError(f"WRD weight of {k!r} must be finite and >= 0, got {w}")
    total = math.fsum(weights.values())
    if total <= 0:
        raise InvalidStatError("WRD needs at least one positive weight")
    return {k: w / total for k, w in weights.items()}


def wrd_exact(weights: Mapping[str, int | Fraction]) -> dict[str, Fraction]:
    """The same draw with rational weights, giving exact fractions (used by tests as oracle)."""
    total = sum((Fraction(w) for w in weights.values()), Fraction(0))
    if total <= 0:
        raise InvalidStatError("WRD needs at least one positive weight")
    return {k: Fraction(w) / total for k, w in weights.items()}


def with_fixed(
    fixed: Mapping[str, float], weights: Mapping[str, float]
) -> list[tuple[str, float]]:
    """Outcomes with fixed probabilities (e.g. Luck 5 %), the rest shared by ``weights``.

    Returns (outcome, probability) pairs summing to 1.
    """
    reserved = math.fsum(fixed.values())
    if reserved > 1 + 1e-12 or any(p < 0 for p in fixed.values()):
        raise InvalidStatError(f"fixed probabilities must be >= 0 and sum to <= 1, got {dict(fixed)}")
    shared = wrd_probabilities(weights)
    out = [(k, (1.0 - reserved) * p) for k, p in shared.items()]
    out += [(k, p) for k, p in fixed.items()]
    return out
