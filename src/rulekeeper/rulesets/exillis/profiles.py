"""Ex illis unit and hero profiles: schema, loader, override merging and lookup.

The shipped data lives in ``data/units.yaml`` next to this module. Every number carries
its provenance (:data:`Source`):

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

import copy
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, ValidationInfo, field_validator, model_validator

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, InvalidStatError, UnknownNameError, closest

__all__ = [
    "ARMOUR_TYPES",
    "CATEGORIES",
    "DATA_FILE",
    "ELEMENTS",
    "FRACTION_STATS",
    "INTEGER_STATS",
    "INTIMIDATION_GROWTH",
    "KINDS",
    "LEVEL_SCALED_STATS",
    "MOVEMENTS",
    "SHOT_NAMES",
    "STAT_GROWTH",
    "STAT_KEYS",
    "STAT_SCALED_STATS",
    "UNSCALED_STATS",
    "Roster",
    "Source",
    "StatValue",
    "UnitProfile",
    "load_profiles",
    "normalise_name",
]

Source = Literal["seed", "seed-example", "wiki", "estimated", "user"]

DATA_FILE = Path(__file__).resolve().parent / "data" / "units.yaml"

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


def normalise_name(name: str) -> str:
    """Lookup key of a unit name or alias: case-folded, single-spaced, trimmed."""
    return re.sub(r"\s+", " ", name).strip().casefold()


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


class Roster:
    """Every profile of one data set, found by name or alias, case-insensitively."""

    def __init__(self, profiles: Iterable[UnitProfile], origin: str = "") -> None:
        self._profiles: dict[str, UnitProfile] = {}
        self._index: dict[str, str] = {}
        self.origin = origin
        for p in profiles:
            self._profiles[p.name] = p
        for p in self._profiles.values():  # names first, so a name beats another's alias
            self._index[normalise_name(p.name)] = p.name
        for p in self._profiles.values():
            for alias in p.aliases:
                self._index.setdefault(normalise_name(alias), p.name)

    def get(self, name: str) -> UnitProfile:
        """The profile called ``name`` (or one of its aliases); suggests the closest if unknown."""
        found = self.find(name)
        if found is None:
            raise UnknownNameError("unit", name, self._candidates())
        return found

    def find(self, name: str) -> UnitProfile | None:
        key = self._index.get(normalise_name(name))
        return None if key is None else self._profiles[key]

    def names(self) -> list[str]:
        """Canonical names in data-file order."""
        return list(self._profiles)

    def all(self) -> list[UnitProfile]:
        return list(self._profiles.values())

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.find(name) is not None

    def __len__(self) -> int:
        return len(self._profiles)

    def __iter__(self) -> Iterator[UnitProfile]:
        return iter(self._profiles.values())

    def _candidates(self) -> list[str]:
        out = list(self._profiles)
        for p in self._profiles.values():
            out.extend(p.aliases)
        return out


# -- reading files -------------------------------------------------------------------------


def _read_mapping(path: Path) -> dict[str, Any]:
    """Parse a YAML or TOML file (by extension) into a mapping with a ``units`` table."""
    where = str(path)
    data = read_data_file(path)
    if not isinstance(data, dict):
        raise DataFileError(where, [f"expected a mapping with a 'units' key at the top, got {type(data).__name__}"])
    units = data.get("units")
    if not isinstance(units, dict) or not units:
        raise DataFileError(where, ["expected a top-level 'units' mapping of unit name -> profile"])
    for name, body in units.items():
        if not isinstance(body, dict):
            raise DataFileError(where, [f"unit {name!r}: expected a mapping of fields, got {type(body).__name__}"])
        if "name" in body:
            raise DataFileError(where, [f"unit {name!r}, field name: the name is the key under 'units', remove it"])
    return data


def _describe_errors(where: str, unit: str, exc: ValidationError) -> list[str]:
    problems = []
    for err in exc.errors(include_url=False):
        path = ".".join(str(p) for p in err["loc"]) or "(profile)"
        msg = str(err["msg"])
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, ") :]
        kind = err["type"]
        ctx = err.get("ctx") or {}
        if kind == "missing":
            msg = "required field is missing"
        elif kind == "extra_forbidden":
            msg = "unknown field (not part of a unit profile)"
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal"):
            op = {"greater_than_equal": ">=", "greater_than": ">", "less_than_equal": "<="}[kind]
            bound = next(iter(ctx.values()), "?")
            shown = f"{bound:g}" if isinstance(bound, (int, float)) else str(bound)
            msg = f"expected a number {op} {shown}" + (" (stats cannot be negative)" if bound == 0 else "")
        elif kind in ("float_type", "float_parsing", "finite_number"):
            msg = "expected a finite number"
        elif kind == "literal_error":
            msg = f"expected one of {ctx.get('expected', '?')}"
        elif kind in ("dict_type", "model_type", "model_attributes_type"):
            msg = "expected a mapping (e.g. {value: 12, source: seed})" if "stats" in path or "resist" in path else "expected a mapping"
        elif kind in ("tuple_type", "list_type"):
            msg = "expected a list"
        elif kind == "string_type":
            msg = "expected text"
        got = ""
        if kind not in ("missing", "value_error", "extra_forbidden") and "input" in err:
            got = f" (got {err['input']!r})"
        problems.append(f"unit {unit!r}, field {path}: {msg}{got}")
    return problems


def _build(where: str, name: str, body: Mapping[str, Any]) -> UnitProfile:
    try:
        return UnitProfile.model_validate({"name": name, **body})
    except ValidationError as exc:
        raise DataFileError(where, _describe_errors(where, name, exc)) from None


def _profiles_from(where: str, data: Mapping[str, Any]) -> list[UnitProfile]:
    profiles: list[UnitProfile] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for name, body in data["units"].items():
        try:
            profile = _build(where, str(name), body)
        except DataFileError as exc:
            problems.extend(exc.problems)
            continue
        for label in (profile.name, *profile.aliases):
            key = normalise_name(label)
            if key in seen and seen[key] != profile.name:
                problems.append(f"unit {profile.name!r}, field aliases: {label!r} already names {seen[key]!r}")
            seen.setdefault(key, profile.name)
        profiles.append(profile)
    if problems:
        raise DataFileError(where, problems)
    return profiles


def _as_user(value: Any) -> Any:
    """An override value for one stat: a bare number or {value, why}; source becomes 'user'."""
    if isinstance(value, dict):
        return {**value, "source": "user"}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"value": value, "source": "user"}
    return value  # let the schema report what was expected


def _apply_overrides(shipped: dict[str, Any], roster: Roster, path: Path) -> Roster:
    where = str(path)
    data = _read_mapping(path)
    units: dict[str, Any] = copy.deepcopy(shipped["units"])
    problems: list[str] = []
    hints: list[str] = []
    for key, body in data["units"].items():
        existing = roster.find(str(key))
        patch = copy.deepcopy(body)
        bad = False
        for section in ("stats", "resist"):
            if section not in patch:
                continue
            if not isinstance(patch[section], dict):
                problems.append(
                    f"unit {key!r}, field {section}: expected a mapping of key -> number, "
                    f"got {patch[section]!r}"
                )
                bad = True
                continue
            for k, v in patch[section].items():
                if not isinstance(v, dict) and (isinstance(v, bool) or not isinstance(v, (int, float))):
                    problems.append(
                        f"unit {key!r}, field {section}.{k}: expected a number "
                        f"(or a mapping {{value: N, why: ...}}), got {v!r}"
                    )
                    bad = True
            patch[section] = {k: _as_user(v) for k, v in patch[section].items()}
        if bad:
            continue
        if existing is not None:
            merged = units[existing.name]
            for field, value in patch.items():
                if field in ("stats", "resist"):
                    merged[field] = {**merged.get(field, {}), **value}
                else:
                    merged[field] = value
        else:
            units[str(key)] = patch
            suggestions = closest(str(key), roster._candidates())
            if suggestions:
                hints.append(
                    f"unit {key!r} is not a shipped unit (did you mean {' or '.join(map(repr, suggestions))}?), "
                    "so it is read as a new unit, which must give every field"
                )
    if problems:
        raise DataFileError(where, problems)
    try:
        profiles = _profiles_from(where, {"units": units})
    except DataFileError as exc:
        raise DataFileError(where, hints + exc.problems) from None
    return Roster(profiles, origin=f"{roster.origin} + {where}")


def _load_file(path: Path) -> tuple[Roster, dict[str, Any]]:
    data = _read_mapping(path)
    return Roster(_profiles_from(str(path), data), origin=str(path)), data


@functools.lru_cache(maxsize=1)
def _load_shipped() -> tuple[Roster, dict[str, Any]]:
    return _load_file(DATA_FILE)


def load_profiles(path: Path | None = None, overrides: Path | None = None) -> Roster:
    """Load the profiles of ``path`` (the shipped ``units.yaml`` by default), then ``overrides``.

    The shipped file is parsed once and cached. An override file (YAML or TOML, by
    extension) has the same shape but may be partial: given values replace the base ones
    and are marked source ``user``; a unit name that matches no name or alias adds a new
    unit, which must then be complete. Every problem raises :class:`DataFileError` naming
    the file, the unit, the field path and what was expected.
    """
    if path is None or Path(path).resolve() == DATA_FILE:
        roster, data = _load_shipped()
    else:
        roster, data = _load_file(Path(path))
    if overrides is None:
        return roster
    return _apply_overrides(data, roster, Path(overrides))
