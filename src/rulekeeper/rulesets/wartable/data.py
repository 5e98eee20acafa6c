"""Loading units and modifiers from YAML/TOML data files, shipped or the user's.

The rules' numbers live in data, not code, so a group can add its own units or
correct an estimated modifier without touching Python. File *shape* is checked by
pydantic; every problem becomes one :class:`DataFileError` that names the file, the
field (``units[1].health``) and what was expected. A negative stat is a value error
and raises :class:`InvalidStatError` (also naming file and field).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated

from pydantic import AllowInfNan, BaseModel, ConfigDict, Field, Strict, ValidationError

from rulekeeper.core.datafiles import parse_file_text, read_text
from rulekeeper.core.errors import DataFileError, InvalidStatError, UnknownNameError

from .model import (
    ActionCondition,
    ModifierDef,
    Role,
    Source,
    Stat,
    UnitDef,
    fold,
)
from .rounding import exact

StatNumber = Annotated[float, Strict(), AllowInfNan(False)]
Name = Annotated[str, Field(min_length=1)]
SHIPPED_FILES = ("units.yaml", "modifiers.yaml")


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitSchema(StrictModel):
    """One unit profile as written in a data file."""

    name: Name
    health: StatNumber
    attack: StatNumber
    defense: StatNumber
    traits: list[Name] = []
    note: str | None = None


class ModifierSchema(StrictModel):
    """One modifier as written in a data file (see :class:`~.model.ModifierDef`)."""

    name: Name
    source: Source
    key: Name
    stat: Stat
    amount: StatNumber
    role: Role = "any"
    action: ActionCondition = "any"
    quote: str | None = None
    estimate: str | None = None


class DataFileSchema(StrictModel):
    """A whole data file: optional ``units`` and ``modifiers`` lists."""

    about: str | None = None
    units: list[UnitSchema] = []
    modifiers: list[ModifierSchema] = []


# ---------------------------------------------------------------- reading files


def _loc(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def validation_problems(exc: ValidationError) -> list[str]:
    """Pydantic errors as ``field: expectation (got value)`` lines."""
    problems = []
    for err in exc.errors():
        # union members add their type name to the location; drop those for readability
        loc = [p for p in err["loc"] if not (isinstance(p, str) and (p in {"str"} or p.endswith("Schema")))]
        where = _loc(loc)
        got = "" if err["type"] == "missing" else f" (got {err.get('input')!r})"
        problems.append(f"{where}: {err['msg']}{got}")
    return list(dict.fromkeys(problems))


def read_mapping(path: Path | str, text: str | None = None) -> dict[str, object]:
    """Parse a YAML or TOML file (by suffix; YAML otherwise) into a top-level mapping.

    Through the core's one bounded loader (size cap, depth, node count, number sizes), so a
    War Table file gets the same typed refusals as every other data file rulekeeper reads.
    ``text``: the file's text when it is already read (a shipped resource); its parse may be recalled
    (:func:`~rulekeeper.core.datafiles.parse_file_text`), so never a text a web visitor pasted.
    """
    where = str(path)
    if text is None:
        text = read_text(Path(path), where)
    raw = parse_file_text(text, where, ".toml" if where.lower().endswith(".toml") else ".yaml")
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise DataFileError(where, [f"(top level): expected a mapping of keys, got {type(raw).__name__}"])
    return raw  # its keys and values are checked by the schema that reads it


# ---------------------------------------------------------------- the loaded data


@dataclass(frozen=True)
class WarTableData:
    """Every unit and modifier the rules know, shipped data overlaid by user files."""

    units: tuple[UnitDef, ...]
    modifiers: tuple[ModifierDef, ...]
    sources: tuple[str, ...] = ()

    def unit(self, name: str) -> UnitDef:
        """The unit called ``name`` (case-insensitive) or :class:`UnknownNameError`."""
        wanted = fold(name)
        for u in self.units:
            if fold(u.name) == wanted:
                return u
        raise UnknownNameError("unit", name, [u.name for u in self.units])

    def keys(self, source: Source) -> list[str]:
        """Every ``key`` the modifiers react to for one source (e.g. region traits)."""
        return sorted({m.key for m in self.modifiers if m.source == source})

    def overlay(self, other: WarTableData) -> WarTableData:
        """``other`` wins: same-named units and modifiers are replaced, new ones added."""
        units = {fold(u.name): u for u in self.units}
        units.update({fold(u.name): u for u in other.units})
        mods = {fold(m.name): m for m in self.modifiers}
        mods.update({fold(m.name): m for m in other.modifiers})
        return WarTableData(tuple(units.values()), tuple(mods.values()), self.sources + other.sources)


def parse_data(raw: object, where: str, origin: str | None = None) -> WarTableData:
    """Validate one parsed data file and turn it into domain values.

    ``origin`` is recorded on every unit and modifier (default: the file path), so
    the report can say where a number came from.
    """
    origin = origin or where
    try:
        doc = DataFileSchema.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(where, validation_problems(exc)) from None
    problems: list[str] = []
    units: list[UnitDef] = []
    seen: dict[str, int] = {}
    for i, u in enumerate(doc.units):
        if fold(u.name) in seen:
            problems.append(
                f"units[{i}].name: expected a unique unit name, {u.name!r} repeats units[{seen[fold(u.name)]}]"
            )
            continue
        seen[fold(u.name)] = i
        for stat in ("health", "attack", "defense"):
            value = getattr(u, stat)
            if value < 0:
                raise InvalidStatError(
                    f"{where}: units[{i}].{stat} of {u.name!r} must be >= 0, got {value}",
                    path=where,
                    field=f"units[{i}].{stat}",
                    value=value,
                )
        units.append(UnitDef.make(u.name, u.health, u.attack, u.defense, u.traits, origin=origin))
    mods: list[ModifierDef] = []
    mseen: dict[str, int] = {}
    for i, m in enumerate(doc.modifiers):
        if fold(m.name) in mseen:
            first = mseen[fold(m.name)]
            problems.append(
                f"modifiers[{i}].name: expected a unique modifier name, {m.name!r} repeats modifiers[{first}]"
            )
            continue
        mseen[fold(m.name)] = i
        mods.append(
            ModifierDef(
                name=m.name,
                source=m.source,
                key=m.key,
                stat=m.stat,
                amount=exact(m.amount),
                role=m.role,
                action=m.action,
                quote=m.quote,
                estimate=m.estimate,
                origin=origin,
            )
        )
    if problems:
        raise DataFileError(where, problems)
    return WarTableData(tuple(units), tuple(mods), (where,))


def load_data_file(path: Path | str) -> WarTableData:
    """One user data file (YAML, or TOML by suffix)."""
    return parse_data(read_mapping(path), str(path))


def shipped_data() -> WarTableData:
    """The data shipped inside the package (``rulesets/wartable/data/*.yaml``)."""
    base = resources.files("rulekeeper.rulesets.wartable").joinpath("data")
    data = WarTableData((), ())
    for name in SHIPPED_FILES:
        res = base.joinpath(name)
        where = f"rulekeeper/rulesets/wartable/data/{name}"
        data = data.overlay(parse_data(read_mapping(where, res.read_text(encoding="utf-8")), where, "shipped"))
    return data


def load_data(paths: Iterable[Path | str] = ()) -> WarTableData:
    """Shipped data, then each user file in order (later files win on equal names)."""
    data = shipped_data()
    for p in paths:
        data = data.overlay(load_data_file(p))
    return data
