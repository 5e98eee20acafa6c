"""One Ex illis unit or hero profile: its stats, where each number comes from, and its levels.

The schema of a profile in ``data/units.yaml`` (read by :mod:`.profiles`). Every number
carries its provenance (:data:`Source`):

``seed``
    printed in a stat table of the Ex illis rulebook (the seed);
``seed-example``
    taken from a worked example of the seed (the Billman vs Franc Chevaler hit);
``wiki``
    from the wiki supplement (unit sizes, rows the seed leaves blank);
``estimated``
    our estimate, always with a one-line ``why`` (see ``docs/rules/exillis-units.md``);
``user``
    replaced by the player through an override file (``--data FILE``).

Levels follow the seed's two printed formulas literally::

    Basic Stat x 1.029183^Level      (most stats: +33 % every 10 levels)
    Basic Stat x 1.0717735^Level     (Intimidation: doubles every 10 levels)

so ``at_level(1)`` is already ``basic x 1.029183``; the table values are "basic" values
(stored with ``level`` = 1, the lowest level a unit can have).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationInfo, field_validator, model_validator

from rulekeeper.core.errors import InvalidStatError, UnknownNameError, closest

Source = Literal["seed", "seed-example", "wiki", "estimated", "user"]

#: Every stat key a profile must define, in display order.
STAT_KEYS: tuple[str, ...] = (
    "ini",
    "agg",
    "bulk",
    "bulk_range",
    "ret",
    "blk",
    "eva",
    "dfl",
    "shd",
    "armour",
    "morale",
    "mrls",
    "mblk",
    "cost",
    "max_level",
    "miniatures",
    "hp",
    "str",
    "tgh",
    "sht",
    "acc",
    "racc",
    "macc",
    "mag",
    "wpd",
    "ap",
    "ranged_wpd",
    "ranged_ap",
    "range",
    "cp",
    "rp",
    "intimidation",
    "fatigue_rate",
    "veil_rate",
    "level",
)

#: The eight elements, each with an Elemental Resistance.
ELEMENTS: tuple[str, ...] = ("fire", "lightning", "ice", "earth", "water", "wind", "light", "dark")

#: Muster categories: Melee, Shooting, Magic, Fast, Hero, Elite, Monster, Special.
CATEGORIES: tuple[str, ...] = ("Me", "Sh", "Mg", "Fs", "He", "El", "Mn", "Sp")

#: Ranged actions a profile may list in ``shots``.
SHOT_NAMES: tuple[str, ...] = (
    "shot",
    "aim",
    "swift_shot",
    "volley_fire",
    "artillery",
    "firebolt",
    "lightning",
    "gust",
)

KINDS: tuple[str, ...] = ("unit", "hero")
MOVEMENTS: tuple[str, ...] = ("infantry", "cavalry", "flyer", "teleporter")
ARMOUR_TYPES: tuple[str, ...] = ("light", "medium", "heavy")

#: Stats multiplied by STAT_GROWTH**level ("gains 33 % every 10 levels").
STAT_SCALED_STATS: frozenset[str] = frozenset(
    {
        "blk",
        "eva",
        "dfl",
        "hp",
        "str",
        "tgh",
        "sht",
        "acc",
        "racc",
        "macc",
        "mag",
        "wpd",
        "ap",
        "ranged_wpd",
        "ranged_ap",
        "armour",
    }
)
#: Stats multiplied by INTIMIDATION_GROWTH**level ("doubles every 10 levels").
LEVEL_SCALED_STATS: frozenset[str] = frozenset({"intimidation"})
#: Stats that never change with the level (cost scaling belongs to musters).
UNSCALED_STATS: frozenset[str] = frozenset(STAT_KEYS) - STAT_SCALED_STATS - LEVEL_SCALED_STATS

STAT_GROWTH = 1.029183
INTIMIDATION_GROWTH = 1.0717735

#: Stats that are probabilities and so must lie in 0..1.
FRACTION_STATS: frozenset[str] = frozenset({"ret", "mblk"})
#: Stats that must be whole numbers of at least 1.
INTEGER_STATS: frozenset[str] = frozenset({"miniatures", "max_level", "level"})
#: The most miniatures one unit may have. Not a rule: the rulebook's units hold a dozen or two; the bound
#: keeps a hostile unit or house-rule file (miniatures: 10**15) from building a unit of that many in memory.
MAX_MINIATURES = 1000


@lru_cache(maxsize=4096)
def normalise_name(name: str) -> str:
    """Lookup key of a unit name or alias: case-folded, single-spaced, trimmed.

    Remembered (a pure function of its text): a simulated Ex illis battle asked it ~1,300 times an
    action (every Affinity check compares the army's name with each hero's factions), a fifth of an
    action's cost in ``re.sub`` (profiled, issue 28)."""
    return _SPACES.sub(" ", name).strip().casefold()


_SPACES = re.compile(r"\s+")


def _unknown_keys_message(kind: str, unknown: Iterable[str], known: Iterable[str]) -> str:
    pool = list(known)
    parts = []
    for key in sorted(unknown):
        hint = closest(key, pool, n=1)
        parts.append(f"{key!r}" + (f" (did you mean {hint[0]!r}?)" if hint else ""))
    return f"unknown {kind} {', '.join(parts)}"


class StatValue(BaseModel, frozen=True, extra="forbid"):
    """One number with its provenance; ``why`` is required for estimates."""

    value: float = Field(strict=True, ge=0, allow_inf_nan=False)
    source: Source
    why: str = ""

    @model_validator(mode="after")
    def _estimates_explain_themselves(self) -> StatValue:
        if self.source == "estimated" and not self.why.strip():
            raise ValueError("an estimated value needs a non-empty 'why' explaining the estimate")
        return self


class UnitProfile(BaseModel, frozen=True, extra="forbid"):
    """The full profile of one Ex illis unit or hero (basic, level-1 table values)."""

    name: str = Field(min_length=1)
    aliases: tuple[str, ...] = ()
    kind: Literal["unit", "hero"]
    movement: Literal["infantry", "cavalry", "flyer", "teleporter"]
    armour_type: Literal["light", "medium", "heavy"]
    categories: tuple[str, ...]
    special_rules: tuple[str, ...]
    heroic_power: str | None = None
    stats: dict[str, StatValue]
    resist: dict[str, StatValue]
    immune: tuple[str, ...] = ()
    shots: tuple[str, ...] = ()
    spells: tuple[str, ...] = ()

    @field_validator("categories", "immune", "shots")
    @classmethod
    def _known_names(cls, value: tuple[str, ...], info: ValidationInfo) -> tuple[str, ...]:
        allowed, what = {
            "categories": (CATEGORIES, "muster categories"),
            "immune": (ELEMENTS, "elements"),
            "shots": (SHOT_NAMES, "ranged actions"),
        }[str(info.field_name)]
        bad = [x for x in value if x not in allowed]
        if bad:
            raise ValueError(f"expected {what} among {', '.join(allowed)}; got {bad}")
        if info.field_name == "categories" and not value:
            raise ValueError(f"expected at least one muster category among {', '.join(CATEGORIES)}")
        return value

    @field_validator("stats")
    @classmethod
    def _complete_stats(cls, value: dict[str, StatValue]) -> dict[str, StatValue]:
        problems = []
        missing = [k for k in STAT_KEYS if k not in value]
        if missing:
            problems.append(f"missing stat keys {', '.join(missing)}")
        unknown = [k for k in value if k not in STAT_KEYS]
        if unknown:
            problems.append(_unknown_keys_message("stat keys", unknown, STAT_KEYS))
        for key in sorted(FRACTION_STATS & value.keys()):
            if value[key].value > 1:
                problems.append(f"{key} is a fraction: expected 0..1, got {value[key].value:g}")
        for key in sorted(INTEGER_STATS & value.keys()):
            v = value[key].value
            if v < 1 or not float(v).is_integer():
                problems.append(f"{key}: expected a whole number of at least 1, got {v:g}")
        if "miniatures" in value and value["miniatures"].value > MAX_MINIATURES:
            problems.append(f"miniatures: at most {MAX_MINIATURES} in one unit, got {value['miniatures'].value:g}")
        if "level" in value and "max_level" in value and value["level"].value > value["max_level"].value:
            problems.append(f"level {value['level'].value:g} is above max_level {value['max_level'].value:g}")
        if problems:
            raise ValueError("; ".join(problems))
        return {k: value[k] for k in STAT_KEYS}

    @field_validator("resist")
    @classmethod
    def _complete_resist(cls, value: dict[str, StatValue]) -> dict[str, StatValue]:
        problems = []
        missing = [e for e in ELEMENTS if e not in value]
        if missing:
            problems.append(f"missing resistances {', '.join(missing)}")
        unknown = [k for k in value if k not in ELEMENTS]
        if unknown:
            problems.append(_unknown_keys_message("elements", unknown, ELEMENTS))
        if problems:
            raise ValueError("; ".join(problems))
        return {e: value[e] for e in ELEMENTS}

    # -- lookup -------------------------------------------------------------------------

    def stat(self, key: str) -> float:
        """The value of stat ``key``; :class:`UnknownNameError` if there is no such stat."""
        return self._stat(key).value

    def source(self, key: str) -> Source:
        """Where the value of stat ``key`` comes from."""
        return self._stat(key).source

    def why(self, key: str) -> str:
        """The reasoning behind stat ``key`` (empty for most table values)."""
        return self._stat(key).why

    def resistance(self, element: str) -> float:
        """The Elemental Resistance against ``element``."""
        try:
            return self.resist[element].value
        except KeyError:
            raise UnknownNameError("element", element, ELEMENTS) from None

    def is_immune(self, element: str) -> bool:
        return element in self.immune

    def _stat(self, key: str) -> StatValue:
        try:
            return self.stats[key]
        except KeyError:
            raise UnknownNameError("stat", key, STAT_KEYS) from None

    @property
    def level(self) -> int:
        return int(self.stats["level"].value)

    @property
    def max_level(self) -> int:
        return int(self.stats["max_level"].value)

    @property
    def miniatures(self) -> int:
        return int(self.stats["miniatures"].value)

    # -- levels -------------------------------------------------------------------------

    def at_level(self, level: int) -> UnitProfile:
        """A copy at ``level``: the seed's growth formulas applied to the basic values.

        Literal reading of "Basic Stat x 1.029183^Level": level 1 is basic x 1.029183.
        Combat and the CLI go through :func:`rulekeeper.rulesets.exillis.levels.at_level`,
        which honours the ``stat_levels`` option (default: the tables are level 1).
        Elemental resistances grow like Toughness (the seed: all statistics grow).
        Raises :class:`InvalidStatError` below 1 or above the unit's maximum level.
        """
        if isinstance(level, bool) or not isinstance(level, int):
            raise InvalidStatError(f"level must be a whole number, got {level!r}", level=level)
        if level < 1 or level > self.max_level:
            raise InvalidStatError(
                f"{self.name} can be fielded at levels 1 to {self.max_level}, not {level}",
                unit=self.name,
                level=level,
                max_level=self.max_level,
            )
        base = self.stats["level"].value
        if base != 1:  # a profile already scaled: scale back from its own level
            raise InvalidStatError(
                f"{self.name} is already at level {base:g}; call at_level on the basic profile",
                unit=self.name,
                level=level,
            )
        return self.scaled(level, level)

    def scaled(self, level: int, exponent: int) -> UnitProfile:
        """A copy labelled ``level`` whose stats grow by the seed's formulas with ``exponent``.

        Most stats (and resistances, which grow like Toughness) × 1.029183^exponent, Intimidation
        × 1.0717735^exponent; :mod:`.levels` chooses the exponent (option ``stat_levels``).
        """
        stat_factor = STAT_GROWTH**exponent
        level_factor = INTIMIDATION_GROWTH**exponent
        stats: dict[str, StatValue] = {}
        for key, sv in self.stats.items():
            if key in STAT_SCALED_STATS:
                stats[key] = sv.model_copy(update={"value": sv.value * stat_factor})
            elif key in LEVEL_SCALED_STATS:
                stats[key] = sv.model_copy(update={"value": sv.value * level_factor})
            elif key == "level":
                stats[key] = sv.model_copy(update={"value": float(level)})
            else:
                stats[key] = sv
        resist = {e: sv.model_copy(update={"value": sv.value * stat_factor}) for e, sv in self.resist.items()}
        return self.model_copy(update={"stats": stats, "resist": resist})

    def to_json(self) -> dict[str, Any]:
        """A JSON-able dict of the whole profile (stats as {value, source, why})."""
        return self.model_dump(mode="json")
