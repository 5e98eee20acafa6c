"""The War Table ruleset: deterministic six-step combat and Enclave Stability.

The War Table resolves battles by arithmetic, not dice: Health × Attack/100 hits,
shared over the enemy, partly blocked by Defense. This package keeps the rules'
numbers in data (``data/*.yaml``), the readings of contradictory rules in named
options, and exposes one pure entry point, :func:`resolve_combat`; :mod:`.game` plays
one engagement of a battle file through the game protocol (``rulekeeper battle``). See
``docs/rules/wartable.md`` for every rules decision.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rulekeeper.core.chance import Fate
from rulekeeper.core.ruleset import OptionInfo, Resolution

from .battle import battle_from_mapping, load_battle
from .combat import allocate, block, default_data, hits_dealt, resolve_battle, resolve_combat
from .data import WarTableData, load_data, load_data_file, shipped_data
from .game import WarTableActionError, WarTableBattles, WarTableSetupError, WarTableState
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


class WarTable(WarTableBattles):
    """The War Table rule system: the calculator here, one engagement on the game protocol
    (:class:`rulekeeper.core.game.Game`) in :class:`.game.WarTableBattles`."""

    name: ClassVar[str] = "wartable"
    aliases: ClassVar[tuple[str, ...]] = ("war-table", "war table", "wt")
    title: ClassVar[str] = "War Table"
    deterministic: ClassVar[bool] = True

    def options(self) -> list[OptionInfo]:
        """The readings of contradictory or unclear rules, with their defaults."""
        return list(OPTION_INFO)

    def roster(self) -> list[dict[str, Any]]:
        """Every shipped unit profile."""
        return [u.to_dict() for u in default_data().units]

    def register_cli(self, hooks: Any) -> None:
        """``rulekeeper resolve wartable`` (the six-step combat and its Stability effects)."""
        from .cli import register

        register(hooks.app)

    def sample_resolution(self, fate: Fate) -> Resolution:
        """The seed's worked example: Oathsworn Vanguard attack a Bloodless Horde in a Ruin.

        War Table combat draws no chance, so ``fate`` is left untouched.
        """
        data = default_data()
        report = resolve_combat(
            [data.unit("Oathsworn Vanguard")],
            [data.unit("Bloodless Horde")],
            ["Ruin"],
            title="Oathsworn Vanguard attack a Bloodless Horde in a Ruin (seed example)",
        )
        return Resolution(ruleset=self.name, kind="combat", summary=report.to_dict(), chance=fate.record_dicts())
