"""One melee attack and one melee round, as :func:`..melee.strike_round` resolves them, on flat arrays.

The odds come from the tables (the reference ``duel_odds`` of this strike); what is done here
is the random part: target assignment by Aggressiveness under the Bulk cap, the roll to hit,
the ±20 % damage spread (Block divides by Shield, Luck multiplies), Bad Luck on oneself, and
the defender's retaliation (once per round, with its RET chance, never retaliated against).
"""

from __future__ import annotations

import math

import numpy as np

from .jit import kernel
from .layout import (
    AGG_OK,
    ALIVE0,
    ATT,
    ATTACK,
    BAD_LUCK,
    BAD_SELF,
    BLOCKED,
    CAP,
    DEFLECTED,
    EVADED,
    HIT_FINAL,
    LUCK,
    RECEIVED,
    RET,
    RET_FINAL,
    RETALIATED,
    SHD,
    N,
)
from .rng import advance, draw

SPREAD = 0.2  # the ±20 % damage spread of damage.roll


@kernel
def pick(cum: np.ndarray, u: float) -> int:
    """The outcome a uniform selects from cumulative odds (outcomes of probability 0 never come out)."""
    last = -1
    prev = 0.0
    for k in range(cum.shape[0]):
        if cum[k] > prev:
            last = k
            if u < cum[k]:
                return k
        prev = cum[k]
    return last


@kernel
def spread_damage(final: float, mult: float, div: float, u: float) -> float:
    """damage.roll: final × multiplier / divisor × U(0.8, 1.2), rounded half up (damage is never negative)."""
    return math.floor(final * mult / div * ((1.0 - SPREAD) + 2.0 * SPREAD * u) + 0.5)


@kernel
def state_index(morale: float, thresholds: np.ndarray, n_thr: int) -> int:
    """The unit's morale state (0 = best) from its points, as morale.morale_state bands them."""
    for k in range(n_thr):
        if morale >= thresholds[k]:
            return k
    return n_thr


@kernel
def nth_target(hp: np.ndarray, d: int, work: np.ndarray, cap: int, n: int, u: float) -> int:
    """Target assignment: a WRD of Aggressiveness over the enemy miniatures still under their Bulk cap.

    One enemy unit means equal weights, so the draw is uniform over the eligible miniatures.
    Returns -1 when none is left (a "Miss").
    """
    eligible = 0
    for i in range(n):
        if hp[d, i] > 0 and work[RECEIVED, i] < cap:
            eligible += 1
    if eligible == 0:
        return -1
    k = min(int(u * eligible), eligible - 1)
    for i in range(n):
        if hp[d, i] > 0 and work[RECEIVED, i] < cap:
            if k == 0:
                return i
            k -= 1
    return -1


#: Draws an attack may need: target, roll to hit, damage, retaliation chance, its roll to hit, its damage.
SLOTS = 6


@kernel
def strike_one(hp: np.ndarray, a: int, ai: int, di: int, cum: np.ndarray, final: float, side_f: np.ndarray,
               luck_mult: float, deaths: np.ndarray, base: np.uint64, slot: int) -> int:
    """melee._strike: miniature ``ai`` of side ``a`` rolls to hit ``di`` of the other side and deals damage.

    Draws slots ``slot`` (roll to hit) and ``slot + 1`` (damage spread) of the attack's block.
    Returns the roll-to-hit outcome; casualties are counted in ``deaths[side]``.
    """
    d = 1 - a
    o = pick(cum, draw(base, slot))
    if o == BAD_LUCK:
        new = hp[a, ai] - side_f[a, BAD_SELF]
        hp[a, ai] = max(0.0, new)
        if new <= 0:
            deaths[a] += 1
    elif o == ATTACK or o == LUCK or o == BLOCKED:
        mult = luck_mult if o == LUCK else 1.0
        div = side_f[d, SHD] if o == BLOCKED else 1.0
        amount = spread_damage(final, mult, div, draw(base, slot + 1))
        new = max(0.0, hp[d, di] - amount)
        hp[d, di] = new
        if amount > 0 and new <= 0:
            deaths[d] += 1
    return o


@kernel
def draws_of(o: int) -> int:
    """Uniforms a roll to hit used: one, and one more for the damage of a hit."""
    return 2 if (o == ATTACK or o == LUCK or o == BLOCKED) else 1


@kernel
def may_retaliate(hp: np.ndarray, a: int, ai: int, di: int, o: int, work: np.ndarray) -> bool:
    """A defender that Blocked, Evaded or Deflected, alive and facing a living attacker, may retaliate once a round."""
    if not (o == BLOCKED or o == EVADED or o == DEFLECTED):
        return False
    return bool(hp[1 - a, di] > 0 and hp[a, ai] > 0 and work[RETALIATED, di] == 0)


@kernel
def melee_strike(s: int, states: np.ndarray, sched_i: np.ndarray, sched_f: np.ndarray, side_i: np.ndarray,
                 side_f: np.ndarray, hit_cum: np.ndarray, ret_cum: np.ndarray, luck_mult: float, hp: np.ndarray,
                 work: np.ndarray, deaths: np.ndarray, stream: np.ndarray, counts: np.ndarray) -> None:
    """melee.strike_round: every miniature alive at the start of the round strikes once, in order.

    ``states[side]`` is each unit's morale state at the start of the round (odds do not change
    within it); a miniature killed earlier in the round (retaliation, Bad Luck) does not strike.
    ``stream[0]`` is the battle's counter, ``stream[1]`` the uniforms computed; ``counts[0]`` attacks.
    """
    a = sched_i[s, ATT]
    d = 1 - a
    n_a, n_d = side_i[a, N], side_i[d, N]
    for i in range(n_d):
        work[RECEIVED, i] = 0
        work[RETALIATED, i] = 0
    for i in range(n_a):
        work[ALIVE0, i] = 1 if hp[a, i] > 0 else 0
    hit, ret, p_ret = hit_cum[s, states[a], 0], ret_cum[s, states[d]], side_f[d, RET]
    base, used, attacks = stream[0], 0, 0
    for ai in range(n_a):
        if work[ALIVE0, ai] == 0 or hp[a, ai] <= 0:
            continue
        attacks += 1
        if side_i[d, AGG_OK] == 0:
            continue  # a Miss: no enemy draws attacks
        base = advance(base, SLOTS)
        used += 1
        di = nth_target(hp, d, work, side_i[d, CAP], n_d, draw(base, 0))
        if di < 0:
            continue
        work[RECEIVED, di] += 1
        o = strike_one(hp, a, ai, di, hit, sched_f[s, HIT_FINAL], side_f, luck_mult, deaths, base, 1)
        used += draws_of(o)
        if p_ret > 0 and may_retaliate(hp, a, ai, di, o, work):
            used += 1
            if draw(base, 3) < p_ret:
                work[RETALIATED, di] = 1
                attacks += 1
                used += draws_of(strike_one(hp, d, di, ai, ret, sched_f[s, RET_FINAL], side_f, luck_mult, deaths,
                                            base, 4))
    stream[0] = base
    stream[1] += np.uint64(used)
    counts[0] += attacks
