"""Ex illis unit and hero profiles: the roster, the loader and override merging.

The shipped data lives in ``data/units.yaml`` next to this module; a profile's schema (stat
keys, provenance, level growth) is :mod:`.unit_profile`, whose names are re-exported here so
``from rulekeeper.rulesets.exillis.profiles import UnitProfile`` keeps working. An override
file (``--data FILE``) may replace any number of the shipped profiles (marked source
``user``) or add whole new units.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from pydantic import ValidationError

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, UnknownNameError, closest

from .unit_profile import (
    ARMOUR_TYPES,
    CATEGORIES,
    ELEMENTS,
    FRACTION_STATS,
    INTEGER_STATS,
    INTIMIDATION_GROWTH,
    KINDS,
    LEVEL_SCALED_STATS,
    MOVEMENTS,
    SHOT_NAMES,
    STAT_GROWTH,
    STAT_KEYS,
    STAT_SCALED_STATS,
    UNSCALED_STATS,
    Source,
    StatValue,
    UnitProfile,
    normalise_name,
)

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

DATA_FILE = Path(__file__).resolve().parent / "data" / "units.yaml"


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


#: A profile file's ``units`` table: each unit's name (as written) and its fields, unchecked (the schema of
#: :class:`UnitProfile` says what is wrong with them).
UnitTable = dict[object, dict[str, object]]


def _read_mapping(path: Path) -> UnitTable:
    """Parse a YAML or TOML file (by extension) with a ``units`` table; that table, each unit a mapping."""
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
    return units


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


def _build(where: str, name: str, body: Mapping[str, object]) -> UnitProfile:
    """A profile from a file's unit table (any values: the schema says what is wrong with them)."""
    try:
        return UnitProfile.model_validate({"name": name, **body})
    except ValidationError as exc:
        raise DataFileError(where, _describe_errors(where, name, exc)) from None


def _profiles_from(where: str, units: UnitTable) -> list[UnitProfile]:
    profiles: list[UnitProfile] = []
    problems: list[str] = []
    seen: dict[str, str] = {}
    for name, body in units.items():
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


def _as_user(value: object) -> object:
    """An override value for one stat: a bare number or {value, why}; source becomes 'user' (any other value
    is left for the schema to report)."""
    if isinstance(value, dict):
        return {**value, "source": "user"}
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return {"value": value, "source": "user"}
    return value  # let the schema report what was expected


def _user_patch(key: object, body: dict[str, object], problems: list[str]) -> dict[str, object] | None:
    """One unit's override with each given stat and resistance marked source ``user``.

    ``None`` (the problems appended) when a ``stats`` or ``resist`` section is not a mapping of
    numbers: such a unit is left out rather than merged half-checked.
    """
    patch = copy.deepcopy(body)
    bad = False
    for section in ("stats", "resist"):
        if section not in patch:
            continue
        given = patch[section]
        if not isinstance(given, dict):
            problems.append(
                f"unit {key!r}, field {section}: expected a mapping of key -> number, "
                f"got {given!r}"
            )
            bad = True
            continue
        for k, v in given.items():
            if not isinstance(v, dict) and (isinstance(v, bool) or not isinstance(v, (int, float))):
                problems.append(
                    f"unit {key!r}, field {section}.{k}: expected a number "
                    f"(or a mapping {{value: N, why: ...}}), got {v!r}"
                )
                bad = True
        patch[section] = {k: _as_user(v) for k, v in given.items()}
    return None if bad else patch


def _apply_overrides(shipped: UnitTable, roster: Roster, path: Path) -> Roster:
    """The shipped units with the override file's patches merged in (a new name adds a unit)."""
    where = str(path)
    data = _read_mapping(path)
    units: UnitTable = copy.deepcopy(shipped)
    problems: list[str] = []
    hints: list[str] = []
    for key, body in data.items():
        existing = roster.find(str(key))
        patch = _user_patch(key, body, problems)
        if patch is None:
            continue
        if existing is not None:
            merged = units[existing.name]
            for field, value in patch.items():
                before = merged.get(field, {})
                if field in ("stats", "resist") and isinstance(before, dict) and isinstance(value, dict):
                    merged[field] = {**before, **value}  # both mappings: the file's and the patch (checked)
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
        profiles = _profiles_from(where, units)
    except DataFileError as exc:
        raise DataFileError(where, hints + exc.problems) from None
    return Roster(profiles, origin=f"{roster.origin} + {where}")


def _load_file(path: Path) -> tuple[Roster, UnitTable]:
    data = _read_mapping(path)
    return Roster(_profiles_from(str(path), data), origin=str(path)), data


@functools.lru_cache(maxsize=1)
def _load_shipped() -> tuple[Roster, UnitTable]:
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
