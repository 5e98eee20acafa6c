"""Ranged attacks: visibility, where each projectile falls, Missile Block and damage.

Each shot is a Weighted Random Draw between Accurate Shot (Ranged Accuracy ×
Fatigue efficiency × visibility, halved in the shooter's own zone) and a physical
model of the target zone: the space taken by enemy and allied miniatures (their
Bulk, halved for units that moved last turn), the free space (80 − occupied) and
the Cover of its terrain. Luck and Bad Luck take 5 % each off the top (basic Ranged
Attack: no Bad Luck). An Accurate Shot, Bulk hit or Luck then picks an enemy
miniature by Bulk; an allied space hit picks an ally (friendly fire, −5 morale).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.events import Event
from rulekeeper.core.wrd import with_fixed

from . import damage as dmg
from .aftermath import Death, FatigueChange, MoraleChange, StaticModifier, add_fatigue, apply_morale
from .combatants import Combatant
from .damage import num
from .events import record
from .fatigue import efficiency
from .melee import relabelled
from .morale import FRIENDLY_FIRE_PENALTY, state_of
from .options import ExIllisOptions
from .records import ShotLine, ShotOddsLine, VolleyLine
from .roll_to_hit import BAD_LUCK, LUCK, _mods
from .rules_data import Action, RulesData

ZONE_SPACE = 80.0
VISIBILITY_SCALE = 64.0


@dataclass(frozen=True)
class Crossed:
    """A zone the trajectory crosses between shooter and target, and how much of it."""

    fraction: float
    miniature_bulk: float = 0.0
    terrain: str = "fields"
    label: str = ""


@dataclass(frozen=True)
class ShotSetup:
    shooter: Combatant
    target_zone: tuple[Combatant, ...]
    terrain: str = "fields"
    crossed: tuple[Crossed, ...] = ()
    distance: int = 1
    action: str = "shot"
    data: RulesData | None = None
    options: ExIllisOptions = ExIllisOptions()
    accuracy_bonus: float = 1.0  # e.g. artillery shooting again at the same zone

    @property
    def own_zone(self) -> bool:
        return self.distance == 0


def visibility(crossed: tuple[Crossed, ...], data: RulesData) -> tuple[float, list[str]]:
    """Visibility = 1 − (total Bulk crossed / 64), each zone counted by the part crossed."""
    total = 0.0
    lines = []
    for z in crossed:
        if not 0 <= z.fraction <= 1:
            raise ImpossibleRequestError(f"a crossed fraction must be in [0, 1], got {z.fraction}")
        t = data.terrain_feature(z.terrain)
        part = z.fraction * (z.miniature_bulk + t.bulk)
        total += part
        lines.append(
            f"crossed {z.label or 'zone'}: ({z.miniature_bulk:g} miniature bulk + {t.bulk:g} {z.terrain}) × {z.fraction:g} = {part:g}"
        )
    vis = max(0.0, 1.0 - total / VISIBILITY_SCALE)
    lines.append(f"visibility = 1 − {total:g} / 64 = {vis:.3f}")
    return vis, lines


def exposed_ally(s: Combatant, c: Combatant, own_zone: bool) -> bool:
    """Can a projectile of ``s`` fall on its ally ``c``?

    Not the shooter itself; in the shooter's own zone only allies more aggressive than it:
    "ranged attackers shooting at close range (inside the same melee) can accidentally hit
    their allies if those allies have a higher Aggressiveness than theirs". The others stand
    behind the shooter: their space counts as free space.
    """
    if c.side != s.side or c.key == s.key:
        return False
    return not own_zone or c.stat("agg") > s.stat("agg")


def weighed_space(
    s: Combatant, zone: Iterable[Combatant], own_zone: bool, weight: Callable[[Combatant], float]
) -> tuple[float, float, list[tuple[Combatant, float]]]:
    """Enemy and exposed allied space of a zone, each unit counted ``count × weight(unit)``.

    Lightning and artillery weigh the units their own way (armour, hero weight) but sum the
    zone alike: the shooter and empty units do not count, nor allies it cannot hit
    (:func:`exposed_ally`).  Returns the two totals and each counted unit with its space.
    """
    enemy = allied = 0.0
    counted: list[tuple[Combatant, float]] = []
    for c in zone:
        if not c.count or c.key == s.key:
            continue
        if c.side != s.side:
            w = c.count * weight(c)
            enemy += w
        elif exposed_ally(s, c, own_zone):
            w = c.count * weight(c)
            allied += w
        else:
            continue
        counted.append((c, w))
    return enemy, allied, counted


def _space(c: Combatant, key: str) -> float:
    return c.count * c.stat(key) * (0.5 if c.moved else 1.0)


@dataclass(frozen=True)
class ShotOdds:
    odds: list[tuple[str, float]]
    weights: dict[str, float]
    explain: list[str]
    damage: dict[str, tuple[int, int]]
    block: dict[str, float]
    final: dict[str, float]
    magical: bool

    def to_dict(self) -> ShotOddsLine:
        return {
            "odds": {k: p for k, p in self.odds},
            "weights": self.weights,
            "damage": {k: list(v) for k, v in self.damage.items()},
            "missile_block": self.block,
            "final_damage": {k: round(v, 3) for k, v in self.final.items()},
            "explain": self.explain,
        }


def _check(setup: ShotSetup) -> tuple[RulesData, Action]:
    if setup.data is None:
        raise ImpossibleRequestError("shot setup needs rules data")
    data = setup.data
    action = data.action(setup.action)
    if action.kind != "ranged":
        raise ImpossibleRequestError(f"{action.title} is not a ranged action")
    s = setup.shooter
    reach = s.stat("range")
    if reach <= 0 and action.spell is None:
        raise ImpossibleRequestError(f"{s.name} has no ranged attack")
    if action.spell is not None:
        reach = data.spell(action.spell).range.value
    if action.range is not None:
        reach = min(reach, action.range.value)
    if setup.distance < 0:
        raise ImpossibleRequestError(f"distance must be >= 0, got {setup.distance}")
    if setup.distance > reach:
        raise ImpossibleRequestError(
            f"{s.name} cannot {action.title} at range {setup.distance}: its reach is {reach:g} {'zone' if reach == 1 else 'zones'}",
            range=setup.distance, reach=reach,
        )
    if s.fleeing:
        raise ImpossibleRequestError(f"{s.key} is Fleeing and cannot shoot")
    enemies = [c for c in setup.target_zone if c.side != s.side and c.count > 0]
    if not enemies:
        raise ImpossibleRequestError("there is no enemy in the target zone")
    if setup.own_zone and s.name not in data.shoot_engaged.value:
        raise ImpossibleRequestError(
            f"{s.name} cannot shoot into its own zone while engaged (only {', '.join(data.shoot_engaged.value)} may)"
        )
    if not data.terrain_feature(setup.terrain).passable and setup.terrain != "lake":
        raise ImpossibleRequestError(f"nothing can stand in a zone of {setup.terrain}")
    return data, action


def shot_odds(setup: ShotSetup) -> ShotOdds:
    """The WRD of where one projectile falls, with the arithmetic behind it."""
    data, action = _check(setup)
    s, opts = setup.shooter, setup.options
    key = opts.space_bulk_key()
    magical = action.spell is not None
    vis, lines = visibility(setup.crossed, data)
    acc_key, load = ("macc", s.veil) if magical else ("racc", s.fatigue)
    eff = efficiency(load)
    own = 0.5 if setup.own_zone else 1.0
    m_acc, m_luck = _mods(s, data)
    base = s.stat(acc_key)
    accurate = base * eff * vis * own * action.accuracy.value * m_acc * setup.accuracy_bonus
    lines.insert(0, f"shooter: {s.count} × {s.name}, {action.title}, range {setup.distance}")
    lines.append(
        f"Accurate Shot = {acc_key.upper()} {num(base)} × {'veil' if magical else 'fatigue'} efficiency {eff:.3f}"
        f" × visibility {vis:.3f} × own zone {own:g} × {action.title} {action.accuracy.value:g}"
        f" × morale {m_acc:g} ({state_of(s, False)})"
        + (f" × {setup.accuracy_bonus:g} (same zone again)" if setup.accuracy_bonus != 1 else "")
        + f" = {accurate:.2f}"
    )
    enemy = sum(_space(c, key) for c in setup.target_zone if c.side != s.side)
    allied = sum(_space(c, key) for c in setup.target_zone if exposed_ally(s, c, setup.own_zone))
    for c in setup.target_zone:
        if c.count and c.key != s.key and c.side == s.side and not exposed_ally(s, c, setup.own_zone):
            lines.append(f"allied {c.name}: Aggressiveness {c.stat('agg'):g} not above the shooter's {s.stat('agg'):g}: behind the shooters, out of the way")
        elif c.count and c.key != s.key:
            lines.append(
                f"{'enemy' if c.side != s.side else 'allied'} space: {c.count} × {c.name} bulk {c.stat(key):g}"
                + (" × ½ (moved)" if c.moved else "") + f" = {_space(c, key):g}"
            )
    free = max(0.0, ZONE_SPACE - enemy - allied)
    cover = data.terrain_feature(setup.terrain).cover
    lines.append(f"free space = 80 − {allied:g} − {enemy:g} = {free:g}; cover ({setup.terrain}) = {cover:g}")
    weights = {"Accurate Shot": accurate, "Enemy space": enemy, "Allied space": allied, "Free space": free, "Cover": cover}
    luck = max(0.0, LUCK + m_luck)
    bad = 0.0 if action.basic else BAD_LUCK
    lines.append(f"Luck {luck:.0%}, Bad Luck {bad:.0%}" + (" (basic Ranged Attack)" if bad == 0 else ""))
    odds = with_fixed({"Luck": luck, "Bad Luck": bad}, weights)
    engaged = len({c.side for c in setup.target_zone if c.count}) > 1
    block: dict[str, float] = {}
    damages: dict[str, tuple[int, int]] = {}
    finals: dict[str, float] = {}
    for c in setup.target_zone:
        if c.count == 0 or c.key == s.key:
            continue
        block[c.key] = c.stat("mblk") * (0.5 if engaged else 1.0)
        calc = _calc(s, c, action, data)
        finals[c.key] = calc.final
        damages[c.key] = dmg.bounds(calc.final)
        damages[f"{c.key} (Luck)"] = dmg.bounds(calc.final, opts.luck_multiplier)
        lines.append(f"on {c.name}: " + "; ".join(calc.lines()) + f"; Missile Block {block[c.key]:.0%}" + (" (halved: in melee)" if engaged else ""))
    damages["Bad Luck"] = (dmg.bad_luck_damage(s.max_hp),) * 2
    return ShotOdds(odds, weights, lines, damages, block, finals, magical)


def _calc(s: Combatant, c: Combatant, action: Action, data: RulesData) -> dmg.DamageCalc:
    if action.spell is not None:
        spell = data.spell(action.spell)
        if spell.element in c.profile.immune:
            return dmg.magical(0.0, s.stat("mag"), 1.0, spell.element)
        res = float(c.profile.resist[spell.element].value) * efficiency(c.veil)
        return dmg.magical(spell.power.value, s.stat("mag"), res, spell.element)
    return dmg.physical(s.stat("ranged_wpd"), s.stat("sht"), c.stat("tgh"), s.stat("ranged_ap"), c.stat("armour"), ranged=True)


@dataclass(frozen=True)
class ShotRecord:
    shooter: str
    outcome: str
    target: str | None = None
    blocked: bool = False
    damage: int = 0
    target_hp: float = 0.0
    killed: bool = False
    self_damage: int = 0

    def to_dict(self) -> ShotLine:
        return {"shooter": self.shooter, "outcome": self.outcome, "target": self.target, "blocked": self.blocked,
                "damage": self.damage, "target_hp": self.target_hp, "killed": self.killed,
                "self_damage": self.self_damage}


@dataclass(frozen=True)
class RangedReport:
    shooter: str
    action: str
    shots: list[ShotRecord]
    casualties: list[str]
    morale: list[MoraleChange]
    fatigue: FatigueChange
    zone: tuple[Combatant, ...]
    shooter_after: Combatant
    events: tuple[Event, ...] = ()

    def to_dict(self, events: bool = True, units: bool = True) -> VolleyLine:
        """JSON-able report; ``events``/``units`` False leave out those keys (the battle log has both already)."""
        d: VolleyLine = {
            "shooter": self.shooter,
            "action": self.action,
            "shots": [s.to_dict() for s in self.shots],
            "casualties": self.casualties,
            "morale": [m.to_dict() for m in self.morale],
            "fatigue": self.fatigue.to_dict(),
        }
        if events:
            d = {"events": [e.to_dict() for e in self.events], **d}
        if units:
            d["units"] = [
                {"unit": c.key, "side": c.side, "alive": c.count, "hp": [round(h, 2) for h in c.hp],
                 "morale": round(c.morale, 2), "state": state_of(c)}
                for c in self.zone
            ]
        return d


_HIT_NAMES = {"Accurate Shot": "Accurate hit", "Enemy space": "Bulk hit", "Luck": "Luck", "Allied space": "Friendly fire"}


class _Volley:
    """One volley in progress: the zone as the shots leave it, and what each shot did.

    Each shot's draws see the zone as the previous shots left it (fewer living miniatures,
    a wounded shooter after Bad Luck), so the state is kept here and the shots are resolved
    one at a time, miniature by miniature, in the order the draws are made.
    """

    def __init__(self, setup: ShotSetup, fate: Fate) -> None:
        self.setup = setup
        self.fate = fate
        self.key = setup.options.space_bulk_key()
        self.zone = {c.key: c for c in setup.target_zone}
        self.shooter = setup.shooter
        self.everyone: dict[str, Combatant] = {**self.zone, setup.shooter.key: setup.shooter}
        self.log: list[Event] = []
        self.deaths: list[Death] = []
        self.statics: list[StaticModifier] = []
        self.records: list[ShotRecord] = []
        self.odds_for: _VolleyOdds = {}
        self.pools: _Pools = {}

    def put(self, new: Combatant, cause: str) -> None:
        """Record ``new`` (an event for what changed) and keep the zone up to date."""
        record(self.everyone, new, self.log, cause)
        if new.key in self.zone:
            self.zone[new.key] = new

    def shoot(self, si: int, name: str) -> ShotRecord:
        """One projectile of miniature ``si``: where it falls, then which miniature it strikes."""
        s = self.setup.shooter
        now = tuple(self.zone.values())
        if not [c for c in now if c.side != s.side and c.count > 0]:
            return ShotRecord(name, "No target left")
        label = f"where the shot falls: {name}"
        o, request = _volley_odds(self.setup, self.shooter, now, label, self.odds_for)
        where = self.fate.draw(relabelled(request, label)).outcome
        if where == "Bad Luck":
            return self._bad_luck(si, name)
        if where in ("Free space", "Cover"):
            return ShotRecord(name, "Missed" if where == "Free space" else "Cover")
        friendly = where == "Allied space"
        label = f"which miniature: {name} ({_HIT_NAMES[where]})"
        where_hit = _pool(s, now, friendly, self.key, label, self.pools, self.setup.own_zone)
        if where_hit is None:
            return ShotRecord(name, "Missed")
        pick = self.fate.draw(relabelled(where_hit[1], label)).outcome
        t_key, ti = where_hit[0][pick]
        return self._strike(o, name, where, t_key, ti)

    def _bad_luck(self, si: int, name: str) -> ShotRecord:
        """Bad Luck: the shooting miniature hurts itself (and may die of it)."""
        s = self.setup.shooter
        hurt = dmg.bad_luck_damage(self.shooter.max_hp)
        self.shooter = self.shooter.with_hp(si, self.shooter.hp[si] - hurt)
        self.put(self.shooter, f"{name}: Bad Luck")
        if self.shooter.hp[si] <= 0:
            self.deaths.append(Death(s.side, s.key, s.mini(si), s.stat(self.key)))
        return ShotRecord(name, "Bad Luck", self_damage=hurt)

    def _strike(self, o: ShotOdds, name: str, where: str, t_key: str, ti: int) -> ShotRecord:
        """A projectile reaching miniature ``ti`` of ``t_key``: Missile Block (not against Luck), then damage.

        An ally struck is friendly fire: its unit's morale suffers whatever the damage.
        """
        s, opts = self.setup.shooter, self.setup.options
        t = self.zone[t_key]
        if where == "Allied space":
            self.statics.append(StaticModifier(t_key, FRIENDLY_FIRE_PENALTY, f"friendly fire from {s.key}", static=False))
        if where != "Luck":
            p_block = o.block.get(t_key, 0.0)
            if p_block > 0 and self.fate.chance(f"missile block: {t.mini(ti)}", p_block, "Blocked", "Not blocked"):
                return ShotRecord(name, _HIT_NAMES[where], t.mini(ti), True, 0, t.hp[ti])
        mult = opts.luck_multiplier if where == "Luck" else 1.0
        amount = dmg.roll(self.fate, f"{name} → {t.mini(ti)}", o.final[t_key], mult)
        new_hp = max(0.0, t.hp[ti] - amount)
        self.put(t.with_hp(ti, new_hp), f"{name}: {_HIT_NAMES[where]}")
        killed = amount > 0 and new_hp <= 0
        if killed:
            self.deaths.append(Death(t.side, t_key, t.mini(ti), t.stat(self.key)))
        return ShotRecord(name, _HIT_NAMES[where], t.mini(ti), False, amount, new_hp, killed)

    def report(self, action: Action, data: RulesData) -> RangedReport:
        """After the last shot: the zone's morale (casualties, friendly fire, the action's own effect),
        then the shooter's Fatigue (or Veil for a spell)."""
        s = self.setup.shooter
        if action.zone_morale is not None:
            for c in self.zone.values():
                if c.side != s.side and c.count:
                    self.statics.append(StaticModifier(c.key, action.zone_morale.value, f"{action.title}"))
        before = self.setup.target_zone
        after = tuple(self.zone[c.key] for c in before)
        after, morale = apply_morale(before, after, self.deaths, self.statics, self.setup.options, self.key)
        for c in after:
            self.put(c, "morale")
        shooter = self.everyone[s.key]
        magical = action.spell is not None
        cost = data.spell(action.spell).veil.value if action.spell is not None else action.fatigue.value
        tired, fat = add_fatigue(shooter, cost, veil=magical)
        self.put(tired, f"{action.title}: {'veil' if magical else 'fatigue'}")
        after = tuple(self.zone[c.key] for c in before)
        return RangedReport(
            s.key, self.setup.action, self.records, [d.miniature for d in self.deaths], morale, fat, after, tired,
            tuple(self.log),
        )


def resolve_volley(setup: ShotSetup, fate: Fate) -> RangedReport:
    """Every miniature of the shooter shoots (twice for a Swift Shot); casualties and morale follow."""
    data, action = _check(setup)
    s = setup.shooter
    volley = _Volley(setup, fate)
    for si in s.alive():
        for shot in range(action.shots_per_miniature):
            name = s.mini(si) + (f" shot {shot + 1}" if action.shots_per_miniature > 1 else "")
            volley.records.append(volley.shoot(si, name))
    return volley.report(action, data)


_VolleyOdds = dict[tuple[int, ...], tuple[ShotOdds, ChanceRequest]]
_Pools = dict[tuple[object, ...], tuple[dict[str, tuple[str, int]], ChanceRequest] | None]
POOL_EXPLAIN = ("weights are each miniature's Bulk",)


def _volley_odds(
    setup: ShotSetup, shooter: Combatant, zone: tuple[Combatant, ...], label: str, seen: _VolleyOdds,
) -> tuple[ShotOdds, ChanceRequest]:
    """:func:`shot_odds` of one projectile (and its draw), once per set of living miniatures of a volley.

    During a volley the shots change only Hit Points, and :func:`shot_odds` reads Hit Points
    only through the number of living miniatures of the shooter and of each unit in the zone:
    those counts are the whole key, so a reused result is identical to a recomputed one.
    """
    key = (shooter.count, *(c.count for c in zone))
    if key not in seen:
        o = shot_odds(replace(setup, shooter=shooter, target_zone=zone))
        seen[key] = (o, discrete(label, o.odds, o.explain))
    return seen[key]


def _pool(
    s: Combatant, zone: tuple[Combatant, ...], friendly: bool, key: str, label: str, seen: _Pools,
    own_zone: bool = False,
) -> tuple[dict[str, tuple[str, int]], ChanceRequest] | None:
    """The miniatures a hit may land on (by Bulk), as (miniature → unit key and index, the draw's request).

    Once per set of living miniatures of the volley: Bulk and movement do not change while it
    is resolved. ``None`` when no miniature of that side is left.
    """
    alive = tuple(tuple(c.alive()) for c in zone)
    if (friendly, alive) not in seen:
        pool = [
            (c.mini(i), _space_one(c, key), c.key, i)
            for c, living in zip(zone, alive, strict=True)
            if (exposed_ally(s, c, own_zone) if friendly else c.side != s.side)
            for i in living
        ]
        seen[(friendly, alive)] = None if not pool else (
            {n: (k, i) for n, _, k, i in pool}, discrete(label, [(n, w) for n, w, _, _ in pool], POOL_EXPLAIN)
        )
    return seen[(friendly, alive)]


def _space_one(c: Combatant, key: str) -> float:
    return c.stat(key) * (0.5 if c.moved else 1.0)
