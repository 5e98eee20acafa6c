"""One volley of arrows, as :func:`..ranged.resolve_volley` resolves it, on flat arrays.

Each living miniature of the shooter shoots (``shots_per_miniature`` times): where the
projectile falls is a WRD whose odds move as the target loses miniatures (its Bulk is less of
the zone), so the tables hold them per number of targets left; a hit picks a living target
miniature by Bulk (equal Bulk: uniform), Missile Block may stop it (never a Luck), and the
±20 % damage spread follows. A Bad Luck hurts the shooting miniature.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .layout import (
    ACCURATE,
    ALIVE0,
    ATT,
    BAD_SELF,
    COUNT,
    ENEMY_SPACE,
    MBLK,
    SHOT_BAD_LUCK,
    SHOT_FINAL,
    SHOT_LUCK,
    SHOTS_PER,
    STATES,
    N,
)
from .rng import advance, draw
from .strikes import pick, spread_damage


@kernel
def nth_alive(hp: np.ndarray, d: int, n: int, left: int, u: float) -> int:
    """A living miniature drawn uniformly (the pool by Bulk of one unit)."""
    k = min(int(u * left), left - 1)
    for i in range(n):
        if hp[d, i] > 0:
            if k == 0:
                return i
            k -= 1
    return -1


#: Draws a projectile may need: where it falls, which miniature, Missile Block, damage.
SLOTS = 4


@kernel
def one_shot(hp: np.ndarray, a: int, ai: int, cum: np.ndarray, row: int, side_i: np.ndarray, side_f: np.ndarray,
             luck_mult: float, left: int, deaths: np.ndarray, base: np.uint64) -> int:
    """One projectile of miniature ``ai`` of side ``a`` at a target with ``left`` miniatures alive.

    Returns the uniforms it used.
    """
    d = 1 - a
    where = pick(cum, row, draw(base, 0))
    if where == SHOT_BAD_LUCK:
        new = hp[a, ai] - side_f[a, BAD_SELF]
        hp[a, ai] = max(0.0, new)
        if new <= 0:
            deaths[a] += 1
        return 1
    if not (where == ACCURATE or where == ENEMY_SPACE or where == SHOT_LUCK):
        return 1  # free space, cover (and allied space, empty in a duel)
    di = nth_alive(hp, d, side_i[d, N], left, draw(base, 1))
    if where != SHOT_LUCK and side_f[d, MBLK] > 0 and draw(base, 2) < side_f[d, MBLK]:
        return 3
    mult = luck_mult if where == SHOT_LUCK else 1.0
    amount = spread_damage(side_f[d, SHOT_FINAL], mult, 1.0, draw(base, 3))
    new = max(0.0, hp[d, di] - amount)
    hp[d, di] = new
    if amount > 0 and new <= 0:
        deaths[d] += 1
    return 3 if where == SHOT_LUCK or side_f[d, MBLK] <= 0 else 4


@kernel
def volley(s: int, states: np.ndarray, sched_i: np.ndarray, side_i: np.ndarray, side_f: np.ndarray,
           hit_cum: np.ndarray, luck_mult: float, hp: np.ndarray, cnt: np.ndarray, work: np.ndarray,
           deaths: np.ndarray, stream: np.ndarray, counts: np.ndarray, b: int) -> None:
    """Every miniature alive when the volley begins shoots; shots with no target left are not drawn.

    ``hit_cum`` has a row per (strike, morale state, targets left): ``targets left`` runs from 0 to
    the larger unit's miniatures, one more than ``hp`` is wide.
    """
    a = sched_i[s, ATT]
    d = 1 - a
    n_a = side_i[a, N]
    for i in range(n_a):
        work[ALIVE0, i] = 1 if hp[a, i] > 0 else 0
    base, used, shots = stream[0], 0, 0
    rows = (s * STATES + states[a]) * (hp.shape[1] + 1)
    for ai in range(n_a):
        if work[ALIVE0, ai] == 0:
            continue
        for _ in range(side_i[a, SHOTS_PER]):
            left = cnt[d, COUNT] - deaths[d]
            if left <= 0:
                continue
            shots += 1
            base = advance(base, SLOTS)
            used += one_shot(hp, a, ai, hit_cum, rows + left, side_i, side_f, luck_mult, left, deaths, base)
    stream[0] = base
    stream[1] += np.uint64(used)
    counts[b, 0] += shots
