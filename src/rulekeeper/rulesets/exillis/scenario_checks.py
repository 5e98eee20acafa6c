"""The rule checks of an Ex illis scenario: one sentence per broken rule, every one of them.

Each check quotes the rule it enforces (``docs/rules/exillis-scenarios.md``): zone capacity,
partial units, heroes and their Retinues, the Loner, the General, deployment zones. Run by
:meth:`.scenario.Scenario.problems`; like python-chess's ``Board.status()`` it collects every
problem so a player fixes a file in one pass.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.wording import counted

from .profiles import Roster, UnitProfile, normalise_name
from .rules_data import RulesData, Terrain
from .scenario_terms import (
    DEFAULT_FEATURE,
    HUGE,
    LONER,
    MAX_HEIGHT,
    MAX_WIDTH,
    SIDES,
    minimum_miniatures,
    parse_zone,
    zone_name,
)

if TYPE_CHECKING:
    from .scenario import Army, Scenario, UnitEntry

__all__ = ["ScenarioChecker"]

_Pos = tuple[int, int]


class ScenarioChecker:
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
            self.bad(f"{ulabel}, field miniatures", f"expected {low} to {counted(full, 'miniature')} "
                     f"(full size {full}; a partial unit keeps the majority, 50% + 1), got {entry.miniatures}")
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
                space = counted(used, "unit's space", "units' space")
                self.bad(f"{label}, zone {zone_name(*pos)!r} ({name})",
                         f"{space} used ({', '.join(n for n, _ in items)}); "
                         f"a {name} zone holds at most {counted(feature.capacity, 'unit')} per side "
                         "(a hero counts with its Retinue)")

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
