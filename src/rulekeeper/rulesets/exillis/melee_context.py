"""What a melee round is fought under: the action, the direction of the attack and the units' modifiers.

Shared by the roll to hit (:mod:`.roll_to_hit`), the round itself (:mod:`.melee`) and the
weapon choice (:mod:`.weapons`); :mod:`.melee` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.errors import ImpossibleRequestError, UnknownNameError

from .options import ExIllisOptions
from .rules_data import RulesData

#: Defences are scaled by the direction the attack comes from.
DIRECTION_DEFENCE = {"front": 1.0, "flank": 0.5, "rear": 0.25}


@dataclass(frozen=True)
class UnitMods:
    """Multipliers that heroic powers and special rules put on one unit's attacks."""

    accuracy: float = 1.0
    strength: float = 1.0
    toughness: float = 1.0
    damage: float = 1.0
    damage_vs_heroes: float = 1.0
    notes: tuple[str, ...] = ()


NO_MODS = UnitMods()


@dataclass(frozen=True)
class MeleeContext:
    data: RulesData
    options: ExIllisOptions = ExIllisOptions()
    action: str = "fight"
    direction: str = "front"
    mods: tuple[tuple[str, UnitMods], ...] = ()
    directions: tuple[tuple[str, str], ...] = ()  # per attacking unit key, when not ``direction``
    #: the defenders stand "in the open" (a zone without a terrain feature): a cavalry charge keeps its full impact
    open_ground: bool = True
    #: the round is a charge reaction (a Polearm unit strikes with its secondary weapon)
    reaction: bool = False

    def mods_of(self, key: str) -> UnitMods:
        for k, m in self.mods:
            if k == key:
                return m
        return NO_MODS

    def direction_of(self, attacker: str) -> str:
        for k, d in self.directions:
            if k == attacker:
                return d
        return self.direction

    def __post_init__(self) -> None:
        if self.direction not in DIRECTION_DEFENCE:
            raise UnknownNameError("fight direction", self.direction, DIRECTION_DEFENCE)
        act = self.data.action(self.action)
        if act.kind != "melee":
            raise ImpossibleRequestError(f"{act.title} is not a melee action")
