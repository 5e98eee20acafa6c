"""Units as they stand in a zone during one resolution.

A :class:`Combatant` is immutable: resolving an action returns new combatants. It
holds what the rules need beyond the unit's profile: current Hit Points of each
miniature, Fatigue and Veil points, morale, stance and whether it moved last turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from rulekeeper.core.errors import InvalidStatError

MORALE_MIN = -60.0
MORALE_MAX = 240.0


def round_half_up(x: float) -> int:
    """Round to the nearest integer, halves away from zero (the rulebooks' rounding)."""
    import math

    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


@dataclass(frozen=True)
class Combatant:
    """One unit (or a hero on their own) in the zone being resolved."""

    key: str
    profile: Any
    side: str
    hp: tuple[float, ...]
    max_hp: float
    fatigue: float = 0.0
    veil: float = 0.0
    morale: float = 0.0
    intimidation_mod: float = 0.0
    fleeing: bool = False
    stance: str = "none"
    moved: bool = False
    level: int = 1
    chain: tuple[str, int] = ("", 0)
    flying: bool = False

    def __post_init__(self) -> None:
        if self.fatigue < 0 or self.veil < 0:
            raise InvalidStatError(f"{self.key}: fatigue and veil must be >= 0")
        if any(h < 0 for h in self.hp):
            raise InvalidStatError(f"{self.key}: hit points must be >= 0")
        if self.max_hp <= 0:
            raise InvalidStatError(f"{self.key}: maximum hit points must be > 0")

    @classmethod
    def fresh(
        cls,
        key: str,
        profile: Any,
        side: str,
        miniatures: int | None = None,
        *,
        fatigue: float = 0.0,
        veil: float = 0.0,
        morale: float | None = None,
        stance: str = "none",
        moved: bool = False,
        level: int = 1,
        hp_factor: float = 1.0,
    ) -> Combatant:
        full = int(profile.stat("miniatures"))
        n = full if miniatures is None else miniatures
        if n < 1:
            raise InvalidStatError(f"{key}: a unit needs at least 1 miniature, got {n}")
        if n > full:
            raise InvalidStatError(f"{key}: {profile.name} has at most {full} miniatures, got {n}")
        hp = profile.stat("hp") * hp_factor
        m = profile.stat("morale") if morale is None else morale
        return cls(key, profile, side, (hp,) * n, hp, fatigue, veil, m, 0.0, False, stance, moved, level)

    @property
    def name(self) -> str:
        return str(self.profile.name)

    def stat(self, key: str) -> float:
        return float(self.profile.stat(key))

    def alive(self) -> list[int]:
        return [i for i, h in enumerate(self.hp) if h > 0]

    @property
    def count(self) -> int:
        return sum(1 for h in self.hp if h > 0)

    @property
    def destroyed(self) -> bool:
        return self.count == 0

    def mini(self, i: int) -> str:
        return f"{self.key} #{i + 1}" if len(self.hp) > 1 else self.key

    def with_hp(self, i: int, value: float) -> Combatant:
        hp = list(self.hp)
        hp[i] = max(0.0, value)
        return replace(self, hp=tuple(hp))

    def has_rule(self, rule: str) -> bool:
        return rule.lower() in (r.lower() for r in self.profile.special_rules)

    def attack_cap(self, bulk_key: str = "bulk") -> int:
        """Attacks one miniature can receive per round: its Bulk, halved if it moved."""
        b = self.stat(bulk_key)
        if self.moved:
            b = b / 2
        return max(1, int(b))
