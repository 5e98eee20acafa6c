"""The pieces every combat is made of, whatever its number of fighters: dice placement, one attack's
outcomes, a wound applied, the draws' requests, and what a resolution reports.

A duel (:mod:`.duel`) and a fray (:mod:`.fray`) are one engine (:mod:`.fray`); these are its parts. Each
attack reads the same exact distributions whether odds are enumerated or a resolution draws them through
:class:`~rulekeeper.core.chance.Fate` (:func:`~.rolls.odds_of_test`, :func:`~.wounds.damage_odds`), so
the odds shown are the odds drawn.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from typing import Generic, TypeVar

from rulekeeper.core.chance import ChanceRequest
from rulekeeper.core.errors import ImpossibleRequestError
from rulekeeper.core.wording import counted

from .effects import TestShape
from .fighters import Combatant
from .rolls import odds_of_test, request_for_test, succeeds
from .wounds import CANCELLED, INSTINCT, DamageHook, WoundTable, damage_request

#: Combat dice in all above which the exact enumeration gives way to Monte Carlo (``auto``).
EXACT_DICE = 14


@dataclass(frozen=True, slots=True)
class Placement:
    attack: int
    defence: int


@dataclass(frozen=True, slots=True)
class Health:
    """A fighter's state in the combat: HP left, Fierce used, Stunned, killed.

    It is also what a fighter carries from one combat to the next: its HP and Stunned give his wound
    penalties (:mod:`.penalties`), and :class:`~.fighters.Combatant` takes them back on entering a combat.
    """

    hp: int
    fierce: bool = False
    stunned: bool = False
    killed: bool = False
    instinct: bool = False  # Survival instinct used successfully in this exchange (never carried out of a combat)

    def status(self) -> str:
        if self.killed:
            return "killed"
        return f"{self.hp} HP" + (" (Fierce)" if self.fierce else "") + (", stunned" if self.stunned else "")


def entry_health(f: Combatant) -> Health:
    """The state a fighter enters a combat in (his card's HP unless he brings fewer)."""
    return Health(f.card.HP if f.hp is None else f.hp, f.fierce, f.stunned)


def place(fighter: Combatant, opponent_attack: int | None, attack: int | None = None,
          dice: int | None = None) -> Placement:
    """The default placement policy (docs/rules/confrontation.md, "Placement"), or ``attack`` dice.

    The loser of initiative (``opponent_attack`` unknown, ``None``) puts half his dice, rounded up,
    in attack; the winner, who sees that placement, keeps one defence die per attack die coming
    (but at least one die in attack). War fury's "more dice in attack than in defence" is enforced;
    its die and Brutish charge's go to attack on top. ``dice``: the dice he places (a fray's count, with
    Sequence's); by default one opponent's.
    """
    n, forced = (fighter.combat_dice() if dice is None else dice), fighter.attack_only_dice()
    if attack is not None:
        if not 0 <= attack <= n:
            raise ImpossibleRequestError(f"{fighter.name} places {counted(attack, 'attack die', 'attack dice')} of {n}",
                                         field="placement")
        chosen = attack
    elif opponent_attack is None:
        chosen = (n + 1) // 2
    else:
        chosen = n - min(opponent_attack, max(n - 1, 0))
    defence = n - chosen
    if fighter.combat.more_attack and chosen + forced <= defence:
        if attack is not None:
            raise ImpossibleRequestError(f"{fighter.name} has War fury: he must place more dice in attack than in "
                                         "defence", field="placement")
        while chosen + forced <= defence:
            chosen, defence = chosen + 1, defence - 1
    return Placement(chosen + forced, defence)


@dataclass(frozen=True, slots=True)
class Side:
    """What an attack needs of one fighter in one state: his test shapes and his ATT and DEF, wound
    penalties and Sequence's dice already taken off."""

    att_shape: TestShape
    def_shape: TestShape
    attack: int
    defence: int


@lru_cache(maxsize=4096)
def att_request(label: str, shape: TestShape, attack: int) -> ChanceRequest:
    return request_for_test(label, shape, attack, None)


@lru_cache(maxsize=65536)
def def_request(label: str, shape: TestShape, defence: int, difficulty: int) -> ChanceRequest:
    return request_for_test(label, shape, defence, difficulty)


@lru_cache(maxsize=4096)
def cached_damage_request(label: str, table: WoundTable, strength: int, resilience: int,
                          hooks: tuple[DamageHook, ...]) -> ChanceRequest:
    return damage_request(label, table, strength, resilience, hooks)


#: An attack's outcome: ("fail",), ("parried", gains a die), or ("hit", wound line or Cancelled).
Blow = tuple[str, ...]


def parry(dfd: Side, natural: int, final: int, margin: int | None) -> Blow:
    """What a DEF test of natural result ``natural`` makes of an attack of final result ``final``."""
    if not succeeds(natural, dfd.defence, dfd.def_shape, final):
        return ("hit",)
    gain = margin is not None and natural + dfd.defence + dfd.def_shape.modifier - final >= margin
    return ("parried", "gain" if gain else "")


@cache
def defence_outcomes(dfd: Side, final: int, defends: bool, margin: int | None) -> tuple[tuple[Blow, Fraction], ...]:
    """Exact odds of what a defender makes of an attack that reached ``final`` (not a natural fail)."""
    if not defends:
        return ((("hit",), Fraction(1)),)
    out: defaultdict[Blow, Fraction] = defaultdict(Fraction)
    for m, q in odds_of_test(dfd.def_shape, dfd.defence, final).items():
        out[parry(dfd, m, final, margin)] += q
    return tuple(sorted(out.items()))


@cache
def attack_outcomes(att: Side, dfd: Side, defends: bool, margin: int | None) -> tuple[tuple[Blow, Fraction], ...]:
    """Exact odds of an attack's outcome before the damage roll (the same tests a resolution draws)."""
    out: defaultdict[Blow, Fraction] = defaultdict(Fraction)
    for n, p in odds_of_test(att.att_shape, att.attack, None).items():
        if n <= 1:
            out[("fail",)] += p
            continue
        for blow, q in defence_outcomes(dfd, n + att.attack + att.att_shape.modifier, defends, margin):
            out[blow] += p * q
    return tuple(sorted(out.items()))


def apply_wound(f: Combatant, table: WoundTable, health: Health, line: str) -> Health:
    """A damage line applied to ``f``: Stunned (unless immune), HP lost, Killed outright, then Fierce.

    Indestructible "has no health, so he cannot lose HP": no line costs him HP, and a decision, Killed
    outright neither (it is a loss of all his health).
    """
    if line == INSTINCT:
        return replace(health, instinct=True)  # "cannot use it anymore for the duration of the exchange"
    if line in (CANCELLED, "No effect"):
        return health
    if line == "Stunned":
        return health if f.immune_to_stunned() else replace(health, stunned=True)
    if f.has("Indestructible"):
        return health
    hp = 0 if line == "Killed outright" else health.hp - f.hp_lost(table, line)
    if hp > 0:
        return replace(health, hp=hp)
    if f.combat.last_stand and not health.fierce:
        return replace(health, hp=f.combat.last_stand, fierce=True)  # Fierce: "he gets 2 additional HP"
    return replace(health, hp=0, killed=True)


def ini_key(natural: int, final: int) -> tuple[bool, int]:
    """Initiative compares final results, a natural fail losing to any other result."""
    return (natural > 1, final)


@dataclass
class Report:
    """What one combat did: who won initiative, the placements, every blow, every fighter's end."""

    initiative: str = ""
    placement: list[str] = field(default_factory=list)
    blows: list[str] = field(default_factory=list)
    end: tuple[str, ...] = ("", "")


End = TypeVar("End", bound=tuple[str, ...])


@dataclass(frozen=True)
class MonteCarlo(Generic[End]):
    """Seeded resolutions' frequencies of each end (each fighter's status, in order)."""

    runs: int
    seed: int
    odds: dict[End, float]

    def sigma(self, p: float) -> float:
        return math.sqrt(max(p * (1 - p), 0.0) / self.runs)
