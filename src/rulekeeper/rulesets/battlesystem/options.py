"""Ruleset options: each switches between two readings of a rule the guide leaves open or contradicts.

The defaults, the quotes behind each reading and why the default was taken are in
``docs/rules/battlesystem.md``; the option names are the ones ``--option NAME=VALUE`` will take.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Literal

from rulekeeper.core.errors import InvalidStatError, UnknownNameError
from rulekeeper.core.ruleset import OptionInfo

_CHOICES: dict[str, tuple[tuple[str, ...], str]] = {
    "adjacent_damage": (
        ("own-dr", "half-of-target"),
        "Barrage on an adjacent hex: half the roll against that unit's own Damage Reduction (the example's 19), "
        "or half of what the targeted hex took ('take half of that': 18)",
    ),
    "half_rounding": (("down", "up"), "Rounding of an odd number halved (adjacent barrage damage, Military Police)"),
    "failed_attack_morale": (
        ("defender", "none"),
        "When a failed attack hurts the attacker, does the defender roll morale damage against it?",
    ),
}


@dataclass(frozen=True)
class BattleSystemOptions:
    adjacent_damage: Literal["own-dr", "half-of-target"] = "own-dr"
    half_rounding: Literal["down", "up"] = "down"
    failed_attack_morale: Literal["defender", "none"] = "defender"

    def halve(self, value: int) -> int:
        """``value`` / 2 rounded as the option says (only whole numbers of soldiers and morale exist)."""
        return value // 2 if self.half_rounding == "down" else -(-value // 2)

    @classmethod
    def parse(cls, pairs: list[str] | None) -> BattleSystemOptions:
        """Build from ``NAME=VALUE`` strings, refusing unknown names or values (typed errors)."""
        opts = cls()
        for pair in pairs or []:
            name, sep, value = pair.partition("=")
            name = name.strip().replace("-", "_")
            if not sep:
                raise InvalidStatError(f"option {pair!r} must look like NAME=VALUE", option=pair)
            if name not in _CHOICES:
                raise UnknownNameError("option", name, _CHOICES)
            if value.strip() not in _CHOICES[name][0]:
                raise UnknownNameError(f"value for option {name}", value, _CHOICES[name][0])
            change: dict[str, Any] = {name: value.strip()}
            opts = replace(opts, **change)
        return opts

    def to_dict(self) -> dict[str, str]:
        return {f.name: str(getattr(self, f.name)) for f in fields(self)}


def option_infos() -> list[OptionInfo]:
    defaults = BattleSystemOptions().to_dict()
    return [OptionInfo(n, defaults[n], c, h) for n, (c, h) in _CHOICES.items()]
