"""A volley sampled for :data:`.sampled.PARTICLES` particles at once: the draws of :mod:`.volleys`, vectorised.

Projectile by projectile, as :meth:`.volleys._Volleys.shot` enumerates them: where it falls (the
engine's ``_volley_odds`` for the particle's living counts, grouped so each set of counts asks the
engine once), the unit it lands on (by living miniatures × Bulk, enemies or exposed allies), Missile
Block, a living miniature of that unit, the damage (:func:`.dist.damage_odds`), Bad Luck on the
shooter. The outcomes (shooter's dead, each unit's living count, the order of deaths, friendly
fire per unit) are merged, each with the share of particles that reached it, and handed to the
engine's own volley report like the exact ones. Wounds are forgotten at the end (as
:func:`.rounds.settled` does): only the last volley of an action is sampled.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from ..combatants import Combatant
from ..ranged import ShotOdds, ShotSetup
from .bolts import Bolts
from .compiled import Kernels, kernels
from .dist import Weighted, aftermath_room
from .kernel_codes import FALLS_ALLY, FALLS_BAD, FALLS_ENEMY, FALLS_LUCK
from .orders import Orders
from .rounds import DEAD, Mini
from .sampled import (
    PARTICLES,
    Bools,
    DeathLog,
    Floats,
    Ints,
    Laws,
    count_groups,
    damage,
    generator,
    grouped_flat,
    half_width,
    likeliest,
    nth_alive,
    pick_grouped,
    pick_rows,
    row_groups,
)
from .volleys import ENEMY_FALLS, VState, _Volleys, volley_spec

# what a projectile does where it falls (the names of ``shot_odds``): nothing, Bad Luck, an enemy, Luck, an ally
_BAD, _ENEMY, _LUCK, _ALLY = FALLS_BAD, FALLS_ENEMY, FALLS_LUCK, FALLS_ALLY
_KIND = {"Bad Luck": _BAD, "Accurate Shot": _ENEMY, "Enemy space": _ENEMY, "Luck": _LUCK, "Allied space": _ALLY,
         "Bulk hit": _ENEMY, "Friendly fire": _ALLY}  # the last two: lightning's (:mod:`.bolts`)
assert set(ENEMY_FALLS) | set(Bolts.enemy_falls) == {k for k, v in _KIND.items() if v in (_ENEMY, _LUCK)}


#: The engine's odds for one set of living counts: where a projectile falls; per unit its Missile Block chance, final
#: damage, and the indices of its damage laws (without and with Luck) among the compiled kernel's.
Entry = tuple[dict[str, float], Floats, Floats, Ints]


def sampled_volley(setup: ShotSetup, particles: int = PARTICLES
                   ) -> tuple[Weighted[VState], Callable[[VState], tuple[tuple[Combatant, ...], Combatant]]]:
    """Like :func:`.volleys.one_volley`, sampled: outcomes with their share of particles (``half`` set)."""
    v, start = volley_spec(setup)
    return _Sampler(v, start, particles).run(), v.finished


class _Sampler:
    """The volley's projectiles for ``n`` particles; ``hp``: each particle's hit points by unit key (particles ×
    records, units kept positionally) when the particles enter it with wounds of their own (:mod:`.sampled_action`)."""

    def __init__(self, v: _Volleys, start: VState, n: int, hp: dict[str, Floats] | None = None,
                 rng: np.random.Generator | None = None) -> None:
        self.v, self.start, self.n = v, start, n
        self.rng = generator() if rng is None else rng
        self.s_hp = _start(start[0], n, None if hp is None else hp[v.sp.shooter.key])
        parts = [_start(recs, n, None if hp is None else hp[u.key]) for recs, (u, _c) in zip(start[1], v.sp.units,
                                                                                          strict=True)]
        # every target miniature's hit points in one array (what the compiled kernel changes), each unit a view of it
        self.off = np.cumsum([0, *(p.shape[1] for p in parts)]).astype(np.int64)
        self.t_all = np.ascontiguousarray(np.concatenate(parts, axis=1) if parts else np.zeros((n, 0)))
        self.t_hp = [self.t_all[:, a:b] for a, b in zip(self.off[:-1], self.off[1:], strict=True)]
        self.laws = Laws()  # the damage laws the compiled kernel searches, by index
        self.ff = np.zeros((n, len(start[1])), dtype=np.int64)
        self.deaths = DeathLog(n, len(start[0]) + sum(len(r) for r in start[1]))
        self.alive: Ints | None = None
        #: lightning: which units a bolt has hurt, per particle (their elemental chain set: :mod:`.bolts`)
        self.chain = np.zeros((n, len(start[1])), dtype=bool) if any(v.chain_matters) else None
        self.entries: dict[bytes, Entry] = {}
        self.settled: dict[tuple[int, int], tuple[Mini, ...]] = {}
        sp = v.sp
        self.orders = Orders(sp.shooter, [c for _u, c in sp.units], [sum(1 for r in recs if r[0] > 0) for recs in start[1]],
                             sp.setup.options.space_bulk_key(),
                             any(c.key == sp.shooter.key for c in sp.setup.target_zone))
        # the volley's fixed arrays, as the compiled kernel reads them
        self.fixed: tuple[Bools, Bools, Floats, Floats, Ints, Bools, Floats, Ints, Bools] | None = None

    def counts(self) -> Ints:
        """Living miniatures per particle: the shooter's, then each unit's (kept up to date as they die)."""
        if self.alive is None:
            cols = [(self.s_hp > 0).sum(axis=1)] + [(h > 0).sum(axis=1) for h in self.t_hp]
            self.alive = np.stack(cols, axis=1).astype(np.int64)
        return self.alive

    def entry(self, counts: Ints) -> Entry:
        """The engine's odds for one set of living counts (asked once per set): where a projectile falls, and per
        unit its Missile Block chance and final damage (and the compiled kernel's damage laws for it)."""
        key = counts.tobytes()
        found = self.entries.get(key)
        if found is None:
            o = self.odds_for(tuple(int(x) for x in counts))
            keys = [u.key for u, _c in self.v.sp.units]
            final = [o.final.get(k, 0.0) for k in keys]
            laws = np.array([[self.laws.index(f, 1.0), self.laws.index(f, self.v.luck)] for f in final],
                            dtype=np.int64).reshape(len(keys), 2)
            found = self.entries[key] = (dict(o.odds), np.array([o.block.get(k, 0.0) for k in keys], dtype=np.float64),
                                         np.array(final, dtype=np.float64), laws)
        return found

    def odds_for(self, counts: tuple[int, ...]) -> ShotOdds:
        """The engine's odds of one projectile for these living counts (the records' first ones marked dead)."""
        shooter = _with_count(self.start[0], counts[0], positional=True)
        tgt = tuple(_with_count(recs, c, positional=False) for recs, c in zip(self.start[1], counts[1:], strict=True))
        return self.v.odds((shooter, tgt, (), ()))

    def run(self) -> Weighted[VState]:
        self.shots()
        return self.outcomes()

    def shots(self) -> None:
        """Every miniature alive as the volley begins shoots (twice for a Swift Shot), as ``resolve_volley``."""
        sp = self.v.sp
        for si in sp.shooter.alive():
            for _ in range(sp.shots):
                self.shot(si)

    def shot(self, si: int) -> None:
        """One projectile of miniature ``si`` for every particle, each draw vectorised over the particles."""
        v, n = self.v, self.n
        counts = self.counts().copy()
        alive = counts[:, 1:]
        enemy = np.array(v.enemy, dtype=bool)
        live = (alive @ enemy.astype(np.int64)) > 0
        fast = kernels()
        first, group = self.groups(fast, counts)
        # the engine's odds, per set of living counts (none asked where no enemy is left: No target)
        odds = [self.entry(counts[i]) if live[i] else None for i in first]
        names = sorted({w for o in odds if o is not None for w in o[0]})
        law = np.array([[o[0].get(w, 0.0) if o is not None else 0.0 for w in names] for o in odds],
                       dtype=np.float64).reshape(len(odds), len(names))
        if not names:
            return
        if fast is not None:
            self.compiled(fast, si, counts, live, group, odds, law,
                          np.array([_KIND.get(w, 0) for w in names], dtype=np.int64))
            return
        where = pick_grouped(law, group, self.rng.random(n))
        kinds = np.array([_KIND.get(w, 0) for w in names], dtype=np.int64)
        kind = np.where(live, kinds[where], 0)
        self.bad_luck(np.flatnonzero(kind == _BAD), si)
        rows = np.flatnonzero(kind >= _ENEMY)
        if not len(rows):
            return
        weight = np.array(v.weight, dtype=np.float64)
        ally = np.array(v.ally, dtype=bool)
        friendly = kind[rows] == _ALLY
        side = np.where(friendly[:, None], ally[None, :], enemy[None, :]) & (weight > 0)[None, :]
        weights = alive[rows] * weight[None, :] * side
        some = weights.sum(axis=1) > 0  # nobody there: Missed
        rows, weights, friendly = rows[some], weights[some], friendly[some]
        if not len(rows):
            return
        unit = pick_rows(weights, self.rng.random(len(rows)))
        np.add.at(self.ff, (rows[friendly], unit[friendly]), 1)
        nothing = np.zeros(len(v.sp.units), dtype=np.float64)
        block = np.stack([nothing if o is None else o[1] for o in odds])
        final = np.stack([nothing if o is None else o[2] for o in odds])
        luck = kind[rows] == _LUCK
        b, f = block[group[rows], unit], final[group[rows], unit]
        if self.chain is not None:  # a unit a bolt has hurt reads its new chain
            hurt = self.chain[rows, unit]
            later = np.array([v.chained(j) if m else (0.0, 0.0) for j, m in enumerate(v.chain_matters)],
                             dtype=np.float64).reshape(len(v.chain_matters), 2)
            b, f = np.where(hurt, later[unit, 0], b), np.where(hurt, later[unit, 1], f)
        b = np.where(luck & ~np.array(v.immune, dtype=bool)[unit], 0.0, b)  # an immune unit resists even a Luck
        kept = self.rng.random(len(rows)) >= b
        rows, unit, luck, f = rows[kept], unit[kept], luck[kept], f[kept]
        amount = np.zeros(len(rows), dtype=np.float64)
        u = self.rng.random(len(rows))
        code = unit * 2 + luck  # the damage law depends on the unit's final damage (per living counts) and Luck
        for c in np.flatnonzero(np.bincount(code, minlength=2)):
            sel = code == c
            fs = f[sel]
            for fv in ((fs[0],) if fs.min() == fs.max() else np.unique(fs)):
                s2 = sel if len(fs) and fs.min() == fs.max() else sel & (f == fv)
                amount[s2] = damage(float(fv), v.luck if c % 2 else 1.0, u[s2])
        if self.chain is not None:
            self.chain[rows[amount > 0], unit[amount > 0]] = True
        for j in np.flatnonzero(np.bincount(unit)):
            sel = unit == j
            self.lands(rows[sel], int(j), amount[sel])

    @staticmethod
    def groups(fast: Kernels | None, counts: Ints) -> tuple[Ints, Ints]:
        """:func:`.sampled.count_groups`, tabled by the compiled kernel where it can (the same groups)."""
        if fast is not None:
            first, group, done = fast.count_groups(counts)
            if done:
                return first, group
        return count_groups(counts)

    def compiled(self, fast: Kernels, si: int, counts: Ints, live: npt.NDArray[np.bool_], group: Ints,
                 odds: list[Entry | None], law: Floats, kinds: Ints) -> None:
        """The rest of :meth:`shot` in the compiled kernel (:mod:`.particle_kernels`): the same draws, the same numbers."""
        v, nu = self.v, len(self.v.sp.units)
        if self.fixed is None:
            later = [v.chained(j) if m else (0.0, 0.0) for j, m in enumerate(v.chain_matters)]
            self.fixed = (np.array(v.enemy, dtype=bool), np.array(v.ally, dtype=bool),
                          np.array(v.weight, dtype=np.float64), np.array([b for b, _f in later], dtype=np.float64),
                          np.array([[self.laws.index(f, 1.0), self.laws.index(f, v.luck)] for _b, f in later],
                                   dtype=np.int64).reshape(nu, 2),
                          np.array(v.immune, dtype=bool), np.zeros(nu, dtype=np.float64), np.zeros((nu, 2), dtype=np.int64),
                          self.chain if self.chain is not None else np.zeros((1, nu), dtype=bool))
        enemy, ally, weight, later_b, later_law, immune, nothing, no_laws, chain = self.fixed
        block = np.stack([nothing if o is None else o[1] for o in odds])
        law_idx = np.stack([no_laws if o is None else o[3] for o in odds])
        vals, cum, size = self.laws.arrays()
        fast.volley_shot(self.rng, live, group, grouped_flat(law), law.shape[1], kinds, np.ascontiguousarray(counts[:, 1:]),
                         self.counts(), enemy, ally, weight, block, law_idx, self.chain is not None, chain, later_b,
                         later_law, immune, vals, cum, size, self.s_hp, si, float(v.bad), self.t_all, self.off, self.ff,
                         self.deaths.order, self.deaths.n)

    def bad_luck(self, rows: Ints, si: int) -> None:
        if not len(rows):
            return
        was = self.s_hp[rows, si] > 0
        hp = self.s_hp[rows, si] - self.v.bad
        hp[hp <= 0] = 0.0
        self.s_hp[rows, si] = hp
        died = rows[was & (hp <= 0)]
        self.deaths.add(died, -1)
        self.counts()[died, 0] -= 1

    def lands(self, rows: Ints, j: int, amount: Floats) -> None:
        """The projectiles that hit a living miniature of unit ``j`` (uniformly: a pooled unit's are alike)."""
        hp = self.t_hp[j]
        mini = nth_alive(hp, rows, self.rng.random(len(rows)))
        new = hp[rows, mini] - amount
        killed = (amount > 0) & (new <= 0)
        new[new <= 0] = 0.0
        hp[rows, mini] = new
        self.deaths.add(rows[killed], j)
        self.counts()[rows[killed], 1 + j] -= 1

    def settle(self, j: int, alive: int) -> tuple[Mini, ...]:
        """:func:`_settled` of unit ``j`` (once per unit and count: many outcomes share it)."""
        got = self.settled.get((j, alive))
        if got is None:
            got = self.settled[(j, alive)] = _settled(self.start[1][j], alive)
        return got

    def outcome_key(self) -> Ints:
        """What the report reads, one row a particle: dead shooters, living counts, friendly fire, deaths in order."""
        key: Ints = np.concatenate([(self.s_hp > 0).astype(np.int64), self.counts()[:, 1:], self.ff,
                                    self.deaths.n[:, None], self.deaths.used()], axis=1)
        return key

    def outcomes(self) -> Weighted[VState]:
        """Merge the particles by what the report reads (dead shooters, living counts, deaths in order, friendly fire;
        orders of deaths the report cannot tell apart merged: :mod:`.orders`)."""
        key = self.outcome_key()
        first, _inverse, share = row_groups(key)
        ns, nu = self.s_hp.shape[1], len(self.t_hp)
        merged: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
        for row, c in zip(key[first].tolist(), share.tolist(), strict=True):
            head = tuple(row[:ns + 2 * nu])
            k = (head, self.orders.canonical(row[ns:ns + nu], self.deaths.of(row[ns + 2 * nu + 1:])))
            merged[k] = merged.get(k, 0) + c
        found = list(merged.items())
        counts = np.array([c for _k, c in found], dtype=np.int64)
        kept = _kept(counts)  # only the outcomes the aftermath has room for are built (:func:`.sampled.likeliest`)
        out: Weighted[VState] = Weighted()
        out.dropped = float(counts.sum() - counts[kept].sum()) / self.n
        for i in kept.tolist():
            (head, deaths), c = found[i]
            shooter = tuple(r if alive else DEAD for r, alive in zip(self.start[0], head[:ns], strict=True))
            tgt = tuple(self.settle(j, n) for j, n in enumerate(head[ns:ns + nu]))
            out.states[(shooter, tgt, deaths, head[ns + nu:])] = c / self.n
        out.half = half_width(self.n)
        return likeliest(out)


def _kept(share: Ints) -> Ints:
    """The groups of particles whose outcomes the aftermath has room for, likeliest first (ties in their order)."""
    order: Ints = np.argsort(-share, kind="stable").astype(np.int64)
    room = aftermath_room()
    return order if room is None else order[:room]


def _start(recs: tuple[Mini, ...], n: int, given: Floats | None) -> Floats:
    """Each particle's hit points as the volley begins: the records' own, or the particles' (a copy)."""
    if given is not None:
        return np.array(given, dtype=np.float64, copy=True)
    return np.tile(np.array([r[0] for r in recs], dtype=np.float64), (n, 1))


def _with_count(recs: tuple[Mini, ...], alive: int, positional: bool) -> tuple[Mini, ...]:
    """``recs`` with only ``alive`` living (the first living ones marked dead): what the odds read is the count."""
    out = list(recs)
    extra = sum(1 for r in recs if r[0] > 0) - alive
    for i, r in enumerate(out):
        if extra <= 0:
            break
        if r[0] > 0:
            out[i] = DEAD
            extra -= 1
    return tuple(out) if positional else tuple(sorted(out))


def _settled(before: tuple[Mini, ...], alive: int) -> tuple[Mini, ...]:
    """A pooled unit with ``alive`` living, each at its hit points before the volley (the healthiest kept)."""
    kept = sorted((b for b in before if b[0] > 0), reverse=True)[:alive]
    return tuple(sorted([DEAD] * (len(before) - len(kept)) + [(b[0], 0, False) for b in kept]))


__all__ = ["Floats", "sampled_volley"]
