"""A ruleset-agnostic army list: units with sizes, levels and attached characters, their
costs, and every validation problem found (python-chess ``status()`` style — a list,
never an exception for a rule broken).

Rulesets supply pricing and rules through :class:`ArmyRules`; the model itself knows
no game. Ex illis' musters (issue 4) are the first user.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired, Protocol, TypedDict


class ListedUnitJson(TypedDict):
    """A :class:`ListedUnit` as JSON (the size, the character and the label only when given)."""

    unit: str
    level: int
    miniatures: NotRequired[int]
    hero: NotRequired[str]
    hero_level: NotRequired[int]
    label: NotRequired[str]


class ProblemJson(TypedDict):
    entry: int
    unit: str
    rule: str
    message: str


class CostLineJson(TypedDict):
    entry: int
    unit: str
    base: float
    shortage: float
    faction: float
    total: int
    steps: list[str]


@dataclass(frozen=True)
class ListedUnit:
    """One entry of an army list. ``attached`` names a character that joins this unit."""

    unit: str
    miniatures: int | None = None  # None: full size
    level: int = 1
    attached: str | None = None
    attached_level: int = 1
    label: str = ""  # a player's own name for the entry (optional)

    def to_dict(self) -> ListedUnitJson:
        d: ListedUnitJson = {"unit": self.unit, "level": self.level}
        if self.miniatures is not None:
            d["miniatures"] = self.miniatures
        if self.attached is not None:
            d["hero"] = self.attached
            d["hero_level"] = self.attached_level
        if self.label:
            d["label"] = self.label
        return d


@dataclass(frozen=True)
class ArmyList:
    name: str
    ruleset: str
    game_type: str = ""
    units: tuple[ListedUnit, ...] = ()
    general: str | None = None
    faction: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Problem:
    """One broken rule: where (the entry, 1-based, or 0 for the whole list), which rule, and why."""

    entry: int
    unit: str
    rule: str
    message: str

    def to_dict(self) -> ProblemJson:
        return {"entry": self.entry, "unit": self.unit, "rule": self.rule, "message": self.message}

    def text(self) -> str:
        where = f"entry {self.entry} ({self.unit})" if self.entry else "army"
        return f"{where}: {self.rule}: {self.message}"


@dataclass(frozen=True)
class CostLine:
    """How one entry's points were made, step by step."""

    entry: int
    unit: str
    base: float  # before shortage and faction rules
    shortage: float = 0.0
    faction: float = 0.0
    total: int = 0
    steps: tuple[str, ...] = ()

    def to_dict(self) -> CostLineJson:
        return {"entry": self.entry, "unit": self.unit, "base": self.base, "shortage": self.shortage,
                "faction": self.faction, "total": self.total, "steps": list(self.steps)}


class ArmyRules(Protocol):
    """What a ruleset provides to price and check an :class:`ArmyList`."""

    def cost(self, army: ArmyList) -> list[CostLine]: ...

    def problems(self, army: ArmyList) -> list[Problem]: ...
