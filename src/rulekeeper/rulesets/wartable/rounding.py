"""Exact arithmetic and the War Table's three roundings.

The seed's numbers must come out exactly (``30 × 55/100`` is 16.5, not
16.500000000000004), so every rules computation runs on :class:`fractions.Fraction`
and only the report converts to ``int``/``float``. Python's :func:`round` is
banker's rounding (``round(0.5) == 0``, ``round(2.5) == 2``); the rules say
"rounded to the nearest", which players read as *round half up*, so we never use
:func:`round` for a rules rounding — only :func:`round_half_up` and :func:`ceil_up`.
"""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

Number = int | float | Fraction | Decimal | str


def exact(value: Number) -> Fraction:
    """``value`` as an exact fraction; floats go through their shortest ``repr``.

    ``Fraction(0.1)`` is 3602879701896397/36028797018963968; a player who typed
    ``0.1`` in a data file meant one tenth, so floats are read via ``str``.
    """
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TypeError("a bool is not a number here")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"not a finite number: {value}")
        return Fraction(repr(value))
    return Fraction(value)


def round_half_up(value: Fraction, digits: int = 0) -> Fraction:
    """Round to ``digits`` decimal places, halves toward +infinity (2.5→3, 0.05→0.1).

    Halves go *up* (toward +infinity), so ``-2.5 → -2``; rules values are not
    negative in practice (stat totals are clamped at 0 after rounding).
    """
    scale = Fraction(10) ** digits
    return Fraction(math.floor(value * scale + Fraction(1, 2))) / scale


def ceil_up(value: Fraction) -> Fraction:
    """Round up to the next whole number (the seed's "rounded up")."""
    return Fraction(math.ceil(value))


def num(value: Fraction) -> int | float:
    """A JSON-friendly number: ``int`` when whole, else the nearest ``float``."""
    if value.denominator == 1:
        return int(value.numerator)
    return float(value)


def show(value: Fraction) -> str:
    """Human text for a number: whole numbers plain, others with up to 4 decimals."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return text if Fraction(text) == value else f"{text}…"
