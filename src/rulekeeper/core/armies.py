"""The optional halves of the game protocol that live outside a battle: building an army list,
and recording a finished battle in a campaign.

Why here: the web keeper (like the CLI before it) must let a player pick units, levels and heroes,
see the list priced and checked, and after a battle award its campaign points — without importing
a rule system (``web/`` never imports ``rulesets/``). A game that can do these returns an
:class:`ArmyBuilder` from ``Game.army_builder()`` and a :class:`CampaignBook` from
``Game.campaign()``; a game that cannot returns None and the pages say so.

Everything crossing this boundary is plain data made by the game (:class:`Catalog`,
:class:`PricedArmy`, :class:`CampaignReport`), so the pages draw any game's list and campaign
with one set of templates; ``document`` fields keep the game's own JSON (for Ex illis, exactly
what ``rulekeeper muster check --json`` and ``campaign record --json`` print).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from .armylist import ArmyList, CostLine, Problem

if TYPE_CHECKING:
    from .game import Game

JsonDict = dict[str, Any]


# -- building a list --------------------------------------------------------------------------------


@dataclass(frozen=True)
class ArmyType:
    """A kind of game a list is built for (Ex illis: a game type) and the levels it allows."""

    name: str
    min_level: int
    max_level: int
    earns_points: bool = True  # whether its battles earn campaign points
    label: str = ""


@dataclass(frozen=True)
class RosterUnit:
    """One unit or character a list may hold, with what a form needs to offer it."""

    name: str
    kind: str  # "unit", "hero" (joins a unit) or "loner" (a character that is a unit of its own)
    miniatures: int  # the full size
    min_miniatures: int  # the smallest legal size
    max_level: int
    cost: float  # basic cost at full size
    categories: tuple[str, ...] = ()
    factions: tuple[str, ...] = ()  # for a character: the factions it may lead as General

    @property
    def is_entry(self) -> bool:
        """Whether it can be an entry of the list (a unit or a Loner), not only join one."""
        return self.kind != "hero"


@dataclass(frozen=True)
class Catalog:
    """Everything a list may be built from."""

    noun: str  # what the game calls a list ("muster")
    types: tuple[ArmyType, ...]
    units: tuple[RosterUnit, ...]
    factions: tuple[str, ...] = ()
    formats: tuple[str, ...] = ("yaml",)  # the text formats :meth:`ArmyBuilder.write` knows
    points_name: str = "campaign points"  # what the points a list brings to a campaign are called

    @property
    def entries(self) -> tuple[RosterUnit, ...]:
        return tuple(u for u in self.units if u.is_entry)

    @property
    def heroes(self) -> tuple[RosterUnit, ...]:
        return tuple(u for u in self.units if u.kind == "hero")


@dataclass(frozen=True)
class PricedEntry:
    """One cost line of a priced list and what its table row shows."""

    line: CostLine
    role: str  # "unit", "hero", "loner", "unknown" or a game's own extra line ("promotion")
    level: int | None = None
    miniatures: int | None = None
    full: int | None = None
    categories: tuple[str, ...] = ()
    penalised: bool = False  # paid a penalty (Ex illis: "its cost will be shown in red")


@dataclass(frozen=True)
class ShapePart:
    """One category of the list's shape: its points, share and the colour of its threshold."""

    category: str
    name: str
    points: int
    share: float
    first: float  # share past which a point costs more (yellow)
    second: float | None  # share past which it costs more again (red); None: no second threshold
    state: str  # "green", "yellow" or "red"


@dataclass(frozen=True)
class PricedArmy:
    """A list priced and checked: every cost line, the shape, the total and **every** problem."""

    army: ArmyList
    lines: tuple[PricedEntry, ...]
    shape: tuple[ShapePart, ...]
    total: int
    basic_total: int
    size: int  # units and characters counted for campaign points
    points_brought: int  # campaign points the list brings (0 when its type earns none)
    earns_points: bool
    type_label: str = ""
    faction: str | None = None
    generals: tuple[str, ...] = ()
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = ()
    document: JsonDict = field(default_factory=dict)  # the game's own JSON report

    @property
    def valid(self) -> bool:
        return not self.problems


class ArmyBuilder(Protocol):
    """A game's army lists for a front end: what they may hold, their price, their text form."""

    noun: str

    def catalog(self) -> Catalog:
        """The types, units and characters a list may be built from."""
        ...

    def price(self, army: ArmyList) -> PricedArmy:
        """Price and check ``army``; never raises for a rule broken (problems are listed)."""
        ...

    def read(self, text: str, where: str) -> ArmyList:
        """A list from pasted text (the game's file format); a typed error names what is wrong."""
        ...

    def write(self, army: ArmyList, fmt: str) -> str:
        """``army`` as a file in ``fmt`` (one of :attr:`Catalog.formats`), which :meth:`read` reads back."""
        ...


# -- the campaign after a battle ------------------------------------------------------------------


class BattleSource(Protocol):
    """What a campaign needs of the stored battles (``service.battles.BattleService`` is one)."""

    def record(self, bid: str) -> object:
        """The stored battle (the store's record; the core does not look into it)."""
        ...

    def state(self, bid: str) -> object:
        """The battle's current state, opaque as everywhere outside its game."""
        ...

    def game(self, bid: str) -> Game: ...


@dataclass(frozen=True)
class CampaignUnitLine:
    """One unit or character of either side after the battle was recorded."""

    side: str
    muster: str
    unit: str
    kind: str  # "unit" or "hero"
    status: str  # how it ended the battle (active, destroyed, fled...)
    level_before: int
    level: int
    points_received: int
    points: int  # points held toward the next level
    to_next: int | None  # points still needed for the next level; None at the maximum
    skill_points: int = 0  # gained in this record
    label: str = ""
    named: bool = False  # a character "set in time": never gains levels

    @property
    def levels_gained(self) -> int:
        return self.level - self.level_before


@dataclass(frozen=True)
class CampaignPlayerLine:
    player: str
    sides: tuple[str, ...]
    level_before: int
    level: int
    renown_gained: int
    renown: int
    to_next: int | None


@dataclass(frozen=True)
class CampaignSide:
    side: str
    muster: str
    player: str
    size: int
    points_brought: int
    points: int  # the list's total as priced
    basic_points: int


@dataclass(frozen=True)
class CampaignReport:
    """A recorded battle: the points every unit earned, who levelled up, the players' Renown."""

    battle_id: str
    points: int  # campaign points each unit of both sides received
    note: str  # why the battle earned none, or ""
    sides: tuple[CampaignSide, ...]
    units: tuple[CampaignUnitLine, ...]
    players: tuple[CampaignPlayerLine, ...]
    recorded: str = ""  # when
    winner: str | None = None
    document: JsonDict = field(default_factory=dict)  # the game's own JSON (``campaign record --json``)

    @property
    def level_ups(self) -> tuple[CampaignUnitLine, ...]:
        return tuple(u for u in self.units if u.levels_gained > 0)


class CampaignBook(Protocol):
    """A game's campaign kept in the battles' database (``db``: the store's URL)."""

    points_name: str  # what its campaign points are called ("Battle Points")

    def recordable(self, meta: Mapping[str, object]) -> str | None:
        """Why a battle with this stored meta can never be recorded (not from army lists), or None."""
        ...

    def recorded(self, db: str | None, battle_id: str) -> CampaignReport | None:
        """The report of a battle already recorded, or None."""
        ...

    def record(self, battles: BattleSource, db: str | None, battle_id: str,
               players: Mapping[str, str]) -> CampaignReport:
        """Record a finished battle once (typed errors: not over, already recorded...)."""
        ...
