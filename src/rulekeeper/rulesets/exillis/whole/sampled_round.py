"""An action's last melee round sampled for :data:`.sampled.PARTICLES` particles at once: :mod:`.rounds`, vectorised.

Strike by strike, as :class:`.rounds._Round` enumerates them: each living miniature of the attacker
in turn picks a target among the miniatures still able to receive an attack (alive, under their
unit's Bulk cap, weighted by Aggressiveness), rolls to hit with the odds of ``duel_odds`` (the
round's own, read through :class:`.rounds._Round`), deals the exact damage law of ``damage.roll``;
after a defence the target retaliates once per round with its unit's chance, and Bad Luck hurts the
one who rolled it. The outcomes (the attacker's dead, each target unit's living count, the order of
the targets' deaths) are merged, each with its share of particles, and the engine's own
``finish_round`` works out each distinct one (:func:`.rounds.finished`), as for the exact ones.
"""

from __future__ import annotations

import numpy as np

from . import dist as budget
from .compiled import kernels
from .dist import TooBig, Weighted, allowance, check_time
from .kernel_codes import ATTACK, BAD_LUCK, BLOCKED, DEFENDED, LUCK, MISS
from .rounds import DEAD, Mini, RoundSpec, State, _Round, records, round_distribution, settled
from .rounds import DEFENDED as DEFENDED_NAMES
from .sampled import (
    PARTICLES,
    DeathLog,
    Floats,
    Ints,
    Laws,
    damage,
    generator,
    half_width,
    likeliest,
    nth_true,
    pick,
    pick_rows,
    row_groups,
    share,
)

#: The round's fixed draws, in :func:`.particle_kernels.round_strike`'s order: per target unit its Bulk cap and
#: Aggressiveness; the roll to hit's outcome codes, cumulative weights and damage laws (Attack, Luck, Blocked), the
#: retaliation's the same; the retaliation chances; the attacker's and each unit's Bad Luck damage; the damage laws.
Tables = tuple[Floats, Floats, Ints, Floats, Ints, Ints, Floats, Ints, Floats, float, Floats, Floats, Floats, Ints]


def last_round(s: RoundSpec, weight: float = 1.0, stream: int = 0) -> Weighted[State]:
    """The action's last round, settled: exact when it fits :data:`.dist.EXACT_WORK`, else sampled (an estimate; a
    branch of chance ``weight`` with its :func:`.sampled.share` of the particles and its own ``stream`` of random numbers,
    the whole action's bound stated)."""
    try:
        with allowance(budget.exact_work()):
            return settled(s, round_distribution(s))
    except TooBig:
        check_time()
        out = _Sampler(s, share(weight), rng=generator(stream)).run()
        out.half = half_width(PARTICLES)
        return out


def sampled_round(s: RoundSpec, particles: int = PARTICLES) -> Weighted[State]:
    """Like :func:`.rounds.settled` of :func:`.rounds.round_distribution`, sampled (``half`` set)."""
    return _Sampler(s, particles).run()


class _Sampler:
    """The round's strikes for ``n`` particles; ``hp``: each particle's hit points by unit key (particles × records,
    for units kept positionally) when the particles enter the round with wounds of their own (:mod:`.sampled_action`)."""

    def __init__(self, s: RoundSpec, n: int, hp: dict[str, Floats] | None = None,
                 rng: np.random.Generator | None = None) -> None:
        self.s, self.n = s, n
        self.r = _Round(s)  # the odds, shields, Bad Luck damage and retaliation chances of the exact path
        self.rng = generator() if rng is None else rng
        self.a0 = records(s.attacker, s.att_unit)
        self.t0 = [records(c, u) for u, c, _, _ in s.targets]
        self.a_hp = _start(self.a0, n, None if hp is None else hp[s.attacker.key])
        parts = [_start(recs, n, None if hp is None else hp[u.key]) for recs, (u, _c, _, _) in
                 zip(self.t0, s.targets, strict=True)]
        # each target array in one (what the compiled kernel changes), each unit a view of it
        self.off = np.cumsum([0, *(len(recs) for recs in self.t0)]).astype(np.int64)
        width = int(self.off[-1])
        self.t_all = np.ascontiguousarray(np.concatenate(parts, axis=1) if parts else np.zeros((n, 0)))
        self.recv_all = np.zeros((n, width), dtype=np.int64)
        self.ret_all = np.zeros((n, width), dtype=bool)
        cols = list(zip(self.off[:-1].tolist(), self.off[1:].tolist(), strict=True))
        self.t_hp = [self.t_all[:, a:b] for a, b in cols]
        self.recv = [self.recv_all[:, a:b] for a, b in cols]
        self.ret = [self.ret_all[:, a:b] for a, b in cols]
        self.a_dead = np.zeros(n, dtype=np.int64)
        self.fixed: Tables | None = None
        self.deaths = DeathLog(n, sum(len(r) for r in self.t0))

    def run(self) -> Weighted[State]:
        self.strikes()
        return self.outcomes()

    def strikes(self) -> None:
        """The miniatures alive when the round begins strike once each, in order (a pooled unit's are alike)."""
        fast = kernels()
        for ai in range(self.a_hp.shape[1]):
            if (self.a_hp[:, ai] > 0).any():
                if fast is None:
                    self.strike(ai)
                else:  # the same draws, compiled (:mod:`.particle_kernels`)
                    fast.round_strike(self.rng, self.a_hp, ai, self.t_all, self.off, self.recv_all, self.ret_all,
                                      *self.tables(), self.a_dead, self.deaths.order, self.deaths.n)

    def tables(self) -> Tables:
        """The round's fixed draws as the compiled kernel reads them (see :func:`.particle_kernels.round_strike`)."""
        if self.fixed is None:
            s, r, laws = self.s, self.r, Laws()
            nt = len(s.targets)
            hits = [r.odds(j, False) for j in range(nt)]
            backs = [r.odds(j, True) if r.ret[j] > 0 else ([], 0.0) for j in range(nt)]
            width = max(1, *(len(o) for o, _f in (*hits, *backs)))
            codes = np.full((2, nt, width), -1, dtype=np.int64)
            cums = np.zeros((2, nt, width), dtype=np.float64)
            law = np.zeros((2, nt, 3), dtype=np.int64)
            for side, found, shield in ((0, hits, r.t_shd), (1, backs, [r.a_shd] * nt)):
                for j, (odds, final) in enumerate(found):
                    if odds:
                        codes[side, j, :len(odds)] = [_CODE.get(name, MISS) for name, _q in odds]
                        cums[side, j, :len(odds)] = _cumulative(odds)
                    law[side, j] = [laws.index(final, 1.0), laws.index(final, s.luck),
                                    laws.index(final, 1.0, shield[j])]
            self.fixed = (np.array([cap for _u, _c, cap, _a in s.targets], dtype=np.float64),
                          np.array([agg for _u, _c, _cap, agg in s.targets], dtype=np.float64),
                          codes[0], cums[0], law[0], codes[1], cums[1], law[1],
                          np.array(r.ret, dtype=np.float64), float(r.a_bad), np.array(r.t_bad, dtype=np.float64),
                          *laws.arrays())
        return self.fixed

    def strike(self, ai: int) -> None:
        s = self.s
        striking = self.a_hp[:, ai] > 0
        every = bool(striking.all())  # the common case: no row selection to copy
        rows = np.arange(self.n, dtype=np.int64) if every else np.flatnonzero(striking)
        weights = np.zeros((len(rows), len(s.targets)), dtype=np.float64)
        opens = []
        for j, (_u, _c, cap, agg) in enumerate(s.targets):
            hp, recv = (self.t_hp[j], self.recv[j]) if every else (self.t_hp[j][rows], self.recv[j][rows])
            opens.append((hp > 0) & (recv < cap))
            if agg > 0:
                weights[:, j] = np.count_nonzero(opens[j], axis=1) * agg
        some = weights.sum(axis=1) > 0  # no target left: a Miss
        if not some.all():
            rows, weights, opens = rows[some], weights[some], [o[some] for o in opens]
        if not len(rows):
            return
        unit = pick_rows(weights, self.rng.random(len(rows)))
        for j in np.flatnonzero(np.bincount(unit)).tolist():
            on = unit == j
            self.assigned(rows[on], ai, j, opens[j][on])

    def assigned(self, rows: Ints, ai: int, j: int, open_: np.ndarray) -> None:
        s, r = self.s, self.r
        hp, recv = self.t_hp[j], self.recv[j]
        mini = _nth(open_, self.rng.random(len(rows)))
        recv[rows, mini] += 1
        odds, final = r.odds(j, False)
        names = [o for o, _ in odds]
        got = pick(_cumulative(odds), self.rng.random(len(rows)))
        a_hp0 = self.a_hp[rows, ai].copy()
        for k, name in enumerate(names):
            sel = got == k
            if not sel.any():
                continue
            rk, mk = rows[sel], mini[sel]
            if name == "Bad Luck":
                self.hurt_attacker(rk, ai, np.full(len(rk), float(r.a_bad)))
                continue
            if name in ("Attack", "Luck", "Blocked"):
                amount = damage(final, s.luck if name == "Luck" else 1.0, self.rng.random(len(rk)),
                                r.t_shd[j] if name == "Blocked" else 1.0)
                self.hurt_target(rk, j, mk, amount)
            if name in DEFENDED_NAMES and r.ret[j] > 0:
                may = (hp[rk, mk] > 0) & (a_hp0[sel] > 0) & ~self.ret[j][rk, mk]
                fires = may & (self.rng.random(len(rk)) < r.ret[j])
                self.retaliate(rk[fires], ai, j, mk[fires])

    def retaliate(self, rows: Ints, ai: int, j: int, mini: Ints) -> None:
        s, r = self.s, self.r
        if not len(rows):
            return
        self.ret[j][rows, mini] = True
        odds, final = r.odds(j, True)
        got = pick(_cumulative(odds), self.rng.random(len(rows)))
        for k, (name, _q) in enumerate(odds):
            sel = got == k
            if not sel.any():
                continue
            if name == "Bad Luck":
                self.hurt_target(rows[sel], j, mini[sel], np.full(int(sel.sum()), float(r.t_bad[j])))
            elif name in ("Attack", "Luck", "Blocked"):
                amount = damage(final, s.luck if name == "Luck" else 1.0, self.rng.random(int(sel.sum())),
                                r.a_shd if name == "Blocked" else 1.0)
                self.hurt_attacker(rows[sel], ai, amount)

    def hurt_target(self, rows: Ints, j: int, mini: Ints, amount: Floats) -> None:
        hp = self.t_hp[j]
        new = hp[rows, mini] - amount
        killed = (amount > 0) & (new <= 0) & (hp[rows, mini] > 0)
        new[new <= 0] = 0.0
        hp[rows, mini] = new
        self.deaths.add(rows[killed], j)

    def hurt_attacker(self, rows: Ints, ai: int, amount: Floats) -> None:
        new = self.a_hp[rows, ai] - amount
        killed = (amount > 0) & (new <= 0) & (self.a_hp[rows, ai] > 0)
        new[new <= 0] = 0.0
        self.a_hp[rows, ai] = new
        self.a_dead[rows[killed]] += 1

    def outcomes(self) -> Weighted[State]:
        """Merge the particles by what the aftermath reads: who of the attacker died, each unit's living count,
        the order of the targets' deaths (wounds forgotten, as :func:`.rounds.settled` does)."""
        counts = [(h > 0).sum(axis=1) for h in self.t_hp]
        key = np.concatenate([(self.a_hp > 0).astype(np.int64), np.stack(counts, axis=1) if counts else
                              np.zeros((self.n, 0), dtype=np.int64), self.a_dead[:, None],
                              self.deaths.n[:, None], self.deaths.used()], axis=1)
        first, _group, share = row_groups(key)
        out: Weighted[State] = Weighted()
        na, nt = len(self.a0), len(self.t0)
        pooled = self.s.att_unit.pooled
        for i, c in zip(first, share, strict=True):
            row = key[i]
            alive = row[:na]
            att = (_settled(self.a0, int(alive.sum())) if pooled else
                   tuple((r[0], 0, False) if a else DEAD for r, a in zip(self.a0, alive, strict=True)))
            tgt = tuple(_settled(recs, int(x)) for recs, x in zip(self.t0, row[na:na + nt], strict=True))
            st: State = (att, tgt, self.deaths.of(row[na + nt + 2:]), int(row[na + nt]))
            out.states[st] = out.states.get(st, 0.0) + float(c) / self.n
        out.half = half_width(self.n)
        return likeliest(out)


#: the roll to hit's outcomes as the compiled kernel codes them
_CODE = {"Bad Luck": BAD_LUCK, "Attack": ATTACK, "Luck": LUCK, "Blocked": BLOCKED, "Evaded": DEFENDED,
         "Deflected": DEFENDED}
assert {k for k, v in _CODE.items() if v in (BLOCKED, DEFENDED)} == set(DEFENDED_NAMES)


def _cumulative(odds: list[tuple[str, float]]) -> Floats:
    """The cumulative weights of one draw's outcomes (one law for every particle: :func:`.sampled.pick`)."""
    return np.cumsum(np.array([q for _, q in odds], dtype=np.float64))


def _start(recs: tuple[Mini, ...], n: int, given: Floats | None) -> Floats:
    """Each particle's hit points as the round begins: the records' own, or the particles' (a copy)."""
    if given is not None:
        return np.array(given, dtype=np.float64, copy=True)
    return np.tile(np.array([r[0] for r in recs], dtype=np.float64), (n, 1))


def _nth(open_: np.ndarray, u: Floats) -> Ints:
    """For each row of the mask ``open_``, one of its true columns, uniformly (the ``k``-th true one, ``k`` drawn)."""
    return nth_true(open_, u)


def _settled(before: tuple[Mini, ...], alive: int) -> tuple[Mini, ...]:
    """A pooled unit with ``alive`` living, each at its hit points before the round (the healthiest kept)."""
    kept = sorted((b for b in before if b[0] > 0), reverse=True)[:alive]
    return tuple(sorted([DEAD] * (len(before) - len(kept)) + [(b[0], 0, False) for b in kept]))


