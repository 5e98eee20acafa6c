"""Ruleset options: each switches between two readings of a rule the seed contradicts.

The defaults and both quotes of each are recorded in ``docs/rules/exillis.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rulekeeper.core.readings import Readings
from rulekeeper.core.ruleset import OptionInfo

_CHOICES: dict[str, tuple[tuple[str, ...], str]] = {
    "initiative_loss": (("20", "10"), "Initiative lost per Fatigue/Veil threshold, in percent"),
    "general_hp_bonus": (("25", "50"), "A General's Hit Point bonus, in percent"),
    "sensitivity_growth": (("additive", "compound"), "Morale Sensitivity growth per threshold: +20 % or ×1.2"),
    "luck_damage": (("x1.5", "x2.5"), "Luck damage: 1.5 times, or 'increased by 150 %' (2.5 times)"),
    "bulk_table": (
        ("by-section", "melee", "range"),
        "Which Bulk table: Range table for visibility and melee table for zone space (as the worked "
        "example does), or one table everywhere",
    ),
    "rout_on_breaking_casualty": (
        ("no", "yes"),
        "Does the casualty that makes a unit Broken also make it flee?",
    ),
    "intimidation_lookup": (("step", "interpolate"), "Read the Intimidation table by steps or interpolate"),
    "leadership_combine": (
        ("total", "average"),
        "Hero and General Leadership on one unit: their total, or the average of both",
    ),
    "spell_resist": (
        ("magic", "macc"),
        "A spell's chance to be resisted: the caster's Magic against the Resistance, or its Magic Accuracy",
    ),
    "charge_intimidation": (
        ("before-casualties", "after-casualties"),
        "A charge's Intimidation: set as the charge lands, before its casualties are witnessed, "
        "or after them (as in any other round)",
    ),
    "dark_presence_drain": (
        ("exact", "whole-hp"),
        "Dark Presence's 2 % drain: exact (fractional Hit Points), or rounded to whole Hit Points (at least 1)",
    ),
    "stat_levels": (
        ("level-1", "level"),
        "Growth exponent of the level formulas: table values are level 1 (level-1) or level 0 (level)",
    ),
}


@dataclass(frozen=True)
class ExIllisOptions(Readings):
    CHOICES = _CHOICES

    initiative_loss: Literal["20", "10"] = "20"
    general_hp_bonus: Literal["25", "50"] = "25"
    sensitivity_growth: Literal["additive", "compound"] = "additive"
    luck_damage: Literal["x1.5", "x2.5"] = "x1.5"
    bulk_table: Literal["by-section", "melee", "range"] = "by-section"
    rout_on_breaking_casualty: Literal["no", "yes"] = "no"
    intimidation_lookup: Literal["step", "interpolate"] = "step"
    stat_levels: Literal["level-1", "level"] = "level-1"
    leadership_combine: Literal["total", "average"] = "total"
    spell_resist: Literal["magic", "macc"] = "magic"
    charge_intimidation: Literal["before-casualties", "after-casualties"] = "before-casualties"
    dark_presence_drain: Literal["exact", "whole-hp"] = "exact"

    @property
    def initiative_loss_fraction(self) -> float:
        return int(self.initiative_loss) / 100.0

    @property
    def general_hp_factor(self) -> float:
        return 1.0 + int(self.general_hp_bonus) / 100.0

    @property
    def luck_multiplier(self) -> float:
        return 1.5 if self.luck_damage == "x1.5" else 2.5

    def visibility_bulk_key(self) -> str:
        return "bulk" if self.bulk_table == "melee" else "bulk_range"

    def space_bulk_key(self) -> str:
        return "bulk_range" if self.bulk_table == "range" else "bulk"


def option_infos() -> list[OptionInfo]:
    return ExIllisOptions.infos()
