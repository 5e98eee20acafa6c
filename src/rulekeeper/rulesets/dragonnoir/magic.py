"""Magic: energy points, the success die, the radius of action, counterspells and initiative.

"Each time a wizard casts a spell, he spends a certain number of Energy Points (EP) ... available
EP = Level x 100." This module is pure: a :class:`Wizard` is an immutable record of one wizard's
magic sheet (EP left, wounded, what he has cast this player turn); :func:`cast_odds` checks a cast
is legal and lists, before any die is rolled, every chance request the resolution will draw;
:func:`resolve_cast` draws exactly those requests through a :class:`~rulekeeper.core.chance.Fate`
(odds shown before are the odds used) and returns both wizards with their EP spent. The spells
themselves are data (``data/spells.yaml``): the seed has no list of them, so only its four
categories and a few marked examples ship. docs/rules/dragonnoir-magic.md gives every decision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulekeeper.boards.hexes import Hex, hex_distance
from rulekeeper.core.chance import ChanceRequest, Fate, discrete
from rulekeeper.core.datafiles import parse_data_text, read_text
from rulekeeper.core.errors import DataFileError, ImpossibleRequestError, InvalidStatError, UnknownNameError
from rulekeeper.core.wording import counted

from .data import IntValue, Provenance

DIE = range(1, 11)
"""The d10: "a 10-sided die (numbered 0 to 9, the 0 counting as 10)"."""
EP_PER_LEVEL = 100
""""available EP = Level x 100"."""
RADIUS_PER_LEVEL = 10
""""For a first-level wizard, this radius is 10 hexes" (estimated: 10 more per level, as the EP and the bonus)."""
COUNTER_FACTOR = 2
""""A counterspell costs double the energy points of the spell cast.\""""

Category = Literal["personal", "others", "environment", "pure magic"]
Target = Literal["self", "character", "hexes"]
EffectKind = Literal["heal", "stun", "terrain", "summon"]
CounterReading = Literal["own cost", "spell cost"]
"""Which cost sets a counterspell's threshold: its own (double) cost, or the cost of the spell it counters."""
Role = Literal["spell", "counterspell"]


# -- errors --------------------------------------------------------------------------------------


class IllegalCastError(ImpossibleRequestError):
    """A cast the rules forbid (the base of every magic refusal)."""

    code = "illegal_cast"


class NotEnoughEnergyError(IllegalCastError):
    """"Beyond this number, he can no longer cast spells.\""""

    code = "not_enough_energy"


class OutOfRangeError(IllegalCastError):
    """So far beyond the radius of action that no die can succeed ("a penalty on the die of one point per hex")."""

    code = "out_of_range"


class AlreadyCastError(IllegalCastError):
    """"each wizard can cast one spell and possibly counter another" per player turn."""

    code = "already_cast"


# -- spells as data ------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SpellEffect(_Strict):
    """What the Game applies when the spell succeeds and is not countered."""

    kind: EffectKind
    terrain: str | None = None
    summon: str | None = None
    count: int | None = Field(default=None, ge=1)
    game_turns: IntValue | None = None

    @model_validator(mode="after")
    def _complete(self) -> SpellEffect:
        if (self.kind == "terrain") != (self.terrain is not None):
            raise ValueError("a terrain effect names its terrain (and only a terrain effect does)")
        if (self.kind == "summon") != (self.summon is not None and self.count is not None
                                       and self.game_turns is not None):
            raise ValueError("a summon effect names summon, count and game_turns (and only a summon does)")
        return self


class Spell(_Strict):
    """One spell of a wizard sheet."""

    category: Category
    example: bool
    """True for the shipped examples: the seed's wizard sheets are missing, these are not the game's."""
    target: Target
    hexes: int = Field(default=1, ge=1)
    cost: IntValue
    effect: SpellEffect
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _sound(self) -> Spell:
        if self.cost.value is None or self.cost.value < 1:
            raise ValueError("cost: a spell costs at least 1 EP")
        if self.target != "hexes" and self.hexes != 1:
            raise ValueError("only an area spell (target: hexes) covers more than one hex")
        if self.category == "personal" and self.target != "self":
            raise ValueError("a personal spell is one 'which the wizard applies to himself': target self")
        return self

    @property
    def ep(self) -> int:
        assert self.cost.value is not None
        return self.cost.value


class SpellsFile(_Strict):
    about: Provenance
    categories: dict[Category, Provenance]
    spells: dict[str, Spell]

    def spell(self, name: str) -> tuple[str, Spell]:
        """The spell called ``name`` (case and spaces do not matter), with its canonical name."""
        key = " ".join(name.split()).casefold()
        for n, s in self.spells.items():
            if n.casefold() == key:
                return n, s
        raise UnknownNameError("spell", name, self.spells)


def spells_from_text(text: str, where: str) -> SpellsFile:
    raw = parse_data_text(text, where, ".yaml")
    try:
        return SpellsFile.model_validate(raw)
    except ValidationError as exc:
        problems = [f"{'.'.join(map(str, e['loc'])) or '(top level)'}: {e['msg']}" for e in exc.errors()]
        raise DataFileError(where, problems) from None


def load_spells(sheet: Path | None = None) -> SpellsFile:
    """The shipped spells, or ``spells.yaml`` of a player's sheet folder when it has one."""
    if sheet is not None and (Path(sheet) / "spells.yaml").exists():
        path = Path(sheet) / "spells.yaml"
        return spells_from_text(read_text(path), str(path))
    return shipped_spells()


@lru_cache(maxsize=1)
def shipped_spells() -> SpellsFile:
    text = resources.files("rulekeeper.rulesets.dragonnoir").joinpath("data", "spells.yaml").read_text("utf-8")
    return spells_from_text(text, "rulekeeper/rulesets/dragonnoir/data/spells.yaml")


def spell_on(spell: str, target: str) -> str:
    """A cast spell as the log and the pages name it: "Stunning on Zed", but a summoning by its name alone.

    Why: the keeper records a summoning's target as the caster himself (the spectres appear around him), and
    "Shaman casts Raise the Living Deads on Shaman" read as if he were the one raised (played as a user, issue 28).

    >>> spell_on("Stunning", "Zed"), spell_on("Raise the Living Deads", "Shaman")
    ('Stunning on Zed', 'Raise the Living Deads')
    """
    known = shipped_spells().spells.get(spell)
    return spell if known is not None and known.effect.kind == "summon" else f"{spell} on {target}"


# -- the wizard's magic sheet --------------------------------------------------------------------


@dataclass(frozen=True)
class Wizard:
    """One wizard's magic sheet: EP left, wounded or not, and what he has done this player turn."""

    name: str
    level: int
    energy: int
    wounded: bool = False
    stunned: bool = False
    spell_cast: bool = False
    counter_cast: bool = False

    def __post_init__(self) -> None:
        if self.level < 1:
            raise InvalidStatError(f"{self.name}: a wizard's level is 1 or more, got {self.level}.", wizard=self.name)
        if self.energy < 0:
            raise InvalidStatError(f"{self.name}: energy points cannot be negative ({self.energy}).",
                                   wizard=self.name)

    @property
    def bonus(self) -> int:
        """"The size of this bonus is equal to the level reached: level 1 / +1 on the die\"."""
        return self.level

    @property
    def radius(self) -> int:
        return RADIUS_PER_LEVEL * self.level

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "level": self.level, "energy": self.energy, "wounded": self.wounded,
                "stunned": self.stunned, "spell_cast": self.spell_cast, "counter_cast": self.counter_cast}

    @classmethod
    def from_dict(cls, d: Mapping[str, object]) -> Wizard:
        """The inverse of :meth:`to_dict` (a stored battle's magic sheet); a damaged record is a typed error."""
        try:
            raw: Any = d
            return cls(str(raw["name"]), int(raw["level"]), int(raw["energy"]), bool(raw.get("wounded", False)),
                       bool(raw.get("stunned", False)), bool(raw.get("spell_cast", False)),
                       bool(raw.get("counter_cast", False)))
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidStatError(f"A wizard's magic sheet needs name, level and energy: {exc!r}") from None


def new_wizard(name: str, level: int) -> Wizard:
    """A wizard at the start of a game: "available EP = Level x 100"."""
    return Wizard(name, level, EP_PER_LEVEL * level)


def wound_wizard(w: Wizard) -> Wizard:
    """"When a wizard is wounded, the number of energy points he has left is divided by two (rounded down).\""""
    if w.wounded:
        raise IllegalCastError(f"{w.name} is already wounded: a second wound is the Game's to apply (it kills).",
                               wizard=w.name)
    return replace(w, wounded=True, energy=w.energy // 2)


def heal_wizard(w: Wizard) -> Wizard:
    """"If he heals, the EP he has left are multiplied by two.\""""
    if not w.wounded:
        raise IllegalCastError(f"{w.name} is not wounded: there is nothing to heal.", wizard=w.name)
    return replace(w, wounded=False, energy=w.energy * 2)


def new_player_turn(w: Wizard) -> Wizard:
    """A new player turn: "each wizard can cast one spell and possibly counter another" again."""
    return replace(w, spell_cast=False, counter_cast=False)


def success_threshold(cost: int) -> int:
    """The die must exceed this: "1 to 10 energy points, he must roll more than 1 ... 11 to 20 EP ... more than 2\"."""
    if cost < 1:
        raise InvalidStatError(f"A spell costs at least 1 EP, got {cost}.", cost=cost)
    return (cost + 9) // 10


def range_penalty(distance: int, radius: int) -> int:
    """"a penalty on the die of one point per hex beyond the limit" (the wizard's own hex does not count)."""
    return max(0, distance - radius)


def reach(frm: Hex, targets: Sequence[Hex]) -> int:
    """"When a spell affects several hexes, it is always the hex farthest from the wizard that is taken into
    account for the calculations.\""""
    return max((hex_distance(frm, t) for t in targets), default=0)


def initiative(a: Wizard, b: Wizard, tie: str) -> tuple[str, str]:
    """Who casts first when two enemy wizards want the same character or hex, and why.

    "it is the one with the most energy points in reserve who wins the initiative." The seed says
    nothing of a tie: ``tie`` names the wizard who then goes first (estimated: the phasing side's).
    """
    if tie not in (a.name, b.name):
        raise UnknownNameError("wizard", tie, [a.name, b.name])
    if a.energy != b.energy:
        first, other = (a, b) if a.energy > b.energy else (b, a)
        return first.name, (f"{first.name} has {first.energy} EP in reserve against {other.name}'s "
                            f"{other.energy}: 'the one with the most energy points in reserve ... wins the initiative'")
    return tie, (f"both have {a.energy} EP: the seed does not settle a tie; {tie} goes first (estimated: the "
                 "wizard of the side whose player turn it is)")


# -- one roll ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MagicRoll:
    """One die a wizard rolls (a spell or a counterspell): everything known before it is rolled."""

    role: Role
    wizard: str
    spell: str
    cost: int
    threshold: int
    bonus: int
    distance: int
    radius: int
    penalty: int
    arithmetic: tuple[str, ...]

    def modified(self, die: int) -> int:
        return die + self.bonus - self.penalty

    def succeeds(self, die: int) -> bool:
        return self.modified(die) > self.threshold

    @property
    def probability(self) -> Fraction:
        return Fraction(sum(self.succeeds(d) for d in DIE), len(DIE))

    @property
    def request(self) -> ChanceRequest:
        """The d10 as the resolution draws it: one outcome per face, ``"7→success"``."""
        faces = [(f"{d}→{'success' if self.succeeds(d) else 'failure'}", 1.0) for d in DIE]
        return discrete(f"{self.role} die ({self.wizard}: {self.spell})", faces, self.arithmetic)

    def to_dict(self) -> dict[str, object]:
        p = self.probability
        return {"role": self.role, "wizard": self.wizard, "spell": self.spell, "cost": self.cost,
                "must_exceed": self.threshold, "bonus": self.bonus, "distance": self.distance,
                "radius": self.radius, "penalty": self.penalty, "probability": float(p),
                "exact": f"{p.numerator}/{p.denominator}", "arithmetic": list(self.arithmetic)}


def magic_roll(role: Role, w: Wizard, spell: str, cost: int, distance: int, threshold_cost: int) -> MagicRoll:
    """The roll of ``w`` for a ``cost`` EP ``role`` at ``distance`` hexes (threshold from ``threshold_cost``)."""
    threshold = success_threshold(threshold_cost)
    penalty = range_penalty(distance, w.radius)
    lo = (threshold_cost - 1) // 10 * 10 + 1
    arithmetic = (
        f"{spell}: {role} of {cost} EP; a {threshold_cost} EP spell ({lo} to {lo + 9} EP) needs more than "
        f"{threshold} on the die",
        f"+{w.bonus}: level {w.level} ('level 1 / +1 on the die, level 2 / +2 on the die')",
        (f"-{penalty}: {counted(distance, 'hex', 'hexes')} away, {penalty} beyond the radius of {w.radius} "
         "('a penalty on the die of one point per hex beyond the limit')") if penalty else
        f"no range penalty: {counted(distance, 'hex', 'hexes')} away, within the radius of {w.radius}",
    )
    return MagicRoll(role, w.name, spell, cost, threshold, w.bonus, distance, w.radius, penalty, arithmetic)


# -- a cast, its odds and its resolution -----------------------------------------------------------


@dataclass(frozen=True)
class Casting:
    """What a player asks: ``caster`` at hex ``at`` casts ``spell`` on ``targets``.

    ``targets``: the hex(es) of the character aimed at (one, or two for a horseman), or the hexes
    of the area; empty (or the wizard's own hex) for a personal spell.
    """

    spell: str
    caster: Wizard
    at: Hex
    targets: tuple[Hex, ...] = ()


@dataclass(frozen=True)
class Countering:
    """An enemy wizard at hex ``at`` who announces a counter "before the wizard who cast the spell has rolled"."""

    wizard: Wizard
    at: Hex


@dataclass(frozen=True)
class CastOdds:
    """Everything shown before a die is rolled; ``requests`` are the draws in the order they happen."""

    spell_name: str
    spell: Spell
    casting: Casting
    cast: MagicRoll
    counter: MagicRoll | None
    countering: Countering | None

    @property
    def requests(self) -> tuple[ChanceRequest, ...]:
        """Counter die first ("it is the wizard who countered who rolls the die"), then the caster's die,
        drawn only when the counter fails ("If the counter fails, the wizard who cast the spell rolls")."""
        return (self.cast.request,) if self.counter is None else (self.counter.request, self.cast.request)

    @property
    def p_countered(self) -> Fraction:
        return Fraction(0) if self.counter is None else self.counter.probability

    @property
    def p_applied(self) -> Fraction:
        """The chance the spell takes effect: the counter fails and the spell succeeds."""
        return (1 - self.p_countered) * self.cast.probability

    def to_dict(self) -> dict[str, object]:
        p = self.p_applied
        return {"spell": self.spell_name, "category": self.spell.category, "example": self.spell.example,
                "cost": self.spell.ep, "caster": self.casting.caster.name,
                "counter": None if self.counter is None else self.counter.to_dict(), "cast": self.cast.to_dict(),
                "p_applied": float(p), "exact": f"{p.numerator}/{p.denominator}",
                "requests": [r.to_dict() for r in self.requests]}


def _check_wizard(w: Wizard, role: Role, cost: int) -> None:
    if w.stunned:
        raise IllegalCastError(f"{w.name} is stunned and casts nothing this turn (estimated: a stunned character "
                               "can do nothing until he is put back on his feet).", wizard=w.name)
    if role == "spell" and w.spell_cast:
        raise AlreadyCastError(f"{w.name} has already cast a spell this player turn ('each wizard can cast one "
                               "spell and possibly counter another').", wizard=w.name)
    if role == "counterspell" and w.counter_cast:
        raise AlreadyCastError(f"{w.name} has already countered a spell this player turn ('each wizard can cast "
                               "one spell and possibly counter another').", wizard=w.name)
    if w.energy < cost:
        raise NotEnoughEnergyError(f"{w.name} has {w.energy} EP left, the {role} costs {cost} ('Beyond this "
                                   "number, he can no longer cast spells').", wizard=w.name, energy=w.energy,
                                   cost=cost)


def _check_targets(name: str, spell: Spell, c: Casting) -> tuple[Hex, ...]:
    targets = tuple(dict.fromkeys(c.targets))
    if spell.target == "self":
        if targets not in ((), (c.at,)):
            raise IllegalCastError(f"{name} is a personal spell: 'the wizard applies [it] to himself'.", spell=name)
        return (c.at,)
    if spell.target == "character" and len(targets) not in (1, 2):
        raise IllegalCastError(f"{name} aims at one character: give his hex (two for a horseman), got "
                               f"{len(targets)}.", spell=name)
    if spell.target == "hexes" and len(targets) != spell.hexes:
        raise IllegalCastError(f"{name} covers {counted(spell.hexes, 'hex', 'hexes')}, got {len(targets)}.", spell=name)
    return targets


def _check_hope(roll: MagicRoll) -> None:
    if roll.probability == 0:
        raise OutOfRangeError(
            f"{roll.wizard}'s {roll.role} cannot succeed: {counted(roll.distance, 'hex', 'hexes')} away, "
            f"-{roll.penalty} on the die, and even a 10 does not exceed {roll.threshold} (estimated: a cast no die "
            "can make is refused rather than let waste the energy).", wizard=roll.wizard, distance=roll.distance, penalty=roll.penalty)


def cast_odds(spells: SpellsFile, casting: Casting, countering: Countering | None = None,
              counter_reading: CounterReading = "own cost") -> CastOdds:
    """Check the cast (and the counter) is legal and compute every die before one is rolled."""
    name, spell = spells.spell(casting.spell)
    cost = spell.ep
    _check_wizard(casting.caster, "spell", cost)
    targets = _check_targets(name, spell, casting)
    cast = magic_roll("spell", casting.caster, name, cost, reach(casting.at, targets), cost)
    _check_hope(cast)
    counter = None
    if countering is not None:
        if countering.wizard.name == casting.caster.name:
            raise IllegalCastError(f"{casting.caster.name} cannot counter his own spell.", wizard=casting.caster.name)
        double = COUNTER_FACTOR * cost
        _check_wizard(countering.wizard, "counterspell", double)
        counter = magic_roll("counterspell", countering.wizard, name, double, reach(countering.at, targets),
                             double if counter_reading == "own cost" else cost)
        _check_hope(counter)
    return CastOdds(name, spell, casting, cast, counter, countering)


@dataclass(frozen=True)
class CastResult:
    """The dice rolled and both wizards afterwards ("both wizards spend the corresponding energy points")."""

    odds: CastOdds
    counter_die: int | None
    countered: bool
    cast_die: int | None
    succeeded: bool | None
    caster: Wizard
    counterer: Wizard | None

    @property
    def applied(self) -> bool:
        """The spell takes effect: not countered and its own die succeeded."""
        return not self.countered and bool(self.succeeded)

    @property
    def narrative(self) -> str:
        o = self.odds
        parts = []
        if o.counter is not None and self.counter_die is not None:
            parts.append(f"{o.counter.wizard} counters ({o.counter.cost} EP): die {self.counter_die} → "
                         f"{o.counter.modified(self.counter_die)}, {'success' if self.countered else 'failure'}")
        if self.cast_die is not None:
            parts.append(f"{o.cast.wizard} casts {o.spell_name} ({o.cast.cost} EP): die {self.cast_die} → "
                         f"{o.cast.modified(self.cast_die)}, {'success' if self.succeeded else 'failure'}")
        parts.append("the spell takes effect" if self.applied else "the spell is not applied")
        return "; ".join(parts)


def _draw(fate: Fate, roll: MagicRoll) -> tuple[int, bool]:
    outcome = fate.draw(roll.request).outcome
    die = int(outcome.split("→")[0])
    return die, roll.succeeds(die)


def resolve_cast(fate: Fate, odds: CastOdds) -> CastResult:
    """Roll the counter (if any), then the spell if not countered; spend both wizards' EP whatever happens."""
    counter_die, countered = None, False
    if odds.counter is not None:
        counter_die, countered = _draw(fate, odds.counter)
    cast_die, succeeded = (None, None) if countered else _draw(fate, odds.cast)
    c = odds.casting.caster
    caster = replace(c, energy=c.energy - odds.cast.cost, spell_cast=True)
    counterer = None
    if odds.countering is not None and odds.counter is not None:
        w = odds.countering.wizard
        counterer = replace(w, energy=w.energy - odds.counter.cost, counter_cast=True)
    return CastResult(odds, counter_die, countered, cast_die, succeeded, caster, counterer)
