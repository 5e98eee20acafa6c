"""Exact odds of every resolution, computed with icepool from the very rules the resolutions apply.

Each distribution maps the icepool die of the roll through the same pure function the
resolution applies to the drawn total (:func:`.combat.outcome_of`, :func:`.combat.morale_damage`,
:func:`.barrage.barrage_damage`), and the morale damage is a mixture over the casualties, as
the second roll only happens after the first. So these are the odds of exactly what
:mod:`.combat` and :mod:`.barrage` draw (the tests check it against the drawn requests and
against brute-force enumeration of all 10^5 rolls of 5d10).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import lru_cache

import icepool

from .barrage import barrage_damage
from .combat import DEFAULT, Unit, modifier, morale_damage, outcome_of
from .options import BattleSystemOptions
from .rolls import ATTACK_DICE, MORALE_DICE, dice, fractions
from .units import AttackKind, UnitType

Dist = dict[int, Fraction]


@lru_cache(maxsize=1)
def _none() -> icepool.Die:
    return icepool.Die([0])


class _Card:
    """A unit card as a cache key: equal and hashed by every field (a card holds a mapping, so it has no hash)."""

    __slots__ = ("card", "key")

    def __init__(self, card: UnitType) -> None:
        self.card = card
        self.key: Hashable = tuple(tuple(sorted(v.items())) if isinstance(v, Mapping) else v
                                   for v in (getattr(card, name) for name in _CARD_FIELDS))

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Card) and self.key == other.key


_CARD_FIELDS = tuple(f.name for f in fields(UnitType))


def _card(card: UnitType) -> _Card:
    """``_Card(card)``, made once per card object: an attack's odds ask for its two cards at each of its 46
    totals, and making a key reads every field of the card (the largest part of a new matchup's odds)."""
    found = _CARDS.get(id(card))
    if found is None or found[0] is not card:  # the card held in the entry keeps its id from being reused
        if len(_CARDS) >= 256:
            _CARDS.clear()
        found = _CARDS[id(card)] = (card, _Card(card))
    return found[1]


_CARDS: dict[int, tuple[UnitType, _Card]] = {}


def morale_die(dealer: Unit, victim: Unit, casualties: int, via_barrage: bool,
               options: BattleSystemOptions = DEFAULT) -> icepool.Die:
    """Morale damage to ``victim`` (before its casualties) once ``casualties`` are known: 0 if none, none left,
    or ``victim`` already at 0 morale (combat.morale_hit rolls nothing then: the preview must not show a roll)."""
    if casualties <= 0 or casualties >= victim.soldiers or victim.morale == 0:
        return _none()
    return _morale_die(_card(dealer.card), _card(victim.card), casualties, via_barrage, options)


@lru_cache(maxsize=4096)
def _morale_die(dealer: _Card, victim: _Card, casualties: int, via_barrage: bool,
                options: BattleSystemOptions) -> icepool.Die:
    """The morale die itself, cached (dice are immutable): an attack's odds ask for it once per attack total
    (46 of them for 5d10), with a handful of distinct casualty counts among them."""
    return dice(MORALE_DICE, modifier=casualties).map(
        lambda roll: morale_damage(roll, dealer.card, victim.card, via_barrage, options))


def morale_odds(dealer: Unit, victim: Unit, casualties: int, via_barrage: bool = False,
                options: BattleSystemOptions = DEFAULT) -> Dist:
    return fractions(morale_die(dealer, victim, casualties, via_barrage, options))


@dataclass(frozen=True)
class AttackOdds:
    """A normal or missile attack before it is rolled: every number exact."""

    kind: AttackKind
    modifier: int
    totals: Dist
    casualties: Dist
    attacker_losses: Dist
    morale_to_defender: Dist
    morale_to_attacker: Dist

    @property
    def p_fail(self) -> Fraction:
        """The chance the attack hurts the attacker instead (a total under 0, normal attacks only)."""
        return sum((p for o, p in self.attacker_losses.items() if o > 0), Fraction(0))

    def p_breaks(self, morale: int, defender: bool = True) -> Fraction:
        """The chance this attack's morale damage takes a unit with ``morale`` left to 0 (it flees).

        0 for a unit already at 0 morale: it flees already, and this attack rolls no morale against it.
        """
        if morale <= 0:
            return Fraction(0)
        dist = self.morale_to_defender if defender else self.morale_to_attacker
        return sum((p for o, p in dist.items() if o >= morale), Fraction(0))


def attack_odds(attacker: Unit, defender: Unit, kind: AttackKind = "melee", bonus: int = 0,
                options: BattleSystemOptions = DEFAULT) -> AttackOdds:
    """Exact casualties, failure and morale damage of ``attacker`` attacking ``defender``; cached by all that
    decides them: the same pairs meet turn after turn (issue 22, point 5). That is both cards and soldiers,
    and of either unit's morale only whether it is 0 (:func:`morale_die` rolls nothing against a fleeing
    unit; nothing else reads morale), so the odds stay cached while morale falls."""
    key = (_card(attacker.card), attacker.soldiers, attacker.morale == 0, _card(defender.card), defender.soldiers,
           defender.morale == 0, kind, bonus, options)
    found = _ATTACKS.get(key)
    if found is None:
        if len(_ATTACKS) >= 4096:
            _ATTACKS.pop(next(iter(_ATTACKS)))
        found = _ATTACKS[key] = _attack_odds(attacker, defender, kind, bonus, options)
    return found


#: The attacks already computed (their odds are frozen values: never changed by a caller).
_ATTACKS: dict[Hashable, AttackOdds] = {}


def _attack_odds(attacker: Unit, defender: Unit, kind: AttackKind, bonus: int,
                 options: BattleSystemOptions) -> AttackOdds:
    """The odds themselves: the attack roll's icepool die mapped through the resolution's pure rules."""
    mod = modifier(attacker.card, defender.card, kind, bonus)
    total = dice(ATTACK_DICE, modifier=mod)

    def split(t: int) -> tuple[int, int]:
        return outcome_of(t, kind, attacker.soldiers, defender.soldiers)

    def to_attacker(t: int) -> icepool.Die:
        losses = split(t)[1]
        if options.failed_attack_morale == "none":
            return _none()
        return morale_die(defender, attacker, losses, False, options)

    return AttackOdds(
        kind, mod, fractions(total),
        fractions(total.map(lambda t: split(t)[0])),
        fractions(total.map(lambda t: split(t)[1])),
        fractions(total.map(lambda t: morale_die(attacker, defender, split(t)[0], False, options))),
        fractions(total.map(to_attacker)),
    )


@dataclass(frozen=True)
class BarrageOdds:
    """What one unit hit by a barrage may lose, soldiers and morale."""

    unit: str
    on_target: bool
    casualties: Dist
    morale: Dist


def barrage_odds(artillery: Unit, target: Unit | None, adjacent: Sequence[Unit], bonus: int = 0,
                 options: BattleSystemOptions = DEFAULT) -> list[BarrageOdds]:
    """Exact odds for each unit a barrage would hit (the targeted hex first), from its one roll."""
    target_dr = None if target is None else target.card.damage_reduction
    placed = [(target, True)] if target is not None else []
    placed += [(u, False) for u in adjacent]
    return [barrage_share(artillery, unit, on_target, target_dr, bonus, options)
            for unit, on_target in placed if unit is not None and not unit.destroyed]


def barrage_share(artillery: Unit, unit: Unit, on_target: bool, target_dr: int | None, bonus: int = 0,
                  options: BattleSystemOptions = DEFAULT) -> BarrageOdds:
    """What one unit on (or next to) the targeted hex may lose to a barrage: ``target_dr`` is the DR of the
    unit on the hex (the ``half-of-target`` reading halves what it took)."""
    roll = dice(ATTACK_DICE, modifier=(artillery.card.barrage or 0) + bonus)
    lost, morale = _rules(artillery, unit, on_target, target_dr, options)
    return BarrageOdds(unit.name, on_target, fractions(roll.map(lost)), fractions(roll.map(morale)))


def _rules(artillery: Unit, unit: Unit, on_target: bool, target_dr: int | None,
           options: BattleSystemOptions) -> tuple[Callable[[int], int], Callable[[int], icepool.Die]]:
    """The casualties and the morale die one unit gets from a barrage roll (one-argument functions for icepool)."""
    def lost(roll: int) -> int:
        return min(unit.soldiers, barrage_damage(roll, unit.card.damage_reduction, on_target, target_dr, options))

    def morale(roll: int) -> icepool.Die:
        return morale_die(artillery, unit, lost(roll), True, options)

    return lost, morale
