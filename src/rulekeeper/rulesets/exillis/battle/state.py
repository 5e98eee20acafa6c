"""The immutable state of an Ex illis battle, and its JSON form.

Everything a battle needs to continue is in :class:`BattleState`, including the RNG
state, so applying an action is a pure function and a saved battle resumes exactly.
Unit profiles are not stored: they are rebuilt from the scenario (names, levels,
miniatures) and the ruleset data when a battle is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekeeper.boards.zones import Coord, ZoneGrid
from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.rng import RngState

from ..combatants import Combatant
from ..fastcopy import evolve, memo
from ..options import ExIllisOptions
from ..state_kind import ExIllisState

ACT_AT = 1000.0


@dataclass(frozen=True)
class PendingAction:
    """A long action under way: it resolves when the unit's time comes again on the turn bar.

    Seed (Symbols, small clepsydra): "a long action, which will only be executed after a certain
    amount of Action Points have been accumulated. While preparing for the action, the unit's
    Defences (Block, Evade, Deflect) are reduced to 0, and the unit will be interrupted if it
    takes direct damage." See :mod:`.long_actions`.
    """

    kind: str  # the action kind, e.g. "shoot"
    target: str | None = None
    option: str | None = None  # e.g. "aim"

    def to_list(self) -> list[str | None]:
        return [self.kind, self.target, self.option]

    @classmethod
    def from_list(cls, x: list[str | None] | None) -> PendingAction | None:
        return None if not x else cls(str(x[0]), x[1], x[2])


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
    reloaded: bool = True
    approach: int | None = None  # direction (0-7) it charged into its zone from, while the melee lasts
    deploy_index: int = 0
    points: int = 0
    kills: int = 0
    last_target: str | None = None  # artillery: the zone it shot at last, to scatter less
    streak: int = 0  # artillery: consecutive shots at last_target
    aura_turns: int = 0
    pending: PendingAction | None = None  # a long action being prepared
    verses: int = 0  # Chant: Verses sung since the last Finale or other action

    @property
    def leadership(self) -> float:
        """Leadership now in the unit's morale: its live ``leadership`` modifier (not scaled by sensitivity)."""
        return self.c.modified_by("leadership")

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
        """A special rule or the heroic power (case-insensitive)."""
        return rule.lower() in self.c.rule_sets[1]

    def movement(self) -> int:
        m = str(self.c.profile.movement)
        if m == "cavalry" or (m == "flyer" and self.flying):
            return 2
        return 1


@dataclass(frozen=True)
class BattleState(ExIllisState):
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

    # -- indexes (built once per state on first use: a state never changes) --------------------

    @memo
    def _by_key(self) -> dict[str, BattleUnit]:
        out: dict[str, BattleUnit] = {}
        for u in self.units:
            out.setdefault(u.key, u)  # the first of a key wins, as the linear search did
        return out

    @memo
    def _by_zone(self) -> dict[Coord, tuple[BattleUnit, ...]]:
        """Units on the board per zone, in ``units`` order (legal moves ask this thousands of times)."""
        out: dict[Coord, list[BattleUnit]] = {}
        for u in self.units:
            if u.on_board and u.zone is not None:
                out.setdefault(u.zone, []).append(u)
        return {z: tuple(us) for z, us in out.items()}

    @memo
    def _terrain(self) -> dict[Coord, str]:
        return {z: t for z, t in reversed(self.terrain)}  # reversed: the first listed wins

    # -- lookups -------------------------------------------------------------------------------

    def unit(self, key: str) -> BattleUnit:
        u = self._by_key.get(key)
        if u is None:
            raise UnknownNameError("unit in this battle", key, [u.key for u in self.units])
        return u

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

    def zone_name(self, z: Coord) -> str:
        """``board.name(z)``, looked up: legal actions name every zone they reach."""
        name = _names(self.board)[0].get(z)
        return self.board.name(z) if name is None else name  # off the board: the board's own error

    def zone_at(self, text: str) -> Coord:
        """``board.parse(text)``, looked up for the board's own spelling of a zone (what actions carry)."""
        z = _names(self.board)[1].get(text) if isinstance(text, str) else None
        return self.board.parse(text) if z is None else z

    def crossed(self, frm: Coord, to: Coord) -> list[tuple[Coord, float]]:
        """``board.crossed(frm, to)``, worked out once per board (exact fractions make it slow)."""
        key = (self.board, frm, to)
        hit = _CROSSED.get(key)
        if hit is None:
            if len(_CROSSED) >= 4096:
                _CROSSED.clear()
            hit = _CROSSED[key] = tuple(self.board.crossed(frm, to))
        return list(hit)

    def terrain_at(self, z: Coord) -> str:
        return self._terrain.get(z, "fields")

    def in_zone(self, z: Coord) -> list[BattleUnit]:
        return list(self._by_zone.get(z, ()))

    def sides(self) -> tuple[str, ...]:
        return tuple(sorted({u.side for u in self.units}))

    def enemies_in(self, z: Coord, side: str) -> list[BattleUnit]:
        return [u for u in self._by_zone.get(z, ()) if u.side != side]

    def zones_with_enemies(self, side: str) -> list[Coord]:
        """Zones holding a unit on the board that is not of ``side``, in first-unit order."""
        return list(self._enemy_zones(side))

    def _enemy_zones(self, side: str) -> tuple[Coord, ...]:
        key = ("zones with enemies", side)
        if key not in self.scratch:
            self.scratch[key] = tuple(z for z, us in self._by_zone.items() if any(u.side != side for u in us))
        zones: tuple[Coord, ...] = self.scratch[key]
        return zones

    @memo
    def scratch(self) -> dict[Any, Any]:
        """Scratch space for results derived from this state alone (e.g. a unit's routes).

        A state never changes, so whatever is stored here stays true; copies made with
        ``replace``/``evolve`` start empty.
        """
        return {}

    def nearest_enemy(self, z: Coord, side: str) -> int | None:
        """Zones from ``z`` to the nearest enemy of ``side`` on the board (``None``: no enemy left).

        Memoized per state: the policy asks it for every move it weighs.
        """
        key = ("nearest enemy", z, side)
        if key not in self.scratch:
            if z not in _names(self.board)[0]:
                self.board.distance(z, z)  # a zone off the board: the board's own error, as measuring would give
            col, row = z  # the board's distance (Chebyshev: a diagonal step counts one), inlined
            enemies = self._enemy_zones(side)
            self.scratch[key] = min((max(abs(col - e[0]), abs(row - e[1])) for e in enemies), default=None)
        nearest: int | None = self.scratch[key]
        return nearest

    def engaged(self, u: BattleUnit) -> bool:
        return u.zone is not None and bool(self.enemies_in(u.zone, u.side))

    def fight_dir(self, z: Coord) -> tuple[str, int] | None:
        for zz, side, d in self.fight_dirs:
            if zz == z:
                return side, d
        return None

    def with_units(self, units: dict[str, BattleUnit]) -> BattleState:
        return evolve(self, units=tuple(units.get(u.key, u) for u in self.units))

    @property
    def round(self) -> float:
        """Rounds played: the time an Initiative-100 unit needs to earn 1000 AcP."""
        return self.clock / 10.0

    def army_total(self, side: str) -> int:
        return dict(self.army_points).get(side, 0)


_NAMES: dict[ZoneGrid, tuple[dict[Coord, str], dict[str, Coord]]] = {}
_CROSSED: dict[tuple[ZoneGrid, Coord, Coord], tuple[tuple[Coord, float], ...]] = {}


def _names(board: ZoneGrid) -> tuple[dict[Coord, str], dict[str, Coord]]:
    """Every zone's name and back, once per board size."""
    hit = _NAMES.get(board)
    if hit is None:
        if len(_NAMES) >= 64:
            _NAMES.clear()
        names = {z: board.name(z) for z in board.zones()}
        hit = _NAMES[board] = (names, {n: z for z, n in names.items()})
    return hit
