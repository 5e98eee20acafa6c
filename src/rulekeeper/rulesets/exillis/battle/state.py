"""The immutable state of an Ex illis battle, and its JSON form.

Everything a battle needs to continue is in :class:`BattleState`, including the RNG
state, so applying an action is a pure function and a saved battle resumes exactly.
Unit profiles are not stored: they are rebuilt from the scenario (names, levels,
miniatures) and the ruleset data when a battle is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rulekeeper.boards.zones import Coord, ZoneGrid
from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.rng import RngState

from ..combatants import Combatant
from ..options import ExIllisOptions

ACT_AT = 1000.0


@dataclass(frozen=True)
class BattleUnit:
    """A unit (or hero) of one side and everything the battle tracks about it."""

    key: str
    side: str
    c: Combatant
    zone: Coord | None
    acp: float = 0.0
    status: str = "active"  # active | destroyed | fled
    hero: str | None = None  # on a retinue: the key of its hero
    retinue: str | None = None  # on a hero: the key of its retinue
    general: bool = False
    leadership: float = 0.0  # Leadership currently included in morale (not scaled by sensitivity)
    reloaded: bool = True
    approach: int | None = None  # direction (0-7) it charged into its zone from, while the melee lasts
    deploy_index: int = 0
    points: int = 0
    kills: int = 0
    last_target: str | None = None  # artillery: the zone it shot at last, to scatter less
    streak: int = 0  # artillery: consecutive shots at last_target
    aura_turns: int = 0

    @property
    def flying(self) -> bool:
        return self.c.flying

    @property
    def on_board(self) -> bool:
        return self.status == "active" and self.zone is not None

    @property
    def is_hero(self) -> bool:
        return str(self.c.profile.kind) == "hero"

    @property
    def name(self) -> str:
        return self.c.name

    def has_rule(self, rule: str) -> bool:
        p = self.c.profile
        rules = [r.lower() for r in p.special_rules]
        if p.heroic_power:
            rules.append(str(p.heroic_power).lower())
        return rule.lower() in rules

    def movement(self) -> int:
        m = str(self.c.profile.movement)
        if m == "cavalry" or (m == "flyer" and self.flying):
            return 2
        return 1


@dataclass(frozen=True)
class BattleState:
    """One moment of a battle. ``units`` keep their order (deployment order)."""

    scenario: str
    board: ZoneGrid
    terrain: tuple[tuple[Coord, str], ...]
    units: tuple[BattleUnit, ...]
    rng: RngState
    options: ExIllisOptions = ExIllisOptions()
    fight_dirs: tuple[tuple[Coord, str, int], ...] = ()  # (zone, side that set it, direction it attacks from)
    active: tuple[str, ...] = ()  # keys acting now (a hero and its retinue act together)
    activations: int = 0
    clock: float = 0.0  # game time; a unit of Initiative 100 gains 1000 AcP per 10 units (one "round")
    turn_limit: int = 0  # in rounds; 0 = none
    over: bool = False
    winner: str | None = None
    end_reason: str = ""
    armies: tuple[tuple[str, str], ...] = ()  # (side, army name)
    army_points: tuple[tuple[str, int], ...] = ()
    practice: bool = False
    meta: dict[str, Any] = field(default_factory=dict, compare=False)

    # -- lookups -------------------------------------------------------------------------------

    def unit(self, key: str) -> BattleUnit:
        for u in self.units:
            if u.key == key:
                return u
        raise UnknownNameError("unit in this battle", key, [u.key for u in self.units])

    def find(self, name: str) -> BattleUnit:
        """A unit by key, or by name when that name is unique in the battle (case-insensitive)."""
        low = name.strip().lower()
        for u in self.units:
            if u.key.lower() == low:
                return u
        hits = [u for u in self.units if u.name.lower() == low or u.key.split(":", 1)[-1].lower() == low]
        active = [u for u in hits if u.on_board]
        if len(active) == 1:
            return active[0]
        if len(hits) == 1:
            return hits[0]
        raise UnknownNameError("unit in this battle", name, [u.key for u in self.units])

    def terrain_at(self, z: Coord) -> str:
        for zz, t in self.terrain:
            if zz == z:
                return t
        return "fields"

    def in_zone(self, z: Coord) -> list[BattleUnit]:
        return [u for u in self.units if u.on_board and u.zone == z]

    def sides(self) -> tuple[str, ...]:
        return tuple(sorted({u.side for u in self.units}))

    def enemies_in(self, z: Coord, side: str) -> list[BattleUnit]:
        return [u for u in self.in_zone(z) if u.side != side]

    def engaged(self, u: BattleUnit) -> bool:
        return u.zone is not None and bool(self.enemies_in(u.zone, u.side))

    def fight_dir(self, z: Coord) -> tuple[str, int] | None:
        for zz, side, d in self.fight_dirs:
            if zz == z:
                return side, d
        return None

    def with_units(self, units: dict[str, BattleUnit]) -> BattleState:
        return replace(self, units=tuple(units.get(u.key, u) for u in self.units))

    @property
    def round(self) -> float:
        """Rounds played: the time an Initiative-100 unit needs to earn 1000 AcP."""
        return self.clock / 10.0

    def army_total(self, side: str) -> int:
        return dict(self.army_points).get(side, 0)
