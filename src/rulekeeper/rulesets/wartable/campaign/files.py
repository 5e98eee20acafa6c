"""Campaign files: the map, Enclaves, factions and their units, Dungeons, in one YAML/TOML file.

A game master keeps a campaign in a spreadsheet today; this file is that spreadsheet's start.
Its shape is checked by pydantic and its sense here (a border to an unknown region, an Enclave
in no region, an unknown unit profile, two units with one label), every problem in one
:class:`DataFileError` naming the file and the field. Unit profiles are the War Table
calculator's (shipped data plus the file's ``data:`` files), so a campaign's battles are the
calculator's battles.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pydantic import Field, ValidationError

from rulekeeper.boards import RegionMap
from rulekeeper.core.errors import DataFileError, RulekeeperError

from ..data import Name, StatNumber, StrictModel, WarTableData, load_data_file, read_mapping, shipped_data
from ..data import validation_problems as problems_of
from ..model import fold
from ..rounding import exact
from .given import GivenTable, answering
from .model import DEFAULT_FULL, CampaignState, Dungeon, Enclave, Faction, FieldUnit
from .tables import RollTable, load_table, shipped_table

#: What a campaign file's ``ruleset:`` may say: the War Table, or its campaign game.
CAMPAIGN_RULESETS = ("wartable", "war-table", "war table", "wt", "wartable-campaign", "war-table-campaign",
                     "wartable campaign", "wt-campaign")


class RegionSchema(StrictModel):
    name: Name
    traits: list[Name] = []
    borders: list[Name] = []


class EnclaveSchema(StrictModel):
    name: Name
    region: Name
    faction: Name
    stability: StatNumber
    full: StatNumber = float(DEFAULT_FULL)
    fallen: bool = False


class UnitSchema(StrictModel):
    unit: Name
    label: Name
    region: Name
    health: StatNumber | None = None
    items: list[Name] = []


class FactionSchema(StrictModel):
    name: Name
    faith: StatNumber = 0
    units: list[UnitSchema] = []


class DungeonSchema(StrictModel):
    name: Name
    region: Name
    table: Name


class CampaignSchema(StrictModel):
    campaign: Name
    ruleset: str | None = None
    about: str | None = None
    example: bool = False
    round: int = Field(default=1, ge=1)
    data: list[Name] = []
    regions: list[RegionSchema] = Field(min_length=1)
    enclaves: list[EnclaveSchema] = []
    factions: list[FactionSchema] = Field(min_length=1)
    dungeons: list[DungeonSchema] = []
    rounds: int | None = Field(default=None, ge=1, le=1000)  # how many rounds the campaign lasts (the game)
    options: dict[str, str | int | float] = {}  # campaign and battle options NAME: VALUE (the game)


def _region_map(doc: CampaignSchema, problems: list[str]) -> RegionMap | None:
    """The map: each region's borders made symmetric (a border is listed once, on either side)."""
    names = [r.name for r in doc.regions]
    adjacency: dict[str, set[str]] = {n: set() for n in names}
    for i, r in enumerate(doc.regions):
        for j, b in enumerate(r.borders):
            if b not in adjacency:
                problems.append(f"regions[{i}].borders[{j}]: unknown region {b!r}")
                continue
            adjacency[r.name].add(b)
            adjacency[b].add(r.name)
    if len(set(names)) != len(names):
        problems.append("regions: two regions share a name")
    try:
        return RegionMap({k: frozenset(v) for k, v in adjacency.items()}, {r.name: tuple(r.traits) for r in doc.regions})
    except RulekeeperError as exc:
        problems.append(f"regions: {exc.message}")
        return None


def _units(doc: CampaignSchema, data: WarTableData, regions: set[str], problems: list[str]) -> list[FieldUnit]:
    """Every faction's units, with their profiles from the data and their current Health."""
    units: list[FieldUnit] = []
    labels: set[str] = set()
    for i, f in enumerate(doc.factions):
        for j, u in enumerate(f.units):
            where = f"factions[{i}].units[{j}]"
            if fold(u.label) in labels:
                problems.append(f"{where}.label: {u.label!r} is already another unit's label")
            labels.add(fold(u.label))
            if u.region not in regions:
                problems.append(f"{where}.region: unknown region {u.region!r}")
            try:
                profile = data.unit(u.unit)
            except RulekeeperError as exc:
                problems.append(f"{where}.unit: {exc.message}")
                continue
            health = profile.health if u.health is None else exact(u.health)
            if health < 0:
                problems.append(f"{where}.health: must be >= 0, got {u.health}")
            units.append(FieldUnit(u.label, profile, f.name, u.region, health, tuple(u.items)))
    return units


def _enclaves(doc: CampaignSchema, regions: set[str], problems: list[str]) -> list[Enclave]:
    """The Enclaves, each in a known region, held by a known faction, Stability within 0..full."""
    factions = {f.name for f in doc.factions}
    out: list[Enclave] = []
    for i, e in enumerate(doc.enclaves):
        bad = len(problems)
        if e.region not in regions:
            problems.append(f"enclaves[{i}].region: unknown region {e.region!r}")
        if e.faction not in factions:
            problems.append(f"enclaves[{i}].faction: unknown faction {e.faction!r} (factions: {sorted(factions)})")
        if not 0 <= e.stability <= e.full or e.full <= 0:
            problems.append(f"enclaves[{i}].stability: expected 0..{e.full}, got {e.stability}")
        if len(problems) == bad:
            out.append(Enclave(e.name, e.region, e.faction, exact(e.stability), exact(e.full), e.fallen))
    return out


def table_for(name: str, base: Path | None = None) -> RollTable:
    """A Dungeon's table: a file path (``.yaml``/``.yml``/``.toml``, relative to ``base``) or a shipped name."""
    if name.lower().endswith((".yaml", ".yml", ".toml")):
        return load_table((base or Path(".")) / name)
    return shipped_table(name)


def parse_campaign(raw: object, where: str, base: Path | None = None,
                   given: Sequence[GivenTable] = ()) -> CampaignState:
    """Validate a parsed campaign file into a :class:`CampaignState`; ``data:`` paths are relative to ``base``.

    ``given``: the game master's ``--data`` tables; a Dungeon table one of them answers to is not
    looked for among the shipped tables or files (:mod:`.given`).
    """
    try:
        doc = CampaignSchema.model_validate(raw)
    except ValidationError as exc:
        raise DataFileError(where, problems_of(exc)) from None
    if doc.ruleset is not None and fold(doc.ruleset) not in CAMPAIGN_RULESETS:
        raise DataFileError(where, [f"ruleset: this file is for the game {doc.ruleset!r}, not wartable"])
    data = shipped_data()
    for p in doc.data:
        data = data.overlay(load_data_file((base or Path(".")) / p))
    problems: list[str] = []
    region_map = _region_map(doc, problems)
    regions = {r.name for r in doc.regions}
    units = _units(doc, data, regions, problems)
    enclaves = _enclaves(doc, regions, problems)
    for i, d in enumerate(doc.dungeons):
        if d.region not in regions:
            problems.append(f"dungeons[{i}].region: unknown region {d.region!r}")
        if answering(given, d.table):
            continue
        try:
            table_for(d.table, base)
        except RulekeeperError as exc:
            problems.append(f"dungeons[{i}].table: {exc.message}")
    if problems or region_map is None:
        raise DataFileError(where, problems)
    factions = tuple(Faction(f.name, exact(f.faith)) for f in doc.factions)
    dungeons = tuple(Dungeon(d.name, d.region, d.table) for d in doc.dungeons)
    return CampaignState(doc.campaign, region_map, tuple(enclaves), factions, tuple(units), dungeons, doc.round)


def load_campaign(path: Path | str) -> CampaignState:
    """A campaign file (YAML, or TOML by suffix), read through the core's bounded loader."""
    p = Path(path)
    return parse_campaign(read_mapping(p), str(path), p.parent)
