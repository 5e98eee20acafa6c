"""The unit cards of the Battle System, read from data files with every number's provenance.

The guide prints no unit cards, only the numbers its examples use, so most numbers are
estimates; keeping each number's ``source`` and ``why`` beside it lets ``units`` say which is
which, and lets a group replace any of them with its own file instead of editing Python.
Shipped data is ``data/units.yaml``; a player's file has the same shape, may give a bare
number (or ``{value, why}``) for any field of a known unit, and may add units and ethnic
special units (``special_units: {Name: {base: Light Infantry, ethnicity: ..., ...}}``).
Every problem is one :class:`DataFileError` naming the file and the field.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Literal, NotRequired, TypedDict

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rulekeeper.core.datafiles import parse_data_text, read_text
from rulekeeper.core.errors import DataFileError, UnknownNameError

Source = Literal["seed", "estimated", "user"]
Category = Literal["melee", "missile", "artillery", "support", "command"]
AttackKind = Literal["melee", "missile", "barrage"]

SHOCK_AND_AWE = "Shock and Awe"
HALVES_MORALE_DAMAGE = "Halves morale damage"
NO_AMMUNITION = "No ammunition needed"
#: The general's ability (data/command.yaml): it may rally a fleeing unit of its side (rally.py).
RALLIES = "Rallies"
#: The support units' work (support.py; issue 25): Medics tend, Supply resupply, Engineers bridge rivers.
TENDS = "Tends wounded"
RESUPPLIES = "Resupplies"
BRIDGES = "Builds bridges"
#: Abilities the rules know: the guide's "Shock and Awe", the Military Police's halving,
#: "(unless stated otherwise)" of the ammunition rule, our general's rally and the support units' work.
ABILITIES = (SHOCK_AND_AWE, HALVES_MORALE_DAMAGE, NO_AMMUNITION, RALLIES, TENDS, RESUPPLIES, BRIDGES)
FIELDS = ("movement", "melee", "missile", "barrage", "damage_reduction", "range", "ammunition", "soldiers", "morale")
SHIPPED = "rulekeeper/rulesets/battlesystem/data/units.yaml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class _Provenance(_Strict):
    source: Source
    why: str | None = None

    @model_validator(mode="after")
    def _estimate_says_why(self) -> _Provenance:
        if self.source == "estimated" and not (self.why or "").strip():
            raise ValueError("an estimated number must say why (`why: ...`)")
        return self


class _Number(_Provenance):
    value: int = Field(ge=0)


class _Skill(_Provenance):
    value: int | None = Field(default=None, ge=0)  # None is the guide's "-": unavailable


class _Abilities(_Provenance):
    value: list[Literal["Shock and Awe", "Halves morale damage", "No ammunition needed", "Rallies", "Tends wounded",
                        "Resupplies", "Builds bridges"]]


class _UnitSchema(_Strict):
    category: Category
    aliases: list[str] = []
    ethnicity: str | None = None
    base: str | None = None
    movement: _Number
    melee: _Skill
    missile: _Skill
    barrage: _Skill
    damage_reduction: _Number
    range: _Number
    ammunition: _Number
    soldiers: _Number
    morale: _Number
    abilities: _Abilities

    @model_validator(mode="after")
    def _sound(self) -> _UnitSchema:
        if self.movement.value % 2:
            raise ValueError(f"movement {self.movement.value} must be even ('this number has to be an even number')")
        for name in ("range", "soldiers", "morale"):
            if getattr(self, name).value < 1:
                raise ValueError(f"{name} must be at least 1")
        return self


class Provenanced(TypedDict):
    """One number (or the abilities) of a card as ``units --json`` prints it: the value, where it came from, why."""

    value: int | list[str] | None
    source: str
    why: str | None


class UnitTypeJson(TypedDict):
    """A card as ``units --json`` and the roster print it: its name, its category, a special unit's people and
    base, then every number (and the abilities) with its provenance, in that order."""

    name: str
    category: Category
    ethnicity: NotRequired[str]
    base: NotRequired[str | None]
    movement: Provenanced
    melee: Provenanced
    missile: Provenanced
    barrage: Provenanced
    damage_reduction: Provenanced
    range: Provenanced
    ammunition: Provenanced
    soldiers: Provenanced
    morale: Provenanced
    abilities: Provenanced


@dataclass(frozen=True)
class UnitType:
    """One unit card: the numbers, and for each the (source, why) it came from."""

    name: str
    category: Category
    movement: int
    melee: int | None
    missile: int | None
    barrage: int | None
    damage_reduction: int
    range: int
    ammunition: int
    soldiers: int
    morale: int
    abilities: frozenset[str]
    provenance: Mapping[str, tuple[str, str | None]]
    aliases: tuple[str, ...] = ()
    ethnicity: str | None = None
    base: str | None = None

    def skill(self, kind: AttackKind) -> int | None:
        """The skill an attack of ``kind`` adds (None: the card's "-", unavailable)."""
        value: int | None = getattr(self, kind)
        return value

    def has(self, ability: str) -> bool:
        return ability in self.abilities

    def to_json(self) -> UnitTypeJson:
        p = self._provenanced
        out: UnitTypeJson = {"name": self.name, "category": self.category, "movement": p("movement"),
                             "melee": p("melee"), "missile": p("missile"), "barrage": p("barrage"),
                             "damage_reduction": p("damage_reduction"), "range": p("range"),
                             "ammunition": p("ammunition"), "soldiers": p("soldiers"), "morale": p("morale"),
                             "abilities": p("abilities")}
        if self.ethnicity is None:
            return out
        # the same keys in the order the JSON has always had: a special unit's people and base after the category
        return {"name": out["name"], "category": out["category"], "ethnicity": self.ethnicity, "base": self.base,
                "movement": out["movement"], "melee": out["melee"], "missile": out["missile"],
                "barrage": out["barrage"], "damage_reduction": out["damage_reduction"], "range": out["range"],
                "ammunition": out["ammunition"], "soldiers": out["soldiers"], "morale": out["morale"],
                "abilities": out["abilities"]}

    def _provenanced(self, name: str) -> Provenanced:
        value: int | list[str] | None = sorted(self.abilities) if name == "abilities" else getattr(self, name)
        source, why = self.provenance[name]
        return {"value": value, "source": source, "why": why}


@dataclass(frozen=True)
class UnitTypes:
    """Every unit type a battle may field, found by name or alias, case-insensitively."""

    types: tuple[UnitType, ...]

    @cached_property
    def _by_name(self) -> dict[str, UnitType]:
        """Every name and alias, folded, to its type (the first type to claim a name keeps it). Why: every
        piece finds its card by name on each read of ``Piece.type``, hundreds of thousands of times a page."""
        out: dict[str, UnitType] = {}
        for t in self.types:
            for name in (t.name, *t.aliases):
                out.setdefault(name.casefold(), t)
        return out

    def get(self, name: str) -> UnitType:
        found = self._by_name.get(name.strip().casefold())
        if found is None:
            raise UnknownNameError("unit type", name, [t.name for t in self.types])
        return found

    def names(self) -> list[str]:
        return [t.name for t in self.types]


def _mark_user(entry: Mapping[object, object]) -> dict[object, object]:
    """A player's entry with every given field marked ``source: user`` (bare numbers allowed)."""
    out: dict[object, object] = {}
    for key, value in entry.items():
        if key in (*FIELDS, "abilities"):
            body = dict(value) if isinstance(value, Mapping) else {"value": value}
            out[key] = {**body, "source": "user"}
        else:
            out[key] = value
    return out


def _mapping(value: object, where: str, field: str) -> Mapping[object, object]:
    """``value`` if it is a mapping (a data file's table, keys and values as the file wrote them: checked later)."""
    if not isinstance(value, Mapping):
        raise DataFileError(where, [f"{field}: expected a mapping, got {type(value).__name__}"])
    return value


def _merge(raw: dict[str, dict[object, object]], doc: Mapping[object, object], where: str, user: bool) -> None:
    """Lay one file's units and special units over ``raw`` (later files win field by field)."""
    extra = sorted(str(k) for k in doc if k not in ("about", "units", "special_units"))
    if extra:
        raise DataFileError(where, [f"{extra[0]}: unknown key (expected about, units, special_units)"])
    for section in ("units", "special_units"):
        for name, entry in _mapping(doc.get(section) or {}, where, section).items():
            entry = _mapping(entry, where, f"{section}.{name}")
            entry = _mark_user(entry) if user else dict(entry)
            if section == "special_units":
                base = entry.get("base")
                if not isinstance(base, str) or base not in raw:
                    raise DataFileError(where, [f"special_units.{name}.base: expected a unit type, got {base!r}"])
                inherited = {k: copy.deepcopy(v) for k, v in raw[base].items() if k != "aliases"}
                entry = {**inherited, **entry}
            raw[str(name)] = {**raw.get(str(name), {}), **entry}


def build_unit_types(raw: Mapping[str, Mapping[object, object]], where: str) -> UnitTypes:
    """Unit cards from raw entries (name → fields with provenance), checked; ``where`` names the file."""
    types = []
    for name, entry in raw.items():
        try:
            u = _UnitSchema.model_validate(entry)
        except ValidationError as exc:
            problems = [f"{'.'.join(['units', name, *map(str, e['loc'])])}: {e['msg']}" for e in exc.errors()]
            raise DataFileError(where, problems) from None
        values = {f: getattr(u, f).value for f in FIELDS}
        prov = {f: (getattr(u, f).source, getattr(u, f).why) for f in (*FIELDS, "abilities")}
        types.append(UnitType(name=name, category=u.category, abilities=frozenset(u.abilities.value),
                              provenance=prov, aliases=tuple(u.aliases), ethnicity=u.ethnicity, base=u.base,
                              **values))
    return UnitTypes(tuple(types))


def _parse(text: str, where: str) -> Mapping[object, object]:
    suffix = ".toml" if where.lower().endswith(".toml") else ".yaml"
    return _mapping(parse_data_text(text, where, suffix), where, "(top level)")


def load_unit_types(paths: Iterable[Path | str] = (), texts: Iterable[tuple[str, str]] = ()) -> UnitTypes:
    """The shipped unit types, then each player's file (``paths``, or ``(where, text)`` pairs) over them."""
    shipped = resources.files("rulekeeper.rulesets.battlesystem").joinpath("data", "units.yaml")
    raw: dict[str, dict[object, object]] = {}
    _merge(raw, _parse(shipped.read_text(encoding="utf-8"), SHIPPED), SHIPPED, user=False)
    where = SHIPPED
    sources = [(str(p), read_text(Path(p))) for p in paths] + list(texts)
    for where, text in sources:
        _merge(raw, _parse(text, where), where, user=True)
    return build_unit_types(raw, where)
