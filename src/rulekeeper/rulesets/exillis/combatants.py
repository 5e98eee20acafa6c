"""Units as they stand in a zone during one resolution.

A :class:`Combatant` is immutable: resolving an action returns new combatants. It
holds what the rules need beyond the unit's profile: current Hit Points of each
miniature, Fatigue and Veil points, morale, stance and whether it moved last turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rulekeeper.core.errors import InvalidStatError
from rulekeeper.core.wording import counted

from .fastcopy import evolve, memo

if TYPE_CHECKING:
    from .unit_profile import UnitProfile

MORALE_MIN = -60.0
MORALE_MAX = 240.0


def round_half_up(x: float) -> int:
    """Round to the nearest integer, halves away from zero (the rulebooks' rounding)."""
    import math

    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


@dataclass(frozen=True)
class Modifier:
    """A temporary modifier of a statistic: how much, what causes it, and whose act keeps it alive.

    Seed (Morale Modifiers): "dynamic modifiers, which fluctuate throughout the game, and static
    modifiers, which, once applied, last for the whole game". Static changes go into the
    statistic's base; a dynamic one lives here for as long as its cause
    (:mod:`.battle.lifetimes` ends it) and is never folded into the base, so ending it takes
    back exactly what it gave. One modifier per (stat, cause, source): a new value of the same
    cause replaces the old one; different sources stack ("The same Verse cast by 2 different
    units has a cumulative effect").
    """

    stat: str  # "morale"
    amount: float
    cause: str  # "intimidation" (while in the melee), "verse" (while the singer sings), "leadership" (while the leader lives)
    source: str = ""  # the unit whose act or presence keeps it alive ("" : the unit's own melee)

    def to_list(self) -> list[str | float]:
        return [self.stat, self.amount, self.cause, self.source]

    @classmethod
    def from_list(cls, x: object) -> Modifier:
        """A modifier as an event or a stored state lists it (``[stat, amount, cause, source]``), checked."""
        if not isinstance(x, (list, tuple)) or len(x) != 4 or not isinstance(x[1], (int, float)):
            raise InvalidStatError(f"a modifier is [stat, amount, cause, source], not {x!r:.60}")
        return cls(str(x[0]), x[1], str(x[2]), str(x[3]))


@dataclass(frozen=True)
class Combatant:
    """One unit (or a hero on their own) in the zone being resolved."""

    key: str
    profile: UnitProfile
    side: str
    hp: tuple[float, ...]
    max_hp: float
    fatigue: float = 0.0
    veil: float = 0.0
    morale_base: float = 0.0  # static changes included, never clamped (see :attr:`morale`)
    modifiers: tuple[Modifier, ...] = ()  # live dynamic modifiers (:class:`Modifier`)
    fleeing: bool = False
    stance: str = "none"
    moved: bool = False
    level: int = 1
    chain: tuple[str, int] = ("", 0)
    flying: bool = False

    #: The fields ``__post_init__`` checks (:func:`.fastcopy.evolve` skips the check for other changes).
    __evolve_checks__: ClassVar[frozenset[str]] = frozenset({"hp", "max_hp", "fatigue", "veil"})

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
        profile: UnitProfile,
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
            raise InvalidStatError(f"{key}: {profile.name} has at most {counted(full, 'miniature')}, got {n}")
        hp = profile.stat("hp") * hp_factor
        m = profile.stat("morale") if morale is None else morale
        return cls(key, profile, side, (hp,) * n, hp, fatigue, veil, m, (), False, stance, moved, level)

    @property
    def name(self) -> str:
        return str(self.profile.name)

    @memo
    def morale(self) -> float:
        """Morale as the rules read it: the base plus the live modifiers, clamped to the Morale Bar.

        Seed (Morale States): "Broken when Morale value is between -1 and -60" — the floor (and
        the 240 cap) applies where morale is read, never to what is stored, so a modifier that
        ends takes back exactly what it gave and a penalty taken at the floor still counts.
        """
        return max(MORALE_MIN, min(MORALE_MAX, self.morale_base + self.modified("morale")))

    def modified(self, stat: str) -> float:
        """The sum of the live modifiers of ``stat``."""
        return sum(m.amount for m in self.modifiers if m.stat == stat)

    def modified_by(self, cause: str) -> float:
        """The sum of the live modifiers of ``cause``."""
        return sum(m.amount for m in self.modifiers if m.cause == cause)

    @property
    def intimidation_mod(self) -> float:
        """The live Intimidation modifier (0 outside a melee)."""
        return self.modified_by("intimidation")

    def stat(self, key: str) -> float:
        try:  # the profile's own lookup, inlined: rules ask for stats a hundred thousand times a battle
            return float(self.profile.stats[key].value)
        except (AttributeError, KeyError, TypeError):
            return float(self.profile.stat(key))

    def alive(self) -> list[int]:
        return [i for i, h in enumerate(self.hp) if h > 0]

    @memo
    def count(self) -> int:
        """Living miniatures (cached: a combatant never changes, and every rule counts them)."""
        return sum(1 for h in self.hp if h > 0)

    @property
    def destroyed(self) -> bool:
        return self.count == 0

    def mini(self, i: int) -> str:
        return f"{self.key} #{i + 1}" if len(self.hp) > 1 else self.key

    def with_hp(self, i: int, value: float) -> Combatant:
        hp = list(self.hp)
        hp[i] = max(0.0, value)
        return evolve(self, hp=tuple(hp))

    @memo
    def rule_sets(self) -> tuple[frozenset[str], frozenset[str]]:
        """:func:`rules_of` the profile, kept on the combatant (rules are asked about all the time)."""
        return rules_of(self.profile)

    def has_rule(self, rule: str) -> bool:
        return rule.lower() in self.rule_sets[0]

    def attack_cap(self, bulk_key: str = "bulk") -> int:
        """Attacks one miniature can receive per round: its Bulk, halved if it moved."""
        b = self.stat(bulk_key)
        if self.moved:
            b = b / 2
        return max(1, int(b))


#: Lower-cased rules per profile object (the value keeps the profile alive, so its id stays its own).
_RULES: dict[int, tuple[UnitProfile, frozenset[str], frozenset[str]]] = {}


def rules_of(profile: UnitProfile) -> tuple[frozenset[str], frozenset[str]]:
    """A profile's special rules, and its special rules with its heroic power, lower-cased.

    Cached per profile: rules are asked about thousands of times a battle, and profiles
    are immutable and shared by every copy of a unit.
    """
    hit = _RULES.get(id(profile))
    if hit is None or hit[0] is not profile:
        special = frozenset(r.lower() for r in profile.special_rules)
        power = getattr(profile, "heroic_power", None)
        with_power = special | {str(power).lower()} if power else special
        if len(_RULES) >= 4096:
            _RULES.clear()
        hit = _RULES[id(profile)] = (profile, special, with_power)
    return hit[1], hit[2]
