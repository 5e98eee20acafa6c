"""The JSON shapes the campaign keeps: what each side fielded (in the battle's meta, written by
``battle new --muster``) and the summary of a recorded battle (in the campaign tables).

Typed dicts: they are stored as JSON and read back by :mod:`.web.campaign_web` and the CLI, so their
keys are part of what a stored battle and a stored campaign mean.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from .muster_records import MusterDoc


class EntryDoc(TypedDict):
    """One muster entry by its canonical names (the campaign's slot is its position)."""

    unit: str
    level: int
    label: str
    hero: NotRequired[str]
    hero_level: NotRequired[int]


class MusterSide(TypedDict):
    """What one side fielded, in the battle meta under ``musters``."""

    name: str
    game_type: str
    earns_bp: bool
    points: int
    entries: list[EntryDoc]
    document: MusterDoc


class UnitAdvance(TypedDict):
    """One campaign unit's Battle Points, level and growth after a recorded battle."""

    muster: str
    slot: str
    kind: str  # unit | hero
    entry: int
    unit: str
    label: str
    named: bool
    level_before: int
    level: int
    bp_before: int
    bp: int
    bp_received: int
    levels_gained: int
    skill_points_gained: int
    bp_to_next: int | None
    max_level: int
    stat_growth: float
    level_growth: float
    status: NotRequired[str]  # active | destroyed | fled, once the battle's outcome is known


class SideReport(TypedDict):
    muster: str
    game_type: str
    player: str
    army_size: int
    army_bp: int
    points: int
    basic_points: int
    units: list[UnitAdvance]


class PlayerLine(TypedDict):
    player: str
    sides: list[str]
    level_before: int
    level: int
    bp: int
    bp_to_next: int | None
    renown_gained: int
    renown: int
