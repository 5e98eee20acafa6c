"""The data a battle reads: unit profiles and action/terrain numbers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..profiles import Roster, load_profiles
from ..rules_data import RulesData, load_rules_data


@dataclass(frozen=True)
class BattleTables:
    roster: Roster
    rules: RulesData

    @classmethod
    def load(cls, data: Path | None = None) -> BattleTables:
        from ..setup import load_tables

        t = load_tables(data)
        return cls(t.roster, t.rules)

    @classmethod
    def shipped(cls) -> BattleTables:
        return cls(load_profiles(), load_rules_data())
