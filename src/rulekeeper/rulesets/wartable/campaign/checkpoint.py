"""The campaign's checkpoint: its unchanging parts as one JSON text, encoded once per campaign.

Why: the battle service stores the state's JSON after every action (a checkpoint), and while a
campaign is played its map, unit profiles, Delve tables, options and sides never change. They were
two thirds of every checkpoint, built and encoded again at each action (issue 22: stored ÷ engine
2.2×, the goal 2×). A compact checkpoint keeps them as one JSON text under ``"fixed"``, made once
per campaign and process (:func:`fixed_text`) and stored as a string, which the encoder copies
instead of walking; only what changes is plain JSON: the round, each Enclave's Stability, each
faction's Faith, each unit's region, Health and items, the RNG, the pending orders, the history
and the last round's log. A checkpoint still stands alone: any one of them rebuilds the state.

A campaign set up since says so in its initial document (``"checkpoint": "compact"``, in the full
form of :func:`.session.state_json`). A campaign stored before keeps writing full checkpoints, so
its replay still compares every stored checkpoint byte for byte; both forms read back.
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Mapping
from typing import TypedDict

from rulekeeper.core.errors import RulekeeperError

from ..codec import Exact, StoredUnit, enc, fields_of, unit_to_json
from .codec import StoredDungeon, StoredOptions, StoredRegion, StoredTable, options_to_json, table_to_json
from .session import (
    COMPACT_MARK,
    NAME,
    CampaignGameState,
    StoredCampaignGame,
    StoredRound,
    StoredSide,
    history_json,
    pending_json,
    state_from_full,
    state_json,
)

#: The unchanging parts of the last few campaigns and their text: a service process plays a handful
#: of campaigns at a time.
_RECENT: deque[tuple[tuple[object, ...], str]] = deque(maxlen=8)
_LOCK = threading.Lock()


def _fixed_parts(s: CampaignGameState) -> tuple[object, ...]:
    """Every value :func:`_fixed_json` reads. A round hands the same objects on, so a tuple comparison
    (identity first, element by element) finds the text of a campaign being played in a few ``is``; a
    campaign read anew from its document compares by value, in a third of the time making the text takes."""
    c = s.campaign
    return (c.name, c.map, c.dungeons, s.options, s.battle_options, s.tables, s.last_round, s.sides,
            *(x for u in c.units for x in (u.label, u.unit, u.faction)),
            *(x for e in c.enclaves for x in (e.name, e.region, e.faction, e.full)),
            *(f.name for f in c.factions))



class FixedEnclave(TypedDict):
    name: str
    region: str
    faction: str
    full: Exact


class FixedUnit(TypedDict):
    label: str
    faction: str
    profile: StoredUnit


class FixedParts(TypedDict):
    """What never changes while a campaign is played (:func:`_fixed_json`), stored as one JSON text."""

    name: str
    regions: list[StoredRegion]
    enclaves: list[FixedEnclave]
    factions: list[str]
    units: list[FixedUnit]
    dungeons: list[StoredDungeon]
    options: StoredOptions
    battle_options: dict[str, str]
    tables: dict[str, StoredTable]
    last_round: int
    sides: list[StoredSide]


class ChangingEnclave(TypedDict):
    stability: Exact
    fallen: bool


class ChangingUnit(TypedDict):
    region: str
    health: Exact
    items: list[str]


class CompactCheckpoint(TypedDict):
    """A compact checkpoint (:func:`compact_json`): the fixed text, then what changes keyed by its names."""

    ruleset: str
    fixed: str
    round: int
    enclaves: dict[str, ChangingEnclave]
    faith: dict[str, Exact]
    units: dict[str, ChangingUnit]
    rng: dict[str, int]
    pending: list[dict[str, object]]
    history: list[StoredRound]
    last_log: list[str]


def _fixed_json(s: CampaignGameState) -> FixedParts:
    c = s.campaign
    return {
        "name": c.name,
        "regions": [{"name": r, "borders": sorted(c.map.neighbours(r)), "traits": list(c.map.traits(r))}
                    for r in c.map.names()],
        "enclaves": [{"name": e.name, "region": e.region, "faction": e.faction, "full": enc(e.full)}
                     for e in c.enclaves],
        "factions": [f.name for f in c.factions],
        "units": [{"label": u.label, "faction": u.faction, "profile": unit_to_json(u.unit)} for u in c.units],
        "dungeons": [{"name": d.name, "region": d.region, "table": d.table} for d in c.dungeons],
        "options": options_to_json(s.options),
        "battle_options": s.battle_options.to_dict(),
        "tables": {k: table_to_json(t) for k, t in s.tables},
        "last_round": s.last_round,
        "sides": [{"side": k, "faction": f} for k, f in s.sides],
    }


def fixed_text(s: CampaignGameState) -> str:
    """The unchanging parts of ``s`` as compact JSON text: encoded once, then found again by identity."""
    parts = _fixed_parts(s)
    with _LOCK:
        for known in _RECENT:
            if known[0] == parts:
                if any(a is not b for a, b in zip(known[0], parts, strict=True)):  # equal values, new objects:
                    _RECENT.remove(known)  # keep these, so the next comparison is by identity
                    _RECENT.appendleft((parts, known[1]))
                return known[1]
    text = json.dumps(_fixed_json(s), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    with _LOCK:
        _RECENT.appendleft((parts, text))
    return text


def compact_json(s: CampaignGameState) -> CompactCheckpoint:
    """The compact checkpoint of ``s``: the fixed text, and what changes keyed by the names it belongs to."""
    c = s.campaign
    return {
        "ruleset": NAME,
        "fixed": fixed_text(s),
        "round": c.round,
        "enclaves": {e.name: {"stability": enc(e.stability), "fallen": e.fallen} for e in c.enclaves},
        "faith": {f.name: enc(f.faith) for f in c.factions},
        "units": {u.label: {"region": u.region, "health": enc(u.health), "items": list(u.items)} for u in c.units},
        "rng": s.rng.to_dict(),
        "pending": [pending_json(p, s.round) for p in s.pending],
        "history": history_json(s.history),
        "last_log": list(s.last_log),
    }


def _require_names(value: object, names: list[str], where: str) -> Mapping[str, object]:
    """``value`` is a mapping with exactly ``names`` as keys (the fixed part's names), else a typed error naming it."""
    if not isinstance(value, Mapping) or sorted(value) != sorted(names):
        got = sorted(value) if isinstance(value, Mapping) else value
        raise RulekeeperError(f"{where}: expected an entry for each of {names}, got {got!r}")
    return value


def _full_of(doc: Mapping[str, object]) -> Mapping[str, object]:
    """The full form (:func:`.session.state_json`) a compact checkpoint stands for, not yet checked: the full
    form's reader (:func:`.session.state_from_full`) checks every part of it."""
    text = doc["fixed"]
    if not isinstance(text, str):
        raise RulekeeperError(f"fixed: expected the JSON text of the campaign's unchanging parts, got {text!r}")
    try:
        fixed = json.loads(text)
    except ValueError as exc:
        raise RulekeeperError(f"fixed: not JSON ({exc})") from None
    if not isinstance(fixed, dict):
        raise RulekeeperError("fixed: expected a JSON object")
    enclaves = _require_names(doc["enclaves"], [e["name"] for e in fixed["enclaves"]], "enclaves")
    faith = _require_names(doc["faith"], list(fixed["factions"]), "faith")
    units = _require_names(doc["units"], [u["label"] for u in fixed["units"]], "units")
    campaign = {
        "name": fixed["name"], "round": doc["round"], "regions": fixed["regions"],
        "enclaves": [{**e, **fields_of(enclaves[e["name"]], "enclaves")} for e in fixed["enclaves"]],
        "factions": [{"name": f, "faith": faith[f]} for f in fixed["factions"]],
        "units": [{**u, **fields_of(units[u["label"]], "units")} for u in fixed["units"]],
        "dungeons": fixed["dungeons"],
    }
    return {"ruleset": NAME, "campaign": campaign, "rng": doc["rng"], "options": fixed["options"],
            "battle_options": fixed["battle_options"], "tables": fixed["tables"], "last_round": fixed["last_round"],
            "sides": fixed["sides"], "pending": doc["pending"], "history": doc["history"],
            "last_log": doc["last_log"], COMPACT_MARK[0]: COMPACT_MARK[1]}


def state_to_json(s: CampaignGameState) -> CompactCheckpoint | StoredCampaignGame:
    """The state's JSON (the checkpoint): compact for a campaign set up so, the full form otherwise."""
    return compact_json(s) if s.compact else state_json(s)


def state_from_json(doc: Mapping[str, object]) -> CampaignGameState:
    """The state back from either form; anything it cannot read is a typed error."""
    if "fixed" not in doc:
        return state_from_full(doc)
    try:
        if doc.get("ruleset") != NAME:
            raise RulekeeperError(f"ruleset: expected {NAME!r}, got {doc.get('ruleset')!r}")
        full = _full_of(doc)
    except RulekeeperError as exc:
        raise RulekeeperError(f"the stored War Table campaign is damaged: {exc.message}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise RulekeeperError(f"the stored War Table campaign is damaged: {exc!r}") from None
    return state_from_full(full)
