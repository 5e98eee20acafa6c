"""An action of several melee rounds sampled whole: particles carry their wounds from round to round.

A group's fight, or a charge that meets reactions, plays several rounds one after the other, and
each round finds the zone as the previous one left it: wounded miniatures, casualties, morale.
When the exact programme cannot enumerate the wounds carried between rounds within a preview's
allowance, the whole sequence is played for :data:`.sampled.PARTICLES` particles at once:

* every particle keeps the hit points of each miniature of the zone (particles × miniatures);
* groups whose rounds strike alike (:func:`strike_key`: the same odds, caps, Aggressiveness,
  retaliation; zones that differ only in what the aftermath reads) draw their strikes together;
* particles whose zone reads the same to the rules (living miniatures per unit, morale, modifiers,
  Fleeing, Fatigue: what the roll-to-hit odds, the targets and the morale rules read; never a
  miniature's wounds) form a group; each round is set up once per group with the engine's own
  ``melee_context`` and ``duel_odds`` (:func:`.rounds.spec`) and its strikes drawn for the group's
  particles by the vectorised round of :mod:`.sampled_round`, starting from each particle's own
  hit points;
* each distinct outcome of a round (casualties of each side, the order of the deaths) goes through
  the engine's own ``finish_round`` (:func:`.rounds.finished`), whose zone is the next round's
  (the particles keep their own hit points).

The result is an ``estimate``: each probability within :func:`.sampled.half_width` (95 %).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

import numpy as np

from ..battle.actions import Action
from ..battle.charging import melee_context
from ..battle.state import BattleState, BattleUnit
from ..battle.tables import BattleTables
from ..combatants import Combatant
from .dist import AFTERMATH_WORK, Zones, check_time
from .melee_actions import Sequence, Step, _battle, _can_strike
from .rounds import Mini, RoundSpec, State, Unit, _Round, finished, spec
from .sampled import PARTICLES, Floats, Ints, generator, half_width, likeliest_groups, row_groups, share
from .sampled_round import _Sampler
from .sampled_volley import _Sampler as _VSampler
from .volleys import VState, setup_of, volley_spec

#: A group of particles: the zone as the rules read it (its miniatures' wounds are the particles' own), and which.
Group = tuple[tuple[Combatant, ...], Ints]


def rules_key(zone: tuple[Combatant, ...]) -> Hashable:
    """What the rules read of a zone between rounds: living miniatures, morale, modifiers, Fleeing, Fatigue."""
    return tuple((c.count, c.morale_base, c.modifiers, c.fleeing, c.fatigue) for c in zone)


def starting_hp(start: tuple[Combatant, ...], n: int) -> dict[str, Floats]:
    """Every miniature's hit points for ``n`` particles (particles × miniatures, per unit)."""
    return {c.key: np.tile(np.array(c.hp, dtype=np.float64), (n, 1)) for c in start}


def merged(groups: list[Group]) -> list[Group]:
    """Groups whose zones read the same to the rules become one."""
    by: dict[Hashable, tuple[tuple[Combatant, ...], list[Ints]]] = {}
    for zone, rows in groups:
        k = rules_key(zone)
        if k in by:
            by[k][1].append(rows)
        else:
            by[k] = (zone, [rows])
    return [(zone, np.concatenate(parts)) for zone, parts in by.values()]


def sampled_play(seq: Sequence, start: tuple[Combatant, ...], weight: float, out: Zones,
                 particles: int | None = None) -> None:
    """Add to ``out`` the distribution of the zone after ``seq``'s rounds, sampled (see the module docstring); a
    branch of chance ``weight`` draws its :func:`.sampled.share` of the particles unless ``particles`` is given."""
    stated = half_width(PARTICLES if particles is None else particles)
    particles = share(weight) if particles is None else particles
    rng = generator(seq.stream() if weight < 1.0 else 0)
    hp = starting_hp(start, particles)
    groups: list[Group] = [(start, np.arange(particles, dtype=np.int64))]
    for step in seq.steps:
        if step.together:
            from .exchange import exchange

            groups = merged(exchange(seq, step, groups, hp, rng))
        else:
            groups = one_step(seq, step, groups, hp, rng)
    kept = sum(len(rows) for _zone, rows in groups)
    out.dropped += weight * (particles - kept) / particles
    for zone, rows in groups:
        out.add(rules_key(zone), zone, weight * len(rows) / particles)
    out.half = max(out.half, stated)


def one_step(seq: Sequence, step: Step, groups: list[Group], hp: dict[str, Floats],
             rng: np.random.Generator) -> list[Group]:
    """One round of ``seq`` for the particles of every group (those whose attacker cannot strike are left as they are)."""
    nxt: list[Group] = []
    batches: dict[Hashable, list[tuple[tuple[Combatant, ...], Ints, RoundSpec]]] = {}
    for zone, rows in groups:
        if _can_strike(seq, {c.key: c for c in zone}, step):
            ctx = melee_context(_battle(seq, zone), seq.t, seq.z, step.action, step.direction, step.reaction)
            units = {c.key: Unit(c.key, c.side, False, tuple(c.alive())) for c in zone}  # kept positionally
            rs = spec(zone, step.attacker, ctx, step.only, units)
            batches.setdefault(strike_key(rs), []).append((zone, rows, rs))
        else:
            nxt.append((zone, rows))
    for batch in batches.values():
        nxt += _round(batch, step.reaction, hp, rng)
    return merged(nxt)


def strike_key(s: RoundSpec) -> Hashable:
    """What a round's strikes read (who strikes whom, caps, Aggressiveness, each roll to hit's odds and damage, the
    retaliation chances, shields, Bad Luck): groups whose zones differ only in what the aftermath reads (morale,
    say) draw their strikes together, each keeping its own aftermath."""
    r = _Round(s)
    return (s.attacker.key, s.luck, r.a_bad, r.a_shd, tuple(
        (u.key, cap, agg, tuple(r.odds(j, False)[0]), r.odds(j, False)[1], r.ret[j], r.t_shd[j], r.t_bad[j],
         (tuple(r.odds(j, True)[0]), r.odds(j, True)[1]) if r.ret[j] > 0 else None)
        for j, (u, _c, cap, agg) in enumerate(s.targets)))


def _round(batch: list[tuple[tuple[Combatant, ...], Ints, RoundSpec]], free: bool, hp: dict[str, Floats],
           rng: np.random.Generator) -> list[Group]:
    """One round for the particles of the groups in ``batch`` (alike in :func:`strike_key`), drawn together; their
    hit points are updated in ``hp``; each outcome's aftermath worked out with its own group's zone and context."""
    s = batch[0][2]
    rows = np.concatenate([r for _z, r, _s in batch])
    which = np.concatenate([np.full(len(r), b, dtype=np.int64) for b, (_z, r, _s) in enumerate(batch)])
    smp = _Sampler(s, len(rows), {k: hp[k][rows] for k in (s.attacker.key, *(u.key for u, _, _, _ in s.targets))},
                   rng)
    smp.strikes()
    hp[s.attacker.key][rows] = smp.a_hp
    for (u, _c, _cap, _agg), h in zip(s.targets, smp.t_hp, strict=True):
        hp[u.key][rows] = h
    counts = [(smp.a_hp > 0).sum(axis=1), *((h > 0).sum(axis=1) for h in smp.t_hp)]
    key = np.concatenate([which[:, None], np.stack(counts, axis=1), smp.a_dead[:, None], smp.deaths.n[:, None],
                          smp.deaths.used()], axis=1).astype(np.int64)
    first, group, share = row_groups(key)
    out: list[Group] = []
    for g in likeliest_groups(share)[0].tolist():  # the particles of outcomes left out are dropped (the bound)
        i = int(first[g])
        check_time(AFTERMATH_WORK)
        st: State = (_recs(smp.a_hp[i]), tuple(_recs(h[i]) for h in smp.t_hp), smp.deaths.of(smp.deaths.order[i]),
                     int(smp.a_dead[i]))
        out.append((finished(batch[int(which[i])][2], st, free), rows[group == g]))
    return out


def sampled_volleys(state: BattleState, t: BattleTables, a: Action, members: list[BattleUnit], keys: list[str],
                    particles: int = PARTICLES) -> Zones:
    """A group's volleys, each member's in turn, sampled whole with the wounds carried (the units ``keys``)."""
    rng = generator()
    hp = starting_hp(tuple(state.unit(k).c for k in keys), particles)
    groups: list[tuple[BattleState, Ints]] = [(state, np.arange(particles, dtype=np.int64))]
    for m in members:
        nxt: list[tuple[BattleState, Ints]] = []
        for st, rows in groups:
            nxt += _volley(st, t, a, m.key, rows, hp, rng)
        by: dict[Hashable, tuple[BattleState, list[Ints]]] = {}
        for st, rows in nxt:
            k = rules_key(tuple(st.unit(x).c for x in keys))
            by.setdefault(k, (st, []))[1].append(rows)
        groups = [(st, np.concatenate(parts)) for st, parts in by.values()]
    out = Zones()
    out.dropped = (particles - sum(len(rows) for _st, rows in groups)) / particles
    for st, rows in groups:
        zone = tuple(st.unit(x).c for x in keys)
        out.add(rules_key(zone), zone, len(rows) / particles)
    out.half = half_width(particles)
    return out


def _volley(state: BattleState, t: BattleTables, a: Action, key: str, rows: Ints, hp: dict[str, Floats],
            rng: np.random.Generator) -> list[tuple[BattleState, Ints]]:
    """One member's volley for the particles ``rows`` of one group; their hit points are updated in ``hp``."""
    v, start = volley_spec(setup_of(state, t, key, a.target or "", a.option or "shot"), pooled=False)
    units = [u.key for u, _c in v.sp.units]
    smp = _VSampler(v, start, len(rows), {k: hp[k][rows] for k in (key, *units)}, rng)
    smp.shots()
    hp[key][rows] = smp.s_hp
    for k, h in zip(units, smp.t_hp, strict=True):
        hp[k][rows] = h
    first, group, share = row_groups(smp.outcome_key())
    out = []
    for g in likeliest_groups(share)[0].tolist():  # the particles of outcomes left out are dropped (the bound)
        i = int(first[g])
        check_time(AFTERMATH_WORK)
        vs: VState = (_recs(smp.s_hp[i]), tuple(_recs(h[i]) for h in smp.t_hp), smp.deaths.of(smp.deaths.order[i]),
                      tuple(int(x) for x in smp.ff[i]))
        zone, shooter = v.finished(vs)
        after = state.with_units({c.key: replace(state.unit(c.key), c=c) for c in (*zone, shooter)})
        out.append((after, rows[group == g]))
    return out


def _recs(hp: Floats) -> tuple[Mini, ...]:
    return tuple((float(h), 0, False) for h in hp.tolist())
