"""The War Table campaign as a library: a region map, Enclaves and their Stability, factions,
Faith, Delve tables and rounds.

The seed describes more than one battle: units given orders in regions with traits, Enclaves
whose Stability moves round after round, Downtime, and Delve tables. This package holds those
rules as pure functions over frozen values; battles inside it are the calculator's six-step combat
(:func:`..combat.resolve_combat`). :mod:`.game` plays them on the game protocol as the registered game
``wartable-campaign`` (simultaneous hidden orders, one round per set of orders). See the "Campaign"
sections of ``docs/rules/wartable.md``.
"""

from __future__ import annotations

from .files import load_campaign, parse_campaign
from .model import CampaignOptions, CampaignState, Dungeon, Enclave, Faction, FieldUnit
from .orders import ORDER_KINDS, FaithOrder, Order, OrderError, checked_orders
from .rounds import RoundResult, resolve_round
from .stability import (
    RULES,
    StabilityChange,
    apply_change,
    attacked_directly,
    bloodless_downtime,
    bloodless_reach,
    enclave_losses,
    faith,
    from_battle,
    predetermined,
    reclaim,
)
from .tables import Effects, Entry, RollTable, TableRoll, load_table, parse_table, roll_on, shipped_table

__all__ = [
    "ORDER_KINDS",
    "FaithOrder",
    "Order",
    "OrderError",
    "RoundResult",
    "checked_orders",
    "resolve_round",
    "RULES",
    "CampaignOptions",
    "CampaignState",
    "Dungeon",
    "Effects",
    "Enclave",
    "Entry",
    "Faction",
    "FieldUnit",
    "RollTable",
    "StabilityChange",
    "TableRoll",
    "apply_change",
    "attacked_directly",
    "bloodless_downtime",
    "bloodless_reach",
    "enclave_losses",
    "faith",
    "from_battle",
    "load_campaign",
    "load_table",
    "parse_campaign",
    "parse_table",
    "predetermined",
    "reclaim",
    "roll_on",
    "shipped_table",
]
