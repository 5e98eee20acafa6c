"""Normal attacks, failed attacks, missile attacks and morale damage (the guide's "Combat" and "Morale").

Each resolution draws its dice through :class:`~rulekeeper.core.chance.Fate` with the exact
odds (:mod:`.rolls`), and turns the drawn total into casualties with the same small pure
functions (:func:`outcome_of`, :func:`morale_damage`) that :mod:`.odds` maps over the icepool
distributions, so the odds shown are the odds used. Units are frozen: a resolution returns the
units as they are after it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wording import counted

from .options import BattleSystemOptions
from .rolls import ATTACK_DICE, MORALE_DICE, SIDES, drawn, roll_request, simply, written
from .units import HALVES_MORALE_DAMAGE, NO_AMMUNITION, SHOCK_AND_AWE, AttackKind, UnitType

DEFAULT = BattleSystemOptions()


@dataclass(frozen=True)
class Unit:
    """A unit on the field: its card, and the soldiers, morale and ammunition it has left."""

    card: UnitType
    name: str
    soldiers: int
    morale: int
    ammunition: int

    @classmethod
    def fresh(cls, card: UnitType, name: str | None = None) -> Unit:
        return cls(card, name or card.name, card.soldiers, card.morale, card.ammunition)

    @property
    def fleeing(self) -> bool:
        """"A unit that has been reduced to 0 morale will be forced to flee toward the edge of the map.\""""
        return self.morale == 0

    @property
    def destroyed(self) -> bool:
        return self.soldiers == 0


@dataclass(frozen=True)
class Reach:
    """Where the target is, as the board sees it: hexes away, and whether it is in sight."""

    distance: int
    in_sight: bool = True


@dataclass(frozen=True)
class MoraleHit:
    """One morale damage roll: ``1d10 + casualties`` = ``roll``, times ``multiplier``, maybe halved."""

    dealer: str
    victim: str
    casualties: int
    roll: int
    multiplier: int
    halved: bool
    damage: int
    morale_after: int


@dataclass(frozen=True)
class AttackResult:
    """A normal or missile attack: the roll, who lost how many soldiers, and the morale damage."""

    kind: AttackKind
    attacker: Unit
    defender: Unit
    formula: str
    roll: int
    casualties: int
    attacker_losses: int
    ammunition_spent: int
    morale: MoraleHit | None


def _refuse(message: str, unit: Unit, **details: object) -> ImpossibleRequestError:
    return ImpossibleRequestError(f"{unit.name}: {message}", unit=unit.name, **details)


def check_able(unit: Unit, kind: AttackKind) -> int:
    """The skill ``unit`` attacks with, or a typed refusal: a "-" skill, no soldiers, fleeing, no ammunition."""
    skill = unit.card.skill(kind)
    if skill is None:
        raise _refuse(f"its {kind} skill is '-': 'Only skills that have a - instead of a number, are unavailable'",
                      unit, skill=kind)
    if unit.destroyed:
        raise _refuse("has no soldiers left", unit)
    if unit.fleeing:
        raise _refuse("is fleeing (0 morale) and cannot attack", unit)
    if kind != "melee" and unit.ammunition < 1 and not unit.card.has(NO_AMMUNITION):
        raise _refuse(f"has no ammunition for a {kind} attack", unit, skill=kind)
    return skill


def check_attack(attacker: Unit, defender: Unit, kind: AttackKind, reach: Reach) -> int:
    """Refuse an attack the guide does not allow; the attacker's skill otherwise."""
    skill = check_able(attacker, kind)
    if defender.destroyed:
        raise _refuse("has no soldiers left to attack", defender)
    if kind == "melee" and reach.distance != 1:
        raise _refuse(f"a normal attack reaches an adjacent hex only; {defender.name} is {reach.distance} away",
                      attacker, distance=reach.distance)
    if kind == "missile":
        if reach.distance > attacker.card.range:
            raise _refuse(f"{defender.name} is {counted(reach.distance, 'hex', 'hexes')} away, "
                          f"beyond its range {attacker.card.range}",
                          attacker, distance=reach.distance, range=attacker.card.range)
        if not reach.in_sight:
            raise _refuse(f"{defender.name} is not in sight ('the enemy has to be within range and in sight')",
                          attacker)
    return skill


def modifier(attacker: UnitType, defender: UnitType, kind: AttackKind, bonus: int) -> int:
    """skill + other bonuses − enemy Damage Reduction: what 5d10 is added to."""
    skill = attacker.skill(kind) or 0
    return skill + bonus - defender.damage_reduction


def attack_request(attacker: Unit, defender: Unit, kind: AttackKind, bonus: int = 0) -> ChanceRequest:
    """The roll of a normal or missile attack, written as the guide writes it."""
    skill = attacker.card.skill(kind) or 0
    dr = defender.card.damage_reduction
    mod = modifier(attacker.card, defender.card, kind, bonus)
    signs = "+" + ("-" if bonus < 0 else "+") + "-"  # the ground may take something off: 5d10+6-5-20
    text = f"{written(ATTACK_DICE, (skill, abs(bonus), dr), signs)} (or simply {simply(ATTACK_DICE, mod)})"
    label = f"{'Attack' if kind == 'melee' else 'Missile'}: {attacker.name} on {defender.name}"
    return roll_request(label, ATTACK_DICE, SIDES, mod, (text, "exact via icepool"))


def outcome_of(total: int, kind: AttackKind, attacker_soldiers: int, defender_soldiers: int) -> tuple[int, int]:
    """(defender casualties, attacker losses) from a roll's total.

    Above 0 the enemy loses that many soldiers (at most all it has); under 0 a normal attack
    fails and "the attacker will take casualties instead", but "These failed attacks don't affect
    ranged attacks such as the ones that use the missile or barrage skills".
    """
    if total > 0:
        return min(total, defender_soldiers), 0
    if total < 0 and kind == "melee":
        return 0, min(-total, attacker_soldiers)
    return 0, 0


def morale_multiplier(dealer: UnitType, via_barrage: bool) -> int:
    """"Some units have a special "Shock and Awe" ability and attacks that use the barrage stat allow them
    to deal two times more morale damage than normal": ×2 either way (not ×4 for both)."""
    return 2 if via_barrage or dealer.has(SHOCK_AND_AWE) else 1


def morale_damage(roll: int, dealer: UnitType, victim: UnitType, via_barrage: bool,
                  options: BattleSystemOptions = DEFAULT) -> int:
    """Morale damage from a drawn ``1d10 + casualties``: doubled, then halved against Military Police."""
    damage = roll * morale_multiplier(dealer, via_barrage)
    return options.halve(damage) if victim.has(HALVES_MORALE_DAMAGE) else damage


def morale_request(dealer: Unit, victim: Unit, casualties: int) -> ChanceRequest:
    label = f"Morale damage: {dealer.name} on {victim.name}"
    return roll_request(label, MORALE_DICE, SIDES, casualties,
                        (f"{written(MORALE_DICE, (casualties,))} (1d10 + the number of hostile casualties)",))


def morale_hit(fate: Fate, dealer: Unit, victim: Unit, casualties: int, via_barrage: bool,
               options: BattleSystemOptions = DEFAULT) -> tuple[MoraleHit | None, Unit]:
    """"Every time a unit deals damage to a different unit, they also roll for morale damage."

    No casualties, no roll; a unit with no soldiers left has no morale to break, so no roll either;
    nor has a unit already at 0 morale, fleeing ("reduced to 0 morale": there is nothing left to reduce).
    ``victim`` is the unit after its casualties.
    """
    if casualties <= 0 or victim.destroyed or victim.morale == 0:
        return None, victim
    roll = drawn(fate.draw(morale_request(dealer, victim, casualties)))
    damage = morale_damage(roll, dealer.card, victim.card, via_barrage, options)
    after = replace(victim, morale=max(0, victim.morale - damage))
    hit = MoraleHit(dealer.name, victim.name, casualties, roll, morale_multiplier(dealer.card, via_barrage),
                    victim.card.has(HALVES_MORALE_DAMAGE), damage, after.morale)
    return hit, after


def spend(unit: Unit) -> tuple[Unit, int]:
    """One ammunition spent ("the archers lose 1 ammunition"), unless the unit needs none."""
    if unit.card.has(NO_AMMUNITION):
        return unit, 0
    return replace(unit, ammunition=unit.ammunition - 1), 1


def resolve_attack(fate: Fate, attacker: Unit, defender: Unit, reach: Reach, bonus: int = 0,
                   options: BattleSystemOptions = DEFAULT, kind: AttackKind = "melee") -> AttackResult:
    """A normal (``melee``) or ``missile`` attack, its failure and its morale damage, drawn through ``fate``."""
    if kind == "barrage":
        raise _refuse("a barrage targets a hex: use resolve_barrage", attacker)
    check_attack(attacker, defender, kind, reach)
    request = attack_request(attacker, defender, kind, bonus)
    total = drawn(fate.draw(request))
    casualties, losses = outcome_of(total, kind, attacker.soldiers, defender.soldiers)
    spent = 0
    if kind == "missile":
        attacker, spent = spend(attacker)
    defender = replace(defender, soldiers=defender.soldiers - casualties)
    attacker = replace(attacker, soldiers=attacker.soldiers - losses)
    if casualties:
        morale, defender = morale_hit(fate, attacker, defender, casualties, False, options)
    elif losses and options.failed_attack_morale == "defender":
        morale, attacker = morale_hit(fate, defender, attacker, losses, False, options)
    else:
        morale = None
    return AttackResult(kind, attacker, defender, request.explain[0], total, casualties, losses, spent, morale)


def resolve_missile(fate: Fate, attacker: Unit, defender: Unit, reach: Reach, bonus: int = 0,
                    options: BattleSystemOptions = DEFAULT) -> AttackResult:
    """"To perform a missile attack against an enemy unit, the unit has to have ammunition (unless stated
    otherwise) and the enemy has to be within range and in sight.\""""
    return resolve_attack(fate, attacker, defender, reach, bonus, options, kind="missile")
