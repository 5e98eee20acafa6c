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

import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, StrictInt, StrictStr, ValidationError, field_serializer, field_validator

from rulekeeper.core.datafiles import read_data_file
from rulekeeper.core.errors import DataFileError, UnknownNameError, closest

from .profiles import Roster, UnitProfile, load_profiles, normalise_name
from .rules_data import RulesData, Terrain, load_rules_data

__all__ = [
    "DEFAULT_FEATURE", "HUGE", "LONER", "MAX_HEIGHT", "MAX_WIDTH", "SIDES", "Army", "Board", "Scenario", "Side",
    "TerrainPlacement", "UnitEntry", "load_scenario", "minimum_miniatures", "parse_zone", "unit_cost", "zone_name",
]

Side = Literal["A", "B"]
SIDES: tuple[Side, Side] = ("A", "B")
#: One column letter per column, so at most 26 columns.
MAX_WIDTH = 26
#: Rows are numbered from 1; two digits are plenty (the seed's longest board is 20 x 3).
MAX_HEIGHT = 99
#: Special rules that change deployment: a Loner has no Retinue, a Huge unit takes 2 spaces.
LONER = "Loner"
HUGE = "Huge"
#: A zone without a terrain entry is open ground ("Field ... does not count as a terrain feature").
DEFAULT_FEATURE = "fields"

_ZONE = re.compile(r"^([A-Za-z])([1-9][0-9]*)$")


# -- zones and points ------------------------------------------------------------------------


def parse_zone(name: str) -> tuple[int, int]:
    """``"C2"`` -> ``(2, 1)``: 0-based (column, row); letters are case-insensitive.

    Our own tiny parser, so scenarios do not depend on the board module. ValueError if
    the name is not one letter followed by a row number from 1.
    """
    match = _ZONE.match(name.strip())
    if match is None:
        raise ValueError(f"malformed zone name {name!r}: expected a column letter and a row number from 1, like 'C4'")
    return ord(match.group(1).upper()) - ord("A"), int(match.group(2)) - 1


def zone_name(col: int, row: int) -> str:
    """``(2, 1)`` -> ``"C2"``, the inverse of :func:`parse_zone`."""
    return f"{chr(ord('A') + col)}{row + 1}"


def minimum_miniatures(full: int) -> int:
    """The smallest legal partial unit: "the majority (50% + 1)" -- 8 -> 5, 4 -> 3, 2 -> 2, 1 -> 1."""
    return full // 2 + 1


def unit_cost(basic_cost: float, level: int, miniatures: int, full: int) -> int:
    """The seed's "Unit's Cost = Basic Cost x 2^(Level/10) x Number of miniatures" (/ full size).

    Rounded half up ("rounded up to the closest whole number"); the tiny epsilon keeps a
    true .5 that floating point stores as .4999... from rounding down. Level 1 already
    costs Basic x 2^(1/10), read literally (6 Billmen at level 8: 40 x 1.7411 x 6/8 = 52).
    """
    return math.floor(basic_cost * 2 ** (level / 10) * miniatures / full + 0.5 + 1e-9)


# -- the model ---------------------------------------------------------------------------------

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
    def _one_name_or_list(cls, value: Any) -> Any:
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
        return _Checker(self, *_shipped(roster, rules)).run()

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
    def from_dict(cls, data: Any, roster: Roster | None = None, rules: RulesData | None = None, *,
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


# -- the rule checks ---------------------------------------------------------------------------

_Pos = tuple[int, int]


class _Checker:
    """One pass over a scenario that adds a sentence per broken rule to ``out``."""

    def __init__(self, scenario: Scenario, roster: Roster, rules: RulesData) -> None:
        self.s, self.roster, self.rules = scenario, roster, rules
        self.out: list[str] = []
        self.board_ok = True
        self.features: dict[_Pos, tuple[str, Terrain]] = {}
        self.hero_names = [n for p in roster if p.kind == "hero" for n in (p.name, *p.aliases)]

    def bad(self, where: str, what: str) -> None:
        self.out.append(f"{where}: {what}")

    def run(self) -> list[str]:
        self._board()
        self._terrain()
        self._sides()
        owners: dict[_Pos, list[str]] = {}
        for army in self.s.armies:
            for pos in self._army(army):
                owners.setdefault(pos, []).append(army.label)
        for pos in sorted(owners, key=lambda p: (p[1], p[0])):
            labels = list(dict.fromkeys(owners[pos]))
            if len(labels) > 1:
                self.bad("deployment", f"zone {zone_name(*pos)!r} is in the deployment zones of both "
                         f"{' and '.join(labels)}; the two armies must deploy in different zones")
        return self.out

    def _board(self) -> None:
        b = self.s.board
        if not 1 <= b.width <= MAX_WIDTH:
            self.bad("board, field width", f"expected 1 to {MAX_WIDTH} columns (one letter A-Z each), got {b.width}")
        if not 1 <= b.height <= MAX_HEIGHT:
            self.bad("board, field height", f"expected 1 to {MAX_HEIGHT} rows, got {b.height}")
        self.board_ok = 1 <= b.width <= MAX_WIDTH and 1 <= b.height <= MAX_HEIGHT
        if b.turn_limit < 0:
            self.bad("board, field turn_limit", f"expected 0 (no limit) or a number of rounds, got {b.turn_limit}")

    def _locate(self, where: str, name: str) -> _Pos | None:
        """The zone's position, or None after reporting a malformed or off-board name."""
        try:
            col, row = parse_zone(name)
        except ValueError as exc:
            self.bad(where, str(exc))
            return None
        b = self.s.board
        if self.board_ok and (col >= b.width or row >= b.height):
            last = chr(ord("A") + b.width - 1)
            self.bad(where, f"zone {name!r} is off the {b.width} x {b.height} board (columns A-{last}, rows 1-{b.height})")
            return None
        return col, row

    def _terrain(self) -> None:
        for i, placed in enumerate(self.s.terrain, 1):
            label = f"terrain {i} (zone {placed.zone!r})"
            pos = self._locate(f"{label}, field zone", placed.zone)
            try:
                feature = self.rules.terrain_feature(placed.feature)
            except UnknownNameError as exc:
                self.bad(f"{label}, field feature", exc.message)
                continue
            if pos is not None and pos in self.features:
                self.bad(f"{label}, field zone", f"the zone already holds {self.features[pos][0]!r}; "
                         "a zone has one terrain feature")
            elif pos is not None:
                self.features[pos] = (placed.feature, feature)

    def _sides(self) -> None:
        sides = [a.side for a in self.s.armies]
        for side in SIDES:
            if sides.count(side) != 1:
                self.bad("armies", f"{sides.count(side)} armies for side {side!r}; "
                         "expected exactly one army for each side A and B")
        seen: set[str] = set()
        for army in self.s.armies:
            if normalise_name(army.name) in seen:
                self.bad(f"{army.label}, field name", "another army has the same name; each army needs its own")
            seen.add(normalise_name(army.name))

    def _army(self, army: Army) -> list[_Pos]:
        """Check one army; return its valid deployment zones (for the overlap check)."""
        label = army.label
        allowed: list[_Pos] = []
        if not army.deployment:
            self.bad(f"{label}, field deployment", "expected at least one zone")
        for name in army.deployment:
            pos = self._locate(f"{label}, field deployment", name)
            if pos is not None and pos in allowed:
                self.bad(f"{label}, field deployment", f"zone {name!r} is listed twice")
            elif pos is not None:
                allowed.append(pos)
        if not army.units:
            self.bad(f"{label}, field units", "expected at least one unit")
        heroes: dict[str, str] = {}  # canonical hero name -> the unit it is with
        load: dict[_Pos, list[tuple[str, int]]] = {}
        for i, entry in enumerate(army.units, 1):
            short = f"unit {i} ({entry.unit!r})"
            ulabel = f"{label}, {short}"
            profile = self._unit(ulabel, short, entry, heroes)
            self._hero(ulabel, short, entry, profile, heroes)
            pos = self._locate(f"{ulabel}, field zone", entry.zone)
            if pos is None:
                continue
            if allowed and pos not in allowed:
                self.bad(f"{ulabel}, field zone", f"{entry.zone!r} is not one of the army's deployment zones "
                         f"({', '.join(army.deployment)})")
            feature = self.features.get(pos)
            if feature is not None and not feature[1].passable:
                self.bad(f"{ulabel}, field zone", f"{entry.zone!r} is {feature[0]}, impassable: no unit can stand there")
                continue
            huge = profile is not None and HUGE in profile.special_rules
            name = (profile.name if profile is not None else entry.unit) + (" (Huge: 2 spaces)" if huge else "")
            load.setdefault(pos, []).append((name, 2 if huge else 1))
        self._capacity(label, load)
        self._general(label, army, heroes)
        return allowed

    def _unit(self, ulabel: str, short: str, entry: UnitEntry, heroes: dict[str, str]) -> UnitProfile | None:
        where = f"{ulabel}, field unit"
        try:
            profile = self.roster.get(entry.unit)
        except UnknownNameError as exc:
            self.bad(where, exc.message)
            return None
        if profile.kind == "hero" and LONER not in profile.special_rules:
            self.bad(where, f"{profile.name} is a hero, not a unit; heroes always accompany a unit (their "
                     f"Retinue): write hero = {profile.name!r} on the unit it joins")
        if profile.kind == "hero":  # still the army's hero (no cascade to `general`); a Loner is "a unit on his own"
            self._claim(where, short, profile.name, heroes)
        if profile.kind == "hero" and LONER not in profile.special_rules:
            return None
        full, low = profile.miniatures, minimum_miniatures(profile.miniatures)
        if entry.miniatures is not None and not low <= entry.miniatures <= full:
            self.bad(f"{ulabel}, field miniatures", f"expected {low} to {full} miniatures (full size {full}; a "
                     f"partial unit keeps the majority, 50% + 1), got {entry.miniatures}")
        self._level(f"{ulabel}, field level", entry.level, profile)
        return profile

    def _hero(self, ulabel: str, short: str, entry: UnitEntry, retinue: UnitProfile | None,
              heroes: dict[str, str]) -> None:
        where = f"{ulabel}, field hero"
        if entry.hero is None:
            if entry.hero_level != 1:
                self.bad(f"{ulabel}, field hero_level", "given without a hero; remove it or add hero = ...")
            return
        hero = self.roster.find(entry.hero)
        if hero is None:
            self.bad(where, UnknownNameError("hero", entry.hero, self.hero_names).message)
        elif hero.kind != "hero":
            self.bad(where, f"{hero.name} is a unit, not a hero; give it its own [[armies.units]] entry")
        elif LONER in hero.special_rules:
            self.bad(where, f"{hero.name} is a Loner: he cannot join any unit and has no Retinue; "
                     f"list him as his own unit (unit = {hero.name!r})")
        else:
            if retinue is not None and LONER in retinue.special_rules:
                self.bad(where, f"{retinue.name} is a Loner and has no Retinue, so {hero.name} cannot join him")
            self._claim(where, short, hero.name, heroes)
            self._level(f"{ulabel}, field hero_level", entry.hero_level, hero)

    def _claim(self, where: str, short: str, hero: str, heroes: dict[str, str]) -> None:
        """Record that ``hero`` is with this unit; a second claim puts one hero in two places."""
        if hero in heroes:
            self.bad(where, f"{hero} is already with {heroes[hero]}; a hero accompanies one unit only")
        else:
            heroes[hero] = short

    def _level(self, where: str, level: int, profile: UnitProfile) -> None:
        if not 1 <= level <= profile.max_level:
            self.bad(where, f"expected a level from 1 to {profile.max_level} ({profile.name}'s maximum), got {level}")

    def _capacity(self, label: str, load: Mapping[_Pos, list[tuple[str, int]]]) -> None:
        """"Up to 3 units from each side, but a forest zone limits this number to 2"."""
        for pos, items in load.items():
            name, feature = self.features.get(pos, (DEFAULT_FEATURE, self.rules.terrain_feature(DEFAULT_FEATURE)))
            used = sum(weight for _, weight in items)
            if used > feature.capacity:
                self.bad(f"{label}, zone {zone_name(*pos)!r} ({name})",
                         f"{used} units' space used ({', '.join(n for n, _ in items)}); a {name} zone holds at "
                         f"most {feature.capacity} units per side (a hero counts with its Retinue)")

    def _general(self, label: str, army: Army, heroes: dict[str, str]) -> None:
        where = f"{label}, field general"
        if len(army.general) > 1:
            self.bad(where, f"{len(army.general)} Generals named ({', '.join(army.general)}); "
                     "an army has at most one General")
        for name in army.general:
            hero = self.roster.find(name)
            if hero is None:
                self.bad(where, UnknownNameError("hero", name, self.hero_names).message)
            elif hero.kind != "hero":
                self.bad(where, f"{hero.name} is a unit; the General must be a hero of the army")
            elif hero.name not in heroes:
                self.bad(where, f"{hero.name} is not a hero of this army (its heroes: {', '.join(heroes) or 'none'}); "
                         "the General must be one of them")


def _feature_key(rules: RulesData, name: str) -> str:
    feature = rules.terrain_feature(name)
    return next(key for key, value in rules.terrain.items() if value == feature)


# -- reading files and describing shape errors ---------------------------------------------------


def _read(path: Path) -> Any:
    return read_data_file(path)


_FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(model.model_fields)
    for kind, model in (("top", Scenario), ("board", Board), ("terrain", TerrainPlacement), ("army", Army), ("unit", UnitEntry))
}


_SHAPE_MESSAGES = {
    "missing": "required field is missing", "int_type": "expected a whole number", "string_type": "expected text",
    "tuple_type": "expected a list", "list_type": "expected a list", "model_type": "expected a table (a mapping)",
    "dict_type": "expected a table (a mapping)", "model_attributes_type": "expected a table (a mapping)",
}


def _item(data: Any, key: str, index: Any) -> Mapping[str, Any]:
    group = data.get(key) if isinstance(data, Mapping) else None
    item = group[index] if isinstance(group, list) and isinstance(index, int) and index < len(group) else None
    return item if isinstance(item, Mapping) else {}


def _where(data: Any, loc: tuple[int | str, ...]) -> tuple[str, str, list[int | str]]:
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


def _shape_problems(data: Any, exc: ValidationError) -> list[str]:
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
