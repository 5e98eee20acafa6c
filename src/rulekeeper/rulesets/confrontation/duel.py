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

Both the exact odds (:func:`exact_odds`, every branch with fractions) and one resolution
(:func:`resolve`, every draw through :class:`~rulekeeper.core.chance.Fate`) read the same
distributions (:func:`~.rolls.odds_of_test`, :func:`~.wounds.damage_odds`), so the odds shown are
the odds drawn; :func:`monte_carlo` repeats :func:`resolve` when the state space is too large.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache

from rulekeeper.core.chance import ChanceRequest, Fate
from rulekeeper.core.errors import ImpossibleRequestError

from .effects import TestShape
from .fighters import Combatant
from .rolls import odds_of_test, request_for_test, succeeds
from .wounds import CANCELLED, DamageHook, WoundTable, damage_odds, damage_request

#: Combat dice in all above which the exact enumeration gives way to Monte Carlo (``auto``).
EXACT_DICE = 10


@dataclass(frozen=True, slots=True)
class Placement:
    attack: int
    defence: int


@dataclass(frozen=True, slots=True)
class Health:
    """A fighter's state in the combat: HP left, Fierce used, Stunned, killed."""

    hp: int
    fierce: bool = False
    stunned: bool = False
    killed: bool = False

    def status(self) -> str:
        if self.killed:
            return "killed"
        return f"{self.hp} HP" + (" (Fierce)" if self.fierce else "") + (", stunned" if self.stunned else "")


def place(fighter: Combatant, opponent_attack: int | None, attack: int | None = None) -> Placement:
    """The default placement policy (docs/rules/confrontation.md, "Placement"), or ``attack`` dice.

    The loser of initiative (``opponent_attack`` unknown, ``None``) puts half his dice, rounded up,
    in attack; the winner, who sees that placement, keeps one defence die per attack die coming
    (but at least one die in attack). War fury's "more dice in attack than in defence" is enforced;
    its die and Brutish charge's go to attack on top.
    """
    n, forced = fighter.combat_dice(), fighter.attack_only_dice()
    if attack is not None:
        if not 0 <= attack <= n:
            raise ImpossibleRequestError(f"{fighter.name} places {attack} attack dice of {n}", field="placement")
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


# -- the distributions an attack reads (cached: the Monte Carlo draws them 10^5 times) -------------------


@dataclass(frozen=True, slots=True)
class Side:
    """What an attack needs of one fighter in one state (Desperate may switch on with Fierce)."""

    att_shape: TestShape
    def_shape: TestShape
    attack: int
    defence: int


def side_of(f: Combatant, o: Combatant, health: Health) -> Side:
    desperate = f.desperate(o, health.fierce)
    return Side(f.shape("ATT", desperate), f.shape("DEF", desperate), f.attack, f.defence)


@lru_cache(maxsize=4096)
def _att_request(label: str, shape: TestShape, attack: int) -> ChanceRequest:
    return request_for_test(label, shape, attack, None)


@lru_cache(maxsize=65536)
def _def_request(label: str, shape: TestShape, defence: int, difficulty: int) -> ChanceRequest:
    return request_for_test(label, shape, defence, difficulty)


@lru_cache(maxsize=4096)
def _damage_request(label: str, table: WoundTable, strength: int, resilience: int,
                    hooks: tuple[DamageHook, ...]) -> ChanceRequest:
    return damage_request(label, table, strength, resilience, hooks)


#: An attack's outcome: ("fail",), ("parried", gains a die), or ("hit", wound line or Cancelled).
Blow = tuple[str, ...]


@cache
def attack_outcomes(att: Side, dfd: Side, defends: bool, margin: int | None) -> tuple[tuple[Blow, Fraction], ...]:
    """Exact odds of an attack's outcome before the damage roll (the same tests :func:`resolve` draws)."""
    out: defaultdict[Blow, Fraction] = defaultdict(Fraction)
    for n, p in odds_of_test(att.att_shape, att.attack, None).items():
        if n <= 1:
            out[("fail",)] += p
            continue
        final = n + att.attack + att.att_shape.modifier
        if not defends:
            out[("hit",)] += p
            continue
        for m, q in odds_of_test(dfd.def_shape, dfd.defence, final).items():
            if succeeds(m, dfd.defence, dfd.def_shape, final):
                gain = margin is not None and m + dfd.defence + dfd.def_shape.modifier - final >= margin
                out[("parried", "gain" if gain else "")] += p * q
            else:
                out[("hit",)] += p * q
    return tuple(sorted(out.items()))


# -- the state of the exchanges ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exchanges:
    """Everything that decides what follows: both healths, both dice, whose attack comes next."""

    health: tuple[Health, Health]
    attack: tuple[int, int]
    defence: tuple[int, int]
    turn: int

    def over(self) -> bool:
        return any(h.killed for h in self.health) or self.attack == (0, 0)


@dataclass(frozen=True)
class Duel:
    """Two fighters, the Wound Table, and optional fixed placements (attack dice) for each."""

    a: Combatant
    b: Combatant
    table: WoundTable
    placement: tuple[int | None, int | None] = (None, None)
    _sides: dict[tuple[bool, bool], tuple[Side, Side]] = field(default_factory=dict, repr=False, compare=False)
    _hooks: dict[int, tuple[DamageHook, ...]] = field(default_factory=dict, repr=False, compare=False)

    def fighters(self) -> tuple[Combatant, Combatant]:
        return self.a, self.b

    def start(self, winner: int) -> Exchanges:
        """The state after initiative: the loser places first, then the winner."""
        fs = self.fighters()
        loser = 1 - winner
        lp = place(fs[loser], None, self.placement[loser])
        wp = place(fs[winner], lp.attack, self.placement[winner])
        att = [0, 0]
        dfc = [0, 0]
        att[loser], dfc[loser], att[winner], dfc[winner] = lp.attack, lp.defence, wp.attack, wp.defence
        health = (Health(self.a.card.HP), Health(self.b.card.HP))
        return Exchanges(health, (att[0], att[1]), (dfc[0], dfc[1]), winner)

    def hooks(self, attacker: int) -> tuple[DamageHook, ...]:
        if attacker not in self._hooks:
            fs = self.fighters()
            self._hooks[attacker] = fs[attacker].damage_hooks(fs[1 - attacker])
        return self._hooks[attacker]

    def damage(self, attacker: int) -> tuple[tuple[str, Fraction], ...]:
        fs = self.fighters()
        odds = damage_odds(self.table, fs[attacker].strength, fs[1 - attacker].card.RES,
                           self.hooks(attacker))
        return tuple(odds.items())

    def wound(self, target: int, health: Health, line: str) -> Health:
        """A damage line applied: Stunned (unless immune), HP lost, Killed outright, then Fierce."""
        f = self.fighters()[target]
        if line in (CANCELLED, "No effect"):
            return health
        if line == "Stunned":
            return health if f.immune_to_stunned() else replace(health, stunned=True)
        hp = 0 if line == "Killed outright" else health.hp - f.hp_lost(self.table, line)
        if hp > 0:
            return replace(health, hp=hp)
        if f.combat.last_stand and not health.fierce:
            return replace(health, hp=f.combat.last_stand, fierce=True)  # Fierce: "he gets 2 additional HP"
        return replace(health, hp=0, killed=True)

    def after_blow(self, s: Exchanges, blow: Blow, health: Health | None = None) -> Exchanges:
        """The state once the attack of ``s.turn`` had this outcome (``health``: the target's after a hit)."""
        me, foe = s.turn, 1 - s.turn
        att, dfc = list(s.attack), list(s.defence)
        att[me] -= 1
        fs = self.fighters()
        if blow[0] == "fail":
            if fs[foe].counter_margin is not None and dfc[foe] > att[me] and dfc[foe] > 0:
                dfc[foe], att[foe] = dfc[foe] - 1, att[foe] + 1  # the spare defence die becomes an attack die
        elif blow[0] == "parried":
            dfc[foe] -= 1
            if blow[1] == "gain":
                att[foe] += 1
        healths = list(s.health)
        if health is not None:
            healths[foe] = health
        nxt = foe if att[foe] > 0 else me
        return Exchanges((healths[0], healths[1]), (att[0], att[1]), (dfc[0], dfc[1]), nxt)

    def sides(self, s: Exchanges) -> tuple[Side, Side]:
        key = (s.health[0].fierce, s.health[1].fierce)
        if key not in self._sides:
            self._sides[key] = (side_of(self.a, self.b, s.health[0]), side_of(self.b, self.a, s.health[1]))
        return self._sides[key]


# -- initiative ------------------------------------------------------------------------------------------


def _ini_key(natural: int, final: int) -> tuple[bool, int]:
    return (natural > 1, final)


def initiative_odds(duel: Duel) -> Fraction:
    """Exact chance that ``a`` wins initiative (ties re-rolled, or won by the only one with Reflexes)."""
    fs = duel.fighters()
    dists = []
    for f, o in ((fs[0], fs[1]), (fs[1], fs[0])):
        shape = f.shape("INI", f.desperate(o, False))
        dists.append([(_ini_key(n, n + f.card.INI + shape.modifier), p)
                      for n, p in odds_of_test(shape, f.card.INI, None).items()])
    win = lose = tie = Fraction(0)
    for ka, pa in dists[0]:
        for kb, pb in dists[1]:
            if ka > kb:
                win += pa * pb
            elif ka < kb:
                lose += pa * pb
            else:
                tie += pa * pb
    reflexes = (fs[0].has("Reflexes"), fs[1].has("Reflexes"))
    if reflexes == (True, False):
        win += tie
    elif reflexes == (False, True):
        lose += tie
    return win / (win + lose)


# -- exact odds ---------------------------------------------------------------------------------------------

Final = tuple[str, str]


def exact_odds(duel: Duel) -> dict[Final, Fraction]:
    """Every end of the combat (each fighter's status) with its exact probability."""

    @cache
    def walk(s: Exchanges) -> tuple[tuple[Final, Fraction], ...]:
        if s.over():
            return (((s.health[0].status(), s.health[1].status()), Fraction(1)),)
        me, foe = s.turn, 1 - s.turn
        sides = duel.sides(s)
        out: defaultdict[Final, Fraction] = defaultdict(Fraction)
        blows = attack_outcomes(sides[me], sides[foe], s.defence[foe] > 0, duel.fighters()[foe].counter_margin)
        for blow, p in blows:
            if blow[0] != "hit":
                for end, q in walk(duel.after_blow(s, blow)):
                    out[end] += p * q
                continue
            for line, r in duel.damage(me):
                nxt = duel.after_blow(s, ("hit", line), duel.wound(foe, s.health[foe], line))
                for end, q in walk(nxt):
                    out[end] += p * r * q
        return tuple(out.items())

    p_a = initiative_odds(duel)
    total: defaultdict[Final, Fraction] = defaultdict(Fraction)
    for winner, pw in ((0, p_a), (1, 1 - p_a)):
        for end, q in walk(duel.start(winner)):
            total[end] += pw * q
    return dict(sorted(total.items(), key=lambda kv: -kv[1]))


# -- one resolution through fate ------------------------------------------------------------------------------


@dataclass
class Report:
    """What one combat did: who won initiative, the placements, every blow, both ends."""

    initiative: str = ""
    placement: list[str] = field(default_factory=list)
    blows: list[str] = field(default_factory=list)
    end: Final = ("", "")


def roll_initiative(fate: Fate, duel: Duel) -> int:
    fs = duel.fighters()
    while True:
        keys = []
        for f, o in ((fs[0], fs[1]), (fs[1], fs[0])):
            shape = f.shape("INI", f.desperate(o, False))
            natural = int(fate.draw(_att_request(f"INI test: {f.name}", shape, f.card.INI)).outcome.split()[1])
            keys.append(_ini_key(natural, natural + f.card.INI + shape.modifier))
        if keys[0] != keys[1]:
            return 0 if keys[0] > keys[1] else 1
        if fs[0].has("Reflexes") != fs[1].has("Reflexes"):
            return 0 if fs[0].has("Reflexes") else 1


def resolve(fate: Fate, duel: Duel, report: Report | None = None) -> Final:
    """One combat, every die drawn through ``fate`` with the exact odds :func:`exact_odds` reads."""
    fs = duel.fighters()
    winner = roll_initiative(fate, duel)
    s = duel.start(winner)
    if report is not None:
        report.initiative = f"{fs[winner].name} wins initiative and attacks first"
        report.placement = [f"{f.name}: {s.attack[i]} in attack, {s.defence[i]} in defence" for i, f in enumerate(fs)]
    while not s.over():
        me, foe = s.turn, 1 - s.turn
        sides = duel.sides(s)
        att, dfd = sides[me], sides[foe]
        natural = int(fate.draw(_att_request(f"ATT test: {fs[me].name}", att.att_shape, att.attack)).outcome.split()[1])
        final = natural + att.attack + att.att_shape.modifier
        blow: Blow = ("fail",) if natural <= 1 else ("hit",)
        if natural > 1 and s.defence[foe] > 0:
            req = _def_request(f"DEF test: {fs[foe].name}", dfd.def_shape, dfd.defence, final)
            m = int(fate.draw(req).outcome.split()[1])
            if succeeds(m, dfd.defence, dfd.def_shape, final):
                margin = fs[foe].counter_margin
                gain = margin is not None and m + dfd.defence + dfd.def_shape.modifier - final >= margin
                blow = ("parried", "gain" if gain else "")
        health = None
        if blow[0] == "hit":
            line = fate.draw(_damage_request(f"damage roll: {fs[me].name} on {fs[foe].name}", duel.table,
                                             fs[me].strength, fs[foe].card.RES, duel.hooks(me))).outcome
            blow, health = ("hit", line), duel.wound(foe, s.health[foe], line)
        if report is not None:
            report.blows.append(f"{fs[me].name} attacks (ATT {final}{', natural fail' if natural <= 1 else ''}): "
                                f"{' '.join(b for b in blow if b)}")
        s = duel.after_blow(s, blow, health)
    end = (s.health[0].status(), s.health[1].status())
    if report is not None:
        report.end = end
    return end


@dataclass(frozen=True)
class MonteCarlo:
    runs: int
    seed: int
    odds: dict[Final, float]

    def sigma(self, p: float) -> float:
        return math.sqrt(max(p * (1 - p), 0.0) / self.runs)


def monte_carlo(duel: Duel, runs: int, seed: int) -> MonteCarlo:
    """``runs`` seeded resolutions (one :class:`Fate` from ``seed``, records cleared between runs)."""
    fate = Fate.from_seed(seed)
    counts: Counter[Final] = Counter()
    for _ in range(runs):
        counts[resolve(fate, duel)] += 1
        fate.records.clear()
    return MonteCarlo(runs, seed, {k: v / runs for k, v in counts.most_common()})


def method_for(duel: Duel, wanted: str) -> str:
    """``exact`` or ``monte-carlo``: ``auto`` is exact up to :data:`EXACT_DICE` combat dice in all."""
    if wanted not in ("auto", "exact", "monte-carlo"):
        raise ImpossibleRequestError(f"--method must be auto, exact or monte-carlo, got {wanted!r}", field="method")
    if wanted != "auto":
        return wanted
    dice = sum(f.combat_dice() + f.attack_only_dice() for f in duel.fighters())
    return "exact" if dice <= EXACT_DICE else "monte-carlo"
