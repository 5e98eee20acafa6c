"""The campaign as exact JSON, both ways: map, Enclaves, factions, units (with their profiles), tables.

A stored campaign must rebuild the very numbers it was set up with even if the shipped unit
profiles or tables later change, so units carry their whole War Table profile and Dungeon
tables their entries. Numbers use the calculator's exact encoding (``16.5``, ``"301/3"``).
:func:`campaign_from_json` is the inverse of :func:`campaign_to_json` (``CampaignState``'s
``from_dict``); a damaged document is a :class:`RulekeeperError` naming the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulekeeper.boards import RegionMap
from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.game import JsonDict

from ..codec import dec, enc, unit_from_json, unit_to_json
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


def campaign_to_json(state: CampaignState) -> JsonDict:
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


def campaign_from_json(d: Mapping[str, Any]) -> CampaignState:
    """The inverse of :func:`campaign_to_json`."""
    regions = d["regions"]
    if not isinstance(regions, list):
        raise RulekeeperError("campaign.regions: expected a list")
    adjacency = {_str(r["name"], f"regions[{i}].name"): frozenset(_strs(r["borders"], f"regions[{i}].borders"))
                 for i, r in enumerate(regions)}
    traits = {str(r["name"]): _strs(r["traits"], f"regions[{i}].traits") for i, r in enumerate(regions)}
    region_map = RegionMap(adjacency, traits)
    enclaves = tuple(
        Enclave(_str(e["name"], f"enclaves[{i}].name"), _str(e["region"], f"enclaves[{i}].region"),
                _str(e["faction"], f"enclaves[{i}].faction"), dec(e["stability"], f"enclaves[{i}].stability"),
                dec(e["full"], f"enclaves[{i}].full"), bool(e["fallen"]))
        for i, e in enumerate(d["enclaves"]))
    factions = tuple(Faction(_str(f["name"], f"factions[{i}].name"), dec(f["faith"], f"factions[{i}].faith"))
                     for i, f in enumerate(d["factions"]))
    units = tuple(
        FieldUnit(_str(u["label"], f"units[{i}].label"), unit_from_json(u["profile"], f"units[{i}].profile"),
                  _str(u["faction"], f"units[{i}].faction"), _str(u["region"], f"units[{i}].region"),
                  dec(u["health"], f"units[{i}].health"), _strs(u["items"], f"units[{i}].items"))
        for i, u in enumerate(d["units"]))
    dungeons = tuple(Dungeon(_str(x["name"], "dungeons.name"), _str(x["region"], "dungeons.region"),
                             _str(x["table"], "dungeons.table")) for x in d["dungeons"])
    rnd = d["round"]
    if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
        raise RulekeeperError(f"campaign.round: expected a whole number >= 1, got {rnd!r}")
    return CampaignState(_str(d["name"], "campaign.name"), region_map, enclaves, factions, units, dungeons, rnd)


def table_to_json(t: RollTable) -> JsonDict:
    return {
        "name": t.name, "sides": t.sides, "example": t.example, "estimate": t.estimate, "source": t.source,
        "entries": [{"result": e.result, "weight": enc(e.weight), "low": e.low, "high": e.high, "text": e.text,
                     "effects": {"health": enc(e.effects.health), "stability": enc(e.effects.stability),
                                 "faith": enc(e.effects.faith), "items": list(e.effects.items)}}
                    for e in t.entries],
    }


def table_from_json(d: Mapping[str, Any], where: str) -> RollTable:
    entries = []
    for i, e in enumerate(d["entries"]):
        fx = e["effects"]
        w = f"{where}.entries[{i}]"
        effects = Effects(dec(fx["health"], f"{w}.health"), dec(fx["stability"], f"{w}.stability"),
                          dec(fx["faith"], f"{w}.faith"), _strs(fx["items"], f"{w}.items"))
        entries.append(Entry(_str(e["result"], f"{w}.result"), dec(e["weight"], f"{w}.weight"), effects,
                             e["low"], e["high"], e["text"]))
    return RollTable(_str(d["name"], f"{where}.name"), tuple(entries), d["sides"], bool(d["example"]),
                     d["estimate"], str(d["source"]))


#: Options added after campaigns were first stored: written only when not the default, so a stored
#: campaign from before them still reads back exactly as written.
LATER_OPTIONS = {"zero_stability": "falls", "victory": "enclaves"}


def options_to_json(o: CampaignOptions) -> JsonDict:
    later = {k: getattr(o, k) for k, default in LATER_OPTIONS.items() if getattr(o, k) != default}
    return {"reclaim_fallen": o.reclaim_fallen, "stability_cap": o.stability_cap, "downtime_every": o.downtime_every,
            "move_range": o.move_range, "faith_cost": enc(o.faith_cost), "fallen_on": o.fallen_on, **later}


def options_from_json(d: Mapping[str, Any]) -> CampaignOptions:
    ints = {k: d[k] for k in ("downtime_every", "move_range")}
    for k, v in ints.items():
        if isinstance(v, bool) or not isinstance(v, int):
            raise RulekeeperError(f"options.{k}: expected a whole number, got {v!r}")
    return CampaignOptions(str(d["reclaim_fallen"]), str(d["stability_cap"]), ints["downtime_every"],
                           ints["move_range"], dec(d["faith_cost"], "options.faith_cost"), str(d["fallen_on"]),
                           **{k: str(d.get(k, default)) for k, default in LATER_OPTIONS.items()})
