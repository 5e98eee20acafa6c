"""A volley of arrows as a distribution: where each projectile falls, whom it strikes, what it does.

Projectile by projectile, in the order :func:`..ranged.resolve_volley` shoots them, over every
reachable state of the target zone: where it falls (the WRD of :func:`..ranged.shot_odds`,
through the engine's own ``_volley_odds``, which depends on the living miniatures only), which
miniature a hit lands on (by Bulk, enemy or exposed ally: friendly fire), Missile Block, the
damage (:func:`.dist.wounds`), Bad Luck on the shooter; then the engine's own volley report
(``_Volley.report``: casualty and friendly-fire morale, the shot's own morale effect) on every
outcome. Every unit in the target zone is a target only, so its miniatures are pooled.

Lightning goes through the same bookkeeping with its own draws (:mod:`.bolts`). Not covered (None): artillery (its
own resolution), Psychological Weapon.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace

from ..aftermath import Death, StaticModifier
from ..battle.actions import Action, Legal
from ..battle.moves import group_of
from ..battle.shooting import crossed
from ..battle.state import BattleState, BattleUnit
from ..battle.tables import BattleTables
from ..combatants import Combatant
from ..damage import bad_luck_damage
from ..morale import FRIENDLY_FIRE_PENALTY
from ..ranged import ShotOdds, ShotSetup, _check, _space_one, _Volley, _volley_odds, exposed_ally, shot_odds
from ..rules_data import Action as RulesAction
from . import dist as budget
from .dist import AFTERMATH_WORK, TooBig, Weighted, Zones, allowance, check_time, wounds
from .melee_actions import Unsupported, zone_key
from .rounds import DEAD, Mini, Unit, least_hurt, rebuilt, records

ENEMY_FALLS = ("Accurate Shot", "Enemy space", "Luck")

# shooter records, each target unit's records, deaths in order (-1: the shooter), friendly fire per unit
VState = tuple[tuple[Mini, ...], tuple[tuple[Mini, ...], ...], tuple[int, ...], tuple[int, ...]]


@dataclass
class _Spec:
    setup: ShotSetup
    shooter: Combatant
    s_unit: Unit
    units: list[tuple[Unit, Combatant]]  # the target zone without the shooter
    shots: int


class _Volleys:
    #: where a projectile falls on an enemy (``shot_odds``' names), and on an ally (lightning's are :mod:`.bolts`')
    enemy_falls: tuple[str, ...] = ENEMY_FALLS
    ally_fall = "Allied space"

    def __init__(self, sp: _Spec) -> None:
        self.sp = sp
        self.seen: dict[tuple[int, ...], tuple[ShotOdds, object]] = {}
        self.odds_at: dict[tuple[int, ...], ShotOdds] = {}
        s = sp.shooter
        key = sp.setup.options.space_bulk_key()
        self.bad = bad_luck_damage(s.max_hp)
        self.weight = [_space_one(c, key) for _, c in sp.units]
        self.enemy = [c.side != s.side for _, c in sp.units]
        self.ally = [exposed_ally(s, c, sp.setup.own_zone) for _, c in sp.units]
        self.luck = sp.setup.options.luck_multiplier
        self.immune = [False] * len(sp.units)
        self.chain_matters = [False] * len(sp.units)
        #: each unit rebuilt with the hit points of its records (many outcomes share a unit's records: :meth:`_zone`)
        self.built: dict[tuple[int, tuple[Mini, ...]], Combatant] = {}
        self.checked: RulesAction | None = None

    def odds(self, st: VState) -> ShotOdds:
        counts = (sum(1 for r in st[0] if r[0] > 0), *(sum(1 for r in recs if r[0] > 0) for recs in st[1]))
        hit = self.odds_at.get(counts)
        if hit is None:
            sp = self.sp
            shooter = rebuilt(sp.shooter, sp.s_unit, st[0])
            zone = tuple(shooter if c.key == shooter.key else c for c in self._zone(st))
            hit = self.odds_at[counts] = _volley_odds(sp.setup, shooter, zone, "", self.seen)[0]  # type: ignore[arg-type]
        return hit

    def _zone(self, st: VState) -> tuple[Combatant, ...]:
        by = {u.key: self.rebuilt(j, recs) for j, ((u, _c), recs) in enumerate(zip(self.sp.units, st[1], strict=True))}
        return tuple(by.get(c.key, c) for c in self.sp.setup.target_zone)

    def rebuilt(self, j: int, recs: tuple[Mini, ...]) -> Combatant:
        """Unit ``j`` (-1: the shooter) with the hit points of ``recs``, built once (combatants are immutable)."""
        got = self.built.get((j, recs))
        if got is None:
            u, c = (self.sp.s_unit, self.sp.shooter) if j < 0 else self.sp.units[j]
            got = self.built[(j, recs)] = rebuilt(c, u, recs)
        return got

    def run(self, start: VState) -> Weighted[VState]:
        states: Weighted[VState] = Weighted()
        states.add(start, 1.0)
        for si in self.sp.shooter.alive():
            for _ in range(self.sp.shots):
                nxt: Weighted[VState] = Weighted()
                nxt.dropped = states.dropped
                for st, p in states.states.items():
                    self.shot(st, p, si, nxt)
                states = nxt.pruned()
        return states

    def shot(self, st: VState, p: float, si: int, out: Weighted[VState]) -> None:
        shooter, tgt, deaths, ff = st
        if not any(r[0] > 0 for j, recs in enumerate(tgt) if self.enemy[j] for r in recs):
            out.add(st, p)  # No target left
            return
        o = self.odds(st)
        for where, q in o.odds:
            if q <= 0:
                continue
            pq = p * q
            if where == "Bad Luck":
                hp = self.sp.s_unit.canon(shooter[si][0] - self.bad)
                s2 = shooter[:si] + ((hp, 0, False) if hp > 0 else DEAD,) + shooter[si + 1:]
                out.add((s2, tgt, deaths + ((-1,) if hp <= 0 else ()), ff), pq)
            elif where in self.enemy_falls or where == self.ally_fall:
                self._falls(st, pq, o, where, out)
            else:
                out.add(st, pq)  # free space, cover

    def _falls(self, st: VState, p: float, o: ShotOdds, where: str, out: Weighted[VState]) -> None:
        shooter, tgt, deaths, ff = st
        friendly = where == self.ally_fall
        pool = []
        for j, recs in enumerate(tgt):
            if (self.ally[j] if friendly else self.enemy[j]) and self.weight[j] > 0:
                for r in set(recs):
                    if r[0] > 0:
                        pool.append((j, r, recs.count(r) * self.weight[j]))
        total = sum(w for _, _, w in pool)
        if total <= 0:
            out.add(st, p)  # Missed: nobody there
            return
        for j, r, w in pool:
            pw = p * w / total
            key = self.sp.units[j][0].key
            ff2 = ff[:j] + (ff[j] + 1,) + ff[j + 1:] if friendly else ff
            if where != "Luck" or self.blocked_on_luck(j):
                block = o.block.get(key, 0.0)
                if block > 0:
                    out.add((shooter, tgt, deaths, ff2), pw * block)
                    pw *= 1.0 - block
                if pw <= 0:
                    continue
            mult = self.luck if where == "Luck" else 1.0
            unit = self.sp.units[j][0]
            for hp, killed, q in wounds(r[0], o.final[key], mult):
                changed = list(tgt[j])
                changed[changed.index(r)] = (unit.canon(hp), 0, False) if hp > 0 else DEAD
                t2 = tgt[:j] + (tuple(sorted(changed)),) + tgt[j + 1:]
                out.add((shooter, t2, deaths + ((j,) if killed else ()), ff2), pw * q)

    def action(self) -> RulesAction:
        """The shot's action as the engine checks it (``_check``, once per volley rather than once per outcome)."""
        if self.checked is None:
            self.checked = _check(self.sp.setup)[1]
        return self.checked

    def exact_ok(self) -> bool:
        """Whether the exact programme's state holds all a later projectile reads (see :mod:`.bolts`)."""
        return True

    def chained(self, j: int) -> tuple[float, float]:
        """Unit ``j``'s block chance and final damage once a projectile has hurt it (lightning's chain only)."""
        raise NotImplementedError

    def blocked_on_luck(self, j: int) -> bool:
        """Whether unit ``j`` stops even a Luck (never for an arrow: "leaving the miniature no chance to block")."""
        return False

    def finished(self, st: VState) -> tuple[tuple[Combatant, ...], Combatant]:
        """The engine's own volley report on one outcome: the zone after morale, the shooter after Fatigue."""
        sp = self.sp
        shooter_recs, tgt, deaths, ff = st
        v = _Quiet(sp.setup, None)  # type: ignore[arg-type]
        v.shooter = self.rebuilt(-1, shooter_recs)
        v.everyone[v.shooter.key] = v.shooter
        for c in self._zone(st):
            v.zone[c.key] = v.shooter if c.key == v.shooter.key else c
            if c.key != v.shooter.key:
                v.everyone[c.key] = c
        key = sp.setup.options.space_bulk_key()
        for j in deaths:
            c = sp.shooter if j < 0 else sp.units[j][1]
            v.deaths.append(Death(c.side, c.key, c.key, c.stat(key)))
        for (u, _c), n in zip(sp.units, ff, strict=True):
            v.statics += [StaticModifier(u.key, FRIENDLY_FIRE_PENALTY, f"friendly fire from {sp.shooter.key}",
                                         static=False)] * n
        assert sp.setup.data is not None
        report = v.report(self.action(), sp.setup.data)
        return report.zone, report.shooter_after


class _Quiet(_Volley):
    """The engine's volley, its report worked out without the event log (a preview reads the zone, not the log)."""

    def put(self, new: Combatant, cause: str) -> None:
        self.everyone[new.key] = new
        if new.key in self.zone:
            self.zone[new.key] = new


def setup_of(state: BattleState, t: BattleTables, key: str, target: str, shot: str) -> ShotSetup:
    m = state.unit(key)
    z = state.board.parse(target)
    assert m.zone is not None
    zone = tuple(u.c for u in state.in_zone(z))
    return ShotSetup(m.c, zone, state.terrain_at(z), crossed(state, m.zone, z), state.board.distance(m.zone, z),
                     shot, t.rules, state.options, 1.0)


def volley(state: BattleState, t: BattleTables, lg: Legal) -> tuple[tuple[Combatant, ...], Zones, str]:
    """Each member that has the shot shoots in turn (``shooting.shoot_with``)."""
    a = lg.action
    shot = a.option or "shot"
    u = state.unit(a.unit)
    members = [m for m in group_of(state, u) if m.on_board and shot in m.c.profile.shots]
    if not members:
        raise Unsupported("nobody shoots")
    z = state.board.parse(a.target or "")
    for m in members:
        if m.has_rule("Psychological Weapon"):
            raise Unsupported("Psychological Weapon")
        if t.rules.action(shot).resolution not in ("bow", "lightning") or streak_bonus_of(
                state, t, m.key, a.target or "") != 1.0:
            raise Unsupported("artillery")
    keys = [x.key for x in state.in_zone(z)] + [m.key for m in members if m.zone != z]
    start = tuple(state.unit(k).c for k in keys)
    if len(members) == 1 and _crowded(setup_of(state, t, members[0].key, a.target or "", shot)):
        from .sampled_volley import sampled_volley

        return start, _volleys(state, t, a, members, keys, sampled_volley), u.side
    if len(members) == 1:
        return start, _volleys(state, t, a, members, keys), u.side
    try:  # several volleys: exact within the allowance, else sampled whole with the wounds carried
        with allowance(budget.exact_work()):
            return start, _volleys(state, t, a, members, keys), u.side
    except TooBig:
        check_time()
        from .sampled_action import sampled_volleys

        return start, sampled_volleys(state, t, a, members, keys), u.side


def _volleys(state: BattleState, t: BattleTables, a: Action, members: list[BattleUnit], keys: list[str],
             kernel: Callable[[ShotSetup], Kernel] | None = None) -> Zones:
    """The zone after each member's volley in turn, exact (the last volley sampled when alone and too big);
    ``kernel``: the one volley's kernel when it is known to be too big for the exact one (:func:`_crowded`)."""
    shot = a.option or "shot"
    states: dict[Hashable, tuple[BattleState, float]] = {zone_key(tuple(state.unit(k).c for k in keys)): (state, 1.0)}
    out = Zones()
    for n, m in enumerate(members):
        nxt: dict[Hashable, tuple[BattleState, float]] = {}
        for st, p in states.values():
            setup = setup_of(st, t, m.key, a.target or "", shot)
            alone = len(members) == 1  # a member's volley among several is exact or the whole group sampled
            dist, finish = kernel(setup) if kernel is not None else last_volley(setup) if alone else one_volley(setup)
            out.dropped += p * dist.dropped
            out.half = max(out.half, dist.half)
            for vs, q in dist.states.items():
                check_time(AFTERMATH_WORK)
                zone, shooter = finish(vs)
                if n == len(members) - 1:  # the last volley: its zones are the result (no battle state needed)
                    by = {c.key: c for c in (*zone, shooter)}
                    cs = tuple(by[k] if k in by else st.unit(k).c for k in keys)
                    out.add(zone_key(cs), cs, p * q)
                    continue
                after = st.with_units({c.key: replace(st.unit(c.key), c=c) for c in (*zone, shooter)})
                k = zone_key(tuple(after.unit(x).c for x in keys))
                have = nxt.get(k)
                nxt[k] = (after, p * q + (have[1] if have else 0.0))
        states = nxt
    return out


#: A volley whose projectiles × living miniatures in the target zone reach this is sampled without trying the exact
#: programme first: in the Starter every such volley (8 to 16 projectiles into 4 to 18 miniatures) outgrew the exact
#: allowance (:data:`.dist.EXACT_WORK`), and each try cost as much as the sampling. A count of the position, so the
#: same position gets the same numbers on any machine; the lab (:func:`.dist.more_exact`) always tries.
CROWDED = 32


def _crowded(setup: ShotSetup) -> bool:
    if budget.exact_work() != budget.EXACT_WORK or math.isinf(budget.EXACT_WORK):
        return False  # the lab's (or a test's) exact allowance: the exact programme is tried
    _data, action = _check(setup)
    projectiles = setup.shooter.count * action.shots_per_miniature
    return projectiles * sum(c.count for c in setup.target_zone if c.key != setup.shooter.key) >= CROWDED


def streak_bonus_of(state: BattleState, t: BattleTables, key: str, target: str) -> float:
    m = state.unit(key)
    return 1.0 + min(1.0, t.rules.num("artillery_streak") * m.streak) if (
        m.has_rule("Artillery") and m.last_target == target) else 1.0


def volley_spec(setup: ShotSetup, pooled: bool = True) -> tuple[_Volleys, VState]:
    """The volley's fixed parts and its starting state (shared by the exact and the sampled kernels); ``pooled``
    False: every unit kept positionally with its wounds as they are (particles carrying wounds between volleys)."""
    _data, action = _check(setup)
    if action.resolution == "lightning":
        from .bolts import bolts_spec

        return bolts_spec(setup, pooled)
    s = setup.shooter
    o = shot_odds(setup)  # the damage of a shot depends on the two units' stats only, never on who is alive
    bad = any(n == "Bad Luck" and q > 0 for n, q in o.odds) and pooled
    s_unit = Unit(s.key, s.side, False, tuple(s.alive()), float(bad_luck_damage(s.max_hp)) if bad else math.inf)
    units = [(Unit(c.key, c.side, pooled, tuple(c.alive()),
                   _least(o, c.key, setup.options.luck_multiplier) if pooled else math.inf), c)
             for c in setup.target_zone if c.key != s.key]
    sp = _Spec(setup, s, s_unit, units, action.shots_per_miniature)
    start: VState = (records(s, s_unit), tuple(records(c, un) for un, c in units), (), (0,) * len(units))
    return _Volleys(sp), start


Kernel = tuple[Weighted[VState], Callable[[VState], tuple[tuple[Combatant, ...], Combatant]]]


def one_volley(setup: ShotSetup) -> Kernel:
    v, start = volley_spec(setup)
    if not v.exact_ok():
        raise TooBig("a bolt changes what a later one does (the elemental chain): its particles carry it")
    return v.run(start), v.finished


def last_volley(setup: ShotSetup) -> tuple[Weighted[VState], Callable[[VState], tuple[tuple[Combatant, ...], Combatant]]]:
    """The action's last volley: exact when it fits :data:`.dist.EXACT_WORK`, else sampled (an estimate)."""
    try:
        with allowance(budget.exact_work()):
            return one_volley(setup)
    except TooBig:
        check_time()
        from .sampled_volley import sampled_volley

        return sampled_volley(setup)


def _least(o: ShotOdds, key: str, luck: float) -> float:
    """The least positive damage a projectile can deal this unit (its floor: see :class:`.rounds.Unit`)."""
    if key not in o.final:
        return math.inf
    return least_hurt([("Attack", 1.0), ("Luck", 1.0)], o.final[key], luck, 1.0)
