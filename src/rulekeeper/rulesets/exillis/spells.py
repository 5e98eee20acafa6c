"""Spells cast on an element (a unit): resistance, magical damage and elemental chains.

Resist chance (a rules decision; the seed says the caster's Magic "is compared
to the enemy's appropriate Elemental Resistance using the AR 2.5", and elsewhere that Magic
Accuracy decides it: option ``spell_resist``, see :func:`resist_weights`): a WRD between
"Spell hit" marbles = AR 2.5(Magic / Resistance) × the caster's Veil efficiency
(Veil lowers Magic Accuracy) and "Resisted" marbles = AR 2.5(Resistance / Magic).
Equal stats give 50 %; the hit chance tends to 2.5 / (2.5 + 1/3) ≈ 88 % for an
overwhelming caster and to ≈ 12 % for a hopeless one. The target's Resistance is
lowered by its own Veil efficiency ("Veil reduces Elemental Resistances").

Damage: Spell power × AR 2.5(Magic / Resistance) × ±20 %, no Armour, × 1.1 per
successful elemental chain step ("the damage increases exponentially by 10 % for
each successful chain").
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulekeeper.core.chance import Fate, discrete
from rulekeeper.core.errors import ImpossibleRequestError, UnknownNameError
from rulekeeper.core.events import Event
from rulekeeper.core.wording import counted

from . import damage as dmg
from .aftermath import Death, FatigueChange, MoraleChange, add_fatigue, apply_morale
from .asymptotic import ar25
from .combatants import Combatant
from .damage import num
from .events import record
from .fatigue import efficiency
from .morale import state_of
from .options import ExIllisOptions
from .records import CastLine, CastOddsLine, CastReportLine
from .rules_data import RulesData, Spell

CHAIN_BONUS = 1.10


def chain_step(order: tuple[str, ...], previous: tuple[str, int], element: str) -> tuple[str, int]:
    """The chain state after ``element`` hits: count + 1 if it follows the previous element."""
    prev, count = previous
    if element not in order:
        raise UnknownNameError("element", element, order)
    if prev and prev in order and order[(order.index(prev) + 1) % len(order)] == element:
        return element, count + 1
    return element, 0


def chain_multiplier(count: int) -> float:
    return CHAIN_BONUS**count


@dataclass(frozen=True)
class CastOdds:
    odds: list[tuple[str, float]]
    weights: dict[str, float]
    explain: list[str]
    damage: tuple[int, int]
    final: float
    chain: tuple[str, int]

    def to_dict(self) -> CastOddsLine:
        return {
            "odds": {k: p for k, p in self.odds},
            "weights": self.weights,
            "damage": list(self.damage),
            "final_damage": round(self.final, 3),
            "chain": list(self.chain),
            "explain": self.explain,
        }


def resist_weights(
    caster: Combatant, target: Combatant, element: str, options: ExIllisOptions
) -> tuple[dict[str, float], float, list[str]]:
    """The WRD of a spell that can be resisted: ("Spell hit", "Resisted") marbles, the
    target's Resistance after its Veil, and the arithmetic.

    Option ``spell_resist``: ``magic`` (default) compares the caster's Magic ("the casting
    unit's Magic is compared to the enemy's appropriate Elemental Resistance using the AR
    2.5"), ``macc`` its Magic Accuracy ("It is also used to evaluate the chances a spell has
    to hit when it can be resisted"). Veil lowers Magic Accuracy, so both readings take the
    caster's Veil efficiency.
    """
    res_base = float(target.profile.resist[element].value)
    t_eff = efficiency(target.veil)
    res = res_base * t_eff
    c_eff = efficiency(caster.veil)
    lines = [f"{element.title()} Resistance = {num(res_base)} × veil efficiency {t_eff:.3f} ({target.veil:g} VP) = {res:.2f}"]
    if options.spell_resist == "macc":
        acc = caster.stat("macc") * c_eff
        hit, resisted = ar25(acc, res), ar25(res, acc)
        lines += [
            f"Spell hit = AR 2.5(MAcc {num(caster.stat('macc'))} × caster veil efficiency {c_eff:.3f} / {res:.2f}) = {hit:.3f}",
            f"Resisted = AR 2.5({res:.2f} / MAcc {acc:.2f}) = {resisted:.3f}",
        ]
    else:
        mag = caster.stat("mag")
        hit, resisted = ar25(mag, res) * c_eff, ar25(res, mag)
        lines += [
            f"Spell hit = AR 2.5(Magic {num(mag)} / {res:.2f}) × caster veil efficiency {c_eff:.3f} = {hit:.3f}",
            f"Resisted = AR 2.5({res:.2f} / Magic {num(mag)}) = {resisted:.3f}",
        ]
    return {"Spell hit": hit, "Resisted": resisted}, res, lines


def cast_odds(
    caster: Combatant, target: Combatant, spell_name: str, distance: int, data: RulesData, options: ExIllisOptions
) -> CastOdds:
    spell = data.spell(spell_name)
    _check(caster, target, spell, distance)
    return spell_odds(caster, target, spell, data, options)


def spell_odds(caster: Combatant, target: Combatant, spell: Spell, data: RulesData, options: ExIllisOptions) -> CastOdds:
    """Resist roll and damage of ``spell`` on ``target`` (friend or foe: lightning may strike allies)."""
    mag = caster.stat("mag")
    weights, res, resist_lines = resist_weights(caster, target, spell.element, options)
    lines = [
        f"{caster.count} × {caster.name} cast {spell.title} ({spell.element}, power {spell.power.value:g}) on {target.name}",
        *resist_lines,
    ]
    total = sum(weights.values())
    odds = [(k, w / total) for k, w in weights.items()]
    chain = chain_step(data.chain_order.value, target.chain, spell.element)
    calc = dmg.magical(spell.power.value, mag, res, spell.element)
    mult = chain_multiplier(chain[1])
    lines += calc.lines()
    lines.append(f"elemental chain: {target.chain[0] or 'none'} → {spell.element}: × {mult:.3f} ({counted(chain[1], 'step')})")
    return CastOdds(odds, weights, lines, dmg.bounds(calc.final, mult), calc.final * mult, chain)


def _check(caster: Combatant, target: Combatant, spell: Spell, distance: int) -> None:
    if caster.side == target.side:
        raise ImpossibleRequestError(f"{spell.title} is a damage spell: target an enemy, not {target.key}")
    if caster.fleeing:
        raise ImpossibleRequestError(f"{caster.key} is Fleeing and cannot cast")
    if distance < 0 or distance > spell.range.value:
        raise ImpossibleRequestError(
            f"{spell.title} reaches {spell.range.value:g} {'zone' if spell.range.value == 1 else 'zones'}; the target is at range {distance}",
            range=distance, reach=spell.range.value,
        )
    if target.count == 0:
        raise ImpossibleRequestError(f"{target.key} has no miniature left")
    if spell.element in target.profile.immune:
        raise ImpossibleRequestError(f"{target.name} is immune to {spell.element}: {spell.title} cannot affect it")
    if caster.stat("mag") <= 0:
        raise ImpossibleRequestError(f"{caster.name} has no Magic and cannot cast {spell.title}")


@dataclass(frozen=True)
class CastRecord:
    caster: str
    target: str
    outcome: str
    damage: int = 0
    target_hp: float = 0.0
    killed: bool = False

    def to_dict(self) -> CastLine:
        return {"caster": self.caster, "target": self.target, "outcome": self.outcome, "damage": self.damage,
                "target_hp": self.target_hp, "killed": self.killed}


@dataclass(frozen=True)
class CastReport:
    caster: str
    spell: str
    casts: list[CastRecord]
    casualties: list[str]
    morale: list[MoraleChange]
    veil: FatigueChange
    zone: tuple[Combatant, ...]
    caster_after: Combatant | None = None
    events: tuple[Event, ...] = ()

    def to_dict(self) -> CastReportLine:
        return {
            "events": [e.to_dict() for e in self.events],
            "caster": self.caster,
            "spell": self.spell,
            "casts": [c.to_dict() for c in self.casts],
            "casualties": self.casualties,
            "morale": [m.to_dict() for m in self.morale],
            "veil": self.veil.to_dict(),
            "units": [
                {"unit": c.key, "side": c.side, "alive": c.count, "hp": [round(h, 2) for h in c.hp],
                 "morale": round(c.morale, 2), "state": state_of(c), "chain": list(c.chain)}
                for c in self.zone
            ],
        }


def resolve_cast(
    caster: Combatant, zone: tuple[Combatant, ...], target_key: str, spell_name: str, distance: int,
    data: RulesData, options: ExIllisOptions, fate: Fate,
) -> CastReport:
    """Each caster miniature casts once at the target unit; chain state is kept per unit."""
    units = {c.key: c for c in zone}
    if target_key not in units:
        raise UnknownNameError("unit in the target zone", target_key, units)
    spell = data.spell(spell_name)
    key = options.space_bulk_key()
    deaths: list[Death] = []
    records: list[CastRecord] = []
    everyone: dict[str, Combatant] = {**units, caster.key: caster}
    log: list[Event] = []
    for ci in caster.alive():
        t = units[target_key]
        if t.count == 0:
            records.append(CastRecord(caster.mini(ci), target_key, "No target left"))
            continue
        o = cast_odds(caster, t, spell_name, distance, data, options)
        pick = fate.choose(
            f"which miniature: {caster.mini(ci)} → {t.key}", [(t.mini(i), t.stat(key)) for i in t.alive()],
            ("weights are each miniature's Bulk",),
        )
        ti = next(i for i in t.alive() if t.mini(i) == pick)
        outcome = fate.draw(discrete(f"resist roll: {caster.mini(ci)} → {pick}", o.odds, o.explain)).outcome
        if outcome == "Resisted":
            records.append(CastRecord(caster.mini(ci), pick, outcome, 0, t.hp[ti]))
            continue
        amount = dmg.roll(fate, f"{caster.mini(ci)} → {pick}", o.final)
        new_hp = max(0.0, t.hp[ti] - amount)
        t = replace(t.with_hp(ti, new_hp), chain=o.chain)
        units[target_key] = t
        record(everyone, t, log, f"{caster.mini(ci)} → {pick}: {outcome}")
        killed = amount > 0 and new_hp <= 0
        if killed:
            deaths.append(Death(t.side, t.key, pick, t.stat(key)))
        records.append(CastRecord(caster.mini(ci), pick, outcome, amount, new_hp, killed))
    after = tuple(units[c.key] for c in zone)
    after, morale = apply_morale(zone, after, deaths, [], options, key)
    for c in after:
        record(everyone, c, log, "morale")
    tired, veil = add_fatigue(caster, spell.veil.value, veil=True)
    record(everyone, tired, log, f"{spell.title}: veil")
    return CastReport(
        caster.key, spell_name, records, [d.miniature for d in deaths], morale, veil, after, tired, tuple(log)
    )
