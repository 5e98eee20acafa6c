"""Single attacks drawn by the kernel, for the cross-check against the Fate Screen's exact odds."""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .layout import BLOCKED, DEFLECTED, EVADED, RET
from .rng import battle_key, draw
from .strikes import bit_thresholds, strike_one


@kernel
def probe(key: np.uint64, attacks: int, cum: np.ndarray, row: int, side_f: np.ndarray, out: np.ndarray) -> None:
    """``attacks`` opening attacks of side 0 (each its own stream): ``out[outcome]`` and ``out[6]`` retaliations."""
    bits_cum = bit_thresholds(cum)
    hp = np.zeros((2, 1))
    deaths = np.zeros(2, np.int64)
    for j in range(attacks):
        hp[0, 0] = 1e300
        hp[1, 0] = 1e300
        base = battle_key(key, j)
        o = strike_one(hp, 0, 0, 0, cum, bits_cum, row, 1.0, side_f, 1.0, deaths, base, 1)
        out[o] += 1
        if (o == BLOCKED or o == EVADED or o == DEFLECTED) and draw(base, 3) < side_f[1, RET]:
            out[6] += 1
