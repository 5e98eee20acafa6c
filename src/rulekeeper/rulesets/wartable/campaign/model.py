"""The War Table campaign's values: Enclaves, factions, units in the field, the campaign state.

The seed plays battles "in a region" of a map, and Enclaves whose Stability rises and falls
round after round. Everything here is a frozen dataclass of exact numbers (``Fraction``), so a
round is a pure function of (state, orders) and can be replayed and compared. The map itself is
:class:`rulekeeper.boards.RegionMap` (geometry only); the rules live in the sibling modules.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypedDict

from rulekeeper.boards import RegionMap
from rulekeeper.core.errors import InvalidStatError, UnknownNameError

from ..model import UnitDef, fold
from ..report_json import Num
from ..rounding import num

#: The Stability an Enclave is restored to "full" by Faith when its file gives no ``full``.
DEFAULT_FULL = Fraction(100)


class EnclaveJson(TypedDict):
    name: str
    region: str
    faction: str
    stability: Num
    full: Num
    fallen: bool


class FieldUnitJson(TypedDict):
    label: str
    unit: str
    faction: str
    region: str
    health: Num
    items: list[str]


class FactionJson(TypedDict):
    name: str
    faith: Num


class RegionJson(TypedDict):
    borders: list[str]
    traits: list[str]


class DungeonJson(TypedDict):
    name: str
    region: str
    table: str


class CampaignJson(TypedDict):
    """The campaign between rounds as the library's summaries show it (numbers as the report writes them)."""

    name: str
    round: int
    regions: dict[str, RegionJson]
    enclaves: list[EnclaveJson]
    factions: list[FactionJson]
    units: list[FieldUnitJson]
    dungeons: list[DungeonJson]


@dataclass(frozen=True)
class Enclave:
    """An Enclave: a settlement in one region, held by a faction, with Stability up to ``full``.

    ``fallen`` is the seed's "Fallen" state (Stability 0 after a direct attack); it is kept apart
    from Stability because a Fallen Enclave cannot be restored by Faith ("a non-Fallen Enclave").
    """

    name: str
    region: str
    faction: str
    stability: Fraction
    full: Fraction = DEFAULT_FULL
    fallen: bool = False

    def __post_init__(self) -> None:
        if self.full <= 0:
            raise InvalidStatError(f"Enclave {self.name!r}: full Stability must be > 0", field="full")
        if self.stability < 0:
            raise InvalidStatError(
                f"Enclave {self.name!r}: Stability must be >= 0, got {num(self.stability)}",
                field="stability",
                value=num(self.stability),
            )

    def to_dict(self) -> EnclaveJson:
        return {
            "name": self.name,
            "region": self.region,
            "faction": self.faction,
            "stability": num(self.stability),
            "full": num(self.full),
            "fallen": self.fallen,
        }


@dataclass(frozen=True)
class FieldUnit:
    """One unit on the map: its War Table profile (the calculator's :class:`UnitDef`), where, how hurt.

    ``label`` is unique in the campaign (orders name units by it); ``health`` is its current
    Health, carried from battle to battle.
    """

    label: str
    unit: UnitDef
    faction: str
    region: str
    health: Fraction
    items: tuple[str, ...] = ()

    @property
    def bloodless(self) -> bool:
        """A Bloodless unit (the ``Bloodless`` trait): the one the seed's negative factors name."""
        return self.unit.bloodless

    def to_dict(self) -> FieldUnitJson:
        return {
            "label": self.label,
            "unit": self.unit.name,
            "faction": self.faction,
            "region": self.region,
            "health": num(self.health),
            "items": list(self.items),
        }


@dataclass(frozen=True)
class Faction:
    """A side of the campaign and its Faith (the resource the seed spends to restore an Enclave)."""

    name: str
    faith: Fraction = Fraction(0)

    def to_dict(self) -> FactionJson:
        return {"name": self.name, "faith": num(self.faith)}


@dataclass(frozen=True)
class Dungeon:
    """A Dungeon that can be delved, in a region, rolled on the named Delve table."""

    name: str
    region: str
    table: str


@dataclass(frozen=True)
class CampaignState:
    """The whole campaign between two rounds: map, Enclaves, factions, units, round number."""

    name: str
    map: RegionMap
    enclaves: tuple[Enclave, ...]
    factions: tuple[Faction, ...]
    units: tuple[FieldUnit, ...]
    dungeons: tuple[Dungeon, ...] = ()
    round: int = 1

    def enclave(self, name: str) -> Enclave:
        """The Enclave called ``name`` (case-insensitive), or :class:`UnknownNameError`."""
        for e in self.enclaves:
            if fold(e.name) == fold(name):
                return e
        raise UnknownNameError("Enclave", name, [e.name for e in self.enclaves])

    def enclave_in(self, region: str) -> Enclave | None:
        """The Enclave whose settlement lies in ``region``, if any."""
        return next((e for e in self.enclaves if e.region == region), None)

    def unit(self, label: str) -> FieldUnit:
        """The unit labelled ``label`` (case-insensitive), or :class:`UnknownNameError`."""
        for u in self.units:
            if fold(u.label) == fold(label):
                return u
        raise UnknownNameError("unit", label, [u.label for u in self.units])

    def faction(self, name: str) -> Faction:
        """The faction called ``name`` (case-insensitive), or :class:`UnknownNameError`."""
        for f in self.factions:
            if fold(f.name) == fold(name):
                return f
        raise UnknownNameError("faction", name, [f.name for f in self.factions])

    def units_in(self, region: str) -> tuple[FieldUnit, ...]:
        """The units standing (Health above 0) in ``region``: who is "present" for the seed's rules."""
        return tuple(u for u in self.units if u.region == region and u.health > 0)

    def defenders_of(self, enclave: Enclave) -> tuple[FieldUnit, ...]:
        """The Enclave's defenders: standing non-Bloodless units of its faction in its region."""
        return tuple(u for u in self.units_in(enclave.region) if u.faction == enclave.faction and not u.bloodless)

    def with_enclave(self, enclave: Enclave) -> CampaignState:
        """The state with ``enclave`` replacing the Enclave of the same name."""
        return replace(self, enclaves=tuple(enclave if e.name == enclave.name else e for e in self.enclaves))

    def to_dict(self) -> CampaignJson:
        return {
            "name": self.name,
            "round": self.round,
            "regions": {r: {"borders": self.map.neighbours(r), "traits": list(self.map.traits(r))}
                        for r in self.map.names()},
            "enclaves": [e.to_dict() for e in self.enclaves],
            "factions": [f.to_dict() for f in self.factions],
            "units": [u.to_dict() for u in self.units],
            "dungeons": [{"name": d.name, "region": d.region, "table": d.table} for d in self.dungeons],
        }


@dataclass(frozen=True)
class CampaignOptions:
    """The readings of campaign rules the seed leaves open (each documented in docs/rules/wartable.md).

    * ``reclaim_fallen``: ``lifts`` — Reclaim raises a Fallen Enclave from 0 to 20 and it stands
      again ("the wards ... are strengthened or renewed"); ``stays`` — a Fallen Enclave cannot be
      Reclaimed (only a quest or world event brings it back).
    * ``stability_cap``: ``full`` — no rise takes Stability above the Enclave's full value (Faith
      restores "to full", so full is a ceiling); ``none`` — rises are not capped.
    * ``downtime_every``: a round of Downtime closes every N-th round (1: every round).
    * ``move_range``: how many borders a move order may cross (the seed gives no range).
    * ``faith_cost``: the Faith a restoration costs (the seed's "Faith under Resources" is lost).
    * ``fallen_on``: ``any_order`` — a hostile unit that stays in an undefended Enclave's region
      takes an action whatever its order, holding included; ``action`` — holding is no action.
    * ``zero_stability``: ``falls`` — an Enclave whose Stability a penalty brings down to 0 is
      Fallen (the seed's only sentence that reaches 0 makes it "Fallen"); ``stands`` — only a
      direct attack makes an Enclave Fallen.
    * ``victory``: ``enclaves`` — at the end of the last round the Enclaves' holders win if at
      least half their Enclaves still stand, else the one faction that holds none (estimated:
      the seed has no victory rule); ``none`` — the last round ends without a winner.
    """

    reclaim_fallen: str = "lifts"
    stability_cap: str = "full"
    downtime_every: int = 1
    move_range: int = 1
    faith_cost: Fraction = Fraction(1)
    fallen_on: str = "any_order"
    zero_stability: str = "falls"
    victory: str = "enclaves"

    def __post_init__(self) -> None:
        if self.reclaim_fallen not in ("lifts", "stays"):
            raise UnknownNameError("value for reclaim_fallen", self.reclaim_fallen, ("lifts", "stays"))
        if self.stability_cap not in ("full", "none"):
            raise UnknownNameError("value for stability_cap", self.stability_cap, ("full", "none"))
        if self.fallen_on not in ("any_order", "action"):
            raise UnknownNameError("value for fallen_on", self.fallen_on, ("any_order", "action"))
        if self.zero_stability not in ("falls", "stands"):
            raise UnknownNameError("value for zero_stability", self.zero_stability, ("falls", "stands"))
        if self.victory not in ("enclaves", "none"):
            raise UnknownNameError("value for victory", self.victory, ("enclaves", "none"))
        if self.move_range < 1 or self.faith_cost < 0:
            raise InvalidStatError("move_range must be >= 1 and faith_cost >= 0", field="move_range")
        if self.downtime_every < 1:
            raise InvalidStatError("downtime_every must be >= 1", field="downtime_every", value=self.downtime_every)
