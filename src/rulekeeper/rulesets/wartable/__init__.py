"""The War Table ruleset: deterministic six-step combat and Enclave Stability.

The War Table resolves battles by arithmetic, not dice: Health × Attack/100 hits,
shared over the enemy, partly blocked by Defense. This package keeps the rules'
numbers in data (``data/*.yaml``), the readings of contradictory rules in named
options, and exposes one pure entry point, :func:`resolve_combat`; :mod:`.game` plays
one engagement of a battle file through the game protocol (``rulekeeper battle``); its registered class
:class:`.game.WarTable` is the entry point ``rulekeeper.rulesets.wartable.game:WarTable``. See
``docs/rules/wartable.md`` for every rules decision.
"""

from __future__ import annotations

from .battle import battle_from_mapping, load_battle
from .combat import allocate, block, default_data, hits_dealt, resolve_battle, resolve_combat
from .data import WarTableData, load_data, load_data_file, shipped_data
from .game import WarTable, WarTableActionError, WarTableBattles, WarTableSetupError, WarTableState
from .model import (
    OPTION_INFO,
    Battle,
    Combatant,
    EnclaveState,
    ModifierDef,
    UnitDef,
    WarTableOptions,
    parse_option_pairs,
    parse_options,
)
from .report import CombatReport
from .rounding import ceil_up, round_half_up
from .stability import StabilityReport, UnitOutcome, stability_effects

__all__ = [
    "OPTION_INFO",
    "Battle",
    "CombatReport",
    "Combatant",
    "EnclaveState",
    "ModifierDef",
    "StabilityReport",
    "UnitDef",
    "UnitOutcome",
    "WarTable",
    "WarTableActionError",
    "WarTableBattles",
    "WarTableData",
    "WarTableOptions",
    "WarTableSetupError",
    "WarTableState",
    "allocate",
    "battle_from_mapping",
    "block",
    "ceil_up",
    "default_data",
    "hits_dealt",
    "load_battle",
    "load_data",
    "load_data_file",
    "parse_option_pairs",
    "parse_options",
    "resolve_battle",
    "resolve_combat",
    "round_half_up",
    "shipped_data",
    "stability_effects",
]

