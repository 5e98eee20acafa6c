"""Damage: Weapon Damage × AR(power) × AR(armour) × ±20 %, with Block, Luck and Bad Luck.

Damage dealt to Hit Points is rounded half up to a whole number: the seed's worked
example turns a final damage of 27.2 into "between 22 and 33" and a blocked 9.1
into "from 7 to 11", which is 27.216 × 0.8 / × 1.2 and 9.072 × 0.8 / × 1.2 rounded.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.chance import Fate
from rulekeeper.core.errors import InvalidStatError

from .asymptotic import ar25, armour_ar
from .combatants import round_half_up

SPREAD = 0.20


def num(x: float) -> str:
    """A stat for the explanation lines: four significant digits, no trailing zeros."""
    return f"{x:.4g}"
BAD_LUCK_SELF_DAMAGE = 0.10


@dataclass(frozen=True)
class DamageCalc:
    """The arithmetic of one damage value, kept to explain it on the Fate Screen."""

    base_name: str
    base: float
    power_name: str
    power: float
    resist_name: str
    resist: float
    power_ar: float
    ap: float
    armour: float
    armour_ar: float

    @property
    def raw(self) -> float:
        return self.base * self.power_ar

    @property
    def final(self) -> float:
        return self.raw * self.armour_ar

    def lines(self) -> list[str]:
        out = [
            f"raw damage = {self.base_name} {num(self.base)} × AR 2.5({self.power_name} {num(self.power)} / "
            f"{self.resist_name} {num(self.resist)}) = {num(self.base)} × {self.power_ar:.3f} = {self.raw:.1f}"
        ]
        if self.armour >= 0 and self.base_name != "Spell power":
            out.append(
                f"final damage = {self.raw:.1f} × AR(AP {num(self.ap)} / Armour {num(self.armour)}, capped at 1) "
                f"= {self.raw:.1f} × {self.armour_ar:.3f} = {self.final:.1f}"
            )
        else:
            out.append(f"final damage = {self.final:.1f} (Armour does not protect against magic)")
        return out


def physical(base: float, power: float, toughness: float, ap: float, armour: float, ranged: bool = False) -> DamageCalc:
    for name, v in (("weapon damage", base), ("power", power), ("toughness", toughness), ("AP", ap), ("armour", armour)):
        if v < 0:
            raise InvalidStatError(f"{name} must be >= 0, got {v}")
    return DamageCalc(
        "Weapon damage", base, "Shooting" if ranged else "Strength", power, "Toughness", toughness,
        ar25(power, toughness), ap, armour, armour_ar(ap, armour),
    )


def magical(power: float, magic: float, resistance: float, element: str) -> DamageCalc:
    for name, v in (("spell power", power), ("magic", magic), ("resistance", resistance)):
        if v < 0:
            raise InvalidStatError(f"{name} must be >= 0, got {v}")
    return DamageCalc(
        "Spell power", power, "Magic", magic, f"{element.title()} Resistance", resistance,
        ar25(magic, resistance), 0.0, -1.0, 1.0,
    )


def bounds(final: float, multiplier: float = 1.0, divisor: float = 1.0) -> tuple[int, int]:
    """Smallest and largest whole damage after the ±20 % spread."""
    if divisor <= 0:
        raise InvalidStatError(f"shield value must be > 0, got {divisor}")
    v = final * multiplier / divisor
    return round_half_up(v * (1 - SPREAD)), round_half_up(v * (1 + SPREAD))


def roll(fate: Fate, label: str, final: float, multiplier: float = 1.0, divisor: float = 1.0) -> int:
    """Draw the ±20 % spread through fate and return whole damage."""
    if divisor <= 0:
        raise InvalidStatError(f"shield value must be > 0, got {divisor}")
    spread = fate.uniform(f"{label}: damage spread", 1 - SPREAD, 1 + SPREAD)
    return round_half_up(final * multiplier / divisor * spread)


def bad_luck_damage(max_hp: float) -> int:
    """A Bad Luck costs the performer 10 % of their maximum HP (rounded half up, at least 1)."""
    return max(1, round_half_up(max_hp * BAD_LUCK_SELF_DAMAGE))
