"""The JSON shapes of what a resolution reports: the lines of a melee, a volley and a cast, and the odds
the calculator prints before one.

Why typed dicts and not the dataclasses themselves: these are what the battle log stores next to an
action and what ``rulekeeper melee|shoot|cast --json`` prints, so their keys, key order and rounding
are part of the stored record (a golden playthrough hashes them). Each ``to_dict`` builds exactly one
of these shapes; the Fate Screen and the CLI read them back from the log.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from rulekeeper.core.events import EventJson


class MoraleLine(TypedDict):
    """One unit's morale before and after, with the reasons ("Verse of A:Bard: +5.0")."""

    unit: str
    before: float
    after: float
    change: float
    state_before: str
    state_after: str
    reasons: list[str]


class FatigueLine(TypedDict):
    """Fatigue (or Veil, for a caster) gained by the acting unit, and the thresholds it crossed."""

    unit: str
    gained: float
    before: float
    after: float
    thresholds_before: int
    thresholds_after: int


class UnitLine(TypedDict):
    """A unit of the zone after the resolution (left out of the battle log, which has the state)."""

    unit: str
    side: str
    alive: int
    hp: list[float]
    morale: float
    state: str
    fatigue: NotRequired[float]  # a melee's units
    chain: NotRequired[list[str | int]]  # a cast's units: the elemental chain


class StrikeLine(TypedDict):
    """One attack of a duel (a card of the Fate Screen)."""

    attacker: str
    target: str | None
    outcome: str
    damage: int
    target_hp: float
    killed: bool
    self_damage: int


class DuelLine(TypedDict):
    strike: StrikeLine
    retaliation: StrikeLine | None


class MeleeLine(TypedDict):
    """A round of melee. ``events`` and ``units`` are left out of the battle log (it has both already)."""

    events: NotRequired[list[EventJson]]  # core.events.Event.to_dict
    attacker: str
    action: str
    direction: str
    duels: list[DuelLine]
    casualties: list[str]
    morale: list[MoraleLine]
    fatigue: FatigueLine
    units: NotRequired[list[UnitLine]]


class ShotLine(TypedDict):
    """One shot of a volley (a card of the Fate Screen)."""

    shooter: str
    outcome: str
    target: str | None
    blocked: bool
    damage: int
    target_hp: float
    killed: bool
    self_damage: int


class VolleyLine(TypedDict):
    """A volley. ``events`` and ``units`` are left out of the battle log (it has both already)."""

    events: NotRequired[list[EventJson]]  # core.events.Event.to_dict
    shooter: str
    action: str
    shots: list[ShotLine]
    casualties: list[str]
    morale: list[MoraleLine]
    fatigue: FatigueLine
    units: NotRequired[list[UnitLine]]


class CastLine(TypedDict):
    """One casting of a spell on one target (a card of the Fate Screen)."""

    caster: str
    target: str
    outcome: str
    damage: int
    target_hp: float
    killed: bool


class CastReportLine(TypedDict):
    """A cast. The battle log leaves out ``events`` and ``units`` (it has both already)."""

    events: NotRequired[list[EventJson]]  # core.events.Event.to_dict
    caster: str
    spell: str
    casts: list[CastLine]
    casualties: list[str]
    morale: list[MoraleLine]
    veil: FatigueLine
    units: NotRequired[list[UnitLine]]


class DuelOddsLine(TypedDict):
    """Everything the Fate Screen shows before one duel is rolled."""

    attacker: str
    defender: str
    odds: dict[str, float]
    weights: dict[str, float]
    damage: dict[str, list[int]]  # outcome → [lowest, highest]
    final_damage: float
    retaliation_chance: float
    explain: list[str]


class ShotOddsLine(TypedDict):
    odds: dict[str, float]
    weights: dict[str, float]
    damage: dict[str, list[int]]  # target → [lowest, highest]
    missile_block: dict[str, float]
    final_damage: dict[str, float]
    explain: list[str]


class CastOddsLine(TypedDict):
    odds: dict[str, float]
    weights: dict[str, float]
    damage: list[int]  # [lowest, highest]
    final_damage: float
    chain: list[str | int]  # element, links
    explain: list[str]
