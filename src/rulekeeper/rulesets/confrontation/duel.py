"""A combat between two fighters: initiative, combat dice, exchanges, counterattacks, damage.

The sequence (docs/rules/confrontation.md, "Combat"; estimated where the seed is silent):

1. each fighter gets "1 combat die, and another 1 per opponent" (+ Born killer, War-horse…);
2. an INI test each, D6 + INI opened as any test; the higher final result wins, a natural fail
   loses to any other result, a tie goes to the one fighter with Reflexes, else it is rolled again;
3. the loser of initiative places his dice in attack/defence first, then the winner
   ("the winner of the roll places their combat dice … after the loser"), by :func:`place`;
4. exchanges: the winner attacks first, then the fighters alternate one attack die at a time
   while either has one; an attack is an ATT test D6 + ATT without difficulty ("a roll of 1 … a
   natural fail"); against a hit, a defender with a defence die spends it on a DEF test whose
   difficulty is the attack's final result; a parry by Counterattack's margin (or any parry,
   Ambidextrous) gains an attack die; a hit not parried makes a damage roll on the Wound Table;
5. the combat ends when no attack die is left or a fighter is killed.

A duel is the smallest fray: these functions keep their signatures and run the one engine of
:mod:`.fray` (exact odds, resolutions through :class:`~rulekeeper.core.chance.Fate`, Monte Carlo), so a
duel and a fray can never disagree. Wound penalties apply from the blow that causes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rulekeeper.core.chance import Fate

from .exchanges import (
    EXACT_DICE,
    Blow,
    Health,
    MonteCarlo,
    Placement,
    Report,
    Side,
    apply_wound,
    attack_outcomes,
    place,
)
from .fighters import Combatant
from .fray import (
    Fray,
    Melee,
    exact_fray_odds,
    fray_method,
    fray_monte_carlo,
    initiative_odds_of,
    resolve_fray,
    roll_fray_initiative,
)
from .wounds import DamageHook, WoundTable, damage_odds

__all__ = ["EXACT_DICE", "Blow", "Duel", "Exchanges", "Final", "Health", "MonteCarlo", "Placement", "Report",
           "Side", "attack_outcomes", "exact_odds", "initiative_odds", "method_for", "monte_carlo", "place",
           "resolve", "resolve_health", "roll_initiative", "side_of"]

Final = tuple[str, str]


def side_of(f: Combatant, o: Combatant, health: Health, table: WoundTable | None = None) -> Side:
    """What an attack needs of ``f`` (facing ``o``) at ``health``; with a ``table``, his wound penalties too."""
    desperate = f.desperate(o, health.fierce)
    att = f.penalty(table, health, "ATT") if table is not None else 0
    dfc = f.penalty(table, health, "DEF") if table is not None else 0
    return Side(f.shape("ATT", desperate), f.shape("DEF", desperate), f.attack - att, f.defence - dfc)


@dataclass(frozen=True, slots=True)
class Exchanges:
    """Everything that decides what follows: both healths, both dice, whose attack comes next (and the
    one-use Toxic die, Deadly blow and Fencer's reserve die each still holds)."""

    health: tuple[Health, Health]
    attack: tuple[int, int]
    defence: tuple[int, int]
    turn: int
    toxic: tuple[bool, ...] = (False, False)
    deadly: tuple[bool, ...] = (False, False)
    reserve: tuple[bool, ...] = ()
    made: tuple[int, ...] = ()

    def over(self) -> bool:
        return any(h.killed for h in self.health) or self.attack == (0, 0)

    def melee(self) -> Melee:
        return Melee(self.health, self.attack, self.defence, self.turn, (0, 1), self.toxic, self.deadly, self.reserve,
                     self.made)


def _exchanges(m: Melee, turn: int) -> Exchanges:
    return Exchanges((m.health[0], m.health[1]), (m.attack[0], m.attack[1]), (m.defence[0], m.defence[1]), turn,
                     m.toxic, m.deadly, m.reserve, m.made)


@dataclass(frozen=True)
class Duel:
    """Two fighters, the Wound Table, and optional fixed placements (attack dice) for each."""

    a: Combatant
    b: Combatant
    table: WoundTable
    placement: tuple[int | None, int | None] = (None, None)
    fray: Fray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        fixed = self.placement if self.placement != (None, None) else ()
        object.__setattr__(self, "fray", Fray(((self.a,), (self.b,)), self.table, placement=fixed))

    def fighters(self) -> tuple[Combatant, Combatant]:
        return self.a, self.b

    def start(self, winner: int) -> Exchanges:
        """The state after initiative: the loser places first, then the winner."""
        return _exchanges(self.fray.opening(winner), winner)

    def hooks(self, attacker: int) -> tuple[DamageHook, ...]:
        return self.fray.hooks(attacker, 1 - attacker)

    def damage(self, attacker: int) -> tuple[tuple[str, Fraction], ...]:
        """The damage roll's odds of ``attacker`` on the other, both unhurt."""
        fs = self.fighters()
        return tuple(damage_odds(self.table, fs[attacker].strength, fs[1 - attacker].card.RES,
                                 self.hooks(attacker)).items())

    def wound(self, target: int, health: Health, line: str) -> Health:
        """A damage line applied: Stunned (unless immune), HP lost, Killed outright, then Fierce."""
        return apply_wound(self.fighters()[target], self.table, health, line)

    def after_blow(self, s: Exchanges, blow: Blow, health: Health | None = None) -> Exchanges:
        """The state once the attack of ``s.turn`` had this outcome (``health``: the target's after a hit)."""
        m = self.fray.after_blow(s.melee(), s.turn, 1 - s.turn, blow, health)
        nxt = self.fray.attacker(m)
        return _exchanges(m, s.turn if nxt is None else nxt)

    def sides(self, s: Exchanges) -> tuple[Side, Side]:
        m = s.melee()
        return self.fray.side(m, 0), self.fray.side(m, 1)


def initiative_odds(duel: Duel) -> Fraction:
    """Exact chance that ``a`` wins initiative (ties re-rolled, or won by the only one with Reflexes)."""
    return initiative_odds_of(duel.fray)


def exact_odds(duel: Duel) -> dict[Final, Fraction]:
    """Every end of the combat (each fighter's status) with its exact probability."""
    return {(end[0], end[1]): p for end, p in exact_fray_odds(duel.fray).items()}


def roll_initiative(fate: Fate, duel: Duel) -> int:
    return roll_fray_initiative(fate, duel.fray)


def resolve_health(fate: Fate, duel: Duel, report: Report | None = None) -> tuple[Health, Health]:
    """One combat through ``fate``; both fighters' health at the end (what the next combat takes back)."""
    end = resolve_fray(fate, duel.fray, report)
    return end[0], end[1]


def resolve(fate: Fate, duel: Duel, report: Report | None = None) -> Final:
    """One combat, every die drawn through ``fate`` with the exact odds :func:`exact_odds` reads."""
    a, b = resolve_health(fate, duel, report)
    return a.status(), b.status()


def monte_carlo(duel: Duel, runs: int, seed: int) -> MonteCarlo[Final]:
    """``runs`` seeded resolutions (one :class:`Fate` from ``seed``, records cleared between runs)."""
    mc = fray_monte_carlo(duel.fray, runs, seed)
    return MonteCarlo(runs, seed, {(end[0], end[1]): p for end, p in mc.odds.items()})


def method_for(duel: Duel, wanted: str) -> str:
    """``exact`` or ``monte-carlo``: ``auto`` is exact up to :data:`EXACT_DICE` combat dice in all."""
    return fray_method(duel.fray, wanted)
