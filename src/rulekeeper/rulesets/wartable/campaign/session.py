"""A campaign being played on the game protocol: the campaign, the RNG, and the orders given so far.

Orders are simultaneous and hidden: each side gives all of its units' orders (and its Faith)
in one action; they wait in ``pending`` — seen only by the side that gave them — until the
last side gives its own, and that action resolves the round (:func:`.rounds.resolve_round`,
drawing every Delve roll through the state's RNG). ``history`` keeps each Enclave's Stability
at the start of every round, for the Stability chart.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import NotRequired, TypedDict

from rulekeeper.core.errors import RulekeeperError
from rulekeeper.core.rng import RngState

from ..codec import Exact, dec, enc, fields_of, records_of
from ..model import WarTableOptions, parse_options
from .codec import (
    StoredCampaign,
    StoredOptions,
    StoredTable,
    campaign_from_json,
    campaign_to_json,
    options_from_json,
    options_to_json,
    table_from_json,
    table_to_json,
)
from .model import CampaignOptions, CampaignState
from .orders import ORDERS, FaithOrder, GiveOrders, Order
from .tables import RollTable

NAME = "wartable-campaign"

#: Stability of every Enclave at one moment: (Enclave, Stability, Fallen).
Snapshot = tuple[tuple[str, Fraction, bool], ...]


def side_key(faction: str) -> str:
    """A faction's side key (its link's role): ``"Oathsworn"`` → ``"oathsworn"``."""
    return re.sub(r"[^a-z0-9]+", "-", faction.casefold()).strip("-") or "side"


@dataclass(frozen=True)
class SideOrders:
    """One side's orders for one round: every standing unit's order (hold included) and its Faith."""

    side: str
    orders: tuple[Order, ...]
    faith: tuple[FaithOrder, ...] = ()

    def given(self, round_: int) -> GiveOrders:
        """The action that gives these orders in round ``round_``."""
        return GiveOrders(self.side, round_, self.orders, tuple(f.enclave for f in self.faith))


def snapshot(c: CampaignState) -> Snapshot:
    return tuple((e.name, e.stability, e.fallen) for e in c.enclaves)


@dataclass(frozen=True)
class CampaignGameState:
    """Everything a stored campaign is: a fold over its orders from the initial document."""

    campaign: CampaignState
    rng: RngState
    options: CampaignOptions
    battle_options: WarTableOptions
    tables: tuple[tuple[str, RollTable], ...]
    last_round: int
    sides: tuple[tuple[str, str], ...]  # (side key, faction name), in the file's faction order
    pending: tuple[SideOrders, ...] = ()
    history: tuple[tuple[int, Snapshot], ...] = ()
    last_log: tuple[str, ...] = ()
    compact: bool = False  # its checkpoints keep the unchanging parts as one JSON text (:mod:`.checkpoint`)

    @property
    def round(self) -> int:
        return self.campaign.round

    def faction_of(self, side: str) -> str:
        return dict(self.sides)[side]

    def side_of_faction(self, faction: str) -> str:
        return next(s for s, f in self.sides if f == faction)

    def given(self) -> tuple[str, ...]:
        return tuple(p.side for p in self.pending)

    def table_map(self) -> dict[str, RollTable]:
        return dict(self.tables)

    def standing_factions(self) -> list[str]:
        return [f for _, f in self.sides if any(u.faction == f and u.health > 0 for u in self.campaign.units)]


class StoredStability(TypedDict):
    enclave: str
    stability: Exact
    fallen: bool


class StoredRound(TypedDict):
    """Each Enclave's Stability at the start of a round (the Stability chart's points)."""

    round: int
    enclaves: list[StoredStability]


class StoredSide(TypedDict):
    side: str
    faction: str


class StoredCampaignGame(TypedDict):
    """The full form of a campaign being played (:func:`state_json`), in this key order; ``pending`` holds the
    logged JSON of the actions that gave the waiting orders."""

    ruleset: str
    campaign: StoredCampaign
    rng: dict[str, int]
    options: StoredOptions
    battle_options: dict[str, str]
    tables: dict[str, StoredTable]
    last_round: int
    sides: list[StoredSide]
    pending: list[dict[str, object]]
    history: list[StoredRound]
    last_log: list[str]
    checkpoint: NotRequired[str]


def _snap_json(s: Snapshot) -> list[StoredStability]:
    return [{"enclave": n, "stability": enc(v), "fallen": f} for n, v, f in s]


def _snap_from(d: object, where: str) -> Snapshot:
    if not isinstance(d, list) or not all(isinstance(x, Mapping) for x in d):
        raise RulekeeperError(f"{where}: expected a list of Enclaves' Stability, got {d!r}")
    rows = [fields_of(x, where) for x in d]
    return tuple((str(x["enclave"]), dec(x["stability"], f"{where}.stability"), bool(x["fallen"])) for x in rows)


def pending_json(p: SideOrders, round_: int) -> dict[str, object]:
    """Pending orders in the state's JSON: the JSON of the action that gave them."""
    return ORDERS.encode(p.given(round_))


def history_json(history: tuple[tuple[int, Snapshot], ...]) -> list[StoredRound]:
    return [{"round": r, "enclaves": _snap_json(snap)} for r, snap in history]


def _rows(doc: Mapping[str, object], key: str) -> list[Mapping[str, object]]:
    return [fields_of(x, f"{key}[{i}]") for i, x in enumerate(records_of(doc[key], key))]


def _names(value: object, where: str) -> dict[str, str]:
    """The battle options' ``NAME -> VALUE`` pairs as stored, checked to be texts."""
    named = fields_of(value, where)
    if not all(isinstance(v, str) for v in named.values()):
        raise RulekeeperError(f"{where}: expected a text for each option, got {dict(named)!r}")
    return {str(k): str(v) for k, v in named.items()}


def _last_round(value: object) -> int:
    """``int(value)`` as the full form always read a round number (a stored number or its digits)."""
    if not isinstance(value, (int, str, float)):
        raise RulekeeperError(f"expected a round number, got {value!r}")
    return int(value)


#: The initial document's mark of a campaign whose checkpoints are compact (set up since issue 22); a
#: campaign stored without it keeps writing the full form, so its replay compares byte for byte.
COMPACT_MARK = ("checkpoint", "compact")


def state_json(s: CampaignGameState) -> StoredCampaignGame:
    """The full form: every part of the campaign as plain JSON (the initial document, views, older checkpoints)."""
    doc: StoredCampaignGame = {
        "ruleset": NAME,
        "campaign": campaign_to_json(s.campaign),
        "rng": s.rng.to_dict(),
        "options": options_to_json(s.options),
        "battle_options": s.battle_options.to_dict(),
        "tables": {k: table_to_json(t) for k, t in s.tables},
        "last_round": s.last_round,
        "sides": [{"side": k, "faction": f} for k, f in s.sides],
        "pending": [pending_json(p, s.round) for p in s.pending],
        "history": history_json(s.history),
        "last_log": list(s.last_log),
    }
    if s.compact:
        doc["checkpoint"] = COMPACT_MARK[1]  # COMPACT_MARK
    return doc


def state_from_full(doc: Mapping[str, object]) -> CampaignGameState:
    """The state back from :func:`state_json`; anything it cannot read is a typed error."""
    try:
        if doc.get("ruleset") != NAME:
            raise RulekeeperError(f"ruleset: expected {NAME!r}, got {doc.get('ruleset')!r}")
        sides = tuple((str(x["side"]), str(x["faction"])) for x in _rows(doc, "sides"))
        rng, tables = doc["rng"], fields_of(doc["tables"], "tables")
        if not isinstance(rng, dict):
            raise RulekeeperError(f"rng: expected the RNG's state, got {rng!r}")
        state = CampaignGameState(
            campaign_from_json(fields_of(doc["campaign"], "campaign")),
            RngState.from_dict(rng),
            options_from_json(fields_of(doc["options"], "options")),
            parse_options(_names(doc["battle_options"], "battle_options")),
            tuple((str(k), table_from_json(fields_of(v, f"tables.{k}"), f"tables.{k}")) for k, v in tables.items()),
            _last_round(doc["last_round"]),
            sides,
            (),
            tuple((_last_round(h["round"]), _snap_from(h["enclaves"], "history")) for h in _rows(doc, "history")),
            tuple(str(x) for x in records_of(doc["last_log"], "last_log")),
        )
        pending = []
        for p in _rows(doc, "pending"):
            given = ORDERS.decode(p)  # the JSON of the action that gave them
            faction = state.faction_of(given.side)
            pending.append(SideOrders(given.side, given.orders, tuple(FaithOrder(faction, e) for e in given.faith)))
        mark = doc.get(COMPACT_MARK[0])
        if mark not in (None, COMPACT_MARK[1]):
            raise RulekeeperError(f"{COMPACT_MARK[0]}: expected {COMPACT_MARK[1]!r}, got {mark!r}")
        return CampaignGameState(state.campaign, state.rng, state.options, state.battle_options, state.tables,
                                 state.last_round, state.sides, tuple(pending), state.history, state.last_log,
                                 mark is not None)
    except RulekeeperError as exc:
        raise RulekeeperError(f"the stored War Table campaign is damaged: {exc.message}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise RulekeeperError(f"the stored War Table campaign is damaged: {exc!r}") from None
