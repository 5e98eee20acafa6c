"""A fray too large to enumerate, played many times at once with numpy (issue 27: "frays of any size the
scenarios produce … otherwise a vectorised estimate with its stated error, in under 1 s").

The exact walk (:func:`~.fray.exact_fray_odds`) visits every state: 2 000 for a 2-against-2, 343 000 for a
4-against-4 where everyone fights everyone, too many for Python. The kernel instead plays ``runs`` frays side
by side, each array a column of the :class:`~.melee.Melee` state (health index, attack and defence dice, whose
turn, each camp's next fighter), one attack of every unfinished fray per step.

What an attack can do is not re-derived here: each row of the outcome table is the engine's own
:func:`~.exchanges.attack_outcomes` in floats (:func:`attack_floats`: the same tests, the same
:func:`~.exchanges.parry`; a test checks the two agree) and :func:`~.fray._hits`
(the damage roll on the Wound Table and the wound applied), built lazily for each (attacker, target, their
health, Desperate, defended) the frays meet. The kernel applies the order of attacks, the target policy and
the dice bookkeeping of :class:`~.melee.Fray` (``attacker``, ``target``, ``land``, ``pass_turn``); tests
compare it with the exact walk and with the engine's resolutions. Frays with an ability the kernel does not
model (a policy's strike, Fencer's reserve die, a Toxic die, a Deadly blow, Survival instinct's exchanges) are
:func:`supported` ``False``: the caller uses the engine's own resolutions instead.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np

from .effects import TestShape
from .exchanges import Health, Side, entry_health, parry
from .melee import End, Fray
from .rolls import odds_of_test
from .strikes import PLAIN

#: Outcome codes of one attack: fail, parried, parried with a die gained; 3 + h: a hit leaving health h.
FAIL, PARRIED, GAINED, HIT = 0, 1, 2, 3

Array = Any  # numpy arrays (numpy's stubs make the index arithmetic below noisy to type)


@lru_cache(maxsize=4096)
def _test_floats(shape: TestShape, characteristic: int, difficulty: int | None) -> tuple[tuple[int, float], ...]:
    """:func:`~.rolls.odds_of_test` in floats, memoised (the kernel reads it for thousands of rows)."""
    return tuple((n, float(p)) for n, p in odds_of_test(shape, characteristic, difficulty).items())


@lru_cache(maxsize=65536)
def attack_floats(att: Side, dfd: Side, defends: bool, margin: int | None) -> tuple[tuple[int, float], ...]:
    """:func:`~.exchanges.attack_outcomes` in floats, as outcome codes: the same tests and the same
    :func:`~.exchanges.parry` (the exact fractions' sums cost more than the kernel's numpy work)."""
    out: dict[int, float] = {}
    for n, p in _test_floats(att.att_shape, att.attack, None):
        if n <= 1:
            out[FAIL] = out.get(FAIL, 0.0) + p
            continue
        final = n + att.attack + att.att_shape.modifier
        if not defends:
            out[HIT] = out.get(HIT, 0.0) + p
            continue
        for m, q in _test_floats(dfd.def_shape, dfd.defence, final):
            blow = parry(dfd, m, final, margin)
            code = HIT if blow[0] == "hit" else GAINED if blow[1] == "gain" else PARRIED
            out[code] = out.get(code, 0.0) + p * q
    return tuple(sorted(out.items()))


def supported(fray: Fray) -> bool:
    """Whether the kernel models every rule this fray uses (else the engine's resolutions must be sampled)."""
    if any(fray.choosers) or fray.instinctive:
        return False
    for winner in (0, 1):
        s = fray.opening(winner)
        if s.reserve or any(s.toxic) or any(s.deadly) or s.made:
            return False
    return True


@dataclass
class _Tables:
    """Each fighter's reachable health states and the lazily built table of attack outcomes."""

    fray: Fray
    healths: list[list[Health]]
    rows: dict[tuple[int, int, int, int, bool, bool, bool], int] = field(default_factory=dict)
    probs: list[list[float]] = field(default_factory=list)
    #: the target's health after a hit, per (attacker, target, their health indices): shared by the rows that differ
    #: only by Desperate or whether the target defends
    after_hit: dict[tuple[int, int, int, int], list[tuple[int, float]]] = field(default_factory=dict)

    def index(self, f: int, h: Health) -> int:
        seen = self.healths[f]
        if h not in seen:
            seen.append(h)
        return seen.index(h)

    def hits(self, i: int, t: int, hi: int, ht: int) -> list[tuple[int, float]]:
        """The target's health index after a hit not parried, with its odds (the engine's :func:`_hits`)."""
        from .fray import _hits

        found = self.after_hit.get((i, t, hi, ht))
        if found is not None:
            return found
        fray = self.fray
        health = list(fray.opening(0).health)
        health[i], health[t] = self.healths[i][hi], self.healths[t][ht]
        s = replace(fray.opening(0), health=tuple(health))
        found = self.after_hit[(i, t, hi, ht)] = [(self.index(t, h), float(p)) for h, p in _hits(fray, s, i, t, PLAIN)]
        return found

    def row(self, key: tuple[int, int, int, int, bool, bool, bool]) -> int:
        """The outcome row of one attack (built once): probabilities over the outcome codes."""
        found = self.rows.get(key)
        if found is not None:
            return found
        i, t, hi, ht, di, dt, defends = key
        fray = self.fray
        att = fray.side_at(i, self.healths[i][hi], di)
        dfd = fray.side_at(t, self.healths[t][ht], dt)
        probs: dict[int, float] = {}
        for code, p in attack_floats(att, dfd, defends, PLAIN.margin(fray, t)):
            if code == HIT:
                for h, q in self.hits(i, t, hi, ht):
                    probs[HIT + h] = probs.get(HIT + h, 0.0) + p * q
            else:
                probs[code] = probs.get(code, 0.0) + p
        self.rows[key] = len(self.probs)
        width = max(probs) + 1
        self.probs.append([probs.get(k, 0.0) for k in range(width)])
        return self.rows[key]

    def flags(self) -> tuple[Array, Array, Array]:
        """Killed, HP and Fierce of each fighter's health states, by index (padded)."""
        width = max(len(hs) for hs in self.healths)
        pad = [[*hs, *[hs[0]] * (width - len(hs))] for hs in self.healths]
        return (np.array([[h.killed for h in hs] for hs in pad]), np.array([[h.hp for h in hs] for hs in pad]),
                np.array([[h.fierce for h in hs] for hs in pad]))

    def cumulative(self) -> Array:
        """The rows as cumulative probabilities, padded; a row's last reachable code takes any rounding."""
        width = max(len(r) for r in self.probs)
        table = np.zeros((len(self.probs), width))
        for k, r in enumerate(self.probs):
            table[k, :len(r)] = r
        cum = np.cumsum(table, axis=1)
        cum /= cum[:, -1:]
        cum[cum >= 1.0 - 1e-12] = 2.0
        return cum


@dataclass
class _Runs:
    """The unfinished frays, one row each."""

    health: Array
    attack: Array
    defence: Array
    turn: Array
    next: Array


def _start(fray: Fray, runs: int, rng: np.random.Generator, p_a: float) -> _Runs:
    """Initiative drawn with its exact odds, then each fray's opening state (the engine's placement)."""
    winner = (rng.random(runs) >= p_a).astype(np.int32)
    openings = [fray.opening(0), fray.opening(1)]
    att = np.array([o.attack for o in openings], dtype=np.int32)[winner]
    dfc = np.array([o.defence for o in openings], dtype=np.int32)[winner]
    nxt = np.array([o.next for o in openings], dtype=np.int32)[winner]
    health = np.zeros((runs, len(fray.fighters)), dtype=np.int32)
    return _Runs(health, att, dfc, winner.copy(), nxt)


def _attackers(fray: Fray, r: _Runs, alive: Array, adj: Array, camp: Array) -> Array:
    """:meth:`Fray.attacker`: the turn's camp, its fighters in turn from ``next``; else the other; -1: over."""
    n = len(fray.fighters)
    has_foe = (alive.astype(np.float32) @ adj.T.astype(np.float32)) > 0
    able = alive & (r.attack > 0) & has_foe
    cols = np.arange(n)
    # one rank for both camps: the turn's camp first, each camp's fighters in turn from its ``next``
    rank = (cols[None, :] - r.next[:, camp]) % n + n * (camp[None, :] != r.turn[:, None])
    rank[~able] = 2 * n
    best = rank.argmin(axis=1)
    return np.where(rank[np.arange(len(best)), best] < 2 * n, best, -1)


def kernel_ends(fray: Fray, runs: int, seed: int) -> dict[End, float]:
    """The frequency of each end of ``runs`` frays played side by side (each fighter's status, in order)."""
    from .fray import initiative_odds_of

    n = len(fray.fighters)
    tables = _Tables(fray, [[entry_health(f)] for f in fray.fighters])
    rng = np.random.default_rng(seed)
    r = _start(fray, runs, rng, float(initiative_odds_of(fray)))
    camp = np.array(fray.camp_of, dtype=np.int32)
    adj = np.zeros((n, n), dtype=bool)
    for i, opp in enumerate(fray.opponents):
        adj[i, list(opp)] = True
    counter = np.array([f.counter_margin is not None for f in fray.fighters])
    desperation = np.array([-1 if d is None else int(d) for d in fray.desperation], dtype=np.int64)
    finished: list[Array] = []
    while len(r.turn):
        r, done = _step(tables, r, rng, camp, adj, counter, desperation)
        if len(done):
            finished.append(done)
    ends = np.concatenate(finished) if finished else np.zeros((0, n), dtype=np.int64)
    code = np.zeros(len(ends), dtype=np.int64)
    for f in range(n):  # each fighter's health index a base-64 digit
        code = code * 64 + ends[:, f]
    codes, counts = np.unique(code, return_counts=True)
    out: dict[End, float] = {}
    for c, count in zip(codes.tolist(), counts.tolist(), strict=True):
        digits = []
        for _ in range(n):
            c, d = divmod(c, 64)
            digits.append(d)
        end = tuple(tables.healths[f][h].status() for f, h in enumerate(reversed(digits)))
        out[end] = out.get(end, 0.0) + count / runs
    return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def _lookup(tables: _Tables, arrays: tuple[Array, ...]) -> Array:
    """Each run's outcome row, building the rows not met before (the engine's odds, once per key)."""
    code = np.zeros(len(arrays[0]), dtype=np.int64)
    for a in arrays:  # each part is below 256: a base-256 number, one digit a part
        code = code * 256 + a.astype(np.int64)
    keys, inverse = np.unique(code, return_inverse=True)
    rows = np.empty(len(keys), dtype=np.int64)
    for k, c in enumerate(keys.tolist()):
        digits = []
        for _ in arrays:
            c, d = divmod(c, 256)
            digits.append(d)
        i, t, hi, ht, di, dt, defends = reversed(digits)
        rows[k] = tables.row((i, t, hi, ht, bool(di), bool(dt), bool(defends)))
    return rows[inverse.reshape(-1)]


def _step(tables: _Tables, r: _Runs, rng: np.random.Generator, camp: Array, adj: Array, counter: Array,
          desperation: Array) -> tuple[_Runs, Array]:
    """One attack in every unfinished fray; returns the frays still going and the ended ones' healths."""
    n = r.health.shape[1]
    killed, hp, fierce = tables.flags()
    flat = np.arange(n)[None, :] * killed.shape[1] + r.health  # each fighter's health, an index in the flags
    alive = ~killed.ravel()[flat]
    i = _attackers(tables.fray, r, alive, adj, camp)
    over = i < 0
    done = r.health[over]
    if len(done):
        keep = ~over
        r = _Runs(r.health[keep], r.attack[keep], r.defence[keep], r.turn[keep], r.next[keep])
        i, alive, flat = i[keep], alive[keep], flat[keep]
    m = len(i)
    if m == 0:
        return r, done
    at = np.arange(m)
    foes = adj[i] & alive
    score = np.where(foes, (r.defence > 0) * 1_000_000 + hp.ravel()[flat] * 1000 + np.arange(n)[None, :], 1 << 30)
    t = score.argmin(axis=1)
    if (desperation >= 0).any():
        living = np.stack([(alive & (camp[None, :] == c)).sum(axis=1) for c in (0, 1)], axis=1)
        desperate = (desperation[None, :] >= 0) & ((desperation[None, :] == 1) | fierce.ravel()[flat]
                                                    | (living[:, camp] < living[:, 1 - camp]))
        d_i, d_t = desperate[at, i], desperate[at, t]
    else:
        d_i = d_t = np.zeros(m, dtype=bool)
    defence_t = r.defence[at, t]
    rows = _lookup(tables, (i, t, r.health[at, i], r.health[at, t], d_i, d_t, defence_t > 0))
    cum = tables.cumulative()
    killed = tables.flags()[0]  # the rows just built may have met new health states
    outcome = (cum[rows] < rng.random(m)[:, None]).sum(axis=1)
    r.attack[at, i] -= 1
    turned = (outcome == FAIL) & counter[t] & (defence_t > 0)
    if turned.any():  # "the spare defence die becomes an attack die" when no more attacks are coming
        coming = (r.attack * (adj[t] & alive)).sum(axis=1)
        turned &= defence_t > coming
    gained = outcome == GAINED
    r.defence[at, t] = defence_t - (turned | (outcome == PARRIED) | gained)
    r.attack[at, t] += turned | gained
    hit = outcome >= HIT
    r.health[at[hit], t[hit]] = outcome[hit] - HIT
    dead = hit & killed[t, np.maximum(outcome - HIT, 0)]
    r.attack[at[dead], t[dead]] = 0
    r.defence[at[dead], t[dead]] = 0
    mover = camp[i]
    r.turn = 1 - mover
    r.next[at, mover] = (i + 1) % n
    return r, done
