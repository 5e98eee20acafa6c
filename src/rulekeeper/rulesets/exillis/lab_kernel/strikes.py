"""One melee attack and one melee round, as :func:`..melee.strike_round` resolves them, on flat arrays.

The odds come from the tables (the reference ``duel_odds`` of this strike); what is done here
is the random part: target assignment by Aggressiveness under the Bulk cap, the roll to hit,
the ±20 % damage spread (Block divides by Shield, Luck multiplies), Bad Luck on oneself, and
the defender's retaliation (once per round, with its RET chance, never retaliated against).
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .layout import (
    AGG_OK,
    ATT,
    ATTACK,
    BAD_LUCK,
    BAD_SELF,
    BLOCKED,
    CAP,
    DEFLECTED,
    ELIGIBLE,
    EVADED,
    HIT_FINAL,
    LUCK,
    RECEIVED,
    RET,
    RET_FINAL,
    RETALIATED,
    SHD,
    SLOT,
    STATES,
    N,
)
from .rng import advance, draw, draw_below, draw_bits

SPREAD = 0.2  # the ±20 % damage spread of damage.roll


@kernel
def pick(cum: np.ndarray, row: int, u: float) -> int:
    """The outcome a uniform selects from the cumulative odds ``cum[row]`` (outcomes of probability 0 never come out).

    A row index, not a row: a slice would be a new array view on every call (reference counted,
    an atomic operation each time), and this runs for every attack.

    The first ``k`` with ``u < cum[k]`` can never be an outcome of probability 0 (its ``cum``
    equals the previous one, which ``u`` already passed); past the end (rounding), the last
    outcome of nonzero probability.
    """
    n = cum.shape[1]
    for k in range(n):  # searched: the likeliest outcome comes first, so the branch is well predicted
        if u < cum[row, k]:
            return k
    for k in range(n - 1, 0, -1):
        if cum[row, k] > cum[row, k - 1]:
            return k
    return 0


@kernel
def bit_thresholds(cum: np.ndarray) -> np.ndarray:
    """``ceil(cum × 2⁵³)``: a uniform ``bits × 2⁻⁵³`` is below ``cum[k]`` exactly when ``bits`` is below this.

    (Scaling by a power of two is exact, and an integer is below a number when it is below its
    ceiling.) Made once per kernel call, so :func:`pick_bits` compares integers.
    """
    out: np.ndarray = np.ceil(cum * 9007199254740992.0).astype(np.int64)
    return out


@kernel
def pick_bits(bits_cum: np.ndarray, cum: np.ndarray, row: int, bits: np.int64) -> int:
    """:func:`pick` of the uniform ``bits × 2⁻⁵³`` (``bits_cum`` from :func:`bit_thresholds`): the same outcome.

    Why: the roll to hit is the attack's most mispredicted branch, and it is resolved sooner
    without the integer-to-float conversion and the scaling in front of it (measured: 0-8 %
    faster, noisy on the shared machine).
    """
    n = bits_cum.shape[1]
    for k in range(n):
        if bits < bits_cum[row, k]:
            return k
    for k in range(n - 1, 0, -1):
        if cum[row, k] > cum[row, k - 1]:
            return k
    return 0


@kernel
def spread_damage(final: float, mult: float, div: float, u: float) -> float:
    """damage.roll: final × multiplier / divisor × U(0.8, 1.2), rounded half up (damage is never negative).

    ``np.floor`` stays a float (``math.floor`` makes an integer the Hit Points then turn back
    into a float: two conversions on the path every death and target check waits on).
    """
    return float(np.floor(final * mult / div * ((1.0 - SPREAD) + 2.0 * SPREAD * u) + 0.5))


@kernel
def state_index(morale: float, thresholds: np.ndarray, x: int, n_thr: int) -> int:
    """Side ``x``'s morale state (0 = best) from its points, as morale.morale_state bands them."""
    for k in range(n_thr):
        if morale >= thresholds[x, k]:
            return k
    return n_thr


@kernel
def open_targets(hp: np.ndarray, d: int, n: int, work: np.ndarray) -> int:
    """The round's target list: every living miniature of side ``d``, none of them attacked yet.

    ``work[ELIGIBLE, :k]`` lists the miniatures an attack may still be assigned to and
    ``work[SLOT, i]`` where miniature ``i`` sits in it, so a target is one draw and one load
    (``ELIGIBLE[int(u × k)]``) and leaving the list is a swap with its last entry.
    Returns ``k``.
    """
    k = 0
    for i in range(n):
        work[RECEIVED, i] = 0
        work[RETALIATED, i] = 0
        if hp[d, i] > 0:
            work[ELIGIBLE, k] = i
            work[SLOT, i] = k
            k += 1
    return k


@kernel
def close_target(work: np.ndarray, i: int, k: int) -> int:
    """Miniature ``i`` leaves the target list (dead, or at its Bulk cap): its place goes to the last entry."""
    at = work[SLOT, i]
    last = work[ELIGIBLE, k - 1]
    work[ELIGIBLE, at] = last
    work[SLOT, last] = at
    return k - 1


#: Draws an attack may need: target, roll to hit, damage, retaliation chance, its roll to hit, its damage.
SLOTS = 6


@kernel
def strike_one(hp: np.ndarray, a: int, ai: int, di: int, cum: np.ndarray, bits_cum: np.ndarray, row: int, final: float,
               side_f: np.ndarray, luck_mult: float, deaths: np.ndarray, base: np.uint64, slot: int) -> int:
    """melee._strike: miniature ``ai`` of side ``a`` rolls to hit ``di`` of the other side and deals damage.

    Draws slots ``slot`` (roll to hit) and ``slot + 1`` (damage spread) of the attack's block.
    Returns the roll-to-hit outcome; casualties are counted in ``deaths[side]``.
    """
    d = 1 - a
    o = pick_bits(bits_cum, cum, row, draw_bits(base, slot))
    if o == ATTACK:  # the likeliest outcome first: one well-predicted comparison, no jump table
        amount = spread_damage(final, 1.0, 1.0, draw(base, slot + 1))
        new = max(0.0, hp[d, di] - amount)
        hp[d, di] = new
        if amount > 0 and new <= 0:
            deaths[d] += 1
    elif o == LUCK or o == BLOCKED:
        mult = luck_mult if o == LUCK else 1.0
        div = side_f[d, SHD] if o == BLOCKED else 1.0
        amount = spread_damage(final, mult, div, draw(base, slot + 1))
        new = max(0.0, hp[d, di] - amount)
        hp[d, di] = new
        if amount > 0 and new <= 0:
            deaths[d] += 1
    elif o == BAD_LUCK:
        new = hp[a, ai] - side_f[a, BAD_SELF]
        hp[a, ai] = max(0.0, new)
        if new <= 0:
            deaths[a] += 1
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
                 side_f: np.ndarray, hit_cum: np.ndarray, ret_cum: np.ndarray, hit_bits: np.ndarray,
                 ret_bits: np.ndarray, luck_mult: float, hp: np.ndarray,
                 work: np.ndarray, deaths: np.ndarray, stream: np.ndarray, counts: np.ndarray, b: int) -> None:
    """melee.strike_round: every miniature alive at the start of the round strikes once, in order.

    ``states[side]`` is each unit's morale state at the start of the round (odds do not change
    within it); a miniature killed earlier in the round (retaliation, Bad Luck) does not strike.
    ``hit_cum`` and ``ret_cum`` have one row per (strike, morale state) (see :func:`.driver.flat_odds`),
    ``hit_bits`` and ``ret_bits`` the same as :func:`bit_thresholds`.
    ``stream[0]`` is the battle's counter, ``stream[1]`` the uniforms computed; ``counts[b, 0]`` attacks.
    """
    a = sched_i[s, ATT]
    d = 1 - a
    n_a, n_d = side_i[a, N], side_i[d, N]
    cap, drawn = side_i[d, CAP], side_i[d, AGG_OK] != 0
    targets = open_targets(hp, d, n_d, work) if drawn else 0
    hit, ret, p_ret = s * STATES + states[a], s * STATES + states[d], side_f[d, RET]
    hit_final, ret_final = sched_f[s, HIT_FINAL], sched_f[s, RET_FINAL]
    base, used, attacks = stream[0], 0, 0
    for ai in range(n_a):
        if hp[a, ai] <= 0:
            continue  # dead before the round, or killed in it (retaliation, Bad Luck): Hit Points never come back
        attacks += 1
        if not drawn:
            continue  # a Miss: no enemy draws attacks
        base = advance(base, SLOTS)
        used += 1
        if targets == 0:
            continue  # every enemy miniature is at its Bulk cap (the draw is made all the same)
        di = work[ELIGIBLE, draw_below(base, 0, targets)]
        work[RECEIVED, di] += 1
        o = strike_one(hp, a, ai, di, hit_cum, hit_bits, hit, hit_final, side_f, luck_mult, deaths, base, 1)
        used += draws_of(o)
        if p_ret > 0 and may_retaliate(hp, a, ai, di, o, work):
            used += 1
            if draw(base, 3) < p_ret:
                work[RETALIATED, di] = 1
                attacks += 1
                used += draws_of(strike_one(hp, d, di, ai, ret_cum, ret_bits, ret, ret_final, side_f, luck_mult,
                                            deaths, base, 4))
        if hp[d, di] <= 0 or work[RECEIVED, di] >= cap:
            targets = close_target(work, di, targets)
    stream[0] = base
    stream[1] += np.uint64(used)
    counts[b, 0] += attacks
