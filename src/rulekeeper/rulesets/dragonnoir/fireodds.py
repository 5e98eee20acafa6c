"""Fire odds: the modified die on the foot or mounted fire table, in the weapon's cover column.

"The die is rolled once. One then follows horizontally the line of the number obtained after
modifications. In the column corresponding to the target's cover - none, light, medium or strong -
one has the result of the shot: A, B, C, D, E or F." :func:`fire_odds` gives the exact chance of each
letter; :func:`resolve_fire` draws the die from exactly that request.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.errors import ImpossibleRequestError

from .data import COVER_COLUMNS, Band, Cover, FireResult, SheetData, Table, Weapon
from .fighters import Fighter
from .special import fire_notes


def cover_words(cover: str) -> str:
    """The target's cover as a player says it: "no cover", "light cover", "medium cover", "strong cover"."""
    return "no cover" if cover == "none" else f"{cover} cover"

DIE = range(1, 11)
WEAPONS: tuple[Weapon, ...] = ("short bow", "long bow", "crossbow")


@dataclass(frozen=True)
class FireOdds:
    shooter: str
    target: str
    weapon: Weapon
    band: Band
    cover: Cover
    table: Table
    modifier: int
    rows: dict[int, str]
    letters: dict[str, Fraction]
    key: dict[str, FireResult]
    arithmetic: tuple[str, ...]
    notes: tuple[str, ...] = ()

    @property
    def request(self) -> ChanceRequest:
        return discrete(f"fire die ({self.table} table, {self.weapon}, {cover_words(self.cover)})",
                        [(f"{d}→{self.rows[d]}", 1.0) for d in DIE], self.arithmetic)

    def to_dict(self) -> dict[str, object]:
        return {"shooter": self.shooter, "target": self.target, "weapon": self.weapon, "band": self.band,
                "cover": self.cover, "table": self.table, "die_modifier": self.modifier,
                "rows": {str(d): x for d, x in self.rows.items()},
                "results": {k: {"probability": float(p), "exact": f"{p.numerator}/{p.denominator}",
                                "meaning": self.key[k].text} for k, p in self.letters.items()},
                "arithmetic": list(self.arithmetic), "notes": list(self.notes)}


def _weapon(shooter: Fighter) -> Weapon:
    w = shooter.character.weapon
    for weapon in WEAPONS:
        if w == weapon:
            return weapon
    raise ImpossibleRequestError(f"{shooter.name} has no bow or crossbow (weapon: {w}).")


def fire_odds(sheet: SheetData, shooter: Fighter, target: Fighter, band: Band, cover: Cover) -> FireOdds:
    """The exact odds of one shot of ``shooter`` at ``target`` at range ``band`` behind ``cover``."""
    weapon = _weapon(shooter)
    if cover not in COVER_COLUMNS:
        raise ImpossibleRequestError(f"{target.name} has {cover} cover: 'It is therefore impossible to shoot at him.'")
    if shooter.state not in ("healthy", "wounded", "berserk", "wounded_twice"):
        raise ImpossibleRequestError(f"{shooter.name} is {shooter.state} and cannot shoot.")
    fire = sheet.fire
    mounted = target.on_horse_table or target.character.target_as_mounted
    table: Table = "mounted" if mounted else "foot"
    lines = [f"{shooter.name} shoots a {weapon} at {target.label}: the {table} fire table"
             + (" ('it is considered to be a mounted character without armour')"
                if target.character.target_as_mounted else ""),
             f"{band} range: {fire.range_bands.modifiers.model_dump()[band]:+d} (estimated)"]
    modifier = fire.range_bands.modifiers.model_dump()[band]
    health: Literal["healthy", "wounded"] = "healthy" if shooter.state == "healthy" else "wounded"
    modifier += fire.health_modifiers.modifiers[health]
    lines.append(f"shooter {health}: {fire.health_modifiers.modifiers[health]:+d} (estimated)")
    if target.armour and not target.character.target_as_mounted:
        value = fire.armour_modifier.value or 0
        modifier += value
        lines.append(f"target in armour: {value:+d} ({fire.armour_modifier.why})")
    if shooter.is_elf:
        value = fire.elf_modifier.value or 0
        modifier += value
        lines.append(f"an Elf shoots: {value:+d} ({fire.elf_modifier.why})")
    lines.append(f"die {modifier:+d}, read in the {cover}-cover column of the {weapon}")
    table_rows = fire.tables[table][weapon]
    lo, hi = min(table_rows), max(table_rows)
    col = COVER_COLUMNS.index(cover)
    rows = {d: table_rows[max(lo, min(hi, d + modifier))][col] for d in DIE}
    letters: dict[str, Fraction] = {}
    for x in rows.values():
        letters[x] = letters.get(x, Fraction(0)) + Fraction(1, len(DIE))
    letters = dict(sorted(letters.items()))
    key = getattr(fire.keys, table)
    return FireOdds(shooter.label, target.label, weapon, band, cover, table, modifier, rows, letters, dict(key),
                    tuple(lines), tuple(fire_notes(target, letters)))


@dataclass(frozen=True)
class FireRoll:
    odds: FireOdds
    die: int
    letter: str


def resolve_fire(fate: Fate, odds: FireOdds) -> FireRoll:
    """Roll the d10 through ``fate`` on exactly the request the odds show."""
    die = int(fate.draw(odds.request).outcome.split("→")[0])
    return FireRoll(odds, die, odds.rows[die])


@dataclass(frozen=True)
class StrayHex:
    """One of the six hexes around the target under "Errare humanum est", and what a stray arrow does there."""

    number: int
    direction: str
    chance: Fraction
    victims: tuple[str, ...] = ()
    effect: str = ""


def errare_odds(sheet: SheetData, odds: FireOdds) -> list[StrayHex]:
    """The chance that a missed shot ends in each numbered hex around the target (option ``errare=on``).

    "each time a shooter botches his shot (result "shot missed"), the player concerned rolls the die a second time
    ... the projectile has ended its course in one of the 6 hexes around the target and wounds any character found
    there." A miss is letter A of both keys; the second die is read through ``fire.yaml``'s ``errare``.
    """
    rule = sheet.fire.errare
    missed = odds.letters.get("A", Fraction(0))
    return [StrayHex(i + 1, d, missed * Fraction(1, 10) if i + 1 in rule.rolls else Fraction(0))
            for i, d in enumerate(rule.numbering)]
