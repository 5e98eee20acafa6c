"""Ex illis battle scenarios: a zone board, its terrain and two deployed armies.

A scenario file (TOML, or YAML by extension) says where a battle starts: board size, terrain
per zone, and for each side its units (size, level, hero, zone) and General. The seed has no
scenario format, so each check quotes the rule it enforces (``docs/rules/exillis-scenarios.md``):
zone capacity ("up to 3 units from each side, but a forest zone limits this number to 2", read
from ``Terrain.capacity`` so overrides apply; Huge takes 2; a hero counts with its Retinue),
partial units ("the majority (50% + 1)"), heroes ("Characters always accompany a unit", except
the Loner who "cannot join any unit"), and "The deployment order defines each unit's initial
amount of AcP" (:meth:`Scenario.deployment_order`).

Validation works like python-chess's ``Board.status()``: :meth:`Scenario.problems` collects
*every* problem, each naming the army/unit/terrain entry, the field and what was expected, and
:func:`load_scenario` raises one :class:`DataFileError` with all of them, so a player fixes a
file in one pass instead of one error per run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError, field_serializer, field_validator

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, closest

from .profiles import Roster, load_profiles
from .rules_data import RulesData, load_rules_data
from .scenario_checks import ScenarioChecker
from .scenario_terms import (
    DEFAULT_FEATURE,
    HUGE,
    LONER,
    MAX_HEIGHT,
    MAX_WIDTH,
    SIDES,
    Side,
    minimum_miniatures,
    parse_zone,
    unit_cost,
    zone_name,
)

__all__ = [
    "DEFAULT_FEATURE", "HUGE", "LONER", "MAX_HEIGHT", "MAX_WIDTH", "SIDES", "Army", "Board", "Scenario", "Side",
    "TerrainPlacement", "UnitEntry", "load_scenario", "minimum_miniatures", "parse_zone", "unit_cost", "zone_name",
]

_CONFIG = ConfigDict(frozen=True, extra="forbid")


class Board(BaseModel):
    """The zone grid, columns A.. by rows 1..; ``turn_limit`` in rounds, 0 = no limit.

    A round is the game time in which a unit of Initiative 100 gains 1000 AcP, i.e.
    takes one ordinary turn: the seed's clock is AcP, not player turns, so a limit in
    activations would end sooner in big battles than in small ones.
    """

    model_config = _CONFIG
    width: StrictInt
    height: StrictInt
    turn_limit: StrictInt = 0


class TerrainPlacement(BaseModel):
    """One terrain feature (``fences``, ``forests``, ``lake``... or an alias) in one zone."""

    model_config = _CONFIG
    zone: StrictStr
    feature: StrictStr


class UnitEntry(BaseModel):
    """One unit of an army, where it deploys, and the hero (if any) that joins it as its Retinue.

    ``miniatures`` None means the full size; ``hero_level`` is the joined hero's level.
    """

    model_config = _CONFIG
    unit: StrictStr
    zone: StrictStr
    miniatures: StrictInt | None = None
    level: StrictInt = 1
    hero: StrictStr | None = None
    hero_level: StrictInt = 1


class Army(BaseModel):
    """One side's muster: its units in deployment order and the zones it may deploy in.

    ``general`` accepts one name (or nothing); a list is read so that a file naming two
    Generals is reported as such instead of as a type error.
    """

    model_config = _CONFIG
    side: Side
    name: StrictStr
    deployment: tuple[StrictStr, ...]
    general: tuple[StrictStr, ...] = ()
    units: tuple[UnitEntry, ...]

    @field_validator("general", mode="before")
    @classmethod
    def _one_name_or_list(cls, value: object) -> object:
        """Before validation (any input): one name becomes a list of one, none an empty list."""
        return () if value is None else (value,) if isinstance(value, str) else value

    @field_serializer("general")
    def _dump_general(self, value: tuple[str, ...]) -> str | list[str] | None:
        return (value[0] if len(value) == 1 else list(value)) if value else None

    @property
    def label(self) -> str:
        return f"army {self.name!r} (side {self.side})"


class Scenario(BaseModel):
    """A battle set-up. Build it with :func:`load_scenario` or :meth:`from_dict`, which check it."""

    model_config = _CONFIG
    name: StrictStr
    description: StrictStr = ""
    first: Side = "A"
    board: Board
    terrain: tuple[TerrainPlacement, ...] = ()
    armies: tuple[Army, ...]

    def army(self, side: Side) -> Army:
        """The army of ``side`` (KeyError if absent, which a checked scenario never is)."""
        for army in self.armies:
            if army.side == side:
                return army
        raise KeyError(side)

    def feature_at(self, zone: str) -> str:
        """The terrain feature name of ``zone`` as written (``fields`` when none is placed)."""
        where = parse_zone(zone)
        return next((t.feature for t in self.terrain if parse_zone(t.zone) == where), DEFAULT_FEATURE)

    def deployment_order(self) -> list[tuple[Side, int]]:
        """(side, 0-based unit index) in the order the units deploy, first deployed first.

        The seed: "Units deployed first have more AcP and will thus be activated first".
        We alternate sides, starting with ``first``, each side in its ``units`` order;
        when one side has deployed everything the other deploys the rest. A hero deploys
        with its Retinue, in the Retinue's slot.
        """
        second: Side = "B" if self.first == "A" else "A"
        queues = {army.side: list(range(len(army.units))) for army in self.armies}
        order: list[tuple[Side, int]] = []
        while any(queues.values()):
            for side in (self.first, second):
                if queues.get(side):
                    order.append((side, queues[side].pop(0)))
        return order

    def points(self, roster: Roster | None = None) -> dict[Side, int]:
        """Each side's muster points, heroes included, by :func:`unit_cost` per unit.

        Informational only: no Shortage penalty and no Faction rule is applied (the seed
        gives neither in numbers), so this is the "basic cost" total.
        """
        roster = load_profiles() if roster is None else roster
        totals: dict[Side, int] = {}
        for army in self.armies:
            total = 0
            for entry in army.units:
                profile = roster.get(entry.unit)
                size = entry.miniatures if entry.miniatures is not None else profile.miniatures
                total += unit_cost(profile.stat("cost"), entry.level, size, profile.miniatures)
                if entry.hero is not None:
                    hero = roster.get(entry.hero)
                    total += unit_cost(hero.stat("cost"), entry.hero_level, hero.miniatures, hero.miniatures)
            totals[army.side] = totals.get(army.side, 0) + total
        return totals

    def problems(self, roster: Roster | None = None, rules: RulesData | None = None) -> list[str]:
        """Every rule this scenario breaks, in file order; empty when it is playable."""
        return ScenarioChecker(self, *_shipped(roster, rules)).run()

    def normalised(self, roster: Roster | None = None, rules: RulesData | None = None) -> Scenario:
        """The same scenario with canonical names: roster names, upper-case zones, terrain keys.

        Only meaningful once :meth:`problems` is empty. Downstream code can then compare
        names with ``==`` instead of going through aliases again.
        """
        roster, rules = _shipped(roster, rules)

        def zone(name: str) -> str:
            return zone_name(*parse_zone(name))

        def unit(u: UnitEntry) -> UnitEntry:
            hero = None if u.hero is None else roster.get(u.hero).name
            return u.model_copy(update={"unit": roster.get(u.unit).name, "zone": zone(u.zone), "hero": hero})

        terrain = tuple(TerrainPlacement(zone=zone(t.zone), feature=_feature_key(rules, t.feature)) for t in self.terrain)
        armies = tuple(a.model_copy(update={"deployment": tuple(zone(z) for z in a.deployment), "units": tuple(
            unit(u) for u in a.units), "general": tuple(roster.get(g).name for g in a.general)}) for a in self.armies)
        return self.model_copy(update={"terrain": terrain, "armies": armies})

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict in the file's own shape (absent optional values left out)."""
        data = self.model_dump(mode="json", exclude_none=True)
        for army in (a for a in data["armies"] if a.get("general") is None):
            army.pop("general", None)
        return data

    @classmethod
    def from_dict(cls, data: object, roster: Roster | None = None, rules: RulesData | None = None, *,
                  where: str = "<scenario>", check: bool = True) -> Scenario:
        """Build from a mapping (a parsed file or :meth:`to_dict`), check it, normalise it.

        Raises one :class:`DataFileError` naming ``where`` with every problem: shape errors
        (missing or unknown fields, wrong types) first, since rule checks need the shape.
        ``check=False`` skips the rule checks and normalisation.
        """
        try:
            scenario = cls.model_validate(data)
        except ValidationError as exc:
            raise DataFileError(where, _shape_problems(data, exc)) from None
        if not check:
            return scenario
        roster, rules = _shipped(roster, rules)
        if found := scenario.problems(roster, rules):
            raise DataFileError(where, found)
        return scenario.normalised(roster, rules)


def _shipped(roster: Roster | None, rules: RulesData | None) -> tuple[Roster, RulesData]:
    """The given tables, or the shipped ones (``is None``: an empty Roster is falsy)."""
    return (load_profiles() if roster is None else roster), (load_rules_data() if rules is None else rules)


def load_scenario(path: Path, roster: Roster | None = None, rules: RulesData | None = None) -> Scenario:
    """Read, check and normalise a ``.toml`` / ``.yaml`` / ``.yml`` scenario file.

    Every problem (syntax with its line, shape, rules) raises one :class:`DataFileError`
    naming the file. ``roster``/``rules`` default to the shipped data.
    """
    return Scenario.from_dict(_read(Path(path)), roster, rules, where=str(path))


def _feature_key(rules: RulesData, name: str) -> str:
    feature = rules.terrain_feature(name)
    return next(key for key, value in rules.terrain.items() if value == feature)


# -- reading files and describing shape errors ---------------------------------------------------


def _read(path: Path) -> object:
    """A scenario file as parsed, not yet looked into (:meth:`Scenario.from_dict` checks it whole)."""
    parsed: object = read_data_file(path)
    return parsed


_FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(model.model_fields)
    for kind, model in (("top", Scenario), ("board", Board), ("terrain", TerrainPlacement), ("army", Army), ("unit", UnitEntry))
}


_SHAPE_MESSAGES = {
    "missing": "required field is missing", "int_type": "expected a whole number", "string_type": "expected text",
    "tuple_type": "expected a list", "list_type": "expected a list", "model_type": "expected a table (a mapping)",
    "dict_type": "expected a table (a mapping)", "model_attributes_type": "expected a table (a mapping)",
}


def _item(data: object, key: str, index: int | str) -> Mapping[str, object]:
    group = data.get(key) if isinstance(data, Mapping) else None
    item = group[index] if isinstance(group, list) and isinstance(index, int) and index < len(group) else None
    return item if isinstance(item, Mapping) else {}


def _where(data: object, loc: tuple[int | str, ...]) -> tuple[str, str, list[int | str]]:
    """(label, model kind, remaining field path) for a pydantic error location."""
    rest = list(loc)
    if rest[:1] == ["board"]:
        return "board", "board", rest[1:]
    if rest[:1] == ["terrain"] and len(rest) > 1:
        item = _item(data, "terrain", rest[1])
        zone = f" (zone {item['zone']!r})" if isinstance(item.get("zone"), str) else ""
        return f"terrain {int(rest[1]) + 1}{zone}", "terrain", rest[2:]
    if rest[:1] == ["armies"] and len(rest) > 1:
        army = _item(data, "armies", rest[1])
        name, side = army.get("name"), army.get("side")
        label = f"army {name!r}" if isinstance(name, str) else f"army {int(rest[1]) + 1}"
        label += f" (side {side})" if isinstance(side, str) else ""
        if rest[2:3] == ["units"] and len(rest) > 3:
            unit = _item(army, "units", rest[3])
            what = f" ({unit['unit']!r})" if isinstance(unit.get("unit"), str) else ""
            return f"{label}, unit {int(rest[3]) + 1}{what}", "unit", rest[4:]
        return label, "army", rest[2:]
    return "", "top", rest


def _shape_problems(data: object, exc: ValidationError) -> list[str]:
    """One sentence per pydantic error: where, which field, what was expected, what was got."""
    problems = []
    for err in exc.errors(include_url=False):
        label, kind, rest = _where(data, tuple(err["loc"]))
        field = ".".join(str(p + 1) if isinstance(p, int) else p for p in rest)
        kind_of = err["type"]
        msg = _SHAPE_MESSAGES.get(kind_of, str(err["msg"]))
        if kind_of == "extra_forbidden":
            hint = closest(str(rest[-1]), _FIELDS[kind], n=1) if rest else []
            msg = f"unknown field (expected one of {', '.join(_FIELDS[kind])})"
            msg += f"; did you mean {hint[0]!r}?" if hint else ""
        elif kind_of == "literal_error":
            msg = f"expected {err.get('ctx', {}).get('expected', '?')}"
        if kind_of not in ("missing", "extra_forbidden"):
            msg += f", got {err['input']!r}"
        where = ", ".join(part for part in (label, f"field {field}" if field else "") if part)
        problems.append(f"{where or '(top level)'}: {msg}")
    return problems
