"""A fray's state and the rules of one attack in it: who fights whom, dice, initiative, placement, whose
attack comes, whom it strikes, and what it leaves behind. Odds and resolutions are :mod:`.fray`'s.

Published core: "each combatant gets 1 combat die, and another 1 per opponent the model is fighting"; "the
winner of the roll places their combat dice … after the loser"; the winner attacks first, then attacks
alternate. What a fray adds is estimated (docs/rules/confrontation.md, "Frays"):

1. initiative: each camp tests with its fighter of highest INI (after the wound penalties he brings); the duel's rules
   decide between the two results (a natural fail loses, Reflexes wins a tie, else roll again);
2. the losing camp places first (half of each fighter's dice, rounded up, in attack); each winner keeps one
   defence die per attack die he may expect (each opponent's attack dice shared among the fighters that
   opponent fights, rounded up), at least one in attack;
3. the camps alternate one attack at a time, the winners' first; within a camp the fighters take turns in
   order; an attacker strikes the opponent he fights with no defence die left, else with the fewest HP,
   else the first; a camp with no attack left passes; the fray ends when no one can attack;
4. each attack is the duel's: an ATT test, a DEF test with one of the target's defence dice, a damage roll
   on the Wound Table; wound penalties apply from the blow that causes them (:mod:`.penalties`).

Active abilities are decided by the policies of :mod:`.strikes` (Master strike, Feint, Circular blow) and
:meth:`Fray.ready` (Fencer's reserve die), functions of the state only, so exact odds and resolutions agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from typing import Any

from rulekeeper.core.chance import ChanceRequest
from rulekeeper.core.errors import ImpossibleRequestError

from .exchanges import (
    Blow,
    Health,
    Side,
    apply_wound,
    att_request,
    entry_health,
    place,
)
from .fighters import Combatant
from .rolls import odds_of_test
from .strikes import PLAIN, DamageParams, Strike, choose_strike, damage_params
from .wounds import DamageHook, InstinctRoll, WoundTable

#: Fighters in one fray at most (a bound on the state the exact odds walk).
MAX_FIGHTERS = 8
End = tuple[str, ...]
IniTest = tuple[ChanceRequest, int, tuple[tuple[int, Fraction], ...]]


@dataclass(frozen=True, slots=True)
class Melee:
    """Everything that decides what follows: each fighter's health and dice, whose camp attacks next, each
    camp's next fighter in turn, and the one-use effects still held (a Toxic die, Assassin's Deadly blow,
    Fencer's reserve die; an empty ``reserve``: none held)."""

    health: tuple[Health, ...]
    attack: tuple[int, ...]
    defence: tuple[int, ...]
    turn: int
    next: tuple[int, int]
    toxic: tuple[bool, ...]
    deadly: tuple[bool, ...]
    reserve: tuple[bool, ...] = ()
    made: tuple[int, ...] = ()  # attacks each fighter made in this exchange (kept only when Survival instinct is in)

    def end(self) -> End:
        return tuple(h.status() for h in self.health)


_MELEE_FIELDS = tuple(f.name for f in fields(Melee))
_MELEE_FIELD_SET = frozenset(_MELEE_FIELDS)


def evolve(s: Melee, **changes: object) -> Melee:
    """``dataclasses.replace`` for a :class:`Melee`, faster: an exact fray odds walk makes thousands of them
    (a third of a Confrontation fight's preview was ``replace`` reading the fields' metadata)."""
    if not _MELEE_FIELD_SET.issuperset(changes):
        raise TypeError(f"Melee has no field {sorted(set(changes) - _MELEE_FIELD_SET)[0]!r}")
    values: list[Any] = [changes[name] if name in changes else getattr(s, name) for name in _MELEE_FIELDS]
    return Melee(*values)


def held(s: Melee, i: int) -> bool:
    """Whether fighter ``i`` still holds Fencer's reserve die."""
    return bool(s.reserve) and s.reserve[i]


@dataclass(frozen=True)
class Fray:
    """Two camps of fighters and the Wound Table; ``engaged`` (pairs of indexes in ``fighters`` order, camp
    A first) says who fights whom, everyone fighting every opponent by default; ``placement`` fixes attack
    dice per fighter (``None``: the policy)."""

    camps: tuple[tuple[Combatant, ...], tuple[Combatant, ...]]
    table: WoundTable
    engaged: frozenset[tuple[int, int]] | None = None
    placement: tuple[int | None, ...] = ()
    fighters: tuple[Combatant, ...] = field(init=False)
    camp_of: tuple[int, ...] = field(init=False)
    opponents: tuple[tuple[int, ...], ...] = field(init=False)
    sequence: tuple[int, ...] = field(init=False)
    desperation: tuple[bool | None, ...] = field(init=False)  # None: not Desperate; True: a costlier opponent
    choosers: tuple[bool, ...] = field(init=False)  # has an active attack ability the policy decides on
    instinctive: bool = field(init=False)  # someone has Survival instinct: the exchanges are counted
    _params: dict[tuple[int, int, Health, Health, bool, Strike], DamageParams] = field(default_factory=dict, repr=False,
                                                                               compare=False)
    _sides: dict[tuple[int, Health, bool], Side] = field(default_factory=dict, repr=False, compare=False)
    _hooks: dict[tuple[int, int], tuple[DamageHook, ...]] = field(default_factory=dict, repr=False, compare=False)
    _openings: dict[int, Melee] = field(default_factory=dict, repr=False, compare=False)
    _ini_tests: dict[int, IniTest] = field(default_factory=dict, repr=False, compare=False)
    _hit_odds: dict[tuple[object, ...], list[tuple[Health, Fraction]]] = field(default_factory=dict, repr=False,
                                                                             compare=False)

    def __post_init__(self) -> None:
        fs = (*self.camps[0], *self.camps[1])
        if not self.camps[0] or not self.camps[1] or len(fs) > MAX_FIGHTERS:
            raise ImpossibleRequestError(f"a fray needs two camps of 1 to {MAX_FIGHTERS} fighters in all",
                                         field="fighters")
        camp = tuple(0 if i < len(self.camps[0]) else 1 for i in range(len(fs)))
        pairs = self.engaged if self.engaged is not None else {(i, j) for i in range(len(fs)) for j in range(len(fs))}
        for i, j in pairs:
            if not (0 <= i < len(fs) and 0 <= j < len(fs)):
                raise ImpossibleRequestError(f"engaged pair {(i, j)} names no fighter", field="engaged")
        opp = tuple(tuple(j for j in range(len(fs)) if camp[j] != camp[i] and ((i, j) in pairs or (j, i) in pairs))
                    for i in range(len(fs)))
        lonely = [fs[i].name for i in range(len(fs)) if not opp[i]]
        if lonely:
            raise ImpossibleRequestError(f"{', '.join(lonely)} fights no opponent", field="engaged")
        if self.placement and len(self.placement) != len(fs):
            raise ImpossibleRequestError("placement gives one number (or None) per fighter", field="placement")
        object.__setattr__(self, "fighters", fs)
        object.__setattr__(self, "camp_of", camp)
        object.__setattr__(self, "opponents", opp)
        object.__setattr__(self, "sequence", tuple(self._sequence(f) for f in fs))
        object.__setattr__(self, "desperation", tuple(
            None if not f.has("Desperate") else any(fs[o].card.cost > f.card.cost for o in opp[i])
            for i, f in enumerate(fs)))
        object.__setattr__(self, "instinctive", any(isinstance(h, InstinctRoll) for f in fs
                                                    for h in f.suffered_hooks()))
        object.__setattr__(self, "choosers", tuple(any(f.has(a) for a in ("Master strike", "Feint", "Circular blow"))
                                                   for f in fs))

    def _sequence(self, f: Combatant) -> int:
        """Sequence/X (policy: every die he may take): each die costs −1 ATT and DEF, never below 0."""
        x = (f.card.value_of("Sequence") or "0").strip().lstrip("+")
        health = entry_health(f)
        room = min(f.attack - f.penalty(self.table, health, "ATT"), f.defence - f.penalty(self.table, health, "DEF"))
        return max(0, min(int(x) if x.isdigit() else 0, room))

    # -- who is who ------------------------------------------------------------------------------------------

    def dice(self, i: int) -> int:
        """"1 combat die, and another 1 per opponent the model is fighting", his abilities' and Sequence's."""
        return self.fighters[i].combat_dice(len(self.opponents[i])) + self.sequence[i]

    def living(self, s: Melee, camp: int) -> int:
        return sum(1 for i, c in enumerate(self.camp_of) if c == camp and not s.health[i].killed)

    def foes(self, s: Melee, i: int) -> list[int]:
        return [o for o in self.opponents[i] if not s.health[o].killed]

    def desperate(self, s: Melee, i: int) -> bool:
        """Desperate: his camp has fewer fighters, a costlier opponent, or "he is using Fierce"."""
        always = self.desperation[i]
        if always is None:
            return False
        mine = self.camp_of[i]
        return always or s.health[i].fierce or self.living(s, mine) < self.living(s, 1 - mine)

    def side(self, s: Melee, i: int) -> Side:
        return self.side_at(i, s.health[i], self.desperate(s, i))

    def side_at(self, i: int, health: Health, desperate: bool) -> Side:
        """What an attack needs of fighter ``i`` at ``health`` (the vectorised kernel reads it per state)."""
        key = (i, health, desperate)
        if key not in self._sides:
            f = self.fighters[i]
            less = self.sequence[i]
            self._sides[key] = Side(f.shape("ATT", desperate), f.shape("DEF", desperate),
                                    f.attack - less - f.penalty(self.table, health, "ATT"),
                                    f.defence - less - f.penalty(self.table, health, "DEF"))
        return self._sides[key]

    # -- initiative and placement ----------------------------------------------------------------------------

    def leader(self, camp: int) -> int:
        """The fighter a camp tests initiative with: the highest INI after his wound penalties (the first on a tie)."""
        members = [i for i, c in enumerate(self.camp_of) if c == camp]
        return max(members, key=lambda i: (self._ini(i), -i))

    def _ini(self, i: int) -> int:
        f = self.fighters[i]
        return f.card.INI - f.penalty(self.table, entry_health(f), "INI")

    def ini_test(self, camp: int) -> IniTest:
        """The INI test a camp draws, what its final result adds to the natural one, and the natural odds."""
        if camp not in self._ini_tests:
            self._ini_tests[camp] = self._ini_test(camp)
        return self._ini_tests[camp]

    def _ini_test(self, camp: int) -> IniTest:
        i = self.leader(camp)
        f = self.fighters[i]
        shape = f.shape("INI", self.desperate(self.opening(0), i))
        ini = self._ini(i)
        return (att_request(f"INI test: {f.name}", shape, ini), ini + shape.modifier,
                tuple(odds_of_test(shape, ini, None).items()))

    def reflexes(self) -> tuple[bool, bool]:
        return (self.fighters[self.leader(0)].has("Reflexes"), self.fighters[self.leader(1)].has("Reflexes"))

    def opening(self, winner: int) -> Melee:
        """The state after initiative: the losing camp places first, then the winners, who see it."""
        if winner not in self._openings:
            self._openings[winner] = self._opening(winner)
        return self._openings[winner]

    def _opening(self, winner: int) -> Melee:
        n = len(self.fighters)
        fixed = self.placement or (None,) * n
        att, dfc = [0] * n, [0] * n
        reserve = tuple(self.fighters[i].has("Fencer") and self.dice(i) >= 2 for i in range(n))
        for camp in (1 - winner, winner):
            for i in (j for j in range(n) if self.camp_of[j] == camp):
                coming = None if camp != winner else -(-sum(
                    Fraction(att[o], len(self.opponents[o])) for o in self.opponents[i]) // 1)
                p = place(self.fighters[i], None if coming is None else int(coming), fixed[i],
                          self.dice(i) - reserve[i])
                att[i], dfc[i] = p.attack, p.defence
        first = (self.camp_of.index(0), self.camp_of.index(1))
        fs = self.fighters
        return Melee(tuple(entry_health(f) for f in fs), tuple(att), tuple(dfc), winner, first,
                     tuple(f.toxic_die() for f in fs), tuple(f.charged and f.has("Assassin") for f in fs),
                     reserve if any(reserve) else (), (0,) * n if self.instinctive else ())

    # -- one attack ------------------------------------------------------------------------------------------

    def attacker(self, s: Melee) -> int | None:
        """The next to attack: the camp whose turn it is, its fighters in turn from ``next``; else the other."""
        n = len(self.fighters)
        for camp in (s.turn, 1 - s.turn):
            order = [(s.next[camp] + k) % n for k in range(n)]
            for i in order:
                if (self.camp_of[i] == camp and not s.health[i].killed and (s.attack[i] > 0 or held(s, i))
                        and self.foes(s, i)):
                    return i
        return None

    def target(self, s: Melee, i: int) -> int:
        """Policy: the opponent with no defence die left, then the fewest HP, then the first."""
        return min(self.foes(s, i), key=lambda o: (s.defence[o] > 0, s.health[o].hp, o))

    def ready(self, s: Melee, i: int, t: int) -> tuple[Melee, bool]:
        """Fencer's reserve die placed for this attack (policy): in attack when he has no other attack die (then
        the defence "does not benefit from Counterattack nor Ambidextrous": the ``True`` returned), in defence
        when he is the target and has no other defence die. A killed fighter's reserve goes with him."""
        if not s.reserve:
            return s, False
        att, dfc, reserve = list(s.attack), list(s.defence), list(s.reserve)
        fencer = att[i] == 0 and reserve[i]
        if fencer:
            att[i], reserve[i] = 1, False
        if dfc[t] == 0 and reserve[t]:
            dfc[t], reserve[t] = 1, False
        return evolve(s, attack=tuple(att), defence=tuple(dfc), reserve=tuple(reserve)), fencer

    def after_blow(self, s: Melee, i: int, t: int, blow: Blow, health: Health | None = None,
                   strike: Strike | None = None) -> Melee:
        """The state once ``i``'s attack on ``t`` had this outcome (``health``: the target's after a hit)."""
        spent = self.spend(s, i, strike.dice if strike is not None else 1)
        return self.pass_turn(self.land(spent, i, t, blow, health), i)

    def spend(self, s: Melee, i: int, dice: int) -> Melee:
        """The attacker's dice for one attack (two for a Master strike, all but… for a Circular blow)."""
        attack = list(s.attack)
        attack[i] -= dice
        return evolve(s, attack=tuple(attack))

    def land(self, s: Melee, i: int, t: int, blow: Blow, health: Health | None = None) -> Melee:
        """What an attack of ``i`` did to ``t``: a die turned, spent or gained; a feint; a wound."""
        att, dfc = list(s.attack), list(s.defence)
        if blow[0] == "fail":
            coming = sum(att[o] for o in self.foes(s, t))
            if self.fighters[t].counter_margin is not None and dfc[t] > 0 and dfc[t] > coming:
                dfc[t], att[t] = dfc[t] - 1, att[t] + 1  # the spare defence die becomes an attack die
        elif blow[0] == "parried":
            dfc[t] -= 1
            att[t] += blow[1] == "gain"
        elif blow[0] == "feint":
            if att[t] > 0:
                att[t] -= 1
            else:
                dfc[t] = max(0, dfc[t] - 1)
        healths, toxic, deadly = list(s.health), list(s.toxic), list(s.deadly)
        if health is not None:
            healths[t] = health
            if health.killed:
                att[t] = dfc[t] = 0
            toxic[i] = deadly[i] = False  # Toxic and Assassin: the first damage roll he causes
        reserve = s.reserve
        if health is not None and health.killed and reserve:
            reserve = tuple(False if k == t else x for k, x in enumerate(reserve))
        return evolve(s, health=tuple(healths), attack=tuple(att), defence=tuple(dfc), toxic=tuple(toxic),
                       deadly=s.deadly if health is None else tuple(deadly), reserve=reserve)

    def pass_turn(self, s: Melee, i: int, attacks: int = 1) -> Melee:
        """After ``i``'s attack: the other camp's turn, the next of his camp in turn; the Toxic die is gone; the
        exchange counted (``attacks``: a Circular blow replaces all his attacks of the exchange)."""
        camp = self.camp_of[i]
        after = (i + 1) % len(self.fighters)
        nxt = (after, s.next[1]) if camp == 0 else (s.next[0], after)
        toxic = s.toxic if not s.toxic[i] else tuple(False if k == i else x for k, x in enumerate(s.toxic))
        return self.count_exchange(evolve(s, turn=1 - camp, next=nxt, toxic=toxic), i, attacks)

    def count_exchange(self, s: Melee, i: int, attacks: int) -> Melee:
        """Third-edition rules: "a fighter with attack dice left must attack, each opponent in turn". The exchange
        is over once every standing fighter with attack dice left has attacked each standing opponent in it; then
        Survival instinct may be used again ("cannot use it anymore for the duration of the exchange")."""
        if not s.made:
            return s
        made = list(s.made)
        made[i] += attacks
        if any(not s.health[j].killed and (s.attack[j] > 0 or held(s, j)) and made[j] < len(self.foes(s, j))
               for j in range(len(made))):
            return evolve(s, made=tuple(made))
        return evolve(s, made=(0,) * len(made), health=tuple(replace(h, instinct=False) for h in s.health))

    def hooks(self, i: int, t: int) -> tuple[DamageHook, ...]:
        """The damage-roll hooks of ``i`` on ``t`` (composed once: read on every blow of 10^5 combats)."""
        if (i, t) not in self._hooks:
            self._hooks[(i, t)] = self.fighters[i].damage_hooks(self.fighters[t])
        return self._hooks[(i, t)]

    def damage_params(self, s: Melee, i: int, t: int, strike: Strike) -> DamageParams:
        """STR, RES and hooks of ``i``'s damage roll on ``t`` (:func:`~.strikes.damage_params`, memoised)."""
        key = (i, t, s.health[i], s.health[t], s.deadly[i], strike)
        if key not in self._params:
            self._params[key] = damage_params(self, s, i, t, strike)
        return self._params[key]

    def strike(self, s: Melee, i: int, t: int, fencer: bool = False) -> Strike:
        """The attack the policy makes (:func:`~.strikes.choose_strike`); ``fencer``: with Fencer's reserve die."""
        chosen = choose_strike(self, s, i, t) if self.choosers[i] else PLAIN
        return replace(chosen, fencer=True) if fencer else chosen

    def wound(self, t: int, health: Health, line: str) -> Health:
        return apply_wound(self.fighters[t], self.table, health, line)
