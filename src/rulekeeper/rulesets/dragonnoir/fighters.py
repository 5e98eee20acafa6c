"""A character as he stands in a fight or a shot: which counter (foot or mounted, which side up), where.

"Characters who have a mount are represented by four counters: two represent them on foot and two
others mounted." A :class:`Fighter` picks one side of one counter and the hexes' terrains under it
(two for a horseman: "a mounted character occupies two hexes").
"""

from __future__ import annotations

from dataclasses import dataclass

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.core.wording import counted

from .data import EFFECT_VALUE, Character, Counter, SheetData, State

STATES: tuple[State, ...] = ("healthy", "wounded", "stunned", "berserk", "wounded_twice")


@dataclass(frozen=True)
class Fighter:
    """One character on the table: his counter side and the terrain of each hex he occupies."""

    name: str
    character: Character
    mounted: bool = False
    state: State = "healthy"
    terrains: tuple[str, ...] = ("flat",)
    horse: bool = False
    """The horse alone, without its rider ("the drawing of the horse without rider")."""

    def __post_init__(self) -> None:
        if (self.mounted or self.horse) and self.character.horse is None:
            raise ImpossibleRequestError(f"{self.name} has no horse.", character=self.name)
        if self.horse and self.mounted:
            raise ImpossibleRequestError(f"{self.name}'s horse alone has no rider: not both horse and mounted.")
        if not self.horse and self.state not in self.counters:
            raise ImpossibleRequestError(
                f"{self.name} has no {self.state} counter {'mounted' if self.mounted else 'on foot'} "
                f"(sides: {', '.join(self.counters)}).", character=self.name, state=self.state)
        want = 2 if self.mounted or self.horse else 1
        if len(self.terrains) not in (1, want):
            raise InvalidStatError(f"{self.name} stands on {counted(want, 'hex', 'hexes')}, "
                                   f"got {counted(len(self.terrains), 'terrain')}.", character=self.name)

    @property
    def counters(self) -> dict[State, Counter]:
        return (self.character.mounted or {}) if self.mounted else self.character.foot

    @property
    def counter(self) -> Counter:
        if self.horse:
            assert self.character.horse is not None
            return Counter(attack=0, movement=0, defence=self.character.horse.defence)
        return self.counters[self.state]

    @property
    def label(self) -> str:
        return f"{self.name}'s horse" if self.horse else self.name

    @property
    def on_horse_table(self) -> bool:
        """Fought and shot on the mounted tables: a horseman, or a horse alone ("as if he were dealing with a
        mounted character")."""
        return self.mounted or self.horse

    @property
    def attack(self) -> int:
        return self.counter.attack

    @property
    def defence(self) -> int:
        return self.counter.defence

    @property
    def armour(self) -> bool:
        """Red number circled: "Characters in armour and barded horses have their red number circled"."""
        if self.horse:
            assert self.character.horse is not None
            return self.character.horse.barded  # "A barded horse is considered to be a character in armour"
        return self.character.armour

    @property
    def standing(self) -> bool:
        """Neither stunned nor dead: a standing character blocks crossbows and can fight."""
        return self.state != "stunned"

    @property
    def is_dwarf(self) -> bool:
        return self.character.kind == "dwarf"

    @property
    def is_dragon_part(self) -> bool:
        return self.character.kind == "dragon part"

    @property
    def is_elf(self) -> bool:
        return self.character.kind == "elf"

    def hex_terrains(self) -> tuple[str, ...]:
        """One terrain per hex occupied (a horseman given one terrain stands on it with both hexes)."""
        two = self.mounted or self.horse
        return self.terrains * 2 if two and len(self.terrains) == 1 else self.terrains


def terrain_effect(sheet: SheetData, fighter: Fighter, terrain: str) -> str:
    """The (+)/(0)/(−) effect of ``terrain`` on ``fighter`` (Elves: trees are "+")."""
    name = sheet.terrain_name(terrain)
    effect = sheet.terrain_named(name).combat.value
    if name == "trees" and fighter.is_elf:
        return "+"  # "tree hexes are considered for them as advantageous terrain (+), the opposite of other characters"
    return effect


def least_advantageous(effects: list[str]) -> str:
    """The worst of several (+)/(0)/(−) effects."""
    return min(effects, key=lambda e: EFFECT_VALUE[e])


def fighter_effect(sheet: SheetData, fighter: Fighter) -> str:
    """"A mounted character is considered to be on the least advantageous terrain of the two hexes he occupies.\""""
    return least_advantageous([terrain_effect(sheet, fighter, t) for t in fighter.hex_terrains()])


def can_enter(sheet: SheetData, fighter: Fighter, terrain: str) -> str | None:
    """Why ``fighter`` may not go onto a ``terrain`` hex (None when he may): the combat restrictions reuse it."""
    name = sheet.terrain_name(terrain)
    t = sheet.terrain_named(name)
    if t.cost.value is None:
        return f"no character can be on a {name} hex"
    if fighter.mounted and not t.mounted.value:
        return f"a horseman cannot enter a {name} hex"
    if name in ("water", "spring") and fighter.armour:
        return "'Characters in armour and horses with barding can never pass through a water hex.'"
    return None
