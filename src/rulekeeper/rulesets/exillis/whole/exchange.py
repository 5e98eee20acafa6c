"""The simultaneous exchange, sampled: a charge met by a reaction of equal priority.

The seed (Movement: Charges): "If the charger and the target have the same value, they will both
perform their actions at the same time, and only after are the casualties removed." The engine
(:func:`..exchange.resolve_exchange`) strikes every round of the exchange (the chargers', then the
reactions of equal priority) on the zone as it stood before any of them, adds up the Hit Points each
miniature lost in all of them, and settles the casualties, morale and Fatigue once
(:func:`..exchange.settle`).

Here, for the particles of each group (:mod:`.sampled_action`): every round is drawn by the
vectorised round of :mod:`.sampled_round` from the same starting hit points (each round set up with
the engine's own ``melee_context`` and ``duel_odds`` on the zone as it stands); the losses are added
up per miniature; the casualties are listed as the engine lists them (each round's in the order they
fell, its attacker's first as :func:`.rounds.finished` does; a miniature killed in two rounds counted
once, at the first; then those killed by the wounds of several rounds, in the zone's order); each
distinct outcome goes through the engine's own :func:`..exchange.settle`. Where no reaction can
strike when the exchange comes, the chargers' rounds follow one another, as in the engine.
"""

from __future__ import annotations

import numpy as np

from ..aftermath import Death
from ..battle.charging import melee_context
from ..combatants import Combatant
from ..exchange import Blow, settle
from ..fastcopy import evolve
from .dist import AFTERMATH_WORK, check_time
from .melee_actions import Sequence, Step, _battle, _can_strike
from .rounds import Unit, spec
from .sampled import Floats, Ints, likeliest_groups, row_groups
from .sampled_action import Group, one_step
from .sampled_round import _Sampler

NONE = -9


def exchange(seq: Sequence, step: Step, groups: list[Group], hp: dict[str, Floats],
             rng: np.random.Generator) -> list[Group]:
    """The exchange ``step.together`` for the particles of every group; their hit points updated in ``hp``."""
    out: list[Group] = []
    for zone, rows in groups:
        by_key = {c.key: c for c in zone}
        blows = [b for b in step.together if _can_strike(seq, by_key, b)]
        if not any(b.reaction for b in blows):  # nobody strikes at the same time: the chargers' rounds in turn
            gs = [(zone, rows)]
            for b in step.together:
                if not b.reaction:
                    gs = one_step(seq, b, gs, hp, rng)
            out += gs
        elif blows:
            out += _together(seq, zone, rows, blows, hp, rng)
        else:
            out.append((zone, rows))
    return out


def _together(seq: Sequence, zone: tuple[Combatant, ...], rows: Ints, blows: list[Step], hp: dict[str, Floats],
              rng: np.random.Generator) -> list[Group]:
    battle = _battle(seq, zone)
    units = {c.key: Unit(c.key, c.side, False, tuple(c.alive())) for c in zone}
    index = {c.key: i for i, c in enumerate(zone)}
    n = len(rows)
    start = {c.key: hp[c.key][rows] for c in zone}
    loss = {k: np.zeros_like(h) for k, h in start.items()}
    died_any = {k: np.zeros(h.shape, dtype=bool) for k, h in start.items()}
    lists: list[Ints] = []
    struck: list[Blow] = []
    for b in blows:
        ctx = melee_context(battle, seq.t, seq.z, b.action, b.direction, b.reaction)
        rs = spec(zone, b.attacker, ctx, b.only, units)
        keys = (rs.attacker.key, *(u.key for u, _c, _cap, _agg in rs.targets))
        smp = _Sampler(rs, n, {k: start[k] for k in keys}, rng)
        smp.strikes()
        after = dict(zip(keys, (smp.a_hp, *smp.t_hp), strict=True))
        # the round's casualties as they fell: its attacker's first, then its targets' (zone indices)
        targets = np.array([index[k] for k in keys[1:]], dtype=np.int64)
        order = smp.deaths.used()
        mapped = np.where(order >= 0, targets[np.maximum(order, 0)] if len(targets) else NONE, NONE)
        na = start[rs.attacker.key].shape[1]
        own = np.where(np.arange(na)[None, :] < smp.a_dead[:, None], index[rs.attacker.key], NONE)
        listed = np.concatenate([own, mapped], axis=1)
        for k, h in after.items():
            loss[k] += start[k] - h
            died = (start[k] > 0) & (h <= 0)
            new = (died & ~died_any[k]).sum(axis=1)  # killed again in a later round: counted once
            mine = listed == index[k]
            listed = np.where(mine & (np.cumsum(mine, axis=1) > new[:, None]), NONE, listed)
            died_any[k] |= died
        lists.append(listed)
        struck.append(Blow(b.attacker, ctx, b.only, b.reaction))
    left = {k: np.maximum(0.0, start[k] - loss[k]) for k in start}
    for c in zone:  # killed by the wounds of several rounds, none deadly alone: in the zone's order
        lists.append(np.where((start[c.key] > 0) & (left[c.key] <= 0) & ~died_any[c.key], index[c.key], NONE))
    listed = _packed(np.concatenate(lists, axis=1))
    counts = np.stack([(left[c.key] > 0).sum(axis=1) for c in zone], axis=1)
    first, group, share = row_groups(np.concatenate([counts, listed], axis=1).astype(np.int64))
    for c in zone:
        hp[c.key][rows] = left[c.key]
    space = struck[0].ctx.options.space_bulk_key()
    out: list[Group] = []
    for g in likeliest_groups(share)[0].tolist():  # the particles of outcomes left out are dropped (the bound)
        i = int(first[g])
        check_time(AFTERMATH_WORK)
        merged = {c.key: evolve(c, hp=tuple(left[c.key][i].tolist())) for c in zone}
        deaths = [Death(zone[u].side, zone[u].key, zone[u].key, zone[u].stat(space)) for u in listed[i].tolist()
                  if u != NONE]
        final, _morale, _tired = settle(zone, struck, merged, deaths)
        out.append((final, rows[group == g]))
    return out


def _packed(listed: Ints) -> Ints:
    """Each row's entries in order with the empty ones moved to the end, trimmed to the longest row."""
    order = np.argsort(listed == NONE, axis=1, kind="stable")
    packed: Ints = np.take_along_axis(listed, order, axis=1)
    width = max(1, int((packed != NONE).sum(axis=1).max())) if len(packed) else 1
    return packed[:, :width]
