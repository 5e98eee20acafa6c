"""The numpy fallback: the kernel's battles fought many at a time, when numba is not installed.

Why a second implementation and not the numba source run by the interpreter: that runs one
Python call per attack (≈ 10^4 battles/s); this runs one numpy call per attacking miniature
for a whole batch of battles. It keeps the kernel's rules and its random stream — each battle
draws from its own (seed, index) counter, moved exactly as the kernel moves it — so its tallies
are the numba kernel's, bit for bit (``tests/exillis/test_lab_kernel_fallback.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import layout as L
from .aftermath import CASUALTY_SCALE
from .rng import GOLDEN
from .tables import DuelTables
from .vec_attacks import Battles, VecTables, draw, last_outcomes, melee_round, mix64, volley

#: Battles fought together: big enough that numpy's per-call cost fades, small enough for the cache.
BATCH = 1 << 14


@dataclass
class Histograms:
    """What the kernel's ``run_battles`` fills: outcome, rounds and survivor counts, attacks and uniforms."""

    outcomes: np.ndarray
    rounds: np.ndarray
    survivors: np.ndarray
    attacks: int = 0
    uniforms: int = 0

    def record(self, bt: Battles, rows: np.ndarray, codes: np.ndarray, rounds: int) -> None:
        np.add.at(self.outcomes, codes, 1)
        self.rounds[rounds] += rows.size
        for x in range(2):
            np.add.at(self.survivors[x], bt.count[rows, x], 1)


def vec_tables(t: DuelTables, hit_cum: np.ndarray, ret_cum: np.ndarray) -> VecTables:
    return VecTables(t.side_i, t.side_f, t.thresholds, t.sched_i, t.sched_f, hit_cum, last_outcomes(hit_cum),
                     ret_cum, last_outcomes(ret_cum), t.sens, t.intim, float(t.params[L.LUCK_MULT]),
                     bool(t.params[L.ROUT_ON_BREAKING] != 0), bool(t.params[L.CHARGE_FIRST] != 0))


def fresh(index: np.ndarray, key: np.uint64, t: VecTables, width: int) -> Battles:
    """:func:`.battle.fresh` for a batch: full units, starting morale, each battle's stream at its start."""
    b = index.size
    hp = np.zeros((b, 2, width))
    for x in range(2):
        hp[:, x, : t.side_i[x, L.N]] = t.side_f[x, L.HP]
    base = mix64(np.uint64(key) ^ (index.astype(np.uint64) * GOLDEN))
    return Battles(index, base, hp, np.tile(t.side_f[:, L.MORALE0], (b, 1)), np.zeros((b, 2)),
                   np.tile(t.side_i[:, L.N], (b, 1)), np.zeros((b, 2), bool), np.zeros((b, 2), np.int64))


def states_of(bt: Battles, t: VecTables) -> np.ndarray:
    """:func:`.strikes.state_index` per battle and side: thresholds above the morale (they fall, best first)."""
    out = np.zeros((bt.morale.shape[0], 2), np.int64)
    for x in range(2):
        for k in range(int(t.side_i[x, L.N_THR])):
            out[:, x] += bt.morale[:, x] < t.thresholds[x, k]
    return out


def casualty_morale(bt: Battles, x: int, before: np.ndarray, sens: float, t: VecTables) -> None:
    """:func:`.aftermath.casualty_morale`: each casualty in turn, the later ones weighing more."""
    if t.side_i[x, L.BULK_OK] == 0:
        return
    bulk = t.side_f[x, L.BULK]
    total = before * bulk
    dead = bt.deaths[:, x]
    can_rout = t.side_i[x, L.CAN_ROUT] != 0
    for j in range(int(dead.max(initial=0))):
        act = j < dead
        sub = act & ~bt.fleeing[:, x]
        was_broken = bt.morale[:, x] < 0
        moved = bt.morale[:, x] + (-(bulk / total) * CASUALTY_SCALE) * sens
        bt.morale[:, x] = np.where(sub, moved, bt.morale[:, x])
        rout = was_broken | (t.rout_on_breaking & (bt.morale[:, x] < 0))
        if can_rout:
            bt.fleeing[:, x] |= sub & rout
        total = np.where(act, total - bulk, total)


def static_morale(bt: Battles, x: int, amount: float, sens: float, t: VecTables) -> None:
    """:func:`.aftermath.static_morale`: a Broken unit that suffers the charge's penalty flees."""
    if amount == 0:
        return
    sub = ~bt.fleeing[:, x] & (bt.count[:, x] > 0)
    was_broken = bt.morale[:, x] < 0
    change = amount * sens
    bt.morale[:, x] = np.where(sub, bt.morale[:, x] + change, bt.morale[:, x])
    if change < 0 and t.side_i[x, L.CAN_ROUT] != 0:
        bt.fleeing[:, x] |= sub & was_broken


def intimidation(bt: Battles, s: int, t: VecTables) -> None:
    """:func:`.aftermath.intimidation`: replaces last round's modifier; ended once one side no longer fights."""
    fighting = ((bt.count > 0) & ~bt.fleeing).sum(axis=1)
    for x in range(2):
        new = t.intim[x, bt.count[:, x], bt.count[:, 1 - x]] * t.sens[s, x]
        ending = (fighting < 2) & (bt.intim_mod[:, x] != 0)
        both = fighting >= 2
        morale = np.where(ending, bt.morale[:, x] - bt.intim_mod[:, x], bt.morale[:, x])
        morale = np.where(both, morale - bt.intim_mod[:, x] + new, morale)
        bt.intim_mod[:, x] = np.where(both, new, np.where(ending, 0.0, bt.intim_mod[:, x]))
        bt.morale[:, x] = morale


def after_strike(bt: Battles, s: int, shoot: bool, t: VecTables) -> None:
    """:func:`.battle.after_strike`."""
    a = int(t.sched_i[s, L.ATT])
    before = bt.count.copy()
    if not shoot and t.sched_i[s, L.CHARGE] != 0 and t.charge_first:
        intimidation(bt, s, t)  # the charge's melee, counted as it lands (counts: before)
    bt.count[:] = (bt.hp > 0).sum(axis=2)
    if shoot:
        casualty_morale(bt, 1 - a, before[:, 1 - a], t.sens[s, 1 - a], t)
        return
    casualty_morale(bt, 0, before[:, 0], t.sens[s, 0], t)
    casualty_morale(bt, 1, before[:, 1], t.sens[s, 1], t)
    static_morale(bt, 1 - a, t.sched_f[s, L.STATIC], t.sens[s, 1 - a], t)
    intimidation(bt, s, t)


def ended(bt: Battles) -> np.ndarray:
    """:func:`.aftermath.ended` per battle (-1 while both units fight)."""
    c, f = bt.count, bt.fleeing
    return np.select([c[:, 1] == 0, c[:, 0] == 0, f[:, 1], f[:, 0]],
                     [L.FIRST_DESTROYS, L.SECOND_DESTROYS, L.FIRST_ROUTS, L.SECOND_ROUTS], -1)


def fight(bt: Battles, lo: int, hi: int, shoot: bool, max_rounds: int, t: VecTables, out: Histograms) -> None:
    """:func:`.battle.fight` for a batch that follows strikes ``lo`` … ``hi - 1``; finished battles leave it."""
    for s in range(lo, hi):
        if bt.index.size == 0:
            return
        bt.deaths[:] = 0
        states = states_of(bt, t)
        attacks, used = (volley if shoot else melee_round)(bt, s, states, t)
        out.attacks += attacks
        out.uniforms += used
        after_strike(bt, s, shoot, t)
        codes = ended(bt)
        done = codes >= 0
        if done.any():
            out.record(bt, np.flatnonzero(done), codes[done], int(t.sched_i[s, L.ROUND]))
            bt = bt.keep(~done)
    out.record(bt, np.arange(bt.index.size), np.full(bt.index.size, L.DRAW), max_rounds)


def run_numpy(key: np.uint64, start: int, count: int, shoot: bool, max_rounds: int, t: DuelTables,
              hit_cum: np.ndarray, ret_cum: np.ndarray) -> Histograms:
    """Battles ``start`` … ``start + count - 1``, in batches, into one set of histograms."""
    vt = vec_tables(t, hit_cum, ret_cum)
    width = int(max(t.side_i[0, L.N], t.side_i[1, L.N]))
    out = Histograms(np.zeros(5, np.int64), np.zeros(max_rounds + 1, np.int64), np.zeros((2, t.max_n + 1), np.int64))
    split, total = int(t.params[L.FIRST_ORDER_END]), t.sched_i.shape[0]
    for lo in range(start, start + count, BATCH):
        bt = fresh(np.arange(lo, min(start + count, lo + BATCH), dtype=np.int64), key, vt, width)
        if split < total:  # two deployment orders: the battle's coin (slot 0 of its first block)
            out.uniforms += bt.index.size
            second = draw(bt.base, 0) < 0.5
            fight(bt.keep(second), split, total, shoot, max_rounds, vt, out)
            bt = bt.keep(~second)
        fight(bt, 0, split, shoot, max_rounds, vt, out)
    return out
