"""One melee round as a distribution: every strike of the attacking unit, computed, not drawn.

The round is :func:`..melee.strike_round` followed strike by strike over every reachable state
of the zone: target assignment by Aggressiveness among the miniatures still able to receive an
attack (Bulk cap), the roll to hit (:func:`..melee.duel_odds`, Luck and Bad Luck included), the
damage (:func:`.dist.damage_odds`, the exact law of ``damage.roll``), the retaliation (once per
miniature per round, with its unit's RET × stance), hit points carried from strike to strike.

A target unit's miniatures are interchangeable (the same Aggressiveness, cap and odds), so a
unit that never strikes later in the action is kept as a sorted multiset ("pooled"): the states
that differ only by which miniature is which merge. A unit that strikes keeps its order
(positional) unless all its living miniatures started the action alike, when the order in which
they strike is a uniformly random one of the multiset (their positions are exchangeable).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from ..aftermath import Death
from ..combatants import Combatant
from ..damage import bad_luck_damage, bounds
from ..fastcopy import evolve
from ..melee import MeleeContext, Strikes, _targets, duel_odds, finish_round
from . import dist as budget
from .dist import TooBig, Weighted, exact_work, wounds

#: A miniature during a round: hit points, attacks received this round, retaliated this round.
Mini = tuple[float, int, bool]
DEAD: Mini = (0.0, 0, False)
#: Hit points kept for a living miniature whose wounds no longer matter (see :func:`_norm`).
LIVE = 1e9
DEFENDED = ("Blocked", "Evaded", "Deflected")


@dataclass(frozen=True)
class Unit:
    """How one unit of the zone is kept in the round's states."""

    key: str
    side: str
    pooled: bool
    alive0: tuple[int, ...]  # positions alive when the action began (a pooled unit's multiset covers these)
    #: the least positive damage anything in the action can deal this unit: hit points at or below it all
    #: mean "dies at the next blow that hurts", so they are kept as this one value (:meth:`canon`)
    floor: float = math.inf

    def canon(self, hp: float) -> float:
        """Hit points as kept: 0 when dead, the floor for any value at or below it, else as they are."""
        return 0.0 if hp <= 0 else self.floor if hp <= self.floor < math.inf else hp


class FloorBroken(Exception):
    """A round can deal a unit less than the floor its hit points were merged under: start again without."""


def least_hurt(odds: list[tuple[str, float]], final: float, luck: float, shield: float) -> float:
    """The least positive damage of a roll to hit's outcomes that have a chance (inf if none hurts)."""
    divisors = {"Attack": (1.0, 1.0), "Luck": (luck, 1.0), "Blocked": (1.0, shield)}
    least = math.inf
    for outcome, q in odds:
        if q > 0 and outcome in divisors:
            mult, div = divisors[outcome]
            low, high = bounds(final, mult, div)
            if high > 0:
                least = min(least, max(1, low))
    return least


def records(c: Combatant, unit: Unit) -> tuple[Mini, ...]:
    """The unit's miniatures as round records (sorted for a pooled unit)."""
    if unit.pooled:
        return tuple(sorted((unit.canon(c.hp[i]), 0, False) if c.hp[i] > 0 else DEAD for i in unit.alive0))
    return tuple((unit.canon(h), 0, False) if h > 0 else DEAD for h in c.hp)


def rebuilt(c: Combatant, unit: Unit, recs: tuple[Mini, ...]) -> Combatant:
    """``c`` with the hit points of ``recs`` (a pooled unit's sorted values go to its starting positions)."""
    hp = list(c.hp)
    if unit.pooled:
        for i, r in zip(unit.alive0, recs, strict=True):
            hp[i] = r[0]
    else:
        hp = [r[0] for r in recs]
    return c if tuple(hp) == c.hp else evolve(c, hp=tuple(hp))


def _put(recs: tuple[Mini, ...], where: int, new: Mini, pooled: bool) -> tuple[Mini, ...]:
    out = list(recs)
    out[where] = new
    return tuple(sorted(out)) if pooled else tuple(out)


def _choices(recs: tuple[Mini, ...], pooled: bool, ok: bool = True) -> Iterator[tuple[int, int]]:
    """(position, how many alike) of each distinct record (each position for a positional unit)."""
    if not pooled:
        for i in range(len(recs)):
            yield i, 1
        return
    i = 0
    while i < len(recs):
        j = i
        while j + 1 < len(recs) and recs[j + 1] == recs[i]:
            j += 1
        yield i, j - i + 1
        i = j + 1


# the state of a round: the attacker's records, each target unit's records, the order of the
# targets' deaths (target index), the attacker's dead
State = tuple[tuple[Mini, ...], tuple[tuple[Mini, ...], ...], tuple[int, ...], int]


@dataclass
class RoundSpec:
    """What stays fixed while one round is resolved."""

    zone: tuple[Combatant, ...]
    attacker: Combatant
    att_unit: Unit
    targets: list[tuple[Unit, Combatant, int, float]]  # unit, combatant, attack cap, Aggressiveness
    ctx: MeleeContext
    luck: float
    last: bool = False  # the action's last round: wounds no longer matter once a miniature is out of reach

    def odds(self, j: int, retaliation: bool) -> tuple[list[tuple[str, float]], float]:
        t = self.targets[j][1]
        o = duel_odds(t, self.attacker, self.ctx, True) if retaliation else duel_odds(self.attacker, t, self.ctx)
        return o.odds, o.final_damage


def spec(zone: tuple[Combatant, ...], attacker: str, ctx: MeleeContext, only: frozenset[str] | None,
         units: dict[str, Unit], last: bool = False) -> RoundSpec:
    att = next(c for c in zone if c.key == attacker)
    found = []
    by_key = {c.key: c for c in zone}
    for key, _names, cap, agg in _targets(zone, att, only, ctx):
        c = by_key[key]
        if c.flying and not att.flying:
            continue  # "A flying miniature cannot be targeted by melee attacks from grounded units"
        found.append((units[key], c, cap, agg))
    return RoundSpec(zone, att, units[attacker], found, ctx, ctx.options.luck_multiplier, last)


class _Round:
    """The dynamic programme of one round (see the module's docstring)."""

    def __init__(self, s: RoundSpec) -> None:
        self.s = s
        self.cache: dict[tuple[int, bool], tuple[list[tuple[str, float]], float]] = {}
        a = s.attacker
        self.a_bad = bad_luck_damage(a.max_hp)
        self.a_shd = max(1.0, a.stat("shd"))
        self.ret = [min(1.0, t.stat("ret") * s.ctx.data.stance(t.stance).retaliate) for _, t, _, _ in s.targets]
        self.t_shd = [max(1.0, t.stat("shd")) for _, t, _, _ in s.targets]
        self.t_bad = [bad_luck_damage(t.max_hp) for _, t, _, _ in s.targets]
        self._check_floors()

    def _check_floors(self) -> None:
        """Each unit's hit points were merged under its floor: no blow of this round may hurt it less."""
        s = self.s
        a_floor = s.att_unit.floor
        for j, (unit, _t, _cap, _agg) in enumerate(s.targets):
            odds, final = self.odds(j, False)
            if least_hurt(odds, final, s.luck, self.t_shd[j]) < unit.floor < math.inf:
                raise FloorBroken(unit.key)
            if any(o == "Bad Luck" and q > 0 for o, q in odds) and self.a_bad < a_floor < math.inf:
                raise FloorBroken(s.attacker.key)
            if self.ret[j] > 0:
                r_odds, r_final = self.odds(j, True)
                if least_hurt(r_odds, r_final, s.luck, self.a_shd) < a_floor < math.inf:
                    raise FloorBroken(s.attacker.key)
                if any(o == "Bad Luck" and q > 0 for o, q in r_odds) and self.t_bad[j] < unit.floor < math.inf:
                    raise FloorBroken(unit.key)

    def odds(self, j: int, retaliation: bool) -> tuple[list[tuple[str, float]], float]:
        hit = self.cache.get((j, retaliation))
        if hit is None:
            hit = self.cache[(j, retaliation)] = self.s.odds(j, retaliation)
        return hit

    def run(self, start: State) -> Weighted[State]:
        states: Weighted[State] = Weighted()
        states.add(start, 1.0)
        s = self.s
        order = s.attacker.alive()  # the miniatures alive when the round begins strike, once each
        for step in range(len(order)):
            nxt: Weighted[State] = Weighted()
            nxt.dropped = states.dropped
            for st, p in states.states.items():
                if s.att_unit.pooled:  # exchangeable: the next striker is any unstruck one alike
                    unstruck = [(i, m) for i, m in _choices(st[0], True) if not st[0][i][2] and st[0][i][0] > 0]
                    left = sum(m for _, m in unstruck)
                    for i, m in unstruck:
                        self.strike(st, p * m / left, i, nxt)
                else:
                    ai = order[step]
                    if st[0][ai][0] <= 0:
                        nxt.add(st, p)
                    else:
                        self.strike(st, p, ai, nxt)
            states = nxt.pruned()
        return states

    def strike(self, st: State, p: float, ai: int, out: Weighted[State]) -> None:
        s = self.s
        att, tgt, deaths, a_dead = st
        a_hp = att[ai][0]
        pooled_a = s.att_unit.pooled
        done = LIVE if s.last else a_hp  # its own blow and any reply to it are the last that can reach it
        att = _put(att, ai, (done, 0, True), pooled_a)
        ai = att.index((done, 0, True)) if pooled_a else ai
        cands = []
        total = 0.0
        for j, (unit, _c, cap, agg) in enumerate(s.targets):
            for i, m in _choices(tgt[j], unit.pooled):
                hp, recv, _ret = tgt[j][i]
                if hp > 0 and recv < cap and agg > 0:
                    cands.append((j, i, m * agg))
                    total += m * agg
        if not cands or total <= 0:
            out.add((att, tgt, deaths, a_dead), p)  # a Miss: no target left
            return
        for j, i, w in cands:
            self._assigned((att, tgt, deaths, a_dead), p * w / total, ai, a_hp, j, i, out)

    def _assigned(self, st: State, p: float, ai: int, a_hp: float, j: int, i: int, out: Weighted[State]) -> None:
        s = self.s
        att, tgt, deaths, a_dead = st
        unit, _c, cap, _agg = s.targets[j]
        hp, recv, ret = tgt[j][i]
        recv += 1
        odds, final = self.odds(j, False)
        for outcome, q in odds:
            if q <= 0:
                continue
            pq = p * q
            if outcome == "Bad Luck":
                new_a = s.att_unit.canon(a_hp - self.a_bad)
                a2 = _put(att, ai, (LIVE if s.last and new_a > 0 else new_a, 0, True), s.att_unit.pooled)
                t2 = tgt[:j] + (_put(tgt[j], i, _norm((hp, recv, ret), cap, s.last), unit.pooled),) + tgt[j + 1:]
                out.add((a2, t2, deaths, a_dead + (1 if new_a <= 0 else 0)), pq)
                continue
            if outcome in ("Attack", "Luck", "Blocked"):
                mult = s.luck if outcome == "Luck" else 1.0
                div = self.t_shd[j] if outcome == "Blocked" else 1.0
                for new_hp, killed, r in wounds(hp, final, mult, div):
                    self._after_hit(st, pq * r, ai, a_hp, j, i, (unit.canon(new_hp), recv, ret), killed, outcome, out)
            else:
                self._after_hit(st, pq, ai, a_hp, j, i, (hp, recv, ret), False, outcome, out)

    def _after_hit(self, st: State, p: float, ai: int, a_hp: float, j: int, i: int, rec: Mini, killed: bool,
                   outcome: str, out: Weighted[State]) -> None:
        s = self.s
        att, tgt, deaths, a_dead = st
        unit, _c, cap, _agg = s.targets[j]
        d2 = deaths + (j,) if killed else deaths
        hp, recv, ret = rec
        chance = self.ret[j]
        if outcome in DEFENDED and hp > 0 and a_hp > 0 and not ret and chance > 0:
            self._retaliate(st, p * chance, ai, a_hp, j, i, (hp, recv, True), d2, out)
            p *= 1.0 - chance
            if p <= 0:
                return
        t2 = tgt[:j] + (_put(tgt[j], i, _norm(rec, cap, s.last), unit.pooled),) + tgt[j + 1:]
        out.add((att, t2, d2, a_dead), p)

    def _retaliate(self, st: State, p: float, ai: int, a_hp: float, j: int, i: int, rec: Mini,
                   deaths: tuple[int, ...], out: Weighted[State]) -> None:
        s = self.s
        att, tgt, _d, a_dead = st
        unit, _c, cap, _agg = s.targets[j]
        hp, recv, ret = rec
        odds, final = self.odds(j, True)
        for outcome, q in odds:
            if q <= 0:
                continue
            pq = p * q
            if outcome == "Bad Luck":  # never on a free attack, kept for completeness
                new_hp = unit.canon(hp - self.t_bad[j])
                t2 = tgt[:j] + (_put(tgt[j], i, _norm((new_hp, recv, ret), cap, s.last), unit.pooled),) + tgt[j + 1:]
                out.add((att, t2, deaths + ((j,) if new_hp <= 0 else ()), a_dead), pq)
                continue
            t2 = tgt[:j] + (_put(tgt[j], i, _norm(rec, cap, s.last), unit.pooled),) + tgt[j + 1:]
            if outcome not in ("Attack", "Luck", "Blocked"):
                out.add((att, t2, deaths, a_dead), pq)
                continue
            mult = s.luck if outcome == "Luck" else 1.0
            div = self.a_shd if outcome == "Blocked" else 1.0
            for new_a, killed, r in wounds(a_hp, final, mult, div):
                kept = LIVE if s.last and new_a > 0 else s.att_unit.canon(new_a)
                a2 = _put(att, ai, (kept, 0, True), s.att_unit.pooled)
                out.add((a2, t2, deaths, a_dead + (1 if killed else 0)), pq * r)


def _norm(rec: Mini, cap: int, last: bool = False) -> Mini:
    """Forget what no longer matters: a dead miniature is dead; one at its cap cannot be struck (or retaliate)
    again, and in the action's last round its wounds are then of no further consequence either."""
    hp, recv, _ret = rec
    if hp <= 0:
        return DEAD
    if recv >= cap:
        return (LIVE if last else hp, cap, False)
    return rec


#: A round whose striking miniatures × living miniatures it may strike reach this is left to the particles without
#: trying the exact programme (the caller's :class:`.dist.TooBig` path): in the Starter every such round (7 to 10
#: strikers into 4 to 10 miniatures) outgrew the exact allowance, each try costing as much as the sampling. A count
#: of the position, so the same position gets the same numbers on any machine; the lab (``more_exact``) always tries.
CROWDED = 33


def crowded(s: RoundSpec) -> bool:
    if exact_work() != budget.EXACT_WORK or math.isinf(budget.EXACT_WORK):
        return False
    return s.attacker.count * sum(c.count for _u, c, _cap, _agg in s.targets) >= CROWDED


def round_distribution(s: RoundSpec) -> Weighted[State]:
    """Every outcome of the round: (attacker records, target records, target deaths in order, attacker dead)."""
    if crowded(s):
        raise TooBig("a crowded round: sampled")
    att = s.attacker
    a_recs = records(att, s.att_unit)
    start: State = (a_recs, tuple(records(c, u) for u, c, _, _ in s.targets), (), 0)
    return _Round(s).run(start)


def settled(s: RoundSpec, dist: Weighted[State]) -> Weighted[State]:
    """The round's outcomes with the survivors' wounds forgotten (each back at its hit points before the round).

    After the action's last round only who died counts (morale reads casualties and living
    miniatures, never wounds), so outcomes that differ only by wounds merge before their
    aftermath is worked out.
    """
    out: Weighted[State] = Weighted()
    out.dropped = dist.dropped
    a0 = records(s.attacker, s.att_unit)
    t0 = [records(c, u) for u, c, _, _ in s.targets]
    pooled = [u.pooled for u, _, _, _ in s.targets]
    for (att, tgt, deaths, a_dead), p in dist.states.items():
        key = (_alive_as(att, a0, s.att_unit.pooled),
               tuple(_alive_as(r, r0, pl) for r, r0, pl in zip(tgt, t0, pooled, strict=True)), deaths, a_dead)
        out.add(key, p)
    return out


def _alive_as(recs: tuple[Mini, ...], before: tuple[Mini, ...], pooled: bool) -> tuple[Mini, ...]:
    """``recs`` with each living miniature's hit points as before the round (pooled: the healthiest first)."""
    if not pooled:
        return tuple((b[0], 0, False) if r[0] > 0 else DEAD for r, b in zip(recs, before, strict=True))
    living = sum(1 for r in recs if r[0] > 0)
    kept = sorted((b for b in before if b[0] > 0), reverse=True)[:living]
    return tuple(sorted([DEAD] * (len(recs) - len(kept)) + [(b[0], 0, False) for b in kept]))


def finished(s: RoundSpec, st: State, free: bool) -> tuple[Combatant, ...]:
    """The zone after the round's aftermath (the engine's :func:`..melee.finish_round`) for one outcome."""
    att_recs, tgt, deaths, a_dead = st
    units = {c.key: c for c in s.zone}
    units[s.attacker.key] = rebuilt(s.attacker, s.att_unit, tuple((r[0], 0, False) for r in att_recs)
                                    if not s.att_unit.pooled else tuple(sorted((r[0], 0, False) for r in att_recs)))
    for (unit, c, _cap, _agg), recs in zip(s.targets, tgt, strict=True):
        units[unit.key] = rebuilt(c, unit, recs if not unit.pooled else tuple(sorted(recs)))
    space = s.ctx.options.space_bulk_key()
    a = s.attacker
    dead = [Death(a.side, a.key, a.key, a.stat(space))] * a_dead
    dead += [Death(s.targets[j][1].side, s.targets[j][1].key, s.targets[j][1].key, s.targets[j][1].stat(space))
             for j in deaths]
    report = finish_round(s.zone, a.key, s.ctx, Strikes(units, [], dead, []), free)
    return report.zone
