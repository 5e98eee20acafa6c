"""The numpy fallback's attacks: one melee round or one volley, for many battles at once.

Why the same draws as the numba kernel: every battle keeps its own counter (``Battles.base``)
and moves it exactly where :mod:`.strikes` / :mod:`.volleys` do — one block of slots per attack
actually made — so a draw is the same function of (seed, battle, counter, slot) on both paths
and the two give the same tallies, bit for bit (a test checks it). Vectorised across battles,
sequential over the attacking miniatures (a unit's attacks within a round depend on one another:
targets fill up to their Bulk cap, miniatures die).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import layout as L
from .rng import GOLDEN
from .strikes import SLOTS as MELEE_SLOTS
from .strikes import SPREAD
from .volleys import SLOTS as SHOT_SLOTS

_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2^-53


def mix64(z: np.ndarray) -> np.ndarray:
    """:func:`.rng.mix64` on an array of words (uint64 arithmetic wraps, as it must)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    out: np.ndarray = z ^ (z >> np.uint64(31))
    return out


def draw(base: np.ndarray, slot: int) -> np.ndarray:
    """:func:`.rng.draw` for each battle's counter."""
    return (mix64(base + np.uint64(slot + 1) * GOLDEN) >> np.uint64(11)).astype(np.float64) * _TO_UNIT


def draw_below(base: np.ndarray, slot: int, n: np.ndarray) -> np.ndarray:
    """:func:`.rng.draw_below`: ``(53 bits × n) >> 53`` for each battle's counter."""
    bits = mix64(base + np.uint64(slot + 1) * GOLDEN) >> np.uint64(11)
    out: np.ndarray = ((bits * n.astype(np.uint64)) >> np.uint64(53)).astype(np.int64)
    return out


@dataclass
class Battles:
    """The battles still being fought, one row each (the kernel's per-battle arrays, stacked)."""

    index: np.ndarray  # battle index, for the records
    base: np.ndarray  # uint64 counter of each battle's stream
    hp: np.ndarray  # [battle, side, miniature]
    morale: np.ndarray  # [battle, side]
    intim_mod: np.ndarray  # [battle, side]
    count: np.ndarray  # [battle, side] living miniatures
    fleeing: np.ndarray  # [battle, side] bool
    deaths: np.ndarray  # [battle, side] this strike's casualties

    def keep(self, rows: np.ndarray) -> Battles:
        return Battles(*(getattr(self, f)[rows] for f in self.__dataclass_fields__))


def pick(cum: np.ndarray, rows: np.ndarray, u: np.ndarray, last: np.ndarray) -> np.ndarray:
    """:func:`.strikes.pick` per battle: how many of ``cum[row]`` are at or below ``u``; past the end, ``last[row]``."""
    k = (u[:, None] >= cum[rows]).sum(axis=1)
    out: np.ndarray = np.where(k < cum.shape[1], k, last[rows])
    return out


def last_outcomes(cum: np.ndarray) -> np.ndarray:
    """For each row of cumulative odds, the last outcome of nonzero probability (0 if none)."""
    steps = np.diff(cum, axis=1) > 0
    out = np.zeros(cum.shape[0], np.int64)
    for k in range(1, cum.shape[1]):
        out[steps[:, k - 1]] = k
    return out


def spread_damage(final: float | np.ndarray, mult: np.ndarray, div: np.ndarray, u: np.ndarray) -> np.ndarray:
    """:func:`.strikes.spread_damage`, the same operations in the same order."""
    out: np.ndarray = np.floor(final * mult / div * ((1.0 - SPREAD) + 2.0 * SPREAD * u) + 0.5)
    return out


def wound(bt: Battles, rows: np.ndarray, side: int, mini: np.ndarray, amount: np.ndarray) -> None:
    """Damage to miniature ``mini`` of ``side`` in battles ``rows``; a miniature brought to 0 is a casualty."""
    new = np.maximum(0.0, bt.hp[rows, side, mini] - amount)
    bt.hp[rows, side, mini] = new
    dead = rows[(amount > 0) & (new <= 0)]
    bt.deaths[dead, side] += 1


def strike(bt: Battles, rows: np.ndarray, a: int, ai: np.ndarray, di: np.ndarray, cum: np.ndarray,
           cum_rows: np.ndarray, last: np.ndarray, final: float, side_f: np.ndarray, luck_mult: float,
           slot: int) -> np.ndarray:
    """:func:`.strikes.strike_one` in battles ``rows``: returns each one's roll-to-hit outcome."""
    d = 1 - a
    base = bt.base[rows]
    o = pick(cum, cum_rows, draw(base, slot), last)
    bad = o == L.BAD_LUCK
    if bad.any():
        r, m = rows[bad], ai[bad]
        new = bt.hp[r, a, m] - side_f[a, L.BAD_SELF]
        bt.hp[r, a, m] = np.maximum(0.0, new)
        bt.deaths[r[new <= 0], a] += 1
    hit = (o == L.ATTACK) | (o == L.LUCK) | (o == L.BLOCKED)
    if hit.any():
        oh = o[hit]
        mult = np.where(oh == L.LUCK, luck_mult, 1.0)
        div = np.where(oh == L.BLOCKED, side_f[d, L.SHD], 1.0)
        wound(bt, rows[hit], d, di[hit], spread_damage(final, mult, div, draw(base[hit], slot + 1)))
    return o


def draws_of(o: np.ndarray) -> np.ndarray:
    return np.where((o == L.ATTACK) | (o == L.LUCK) | (o == L.BLOCKED), 2, 1)


@dataclass
class Targets:
    """Each battle's target list (:func:`.strikes.open_targets`): ``eligible[:, :k]``, ``slot`` its inverse."""

    eligible: np.ndarray
    slot: np.ndarray
    k: np.ndarray
    received: np.ndarray
    retaliated: np.ndarray

    @classmethod
    def open(cls, hp: np.ndarray, d: int, n: int, drawn: bool) -> Targets:
        b, width = hp.shape[0], hp.shape[2]
        t = cls(np.zeros((b, width), np.int64), np.zeros((b, width), np.int64), np.zeros(b, np.int64),
                np.zeros((b, width), np.int64), np.zeros((b, width), bool))
        if drawn:
            rows = np.arange(b)
            for i in range(n):
                alive = hp[:, d, i] > 0
                t.eligible[rows[alive], t.k[alive]] = i
                t.slot[:, i] = t.k
                t.k += alive
        return t

    def close(self, rows: np.ndarray, mini: np.ndarray) -> None:
        """:func:`.strikes.close_target`: ``mini`` leaves each battle's list, its place to the last entry."""
        at = self.slot[rows, mini]
        last = self.eligible[rows, self.k[rows] - 1]
        self.eligible[rows, at] = last
        self.slot[rows, last] = at
        self.k[rows] -= 1


def melee_round(bt: Battles, s: int, states: np.ndarray, t: VecTables) -> tuple[int, int]:
    """:func:`.strikes.melee_strike` in every battle: (attacks made, uniforms used)."""
    a = int(t.sched_i[s, L.ATT])
    d = 1 - a
    drawn = t.side_i[d, L.AGG_OK] != 0
    cap, p_ret = t.side_i[d, L.CAP], t.side_f[d, L.RET]
    hit_rows, ret_rows = s * L.STATES + states[:, a], s * L.STATES + states[:, d]
    tg = Targets.open(bt.hp, d, int(t.side_i[d, L.N]), drawn)
    attacks = used = 0
    for ai in range(int(t.side_i[a, L.N])):
        act = np.flatnonzero(bt.hp[:, a, ai] > 0)
        attacks += act.size
        if not drawn:
            continue
        bt.base[act] += np.uint64(MELEE_SLOTS) * GOLDEN
        used += act.size
        r = act[tg.k[act] > 0]
        di = tg.eligible[r, draw_below(bt.base[r], 0, tg.k[r])]
        tg.received[r, di] += 1
        mini = np.full(r.size, ai)
        o = strike(bt, r, a, mini, di, t.hit_cum, hit_rows[r], t.hit_last, t.sched_f[s, L.HIT_FINAL], t.side_f,
                   t.luck_mult, 1)
        used += int(draws_of(o).sum())
        if p_ret > 0:
            a_r, u_r = _retaliate(bt, tg, r, a, ai, di, o, s, ret_rows, t)
            attacks, used = attacks + a_r, used + u_r
        gone = (bt.hp[r, d, di] <= 0) | (tg.received[r, di] >= cap)
        tg.close(r[gone], di[gone])
    return attacks, used


def _retaliate(bt: Battles, tg: Targets, r: np.ndarray, a: int, ai: int, di: np.ndarray, o: np.ndarray, s: int,
               ret_rows: np.ndarray, t: VecTables) -> tuple[int, int]:
    """:func:`.strikes.may_retaliate` and the retaliation: (attacks, uniforms)."""
    d = 1 - a
    may = ((o == L.BLOCKED) | (o == L.EVADED) | (o == L.DEFLECTED)) & (bt.hp[r, d, di] > 0) \
        & (bt.hp[r, a, ai] > 0) & ~tg.retaliated[r, di]
    r2, d2 = r[may], di[may]
    yes = draw(bt.base[r2], 3) < t.side_f[d, L.RET]
    r3, d3 = r2[yes], d2[yes]
    tg.retaliated[r3, d3] = True
    o3 = strike(bt, r3, d, d3, np.full(r3.size, ai), t.ret_cum, ret_rows[r3], t.ret_last,
                t.sched_f[s, L.RET_FINAL], t.side_f, t.luck_mult, 4)
    return r3.size, r2.size + int(draws_of(o3).sum())


def volley(bt: Battles, s: int, states: np.ndarray, t: VecTables) -> tuple[int, int]:
    """:func:`.volleys.volley` in every battle: (projectiles, uniforms used)."""
    a = int(t.sched_i[s, L.ATT])
    d = 1 - a
    width = bt.hp.shape[2] + 1
    rows0 = (s * L.STATES + states[:, a]) * width
    alive0 = bt.hp[:, a, :] > 0
    shots = used = 0
    for ai in range(int(t.side_i[a, L.N])):
        for _ in range(int(t.side_i[a, L.SHOTS_PER])):
            left = bt.count[:, d] - bt.deaths[:, d]
            r = np.flatnonzero(alive0[:, ai] & (left > 0))
            shots += r.size
            bt.base[r] += np.uint64(SHOT_SLOTS) * GOLDEN
            used += _one_shot(bt, r, a, ai, rows0[r] + left[r], left[r], t)
    return shots, used


def _one_shot(bt: Battles, r: np.ndarray, a: int, ai: int, cum_rows: np.ndarray, left: np.ndarray,
              t: VecTables) -> int:
    """:func:`.volleys.one_shot` in battles ``r``: the uniforms used."""
    d = 1 - a
    base = bt.base[r]
    where = pick(t.hit_cum, cum_rows, draw(base, 0), t.hit_last)
    bad = where == L.SHOT_BAD_LUCK
    if bad.any():
        rb = r[bad]
        new = bt.hp[rb, a, ai] - t.side_f[a, L.BAD_SELF]
        bt.hp[rb, a, ai] = np.maximum(0.0, new)
        bt.deaths[rb[new <= 0], a] += 1
    lands = (where == L.ACCURATE) | (where == L.ENEMY_SPACE) | (where == L.SHOT_LUCK)
    rl, wl, bl = r[lands], where[lands], base[lands]
    k = np.minimum((draw(bl, 1) * left[lands]).astype(np.int64), left[lands] - 1)
    di = np.argmax(np.cumsum(bt.hp[rl, d, :] > 0, axis=1) > k[:, None], axis=1)  # the k-th living miniature
    mblk = t.side_f[d, L.MBLK]
    tries = wl != L.SHOT_LUCK
    stopped = tries & (draw(bl, 2) < mblk) if mblk > 0 else np.zeros(rl.size, bool)
    go = ~stopped
    mult = np.where(wl[go] == L.SHOT_LUCK, t.luck_mult, 1.0)
    wound(bt, rl[go], d, di[go], spread_damage(t.side_f[d, L.SHOT_FINAL], mult, np.ones(mult.size),
                                               draw(bl[go], 3)))
    per = np.where(wl == L.SHOT_LUCK, 3, 4) if mblk > 0 else np.full(rl.size, 3)
    return int(r.size - rl.size + np.where(stopped, 3, per).sum())


@dataclass(frozen=True)
class VecTables:
    """The request's tables as the fallback reads them (odds flattened to rows, as the kernel's)."""

    side_i: np.ndarray
    side_f: np.ndarray
    thresholds: np.ndarray
    sched_i: np.ndarray
    sched_f: np.ndarray
    hit_cum: np.ndarray
    hit_last: np.ndarray
    ret_cum: np.ndarray
    ret_last: np.ndarray
    sens: np.ndarray
    intim: np.ndarray
    luck_mult: float
    rout_on_breaking: bool
    charge_first: bool = True  # a charge's Intimidation before its casualties (option charge_intimidation)
