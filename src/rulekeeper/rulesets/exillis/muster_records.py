"""The JSON shapes of a muster file and of a priced muster (``rulekeeper muster check --json``, the web army
builder's report).

Typed dicts, not dataclasses: the keys and their order are what the CLI prints and the web keeps, so
each ``to_dict`` of :mod:`.pricing` builds exactly one of these shapes.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from rulekeeper.core.armylist import ProblemJson

State = Literal["green", "yellow", "red"]
Role = Literal["unit", "hero", "loner", "unknown", "promotion"]


class ShapeLine(TypedDict):
    """One category of the muster shape: its basic points, share of the army, thresholds, colour."""

    category: str
    name: str
    points: int
    share: float
    first: float
    second: float | None
    state: State


class PricedLineDoc(TypedDict):
    """One entry's cost (the fields of :class:`rulekeeper.core.armylist.CostLine`) and what a list shows."""

    entry: int
    unit: str
    base: float
    shortage: float
    faction: float
    total: int
    steps: list[str]
    role: Role
    level: int | None
    miniatures: int | None
    full: int | None
    categories: list[str]
    penalised: bool


class GameTypeDoc(TypedDict):
    name: str
    min_level: int
    max_level: int
    earns_bp: bool


class MusterReportDoc(TypedDict):
    name: str
    game_type: str
    game: GameTypeDoc | None
    faction: str | None
    general: str | list[str] | None  # one name, several, or none
    lines: list[PricedLineDoc]
    shape: list[ShapeLine]
    basic_total: int
    shape_total: int
    shortage_base: str
    total: int
    units_and_heroes: int
    battle_points: int
    earns_bp: bool
    valid: bool
    problems: list[ProblemJson]  # core.armylist.Problem.to_dict
    notes: list[str]


class MusterEntryDoc(TypedDict):
    """One entry of a muster file, absent optional values left out."""

    unit: str
    miniatures: NotRequired[int]
    level: int
    hero: NotRequired[str]
    hero_level: NotRequired[int]
    label: NotRequired[str]


class MusterHead(TypedDict):
    """A muster file's keys before its units, absent optional values left out."""

    name: str
    game_type: str
    faction: NotRequired[str]
    general: NotRequired[str | list[str]]  # one name, or the list a file named
    description: NotRequired[str]


class MusterDoc(MusterHead):
    """A muster file's own shape (YAML and TOML alike): its head, then its units."""

    units: list[MusterEntryDoc]
