"""The campaign as exact JSON, both ways: map, Enclaves, factions, units (with their profiles), tables.

A stored campaign must rebuild the very numbers it was set up with even if the shipped unit
profiles or tables later change, so units carry their whole War Table profile and Dungeon
tables their entries. Numbers use the calculator's exact encoding (``16.5``, ``"301/3"``).
:func:`campaign_from_json` is the inverse of :func:`campaign_to_json` (``CampaignState``'s
``from_dict``); a damaged document is a :class:`RulekeeperError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from rulekeeper.boards import RegionMap
from rulekeeper.core.errors import RulekeeperError

from ..codec import Exact, StoredUnit, dec, enc, fields_of, records_of, unit_from_json, unit_to_json
from .model import CampaignOptions, CampaignState, Dungeon, Enclave, Faction, FieldUnit
from .tables import Effects, Entry, RollTable


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise RulekeeperError(f"{where}: expected a name, got {value!r}")
    return value


def _strs(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise RulekeeperError(f"{where}: expected a list of names, got {value!r}")
    return tuple(_str(v, f"{where}[{i}]") for i, v in enumerate(value))


class StoredRegion(TypedDict):
    name: str
    borders: list[str]
    traits: list[str]


class StoredEnclave(TypedDict):
    name: str
    region: str
    faction: str
    stability: Exact
    full: Exact
    fallen: bool


class StoredFaction(TypedDict):
    name: str
    faith: Exact


class StoredFieldUnit(TypedDict):
    """A unit in the field: its place, Health and items, and its whole War Table profile."""

    label: str
    unit: str
    faction: str
    region: str
    health: Exact
    items: list[str]
    profile: StoredUnit


class StoredDungeon(TypedDict):
    name: str
    region: str
    table: str


class StoredCampaign(TypedDict):
    """The campaign between rounds as stored (:func:`campaign_to_json`), numbers exact."""

    name: str
    round: int
    regions: list[StoredRegion]
    enclaves: list[StoredEnclave]
    factions: list[StoredFaction]
    units: list[StoredFieldUnit]
    dungeons: list[StoredDungeon]


class StoredEffects(TypedDict):
    health: Exact
    stability: Exact
    faith: Exact
    items: list[str]


class StoredEntry(TypedDict):
    """One entry of a stored Delve table: its result, weight, range of rolls, text and effects."""

    result: str
    weight: Exact
    low: int | None
    high: int | None
    text: str | None
    effects: StoredEffects


class StoredTable(TypedDict):
    """A Delve table as a stored campaign keeps it (:func:`table_to_json`)."""

    name: str
    sides: int | None
    example: bool
    estimate: str | None
    source: str
    entries: list[StoredEntry]


class StoredOptions(TypedDict):
    """The campaign's options as stored; the later ones only when not the default (:data:`LATER_OPTIONS`)."""

    reclaim_fallen: str
    stability_cap: str
    downtime_every: int
    move_range: int
    faith_cost: Exact
    fallen_on: str
    zero_stability: NotRequired[str]
    victory: NotRequired[str]


def campaign_to_json(state: CampaignState) -> StoredCampaign:
    """The whole campaign between rounds; units with their full profiles."""
    return {
        "name": state.name,
        "round": state.round,
        "regions": [{"name": r, "borders": sorted(state.map.neighbours(r)), "traits": list(state.map.traits(r))}
                    for r in state.map.names()],
        "enclaves": [{**e.to_dict(), "stability": enc(e.stability), "full": enc(e.full)} for e in state.enclaves],
        "factions": [{"name": f.name, "faith": enc(f.faith)} for f in state.factions],
        "units": [{**u.to_dict(), "health": enc(u.health), "profile": unit_to_json(u.unit)} for u in state.units],
        "dungeons": [{"name": d.name, "region": d.region, "table": d.table} for d in state.dungeons],
    }


def _rows(d: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    """The records under ``key`` (a list of mappings), each checked to be a mapping."""
    return [fields_of(x, f"{key}[{i}]") for i, x in enumerate(records_of(d[key], f"campaign.{key}"))]


def _whole(value: object, where: str, least: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (least is not None and value < least):
        more = "" if least is None else f" >= {least}"
        raise RulekeeperError(f"{where}: expected a whole number{more}, got {value!r}")
    return value


def _maybe_whole(value: object, where: str) -> int | None:
    return None if value is None else _whole(value, where)


def _maybe_text(value: object, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise RulekeeperError(f"{where}: expected a text or nothing, got {value!r}")
    return value


def campaign_from_json(d: Mapping[str, object]) -> CampaignState:
    """The inverse of :func:`campaign_to_json`."""
    if not isinstance(d["regions"], list):
        raise RulekeeperError("campaign.regions: expected a list")
    regions = _rows(d, "regions")
    adjacency = {_str(r["name"], f"regions[{i}].name"): frozenset(_strs(r["borders"], f"regions[{i}].borders"))
                 for i, r in enumerate(regions)}
    traits = {str(r["name"]): _strs(r["traits"], f"regions[{i}].traits") for i, r in enumerate(regions)}
    region_map = RegionMap(adjacency, traits)
    enclaves = tuple(
        Enclave(_str(e["name"], f"enclaves[{i}].name"), _str(e["region"], f"enclaves[{i}].region"),
                _str(e["faction"], f"enclaves[{i}].faction"), dec(e["stability"], f"enclaves[{i}].stability"),
                dec(e["full"], f"enclaves[{i}].full"), bool(e["fallen"]))
        for i, e in enumerate(_rows(d, "enclaves")))
    factions = tuple(Faction(_str(f["name"], f"factions[{i}].name"), dec(f["faith"], f"factions[{i}].faith"))
                     for i, f in enumerate(_rows(d, "factions")))
    units = tuple(
        FieldUnit(_str(u["label"], f"units[{i}].label"),
                  unit_from_json(fields_of(u["profile"], f"units[{i}].profile"), f"units[{i}].profile"),
                  _str(u["faction"], f"units[{i}].faction"), _str(u["region"], f"units[{i}].region"),
                  dec(u["health"], f"units[{i}].health"), _strs(u["items"], f"units[{i}].items"))
        for i, u in enumerate(_rows(d, "units")))
    dungeons = tuple(Dungeon(_str(x["name"], "dungeons.name"), _str(x["region"], "dungeons.region"),
                             _str(x["table"], "dungeons.table")) for x in _rows(d, "dungeons"))
    rnd = _whole(d["round"], "campaign.round", 1)
    return CampaignState(_str(d["name"], "campaign.name"), region_map, enclaves, factions, units, dungeons, rnd)


def table_to_json(t: RollTable) -> StoredTable:
    return {
        "name": t.name, "sides": t.sides, "example": t.example, "estimate": t.estimate, "source": t.source,
        "entries": [{"result": e.result, "weight": enc(e.weight), "low": e.low, "high": e.high, "text": e.text,
                     "effects": {"health": enc(e.effects.health), "stability": enc(e.effects.stability),
                                 "faith": enc(e.effects.faith), "items": list(e.effects.items)}}
                    for e in t.entries],
    }


def table_from_json(d: Mapping[str, object], where: str) -> RollTable:
    entries = []
    for i, e in enumerate(_rows(d, "entries")):
        w = f"{where}.entries[{i}]"
        fx = fields_of(e["effects"], f"{w}.effects")
        effects = Effects(dec(fx["health"], f"{w}.health"), dec(fx["stability"], f"{w}.stability"),
                          dec(fx["faith"], f"{w}.faith"), _strs(fx["items"], f"{w}.items"))
        entries.append(Entry(_str(e["result"], f"{w}.result"), dec(e["weight"], f"{w}.weight"), effects,
                             _maybe_whole(e["low"], f"{w}.low"), _maybe_whole(e["high"], f"{w}.high"),
                             _maybe_text(e["text"], f"{w}.text")))
    return RollTable(_str(d["name"], f"{where}.name"), tuple(entries), _maybe_whole(d["sides"], f"{where}.sides"),
                     bool(d["example"]), _maybe_text(d["estimate"], f"{where}.estimate"), str(d["source"]))


#: Options added after campaigns were first stored: written only when not the default, so a stored
#: campaign from before them still reads back exactly as written.
LATER_OPTIONS = {"zero_stability": "falls", "victory": "enclaves"}


def options_to_json(o: CampaignOptions) -> StoredOptions:
    stored: StoredOptions = {
        "reclaim_fallen": o.reclaim_fallen, "stability_cap": o.stability_cap, "downtime_every": o.downtime_every,
        "move_range": o.move_range, "faith_cost": enc(o.faith_cost), "fallen_on": o.fallen_on}
    if o.zero_stability != LATER_OPTIONS["zero_stability"]:  # in the order of LATER_OPTIONS
        stored["zero_stability"] = o.zero_stability
    if o.victory != LATER_OPTIONS["victory"]:
        stored["victory"] = o.victory
    return stored


def options_from_json(d: Mapping[str, object]) -> CampaignOptions:
    ints = {k: _whole(d[k], f"options.{k}") for k in ("downtime_every", "move_range")}
    return CampaignOptions(str(d["reclaim_fallen"]), str(d["stability_cap"]), ints["downtime_every"],
                           ints["move_range"], dec(d["faith_cost"], "options.faith_cost"), str(d["fallen_on"]),
                           **{k: str(d.get(k, default)) for k, default in LATER_OPTIONS.items()})
