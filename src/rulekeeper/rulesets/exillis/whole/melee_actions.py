"""A fight or a charge as a distribution over the zone's states after it, round after round.

The sequence of rounds is the one :mod:`..battle.handlers` plays (``_fight``, ``_charge``): each
member of the group in turn; for a charge, every combination of charge reactions (each drawn
yes/no with the chance :func:`..battle.reactions.charge_reactions` gives), the reactions that
strike first, the chargers, the reactions that strike after. Each round's context is built by
:func:`..battle.charging.melee_context` on the state as that round finds it, each round's
strikes by :mod:`.rounds`, its aftermath by the engine's ``finish_round``.

A reaction of equal priority strikes at the same time as the chargers (the simultaneous exchange:
a :class:`Step` whose ``together`` lists the rounds struck on the zone as it stood, the casualties
removed after all of them): such a charge is sampled whole (:mod:`.exchange`).

Not covered (None, the per-draw odds remain): a unit whose profile grows with its kills (Disabused).
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Hashable
from dataclasses import dataclass, replace

from rulekeeper.boards.zones import Coord

from ..battle.actions import Legal
from ..battle.charging import challenged, melee_context
from ..battle.moves import charge_routes, classify, group_of, origin_direction
from ..battle.reactions import charge_reactions
from ..battle.state import BattleState
from ..battle.tables import BattleTables
from ..combatants import Combatant
from ..damage import bad_luck_damage
from ..fastcopy import evolve
from ..melee import _targets, duel_odds
from . import dist as budget
from .dist import AFTERMATH_WORK, TooBig, Zones, allowance, check_time
from .rounds import FloorBroken, Unit, finished, least_hurt, round_distribution, settled, spec
from .sampled_round import last_round


class Unsupported(Exception):
    """An action this computation does not cover (the keeper then shows only the per-draw odds)."""



@dataclass(frozen=True)
class Step:
    """One round of the action: who strikes, how, at whom."""

    attacker: str
    action: str  # "fight" or "charge"
    direction: str
    only: frozenset[str] | None = None
    reaction: bool = False  # a charge reaction: free, strikes only the chargers
    #: the simultaneous exchange (``exchange.resolve_exchange``): these rounds (the chargers', then the reactions of
    #: equal priority) all strike the zone as it stands, and the casualties are removed after them all
    together: tuple[Step, ...] = ()


def zone_key(zone: tuple[Combatant, ...]) -> Hashable:
    return tuple((c.hp, c.morale_base, c.modifiers, c.fleeing, c.fatigue) for c in zone)


@dataclass
class Sequence:
    """The rounds of one branch of the action, from the battle state as it lands."""

    state: BattleState  # the battle as the first round finds it
    t: BattleTables
    z: Coord
    steps: list[Step]

    def stream(self) -> int:
        """A number of its own for this branch's particles (:func:`.sampled.generator`): the same on every run (no
        ``hash``, which Python randomises per process), different for each combination of reactions."""
        text = "|".join(f"{s.attacker},{s.action},{s.direction},{s.reaction},{sorted(s.only or ())},"
                        f"{[(b.attacker, b.reaction) for b in s.together]}" for s in self.steps)
        return zlib.crc32(text.encode()) or 1


def _battle(seq: Sequence, zone: tuple[Combatant, ...]) -> BattleState:
    return seq.state.with_units({c.key: evolve(seq.state.unit(c.key), c=c) for c in zone})


def _can_strike(seq: Sequence, zone: dict[str, Combatant], step: Step) -> bool:
    c = zone.get(step.attacker)
    if c is None or not c.count or c.fleeing:
        return False
    if step.only is not None:
        return any(k in zone and zone[k].count for k in step.only)
    return any(e.side != c.side and e.count > 0 for e in zone.values())


def _units(zone: tuple[Combatant, ...], strikers: set[str], floors: dict[str, float]) -> dict[str, Unit]:
    """Pooled unless the unit strikes in this action and its living miniatures differ (see :mod:`.rounds`)."""
    out = {}
    for c in zone:
        alive = tuple(c.alive())
        alike = len({c.hp[i] for i in alive}) <= 1
        out[c.key] = Unit(c.key, c.side, alike or c.key not in strikers, alive, floors.get(c.key, math.inf))
    return out


def floors(seq: Sequence, start: tuple[Combatant, ...]) -> dict[str, float]:
    """The least positive damage each unit may take in the action's rounds, read off the roll-to-hit odds
    as the action begins (each round checks its own against them: :class:`.rounds.FloorBroken`)."""
    out: dict[str, float] = {}
    by_key = {c.key: c for c in start}
    battle = _battle(seq, start)

    def low(key: str, value: float) -> None:
        out[key] = min(out.get(key, math.inf), value)

    for step in seq.steps:
        att = by_key[step.attacker]
        if not _can_strike(seq, by_key, step):
            continue
        ctx = melee_context(battle, seq.t, seq.z, step.action, step.direction, step.reaction)
        a_shd = max(1.0, att.stat("shd"))
        for key, _names, _cap, _agg in _targets(start, att, step.only, ctx):
            t = by_key[key]
            o = duel_odds(att, t, ctx)
            low(key, least_hurt(o.odds, o.final_damage, ctx.options.luck_multiplier, max(1.0, t.stat("shd"))))
            if any(n == "Bad Luck" and q > 0 for n, q in o.odds):
                low(att.key, bad_luck_damage(att.max_hp))
            if o.retaliation_chance > 0:
                r = duel_odds(t, att, ctx, True)
                low(att.key, least_hurt(r.odds, r.final_damage, ctx.options.luck_multiplier, a_shd))
                if any(n == "Bad Luck" and q > 0 for n, q in r.odds):
                    low(key, bad_luck_damage(t.max_hp))
    return out


#: The exact programme of an action's rounds may work out this many times :data:`.dist.EXACT_WORK` outcomes before
#: the whole sequence is sampled instead (:mod:`.sampled_action`: the wounds carried between rounds of a crowded
#: zone make too many states to enumerate in a preview's time).
SEQUENCE_WORK = 1


#: Several rounds in which one attacker's strikers × the living miniatures of the other side reach this are sampled
#: whole without trying the exact programme: every such action of the Starter (and of the agreement test, from two
#: Billmen and a Baneret against three Vileins up) outgrew the exact allowance. A count of the position, so the
#: same position gets the same numbers on any machine; the lab (``more_exact``) always tries.
SEQUENCE_CROWDED = 6


def _crowded(seq: Sequence, start: tuple[Combatant, ...]) -> bool:
    if len(seq.steps) < 2 or budget.exact_work() != budget.EXACT_WORK or math.isinf(budget.EXACT_WORK):
        return False
    by_key = {c.key: c for c in start}
    return max(by_key[s.attacker].count * sum(c.count for c in start if c.side != by_key[s.attacker].side)
               for s in seq.steps) >= SEQUENCE_CROWDED


def play(seq: Sequence, start: tuple[Combatant, ...], weight: float, out: Zones) -> None:
    """Add to ``out`` the distribution of the zone after ``seq``'s rounds, starting from ``start``: exact (or its
    last round sampled) within the allowance, else the whole sequence sampled with the wounds carried."""
    if any(s.together for s in seq.steps) or _crowded(seq, start):  # sampled whole without trying the exact one
        from . import sampled_action

        sampled_action.sampled_play(seq, start, weight, out)
        return
    strikers = {s.attacker for s in seq.steps}
    alone = len(seq.steps) == 1  # one round: exact, or its outcomes sampled (:func:`.sampled_round.last_round`)
    try:
        with allowance(math.inf if alone else budget.exact_work() * SEQUENCE_WORK):
            try:
                _play(seq, start, weight, out, _units(start, strikers, floors(seq, start)))
            except FloorBroken:  # a later round hurts less than the first ones promised: no merging of wounds
                _play(seq, start, weight, out, _units(start, strikers, {}))
    except TooBig:
        check_time()
        from . import sampled_action

        sampled_action.sampled_play(seq, start, weight, out)


def _play(seq: Sequence, start: tuple[Combatant, ...], weight: float, out: Zones, units: dict[str, Unit]) -> None:
    states: dict[Hashable, tuple[tuple[Combatant, ...], float]] = {zone_key(start): (start, weight)}
    dropped = half = 0.0
    for n, step in enumerate(seq.steps):
        last = n == len(seq.steps) - 1
        nxt: dict[Hashable, tuple[tuple[Combatant, ...], float]] = {}
        for zone, p in states.values():
            check_time()
            by_key = {c.key: c for c in zone}
            if not _can_strike(seq, by_key, step):
                _merge(nxt, zone, p)
                continue
            ctx = melee_context(_battle(seq, zone), seq.t, seq.z, step.action, step.direction, step.reaction)
            s = spec(zone, step.attacker, ctx, step.only, units, last)
            # one round alone may have its last round sampled; several are sampled whole (:func:`play`)
            dist = (last_round(s, p, seq.stream() if p < 1.0 else 0) if len(seq.steps) == 1 else settled(s, round_distribution(s))) if last else \
                round_distribution(s)
            dropped += p * dist.dropped
            half = max(half, dist.half)
            for st, q in dist.states.items():
                check_time(AFTERMATH_WORK)
                _merge(nxt, finished(s, st, step.reaction), p * q)
        states = nxt
    out.dropped += dropped
    out.half = max(out.half, half)
    for k, (zone, p) in states.items():
        out.add(k, zone, p)


def _merge(into: dict[Hashable, tuple[tuple[Combatant, ...], float]], zone: tuple[Combatant, ...], p: float) -> None:
    k = zone_key(zone)
    have = into.get(k)
    into[k] = (zone, p + (have[1] if have else 0.0))


def _check(state: BattleState, keys: list[str]) -> None:
    for k in keys:
        if state.unit(k).has_rule("Disabused"):
            raise Unsupported("a unit whose profile grows with its kills (Disabused)")


def fight(state: BattleState, t: BattleTables, lg: Legal) -> tuple[tuple[Combatant, ...], Zones, str]:
    """The group's Fight: each member's round in turn (``handlers._fight``)."""
    u = state.unit(lg.action.unit)
    members = [m for m in group_of(state, u) if m.on_board]
    if u.zone is None or any(m.zone != u.zone for m in members):
        raise Unsupported("a group split over several zones")
    z = u.zone
    steps = []
    for m in members:
        direction = classify(state, z, m.side, m.approach)
        steps.append(Step(m.key, "fight", direction, challenged(state, m, lg.action.target)))
    start = tuple(x.c for x in state.in_zone(z))
    _check(state, [c.key for c in start])
    out = Zones()
    play(Sequence(state, t, z, steps), start, 1.0, out)
    return start, out, u.side


def charge(state: BattleState, t: BattleTables, lg: Legal) -> tuple[tuple[Combatant, ...], Zones, str]:
    """The charge (``handlers._charge``): every combination of reactions, then the rounds it plays."""
    u = state.unit(lg.action.unit)
    route = next(r for r in charge_routes(state, t.rules, u) if state.board.name(r.to) == lg.action.target)
    members = [m for m in group_of(state, u) if m.on_board]
    assert u.zone is not None
    dest = route.to
    origin = route.path[-2] if len(route.path) >= 2 else u.zone
    came_from = origin_direction(state, dest, origin)
    direction = classify(state, dest, u.side, came_from)
    reactions = charge_reactions(state, t, members, dest, direction)
    landed = state.with_units({m.key: replace(m, zone=dest, c=replace(m.c, moved=False), approach=came_from)
                               for m in members})
    landed = replace(landed, fight_dirs=tuple(f for f in landed.fight_dirs if f[0] != dest)
                     + ((dest, u.side, came_from),))
    start = tuple(x.c for x in landed.in_zone(dest))
    _check(landed, [c.key for c in start])
    chargers = frozenset(m.key for m in members)
    live = [r for r in reactions if r.chance > 0]
    out = Zones()
    for fired in itertools.product((True, False), repeat=len(live)):
        p = 1.0
        for r, yes in zip(live, fired, strict=True):
            p *= min(1.0, r.chance) if yes else 1.0 - min(1.0, r.chance)
        if p <= 0:
            continue
        react = [r for r, yes in zip(live, fired, strict=True) if yes]
        steps = [Step(r.defender, "fight", "front", chargers, True) for r in react if r.first]
        blows = [Step(m.key, "charge", direction) for m in members]
        same = [Step(r.defender, "fight", "front", chargers, True) for r in react if r.simultaneous]
        steps += [Step(members[0].key, "charge", direction, together=(*blows, *same))] if same else blows
        steps += [Step(r.defender, "fight", "front", chargers, True) for r in react
                  if not r.first and not r.simultaneous]
        play(Sequence(landed, t, dest, steps), start, p, out)
    return start, out, u.side
