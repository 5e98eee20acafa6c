"""Every rule an Ex illis muster breaks, python-chess ``status()`` style: a list, never an exception.

Each :class:`~rulekeeper.core.armylist.Problem` names the entry (1-based; 0 = the whole muster),
the unit, a stable rule id and a sentence quoting the seed. Army-wide problems come first, then
the entries in list order. Rule ids:

``unknown-game-type`` ``empty-muster`` ``one-general`` ``unknown-general`` ``general-not-hero``
``general-not-in-muster`` ``unknown-faction`` ``faction-without-general`` ``faction-not-generals``
``general-faction-missing`` ``unknown-unit`` ``unknown-hero`` ``level-range`` ``level-max``
``miniatures-minimum`` ``miniatures-maximum`` ``hero-without-retinue`` ``unit-as-hero``
``hero-twice`` ``loner-joins`` ``loner-retinue``.
"""

from __future__ import annotations

from rulekeeper.core.armylist import ArmyList, ListedUnit, Problem
from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.wording import counted

from .musters_data import GameType, MustersData
from .profiles import Roster, UnitProfile
from .scenario import minimum_miniatures

__all__ = ["LONER", "army_generals", "check_army"]

LONER = "Loner"


def army_generals(army: ArmyList) -> tuple[str, ...]:
    """Every General the list names: ``extra["generals"]`` when a file names several, else ``general``."""
    many = army.extra.get("generals")
    if isinstance(many, (list, tuple)) and all(isinstance(g, str) for g in many):
        return tuple(many)
    return () if army.general is None else (army.general,)


def _is_loner(profile: UnitProfile) -> bool:
    return profile.kind == "hero" and LONER in profile.special_rules


class _Checker:
    def __init__(self, army: ArmyList, roster: Roster, data: MustersData) -> None:
        self.army, self.roster, self.data = army, roster, data
        self.out: list[Problem] = []
        self.game: GameType | None = data.find_game_type(army.game_type) if army.game_type else None
        self.heroes: dict[str, int] = {}  # canonical hero name -> the entry it is with
        self.hero_names = [n for p in roster if p.kind == "hero" for n in (p.name, *p.aliases)]

    def bad(self, entry: int, unit: str, rule: str, message: str) -> None:
        self.out.append(Problem(entry, unit, rule, message))

    def run(self) -> list[Problem]:
        army_wide: list[Problem] = []
        if self.game is None:
            names = [g.name for g in self.data.game_types]
            kinds = ", ".join(f"{g.name} {g.min_level}-{g.max_level}" for g in self.data.game_types)
            what = UnknownNameError("game type", self.army.game_type, names).message if self.army.game_type else (
                "No game type given.")
            army_wide.append(Problem(0, "", "unknown-game-type", f"{what} The seed's types (levels): {kinds}."))
        if not self.army.units:
            army_wide.append(Problem(0, "", "empty-muster",
                                     "The muster has no unit: 'Every unit and Hero possesses one or more Muster "
                                     "Category' -- add at least one unit."))
        for i, entry in enumerate(self.army.units, 1):
            self._entry(i, entry)
        entries, self.out = self.out, []
        self._generals()
        return army_wide + self.out + entries

    # -- one entry --------------------------------------------------------------------------

    def _entry(self, i: int, entry: ListedUnit) -> None:
        profile = self.roster.find(entry.unit)
        if profile is None:
            self.bad(i, entry.unit, "unknown-unit", UnknownNameError("unit", entry.unit, self.roster_names()).message)
        elif profile.kind == "hero" and not _is_loner(profile):
            self.bad(i, profile.name, "hero-without-retinue",
                     f"{profile.name} is a hero listed as a unit. 'Characters always accompany a unit (called "
                     f"Retinue)': write hero: {profile.name} on the unit he or she joins.")
            self._claim(i, profile.name)
            self._level(i, profile, entry.level, "level")
        else:
            if _is_loner(profile):
                self._claim(i, profile.name)
            self._miniatures(i, profile, entry.miniatures)
            self._level(i, profile, entry.level, "level")
        if entry.attached is not None:
            self._hero(i, entry, profile)

    def _miniatures(self, i: int, profile: UnitProfile, miniatures: int | None) -> None:
        if miniatures is None:
            return
        full, low = profile.miniatures, minimum_miniatures(profile.miniatures)
        if miniatures < low:
            self.bad(i, profile.name, "miniatures-minimum",
                     f"{counted(miniatures, 'miniature')} of {profile.name}: a partial unit keeps "
                     f"'the majority (50% + 1)', so {low} to {full} (full size {full}).")
        elif miniatures > full:
            self.bad(i, profile.name, "miniatures-maximum",
                     f"{counted(miniatures, 'miniature')} of {profile.name}: a full unit has {full}.")

    def _level(self, i: int, profile: UnitProfile, level: int, field: str) -> None:
        game = self.game
        named = self.data.named(profile.name)
        if named is not None:
            played = self.data.effective_level(profile.name, level, game, profile.max_level)
            if game is not None and played < game.min_level:
                self.bad(i, profile.name, "level-range",
                         f"{profile.name} is a named Character of level {min(named.level, profile.max_level)}, "
                         f"'set in time', below the {game.name} game type's minimum level {game.min_level}.")
            return
        if game is not None and not game.min_level <= level <= game.max_level:
            self.bad(i, profile.name, "level-range",
                     f"{field} {level} of {profile.name} is outside the {game.name} game type's levels "
                     f"{game.min_level} to {game.max_level} ('the minimum and maximum levels of the miniatures').")
        elif game is None and level < 1:
            self.bad(i, profile.name, "level-range", f"{field} {level} of {profile.name}: levels start at 1.")
        if level > profile.max_level:
            self.bad(i, profile.name, "level-max",
                     f"{field} {level} is above {profile.name}'s maximum level {profile.max_level} ('A unit can "
                     "never play a higher level than the one it has reached').")

    def _hero(self, i: int, entry: ListedUnit, retinue: UnitProfile | None) -> None:
        name = entry.attached or ""
        hero = self.roster.find(name)
        if hero is None:
            self.bad(i, name, "unknown-hero", UnknownNameError("hero", name, self.hero_names).message)
            return
        if hero.kind != "hero":
            self.bad(i, hero.name, "unit-as-hero",
                     f"{hero.name} is a unit, not a hero: give it its own entry (unit: {hero.name}).")
            return
        if _is_loner(hero):
            self.bad(i, hero.name, "loner-joins",
                     f"{hero.name} is a Loner: 'He cannot join any unit and so has no Retinue'; list him as a "
                     f"unit of his own (unit: {hero.name}).")
            self._claim(i, hero.name)
            return
        if retinue is not None and _is_loner(retinue):
            self.bad(i, retinue.name, "loner-retinue",
                     f"{retinue.name} is a Loner and 'has no Retinue', so {hero.name} cannot join him; "
                     f"attach {hero.name} to another unit.")
        self._claim(i, hero.name)
        self._level(i, hero, entry.attached_level, "hero_level")

    def _claim(self, i: int, hero: str) -> None:
        if hero in self.heroes:
            self.bad(i, hero, "hero-twice",
                     f"{hero} is already in entry {self.heroes[hero]}; a hero accompanies one unit only.")
        else:
            self.heroes[hero] = i

    # -- the General and the faction -----------------------------------------------------------

    def _generals(self) -> None:
        generals = army_generals(self.army)
        if len(generals) > 1:
            self.bad(0, "", "one-general",
                     f"{len(generals)} Generals named ({', '.join(generals)}); an army is led by one General "
                     "('promoting one of your Heroes to the rank of General').")
        valid: list[UnitProfile] = []
        for name in generals:
            hero = self.roster.find(name)
            if hero is None:
                self.bad(0, name, "unknown-general", UnknownNameError("hero", name, self.hero_names).message)
            elif hero.kind != "hero":
                self.bad(0, hero.name, "general-not-hero",
                         f"{hero.name} is a unit; the General is one of the army's Heroes.")
            elif hero.name not in self.heroes:
                listed = ", ".join(self.heroes) or "none"
                self.bad(0, hero.name, "general-not-in-muster",
                         f"{hero.name} is not a hero of this muster (its heroes: {listed}); 'promoting one of "
                         "your Heroes to the rank of General'.")
            else:
                valid.append(hero)
        self._faction(generals, valid)

    def _faction(self, generals: tuple[str, ...], valid: list[UnitProfile]) -> None:
        declared = self.army.faction
        if declared is not None:
            faction = self.data.find_faction(declared)
            if faction is None:
                self.bad(0, "", "unknown-faction", UnknownNameError("faction", declared, self.data.factions).message)
                return
            if not generals:
                self.bad(0, "", "faction-without-general",
                         f"Faction {faction} without a General: 'the army's faction (if you chose a Hero to serve "
                         "as General)'; name the General whose faction it is.")
                return
            for hero in valid:
                allowed = self.data.hero_factions(hero.name)
                if faction not in allowed:
                    self.bad(0, hero.name, "faction-not-generals",
                             f"{hero.name} cannot fight for {faction}; his or her factions: "
                             f"{', '.join(allowed) or 'none recorded'}.")
            return
        for hero in valid:
            allowed = self.data.hero_factions(hero.name)
            if len(allowed) > 1:
                self.bad(0, hero.name, "general-faction-missing",
                         f"{hero.name} as General gives the army his or her Faction, and may fight for "
                         f"{', '.join(allowed)}: choose one with faction: ...")

    def roster_names(self) -> list[str]:
        return [n for p in self.roster for n in (p.name, *p.aliases)]


def check_army(army: ArmyList, roster: Roster, data: MustersData) -> list[Problem]:
    """Every problem of ``army``: army-wide ones first (game type, empty, General, faction), then entries."""
    return _Checker(army, roster, data).run()
