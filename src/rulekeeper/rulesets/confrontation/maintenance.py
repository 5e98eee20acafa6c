"""The maintenance phase: Regeneration, Ephemeral, Repair, Ruin and the end of Fierce.

Each effect is a die roll the seed spells out; the HP change it makes is computed exactly and
drawn as one :class:`~rulekeeper.core.chance.ChanceRequest` with those odds. The interactions:

* Regeneration: "This ability cancels out Ephemeral." Ephemeral: "In no way can a fighter with
  this ability benefit from Regeneration." The two sentences disagree on what is left of
  Ephemeral; the default reading (``ephemeral_vs_regeneration=cancel``) follows Regeneration's
  and the issue's "Regeneration cancels Ephemeral": neither is rolled. The other reading
  (``ephemeral-wins``) rolls Ephemeral and not Regeneration.
* Repair and Ruin: "This ability and Ruin cancel each other": neither is rolled.
* Fierce: "if he is still standing thanks to this ability at the beginning of the Maintenance
  phase, then he is immediately removed"; Regeneration: "A fighter who was killed cannot benefit
  from this ability, even if some game effects still let him be on the fiels (e.g., Fierce)."
* Regeneration and Ephemeral need LP, Repair and Ruin SP; a card with Construct has SP.
* Cure/X: "during the maintenance phase … cure a friendly fighter in base-to-base contact with him (he can also
  cure himself). One d6 is rolled. The targeted fighter is cured by one LP if the result on the die is equal to or
  greater than X … cannot be used on a target with SP"; here the old policy (he cures himself, after Regeneration),
  which a battle stored before ``declarations=players`` keeps; in a skirmish his player chooses whom, the roll apart
  (:mod:`.cure`, :func:`cure_odds`). Fierce: "he cannot be cured by any means".
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import ImpossibleRequestError

from .cards import FighterCard

READINGS = ("cancel", "ephemeral-wins")
SIXTH = Fraction(1, 6)


@dataclass(frozen=True, slots=True)
class Upkeep:
    """The rolls a fighter makes in the maintenance phase: (name, X, HP per success, max rolls)."""

    rolls: tuple[tuple[str, int, int, int], ...]
    removed: bool
    notes: tuple[str, ...]


def x_of(card: FighterCard, ability: str) -> int:
    raw = (card.value_of(ability) or "").strip()
    if not raw.lstrip("+-").isdigit():
        raise ImpossibleRequestError(f"{card.name}: {ability}/X needs a number X", field=ability)
    return int(raw)


def upkeep_of(card: FighterCard, fierce: bool = False, reading: str = "cancel") -> Upkeep:
    """Which maintenance rolls ``card`` makes (``fierce``: standing only thanks to Fierce)."""
    if reading not in READINGS:
        raise ImpossibleRequestError(f"ephemeral_vs_regeneration must be one of {', '.join(READINGS)}, "
                                     f"got {reading!r}", field="ephemeral_vs_regeneration")
    if fierce:
        return Upkeep((), True, ("Fierce: still standing thanks to it at the maintenance phase: removed",))
    sp = card.has("Construct")
    notes: list[str] = []
    rolls: list[tuple[str, int, int, int]] = []
    regen, ephem = card.has("Regeneration") and not sp, card.has("Ephemeral") and not sp
    if regen and ephem:
        if reading == "cancel":
            notes.append("Regeneration \"cancels out Ephemeral\": neither is rolled")
        else:
            notes.append("Ephemeral: \"In no way can a fighter with this ability benefit from Regeneration\"")
            rolls.append(("Ephemeral", x_of(card, "Ephemeral"), -1, 2))
    elif regen:
        rolls.append(("Regeneration", x_of(card, "Regeneration"), 1, 2))
    elif ephem:
        rolls.append(("Ephemeral", x_of(card, "Ephemeral"), -1, 2))
    if card.has("Cure") and not sp:  # "he can also cure himself"; "cannot be used on a target with SP"
        rolls.append(("Cure", x_of(card, "Cure"), 1, 1))
    repair, ruin = card.has("Repair") and sp, card.has("Ruin") and sp
    if repair and ruin:
        notes.append("Repair and Ruin \"cancel each other\": neither is rolled")
    elif repair:
        rolls.append(("Repair", x_of(card, "Repair"), 1, 1))
    elif ruin:
        rolls.append(("Ruin", x_of(card, "Ruin"), -1, 1))
    for name, needs in (("Regeneration", "LP"), ("Ephemeral", "LP"), ("Repair", "SP"), ("Ruin", "SP")):
        if card.has(name) and (needs == "SP") != sp:
            notes.append(f"{name}: only a fighter with {needs} benefits: no roll")
    return Upkeep(tuple(rolls), False, tuple(notes))


def _chain(x: int, rolls: int) -> dict[int, Fraction]:
    """Successes of "roll 1d6, on X or more …; if the first succeeds, roll again" (at most ``rolls``)."""
    hit = Fraction(max(0, min(6, 7 - x)), 6)
    out: dict[int, Fraction] = {}
    p = Fraction(1)
    for k in range(rolls):
        out[k] = out.get(k, Fraction(0)) + p * (1 - hit)
        p *= hit
    out[rolls] = out.get(rolls, Fraction(0)) + p
    return {k: v for k, v in out.items() if v}


def hp_change_odds(card: FighterCard, hp: int, fierce: bool = False, reading: str = "cancel") -> dict[int, Fraction]:
    """Exact odds of the HP after the maintenance phase (0 = killed or removed); never above the card's HP."""
    upkeep = upkeep_of(card, fierce, reading)
    if upkeep.removed or hp <= 0:
        return {0: Fraction(1)}
    dist = {hp: Fraction(1)}
    for _name, x, step, rolls in upkeep.rolls:
        nxt: dict[int, Fraction] = {}
        for now, p in dist.items():
            for k, q in _chain(x, rolls).items():
                after = max(0, min(card.HP, now + step * k))
                nxt[after] = nxt.get(after, Fraction(0)) + p * q
        dist = nxt
    return dict(sorted(dist.items()))


def cure_odds(x: int, simple_action: bool = False) -> Fraction:
    """Cure/X's chance to heal 1 LP: 1d6 ≥ X ("If this ability is used as a simple action, then the fighter gets a
    +1 bonus to this roll")."""
    return Fraction(max(0, min(6, 7 - x + (1 if simple_action else 0))), 6)


def maintenance_request(card: FighterCard, hp: int, fierce: bool = False, reading: str = "cancel") -> ChanceRequest:
    upkeep = upkeep_of(card, fierce, reading)
    odds = hp_change_odds(card, hp, fierce, reading)
    explain = [f"{n}/{x}: 1d6, {x}+ {'heals' if s > 0 else 'loses'} 1" + (", then once more" if r > 1 else "")
               for n, x, s, r in upkeep.rolls] + list(upkeep.notes)
    return discrete(f"maintenance: {card.name}", [(f"{h} HP", float(p)) for h, p in odds.items()], explain)


def roll_maintenance(fate: Fate, card: FighterCard, hp: int, fierce: bool = False, reading: str = "cancel") -> int:
    """HP after the maintenance phase, drawn through ``fate`` with :func:`maintenance_request`'s odds."""
    return int(fate.draw(maintenance_request(card, hp, fierce, reading)).outcome.split()[0])
