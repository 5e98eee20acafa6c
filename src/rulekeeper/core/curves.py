"""Calibrated monotone curves through printed key points.

Rulebooks often print a curve only as a table of key points ("1/2 ≈ 66 %, 2 ≈ 150 %")
plus its limits. :class:`MonotoneCurve` passes *exactly* through every knot with a
shape-preserving cubic (Fritsch–Carlson / PCHIP), so it is monotone whenever the
knots are, and continues beyond the last knots either flat or along an exponential
that approaches a stated asymptote with a matching slope (so the first derivative is
continuous there too). The x axis may be transformed (``log`` for ratios, where
"twice as strong" and "half as strong" should be symmetric).
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from .errors import InvalidStatError


def _pchip_slopes(xs: Sequence[float], ys: Sequence[float]) -> list[float]:
    """Fritsch–Carlson interior slopes (the same ones SciPy's PchipInterpolator uses)."""
    n = len(xs)
    h = [xs[i + 1] - xs[i] for i in range(n - 1)]
    delta = [(ys[i + 1] - ys[i]) / h[i] for i in range(n - 1)]
    d = [0.0] * n
    for i in range(1, n - 1):
        if delta[i - 1] * delta[i] <= 0:
            d[i] = 0.0
        else:
            w1 = 2 * h[i] + h[i - 1]
            w2 = h[i] + 2 * h[i - 1]
            d[i] = (w1 + w2) / (w1 / delta[i - 1] + w2 / delta[i])
    # one-sided three-point ends, limited to keep monotonicity
    def end(h0: float, h1: float, m0: float, m1: float) -> float:
        s = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        if s * m0 <= 0:
            return 0.0
        if m0 * m1 <= 0 and abs(s) > abs(3 * m0):
            return 3 * m0
        return s

    if n == 2:
        d[0] = d[1] = delta[0]
    else:
        d[0] = end(h[0], h[1], delta[0], delta[1])
        d[-1] = end(h[-1], h[-2], delta[-1], delta[-2])
    return d


@dataclass(frozen=True)
class MonotoneCurve:
    """y = f(x) through ``knots`` (x, y), in ``transform`` space ("linear" or "log").

    ``low_asymptote``/``high_asymptote``: the limit as x → −∞ (or 0 for log) / +∞;
    when ``None`` the curve stays flat at the end knot's value beyond it.
    ``end_slopes``: optional (left, right) slopes at the end knots, in transformed x.
    """

    knots: tuple[tuple[float, float], ...]
    transform: str = "linear"
    low_asymptote: float | None = None
    high_asymptote: float | None = None
    end_slopes: tuple[float | None, float | None] = (None, None)
    _xs: list[float] = field(init=False, repr=False, compare=False)
    _ys: list[float] = field(init=False, repr=False, compare=False)
    _ds: list[float] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.knots) < 2:
            raise InvalidStatError("a curve needs at least two knots")
        if self.transform not in ("linear", "log"):
            raise InvalidStatError(f"unknown transform {self.transform!r}")
        xs = [self._t(x) for x, _ in self.knots]
        ys = [float(y) for _, y in self.knots]
        if any(b <= a for a, b in zip(xs, xs[1:], strict=False)):
            raise InvalidStatError("knots must have strictly increasing x")
        ds = _pchip_slopes(xs, ys)
        left, right = self.end_slopes
        if left is not None:
            ds[0] = left
        if right is not None:
            ds[-1] = right
        object.__setattr__(self, "_xs", xs)
        object.__setattr__(self, "_ys", ys)
        object.__setattr__(self, "_ds", ds)

    def _t(self, x: float) -> float:
        if self.transform == "log":
            if x <= 0:
                raise InvalidStatError(f"ratio must be > 0, got {x}")
            return math.log(x)
        return float(x)

    def __call__(self, x: float) -> float:
        if math.isnan(x):
            raise InvalidStatError("curve input is NaN")
        if self.transform == "log":
            if x <= 0:
                if self.low_asymptote is None:
                    return self._ys[0]
                return self.low_asymptote
            if math.isinf(x):
                return self.high_asymptote if self.high_asymptote is not None else self._ys[-1]
        elif math.isinf(x):
            if x < 0:
                return self.low_asymptote if self.low_asymptote is not None else self._ys[0]
            return self.high_asymptote if self.high_asymptote is not None else self._ys[-1]
        t = self._t(x)
        xs, ys, ds = self._xs, self._ys, self._ds
        if t <= xs[0]:
            return self._tail(t, xs[0], ys[0], ds[0], self.low_asymptote, -1)
        if t >= xs[-1]:
            return self._tail(t, xs[-1], ys[-1], ds[-1], self.high_asymptote, +1)
        i = bisect.bisect_right(xs, t) - 1
        h = xs[i + 1] - xs[i]
        s = (t - xs[i]) / h
        h00 = (1 + 2 * s) * (1 - s) ** 2
        h10 = s * (1 - s) ** 2
        h01 = s * s * (3 - 2 * s)
        h11 = s * s * (s - 1)
        return h00 * ys[i] + h10 * h * ds[i] + h01 * ys[i + 1] + h11 * h * ds[i + 1]

    @staticmethod
    def _tail(t: float, x0: float, y0: float, d0: float, asym: float | None, side: int) -> float:
        if asym is None:
            return y0
        gap = asym - y0
        if gap == 0:
            return y0
        # y = asym - gap * exp(-k * |t - x0|); slope at x0 equals d0 when k = |d0 / gap|
        k = abs(d0 / gap) if d0 != 0 else 1.0
        return asym - gap * math.exp(-k * abs(t - x0))
