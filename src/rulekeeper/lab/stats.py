"""Proportions with 95 % intervals, and summaries of histograms (never of raw samples).

Why Wilson's score interval: it keeps its coverage near 95 % for proportions close to 0 or 1
and for small counts, where the normal ("Wald") interval collapses to zero width or leaves
[0, 1]; a lab sweep is full of lopsided matchups. Every summary here reads a histogram in
sorted key order, so the same histogram always gives the same bits.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict

from rulekeeper.core.wording import counted

#: The normal quantile of 97.5 % (a two-sided 95 % interval).
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``successes`` out of ``trials`` (``(0, 1)`` when there are none)."""
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{counted(successes, 'success', 'successes')} out of {counted(trials, 'trial')}")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z / (1 + z2 / trials) * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return low, high


@dataclass(frozen=True)
class Proportion:
    """``count`` out of ``total``, with its estimate and 95 % interval (the point itself when exact)."""

    count: int
    total: int
    exact: bool = False

    @property
    def estimate(self) -> float:
        return self.count / self.total if self.total else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        if self.exact:
            return self.estimate, self.estimate
        return wilson(self.count, self.total)

    def text(self) -> str:
        """``41.2 % (40.9–41.5)``, or ``41.2 % (exact)``; narrow intervals get more digits
        (``0.07 % (0.06–0.09)``), so a rare outcome does not read as ``0.1 % (0.1–0.1)``."""
        if self.exact:
            return f"{100 * self.estimate:.1f} % (exact)" if self.total else "— (no battle)"
        low, high = self.interval
        width = 100 * (high - low)
        digits = 1 if width >= 1 else 2 if width >= 0.1 else 3
        return f"{100 * self.estimate:.{digits}f} % ({100 * low:.{digits}f}–{100 * high:.{digits}f})"


class SpreadJson(TypedDict):
    """A histogram's mean, median and 5th and 95th percentiles (``nan`` when empty)."""

    mean: float
    median: float
    p05: float
    p95: float


def histogram_mean(hist: Mapping[int, int] | Mapping[float, int]) -> float:
    """The mean of a histogram (value → count), summed in sorted order."""
    total = sum(hist.values())
    if not total:
        return math.nan
    return math.fsum(float(value) * count for value, count in sorted(hist.items())) / total


def histogram_quantile(hist: Mapping[int, int] | Mapping[float, int], q: float) -> float:
    """The smallest value whose cumulative share reaches ``q`` (``nan`` for an empty histogram)."""
    total = sum(hist.values())
    if not total:
        return math.nan
    seen = 0
    for value, count in sorted(hist.items()):
        seen += count
        if seen >= q * total:
            return float(value)
    return float(max(hist))


def shares(hist: Counter[int]) -> list[tuple[int, float]]:
    """Each value of a histogram with its share of the total, in value order."""
    total = sum(hist.values())
    return [(value, count / total) for value, count in sorted(hist.items())] if total else []
