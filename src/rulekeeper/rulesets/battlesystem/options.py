"""Ruleset options: each switches between two readings of a rule the guide leaves open or contradicts.

The defaults, the quotes behind each reading and why the default was taken are in
``docs/rules/battlesystem.md``; the option names are the ones ``--option NAME=VALUE`` will take.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rulekeeper.core.readings import Readings
from rulekeeper.core.ruleset import OptionInfo

_CHOICES: dict[str, tuple[tuple[str, ...], str]] = {
    "adjacent_damage": (
        ("own-dr", "half-of-target"),
        "Barrage on an adjacent hex: half the roll against that unit's own Damage Reduction (the example's 19), "
        "or half of what the targeted hex took ('take half of that': 18)",
    ),
    "half_rounding": (("down", "up"), "Rounding of an odd number halved (adjacent barrage damage, Military Police)"),
    "failed_attack_morale": (
        ("none", "defender"),
        "When a failed attack hurts the attacker, does the defender roll morale damage against it? 'none' (the "
        "failed-attack example rolls none) or 'defender' ('Every time a unit deals damage ... roll for morale')",
    ),
    "flight_timing": (
        ("end-of-turn", "start-of-turn"),
        "When a fleeing unit runs: at the end of its side's turn, after its general could rally it "
        "('their general will be able to rally them back into the fight'), or at the start of its side's turn",
    ),
    "flight_edge": (
        ("own", "nearest"),
        "Which edge a fleeing unit runs for: its own side's edge (home, as players expect) or the nearest edge of "
        "the map ('forced to flee toward the edge of the map')",
    ),
    "terrain_combat": (
        ("on", "off"),
        "Terrain and elevation in combat (estimated, data/support.yaml): higher ground, forest cover and a river's "
        "bad footing as the attack's 'other bonuses', or none (the guide: 'how they affect the units still remains "
        "unknown')",
    ),
}


@dataclass(frozen=True)
class BattleSystemOptions(Readings):
    CHOICES = _CHOICES

    adjacent_damage: Literal["own-dr", "half-of-target"] = "own-dr"
    half_rounding: Literal["down", "up"] = "down"
    failed_attack_morale: Literal["none", "defender"] = "none"
    flight_timing: Literal["end-of-turn", "start-of-turn"] = "end-of-turn"
    flight_edge: Literal["own", "nearest"] = "own"
    terrain_combat: Literal["on", "off"] = "on"

    def halve(self, value: int) -> int:
        """``value`` / 2 rounded as the option says (only whole numbers of soldiers and morale exist)."""
        return value // 2 if self.half_rounding == "down" else -(-value // 2)


def option_infos() -> list[OptionInfo]:
    return BattleSystemOptions.infos()
