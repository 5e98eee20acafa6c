"""The sampled kernels' particle loops as plain loops, for numba to compile (:mod:`.compiled` loads them).

Each function is the numpy reference's draw sequence (:meth:`.sampled_volley._Sampler.shot`), written
particle by particle: it takes the uniforms from the same generator in the same order and sizes (every
particle's landing draw, then the unit draw of the particles that reach one, then their Missile Block draw,
then the damage of those not blocked, then the miniature struck, unit by unit), and does the same
floating-point operations (the same cumulative sums, the same comparisons), so the results are the
reference's bit for bit. Run by the interpreter they are correct but slow: without numba the numpy
reference runs instead. Imported only when numba is there and switched on (:func:`.compiled.kernels`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba  # type: ignore[import-untyped, unused-ignore]
import numpy as np

from .kernel_codes import ATTACK, BAD_LUCK, BLOCKED, DEFENDED, LUCK
from .kernel_codes import FALLS_ALLY as _ALLY
from .kernel_codes import FALLS_BAD as _BAD
from .kernel_codes import FALLS_ENEMY as _ENEMY
from .kernel_codes import FALLS_LUCK as _LUCK
from .sampled import Bools, Floats, Ints

F = TypeVar("F", bound=Callable[..., Any])


def _compiled(fn: F) -> F:
    """``numba.njit``, cached in ``__pycache__`` (compiled once per install); no division here can be by 0.
    ``inline="always"``: a helper called per particle is folded into its caller (a call passing arrays costs their
    reference counting each time: the volley ran 5× slower)."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(fn))


def _called(fn: F) -> F:
    """``numba.njit`` for a helper called a few times per projectile or strike: a call of its own (inlining it
    everywhere would only lengthen the compile)."""
    return cast(F, numba.njit(cache=True, nogil=True, error_model="numpy")(fn))



@_called
def volley_shot(rng: np.random.Generator, live: Bools, group: Ints, flat: Floats, k: int, kinds: Ints, alive: Ints,
                counts: Ints, enemy: Bools, ally: Bools, weight: Floats, block: Floats, law_idx: Ints, chain_on: bool,
                chain: Bools, later_b: Floats, later_law: Ints, immune: Bools, law_vals: Floats, law_cum: Floats,
                law_len: Ints, s_hp: Floats, si: int, bad: float, t_hp: Floats, off: Ints, ff: Ints, d_order: Ints,
                d_n: Ints) -> None:  # pragma: no cover
    """One projectile of shooter miniature ``si`` for every particle (see the module docstring; the arrays are the
    sampler's, changed in place: hit points, living counts, friendly fire, the elemental chain, the death log)."""
    n = len(live)
    nu = enemy.shape[0]
    # where it falls: the group's cumulative law, normalised and offset by the group's number (pick_grouped)
    u = rng.random(n)
    kind = np.zeros(n, dtype=np.int64)
    for i in range(n):
        if not live[i]:
            continue
        g = group[i]
        x = u[i] + g
        lo, hi = 0, flat.shape[0]
        while lo < hi:
            mid = (lo + hi) >> 1
            if flat[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        at = min(max(lo - g * k, 0), k - 1)
        kind[i] = kinds[at]
    # Bad Luck on the shooter; the particles whose projectile reaches a unit (``rows``)
    rows = np.empty(n, dtype=np.int64)
    nr = 0
    for i in range(n):
        kd = kind[i]
        if kd == _BAD:
            old = s_hp[i, si]
            hp = old - bad
            if hp <= 0:
                hp = 0.0
            s_hp[i, si] = hp
            if old > 0 and hp <= 0:
                d_order[i, d_n[i]] = -1
                d_n[i] += 1
                counts[i, 0] -= 1
        elif kd >= _ENEMY:
            total = 0.0
            for j in range(nu):
                if (ally[j] if kd == _ALLY else enemy[j]) and weight[j] > 0:
                    total += alive[i, j] * weight[j]
            if total > 0:
                rows[nr] = i
                nr += 1
    if nr == 0:
        return
    # the unit it lands on, by living miniatures × weight (pick_rows), then Missile Block
    u = rng.random(nr)
    unit = np.empty(nr, dtype=np.int64)
    cum = np.empty(nu, dtype=np.float64)
    for r in range(nr):
        i = rows[r]
        friendly = kind[i] == _ALLY
        c = 0.0
        for j in range(nu):
            side = ally[j] if friendly else enemy[j]
            w = alive[i, j] * weight[j] * (1.0 if side and weight[j] > 0 else 0.0)
            c = w if j == 0 else c + w
            cum[j] = c
        t = u[r] * cum[nu - 1]
        m = 0
        for j in range(nu):
            if cum[j] < t:
                m += 1
        unit[r] = min(m, nu - 1)
        if friendly:
            ff[i, unit[r]] += 1
    u = rng.random(nr)
    law = np.empty(nr, dtype=np.int64)
    kept = np.empty(nr, dtype=np.int64)
    nk = 0
    for r in range(nr):
        i, j = rows[r], unit[r]
        luck = kind[i] == _LUCK
        b = block[group[i], j]
        li = law_idx[group[i], j, 1 if luck else 0]
        if chain_on and chain[i, j]:  # a unit a bolt has hurt reads its new chain
            b = later_b[j]
            li = later_law[j, 1 if luck else 0]
        if luck and not immune[j]:
            b = 0.0
        if u[r] >= b:
            kept[nk] = r
            law[nk] = li
            nk += 1
    # the damage (the exact law of damage.roll, searched as ``pick`` does), then the miniature struck, unit by unit
    u = rng.random(nk)
    amount = np.empty(nk, dtype=np.float64)
    for q in range(nk):
        li = law[q]
        size = law_len[li]
        x = u[q] * law_cum[li, size - 1]
        at = 0
        while at < size and law_cum[li, at] <= x:
            at += 1
        amount[q] = law_vals[li, min(at, size - 1)]
        if chain_on and amount[q] > 0:
            chain[rows[kept[q]], unit[kept[q]]] = True
    for j in range(nu):
        for q in range(nk):
            r = kept[q]
            if unit[r] != j:
                continue
            i = rows[r]
            _lands(t_hp, off[j], off[j + 1], i, rng.random(), amount[q], counts, j, d_order, d_n)


@_compiled
def _lands(t_hp: Floats, lo: int, hi: int, i: int, u: float, amount: float, counts: Ints, j: int, d_order: Ints,
           d_n: Ints) -> None:  # pragma: no cover
    """The projectile strikes a living miniature of unit ``j`` (columns ``lo:hi``), uniformly (nth_alive)."""
    living = 0
    for c in range(lo, hi):
        if t_hp[i, c] > 0:
            living += 1
    nth = min(int(u * living), max(living - 1, 0))
    mini = lo
    seen = 0
    for c in range(lo, hi):
        if t_hp[i, c] > 0:
            if seen == nth:
                mini = c
                break
            seen += 1
    new = t_hp[i, mini] - amount
    killed = amount > 0 and new <= 0
    if new <= 0:
        new = 0.0
    t_hp[i, mini] = new
    if killed:
        d_order[i, d_n[i]] = j
        d_n[i] += 1
        counts[i, 1 + j] -= 1



@_called
def round_strike(rng: np.random.Generator, a_hp: Floats, ai: int, t_hp: Floats, off: Ints, recv: Ints, ret: Bools,
                 caps: Floats, agg: Floats, hit: Ints, hit_cum: Floats, hit_law: Ints, back: Ints, back_cum: Floats,
                 back_law: Ints, retc: Floats, a_bad: float, t_bad: Floats, law_vals: Floats, law_cum: Floats,
                 law_len: Ints, a_dead: Ints, d_order: Ints, d_n: Ints) -> None:  # pragma: no cover
    """One strike of attacker miniature ``ai`` for every particle (:meth:`.sampled_round._Sampler.strike`): the unit
    by Aggressiveness over the miniatures open to an attack, then, unit by unit, the miniature, the roll to hit, the
    damage and the retaliation, each draw in the reference's order and sizes. ``hit``/``back``: per target unit the
    codes of the roll to hit's outcomes (and of the retaliation's), ``*_cum`` their cumulative weights, ``*_law`` the
    damage law of Attack, Luck and Blocked."""
    n, nt = a_hp.shape[0], caps.shape[0]
    rows = np.empty(n, dtype=np.int64)
    w = np.zeros((n, nt), dtype=np.float64)
    nr = 0
    for i in range(n):
        if a_hp[i, ai] <= 0:
            continue
        total = 0.0
        for j in range(nt):
            if agg[j] > 0:
                w[nr, j] = _open(t_hp, recv, caps[j], off[j], off[j + 1], i) * agg[j]
                total += w[nr, j]
            else:
                w[nr, j] = 0.0
        if total > 0:
            rows[nr] = i
            nr += 1
    if nr == 0:
        return
    u = rng.random(nr)
    unit = np.empty(nr, dtype=np.int64)
    for r in range(nr):
        c = 0.0
        m = 0
        t = 0.0
        for j in range(nt):
            c = w[r, j] if j == 0 else c + w[r, j]
            w[r, j] = c
        t = u[r] * w[r, nt - 1]
        for j in range(nt):
            if w[r, j] < t:
                m += 1
        unit[r] = min(m, nt - 1)
    for j in range(nt):
        sel = rows[:nr][unit == j]
        if len(sel):
            _assigned(rng, sel, a_hp, ai, j, t_hp, off, recv, ret, caps, hit, hit_cum, hit_law, back, back_cum,
                      back_law, retc, a_bad, t_bad, law_vals, law_cum, law_len, a_dead, d_order, d_n)


@_compiled
def _open(t_hp: Floats, recv: Ints, cap: float, lo: int, hi: int, i: int) -> int:  # pragma: no cover
    """How many miniatures of one unit (columns ``lo:hi``) may still receive an attack in particle ``i``."""
    k = 0
    for c in range(lo, hi):
        if t_hp[i, c] > 0 and recv[i, c] < cap:
            k += 1
    return k


@_compiled
def _pick(cum: Floats, size: int, u: float) -> int:  # pragma: no cover
    """``pick``: the outcome ``u`` falls in, by the cumulative weights ``cum[:size]`` (searchsorted, side right)."""
    x = u * cum[size - 1]
    at = 0
    while at < size and cum[at] <= x:
        at += 1
    return min(at, size - 1)


@_called
def _assigned(rng: np.random.Generator, rows: Ints, a_hp: Floats, ai: int, j: int, t_hp: Floats, off: Ints, recv: Ints,
              ret: Bools, caps: Floats, hit: Ints, hit_cum: Floats, hit_law: Ints, back: Ints, back_cum: Floats,
              back_law: Ints, retc: Floats, a_bad: float, t_bad: Floats, law_vals: Floats, law_cum: Floats,
              law_len: Ints, a_dead: Ints, d_order: Ints, d_n: Ints) -> None:  # pragma: no cover
    """The strikes landing on unit ``j`` (:meth:`.sampled_round._Sampler.assigned`)."""
    m = len(rows)
    u = rng.random(m)
    mini = np.empty(m, dtype=np.int64)
    for q in range(m):
        i = rows[q]
        living = _open(t_hp, recv, caps[j], off[j], off[j + 1], i)
        nth = min(int(u[q] * living), max(living - 1, 0))
        mini[q] = off[j]
        seen = 0
        for c in range(off[j], off[j + 1]):
            if t_hp[i, c] > 0 and recv[i, c] < caps[j]:
                if seen == nth:
                    mini[q] = c
                    break
                seen += 1
    for q in range(m):
        recv[rows[q], mini[q]] += 1
    size = 0
    while size < hit.shape[1] and hit[j, size] >= 0:
        size += 1
    u = rng.random(m)
    got = np.empty(m, dtype=np.int64)
    a0 = np.empty(m, dtype=np.float64)
    for q in range(m):
        got[q] = _pick(hit_cum[j], size, u[q])
        a0[q] = a_hp[rows[q], ai]
    for k in range(size):
        code = hit[j, k]
        sel = np.flatnonzero(got == k)
        if not len(sel):
            continue
        if code == BAD_LUCK:
            for b in sel:
                _hurt(a_hp, rows[b], ai, a_bad, a_dead, d_order, d_n, -1)
            continue
        if code == ATTACK or code == LUCK or code == BLOCKED:
            li = hit_law[j, code - ATTACK]
            ud = rng.random(len(sel))
            for x in range(len(sel)):
                q = sel[x]
                _hurt(t_hp, rows[q], mini[q], law_vals[li, _pick(law_cum[li], law_len[li], ud[x])], a_dead, d_order,
                      d_n, j)
        if (code == BLOCKED or code == DEFENDED) and retc[j] > 0:
            ur = rng.random(len(sel))
            fired = np.empty(len(sel), dtype=np.int64)
            nf = 0
            for x in range(len(sel)):
                q = sel[x]
                i, mq = rows[q], mini[q]
                if t_hp[i, mq] > 0 and a0[q] > 0 and not ret[i, mq] and ur[x] < retc[j]:
                    fired[nf] = q
                    nf += 1
            if nf:
                _retaliate(rng, rows, mini, fired[:nf], a_hp, ai, j, t_hp, ret, back, back_cum, back_law, t_bad,
                           law_vals, law_cum, law_len, a_dead, d_order, d_n)


@_called
def _retaliate(rng: np.random.Generator, rows: Ints, mini: Ints, fired: Ints, a_hp: Floats, ai: int, j: int,
               t_hp: Floats, ret: Bools, back: Ints, back_cum: Floats, back_law: Ints, t_bad: Floats, law_vals: Floats,
               law_cum: Floats, law_len: Ints, a_dead: Ints, d_order: Ints, d_n: Ints) -> None:  # pragma: no cover
    """The retaliations of the struck miniatures ``fired`` (:meth:`.sampled_round._Sampler.retaliate`)."""
    for q in fired:
        ret[rows[q], mini[q]] = True
    size = 0
    while size < back.shape[1] and back[j, size] >= 0:
        size += 1
    u = rng.random(len(fired))
    got = np.empty(len(fired), dtype=np.int64)
    for x in range(len(fired)):
        got[x] = _pick(back_cum[j], size, u[x])
    for k in range(size):
        code = back[j, k]
        sel = np.flatnonzero(got == k)
        if not len(sel):
            continue
        if code == BAD_LUCK:
            for b in sel:
                _hurt(t_hp, rows[fired[b]], mini[fired[b]], t_bad[j], a_dead, d_order, d_n, j)
        elif code == ATTACK or code == LUCK or code == BLOCKED:
            li = back_law[j, code - ATTACK]
            ud = rng.random(len(sel))
            for y in range(len(sel)):
                q = fired[sel[y]]
                _hurt(a_hp, rows[q], ai, law_vals[li, _pick(law_cum[li], law_len[li], ud[y])], a_dead, d_order, d_n,
                      -1)


@_compiled
def _hurt(hp: Floats, i: int, c: int, amount: float, a_dead: Ints, d_order: Ints, d_n: Ints,
          who: int) -> None:  # pragma: no cover
    """``hurt_target`` (``who`` the unit, its death logged) or ``hurt_attacker`` (``who`` -1, counted in ``a_dead``)."""
    old = hp[i, c]
    new = old - amount
    killed = amount > 0 and new <= 0 and old > 0
    if new <= 0:
        new = 0.0
    hp[i, c] = new
    if killed:
        if who < 0:
            a_dead[i] += 1
        else:
            d_order[i, d_n[i]] = who
            d_n[i] += 1


#: The widest code range :func:`count_groups` tables (past it, the numpy reference's sort groups the particles).
TABLED = 1 << 16


@_called
def count_groups(counts: Ints) -> tuple[Ints, Ints, bool]:  # pragma: no cover
    """:func:`.sampled.count_groups` without a sort: (first particle of each group, each particle's group, done).

    Each row's code is mixed-radix over each column's range of values (lowest to highest, the last column most
    significant, as the reference's), so the groups come in the reference's order: the rank of the row among the
    distinct rows. Tabled by code when the codes span at most :data:`TABLED` values; else ``done`` is False and the
    reference groups them."""
    n, m = counts.shape
    lo = np.empty(m, dtype=np.int64)
    radix = np.empty(m, dtype=np.int64)
    span = 1
    for k in range(m):
        a, b = counts[0, k] if n else 0, counts[0, k] if n else 0
        for i in range(n):
            a, b = min(a, counts[i, k]), max(b, counts[i, k])
        lo[k] = a
        radix[k] = span
        span *= b - a + 1
        if span > TABLED:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64), False
    table = np.full(span, -1, dtype=np.int64)
    code = np.empty(n, dtype=np.int64)
    for i in range(n):
        c = 0
        for k in range(m):
            c += (counts[i, k] - lo[k]) * radix[k]
        code[i] = c
        if table[c] < 0:
            table[c] = i
    rank = np.empty(span, dtype=np.int64)
    first = np.empty(min(span, n), dtype=np.int64)
    g = 0
    for c in range(span):
        if table[c] >= 0:
            rank[c] = g
            first[g] = table[c]
            g += 1
    group = np.empty(n, dtype=np.int64)
    for i in range(n):
        group[i] = rank[code[i]]
    return first[:g], group, True


def warm() -> None:
    """Compile (or load from the cache) every kernel now, on empty inputs of the types the samplers pass: outside
    any preview's work (:func:`.compiled.kernels` calls it once per process)."""
    rng = np.random.default_rng(0)
    b0, b1, b2 = np.zeros(0, dtype=bool), np.zeros(1, dtype=bool), np.zeros((1, 1), dtype=bool)
    i0, i1 = np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)
    f1, f2 = np.zeros(1), np.zeros((1, 1))
    volley_shot(rng, b0, i0, f1, 1, i1, np.zeros((0, 1), dtype=np.int64), np.zeros((0, 2), dtype=np.int64), b1, b1,
                f1, f2, np.zeros((1, 1, 2), dtype=np.int64), False, b2, f1, np.zeros((1, 2), dtype=np.int64), b1, f2,
                f2, np.ones(1, dtype=np.int64), np.zeros((0, 1)), 0, 0.0, np.zeros((0, 1)), np.zeros(2, dtype=np.int64),
                np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1), dtype=np.int64), i0)
    count_groups(np.zeros((0, 2), dtype=np.int64))
    i2, i3 = np.zeros((1, 1), dtype=np.int64), np.zeros((1, 3), dtype=np.int64)
    round_strike(rng, np.zeros((0, 1)), 0, np.zeros((0, 1)), np.zeros(2, dtype=np.int64),
                 np.zeros((0, 1), dtype=np.int64), np.zeros((0, 1), dtype=bool), f1, f1, i2, f2, i3, i2, f2, i3, f1, 0.0,
                 f1, f2, f2, np.ones(1, dtype=np.int64), i0, np.zeros((0, 1), dtype=np.int64), i0)
