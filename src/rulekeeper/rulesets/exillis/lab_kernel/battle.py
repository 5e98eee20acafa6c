"""A whole duel, and many of them in parallel, tallied as histograms inside the kernel.

Why blocks: the battles of a request are cut into ``blocks`` contiguous runs, one ``prange``
iteration each, and every block adds into its own row of the histograms; the rows are summed
afterwards. No thread shares a counter, no per-battle sample is ever stored, and since each
battle draws from its own (seed, index) stream the sums do not depend on how many threads ran.
"""

from __future__ import annotations

import numpy as np

from .aftermath import casualty_morale, count_alive, ended, intimidation, static_morale
from .jit import kernel, parallel_kernel, prange
from .layout import (
    ATT,
    CHARGE,
    CHARGE_FIRST,
    COUNT,
    DRAW,
    FIRST_ORDER_END,
    FLEEING,
    HP,
    INTIM_MOD,
    LUCK_MULT,
    MORALE,
    MORALE0,
    N_THR,
    ROUND,
    ROUT_ON_BREAKING,
    STATIC,
    WORK_ROWS,
    N,
)
from .rng import battle_key, draw
from .strikes import bit_thresholds, melee_strike, state_index
from .volleys import volley


@kernel
def fresh(side_i: np.ndarray, side_f: np.ndarray, hp: np.ndarray, mor: np.ndarray, cnt: np.ndarray) -> None:
    """Both units full and fresh: every miniature at full Hit Points, starting morale, no Intimidation yet."""
    for x in range(2):
        for i in range(hp.shape[1]):
            hp[x, i] = side_f[x, HP] if i < side_i[x, N] else 0.0
        mor[x, MORALE] = side_f[x, MORALE0]
        mor[x, INTIM_MOD] = 0.0
        cnt[x, COUNT] = side_i[x, N]
        cnt[x, FLEEING] = 0


@kernel
def after_strike(s: int, shoot: bool, sched_i: np.ndarray, sched_f: np.ndarray, side_i: np.ndarray,
                 side_f: np.ndarray, sens: np.ndarray, intim: np.ndarray, params: np.ndarray, hp: np.ndarray,
                 mor: np.ndarray, cnt: np.ndarray, deaths: np.ndarray) -> None:
    """Casualty morale, the charge's static penalty and Intimidation (melee only: a volley's zone holds the target alone)."""
    a = sched_i[s, ATT]
    rout = params[ROUT_ON_BREAKING] != 0
    before0, before1 = cnt[0, COUNT], cnt[1, COUNT]
    if shoot:  # a shooter may lose to Bad Luck more shots than it has Hit Points for: count the living
        cnt[0, COUNT] = count_alive(hp, 0, side_i[0, N])
        cnt[1, COUNT] = count_alive(hp, 1, side_i[1, N])
        d = 1 - a
        casualty_morale(d, before1 if d == 1 else before0, deaths[d], sens[s, d], side_i, side_f, mor, cnt, rout)
        return
    if sched_i[s, CHARGE] != 0 and params[CHARGE_FIRST] != 0:
        intimidation(s, sens, intim, mor, cnt)  # the charge's melee, counted as it lands (cnt: before)
    cnt[0, COUNT] = before0 - deaths[0]  # in melee each casualty is counted once (the numpy fallback counts hp)
    cnt[1, COUNT] = before1 - deaths[1]
    casualty_morale(0, before0, deaths[0], sens[s, 0], side_i, side_f, mor, cnt, rout)
    casualty_morale(1, before1, deaths[1], sens[s, 1], side_i, side_f, mor, cnt, rout)
    static_morale(1 - a, sched_f[s, STATIC], sens[s, 1 - a], side_i, mor, cnt)
    intimidation(s, sens, intim, mor, cnt)


@kernel
def fight(index: int, key: np.uint64, shoot: bool, max_rounds: int, side_i: np.ndarray, side_f: np.ndarray,
          thresholds: np.ndarray, sched_i: np.ndarray, sched_f: np.ndarray, hit_cum: np.ndarray,
          ret_cum: np.ndarray, hit_bits: np.ndarray, ret_bits: np.ndarray, sens: np.ndarray, intim: np.ndarray,
          params: np.ndarray,
          hp: np.ndarray,
          mor: np.ndarray, cnt: np.ndarray, work: np.ndarray, deaths: np.ndarray, states: np.ndarray,
          stream: np.ndarray, counts: np.ndarray, b: int) -> tuple[int, int]:
    """Battle ``index`` fought to the end: (outcome code, rounds it took); a draw after ``max_rounds``.

    With two deployment orders (the schedule's strikes ``params[FIRST_ORDER_END]`` on are the fight
    when the second unit was deployed first) the battle's first draw says which unit was deployed
    first — a fair coin — and the fight follows that order's strikes.
    """
    fresh(side_i, side_f, hp, mor, cnt)
    base = battle_key(key, index)
    stream[0] = base  # stream[1] keeps counting the uniforms of the whole block
    lo, hi = 0, int(params[FIRST_ORDER_END])
    if hi < sched_i.shape[0]:  # the second order follows: a coin (the first attack's block starts past slot 0)
        stream[1] += np.uint64(1)
        if draw(base, 0) < 0.5:
            lo, hi = hi, sched_i.shape[0]
    luck_mult = params[LUCK_MULT]
    for s in range(lo, hi):
        deaths[0] = 0
        deaths[1] = 0
        for x in range(2):
            states[x] = state_index(mor[x, MORALE], thresholds, x, side_i[x, N_THR])
        if shoot:
            volley(s, states, sched_i, side_i, side_f, hit_cum, luck_mult, hp, cnt, work, deaths, stream, counts, b)
        else:
            melee_strike(s, states, sched_i, sched_f, side_i, side_f, hit_cum, ret_cum, hit_bits, ret_bits, luck_mult,
                         hp, work, deaths, stream, counts, b)
        after_strike(s, shoot, sched_i, sched_f, side_i, side_f, sens, intim, params, hp, mor, cnt, deaths)
        code = ended(cnt)
        if code >= 0:
            return code, sched_i[s, ROUND]
    return DRAW, max_rounds


@parallel_kernel
def run_battles(key: np.uint64, start: int, count: int, shoot: bool, max_rounds: int, side_i: np.ndarray,
                side_f: np.ndarray, thresholds: np.ndarray, sched_i: np.ndarray, sched_f: np.ndarray,
                hit_cum: np.ndarray, ret_cum: np.ndarray, sens: np.ndarray, intim: np.ndarray,
                params: np.ndarray, outcomes: np.ndarray, rounds: np.ndarray, survivors: np.ndarray,
                counts: np.ndarray) -> None:
    """Battles ``start`` … ``start + count - 1``, block ``b`` adding into row ``b`` of each histogram.

    ``survivors[b, side, n]`` counts battles that left ``n`` miniatures of ``side``;
    ``counts[b]`` = (attacks made, uniforms drawn), for the benchmark.
    """
    blocks = outcomes.shape[0]
    per_block = (count + blocks - 1) // blocks
    width = hp_width(side_i)
    hit_bits, ret_bits = bit_thresholds(hit_cum), bit_thresholds(ret_cum)
    for b in prange(blocks):
        hp = np.zeros((2, width))
        mor = np.zeros((2, 2))
        cnt = np.zeros((2, 2), np.int64)
        work = np.zeros((WORK_ROWS, width), np.int64)
        stream = np.zeros(2, np.uint64)
        deaths = np.zeros(2, np.int64)
        states = np.zeros(2, np.int64)
        for j in range(b * per_block, min(count, (b + 1) * per_block)):
            code, took = fight(start + j, key, shoot, max_rounds, side_i, side_f, thresholds, sched_i, sched_f,
                               hit_cum, ret_cum, hit_bits, ret_bits, sens, intim, params, hp, mor, cnt, work, deaths,
                               states, stream, counts, b)
            outcomes[b, code] += 1
            rounds[b, took] += 1
            survivors[b, 0, cnt[0, COUNT]] += 1
            survivors[b, 1, cnt[1, COUNT]] += 1
        counts[b, 1] += np.int64(stream[1])


@kernel
def hp_width(side_i: np.ndarray) -> int:
    return int(max(side_i[0, N], side_i[1, N]))
