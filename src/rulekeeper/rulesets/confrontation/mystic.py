"""Mystic actions as reserve arithmetic: the mystic abilities whose whole effect the seed states on a reserve.

The core of mystic actions (the Mystic phase, the mana recovery roll, the Aura of Faith, casting a spell or calling
a miracle, counter-magic and censure, focus) is not in the seed, and no spell or miracle is either, so the skirmish
has no mystic action (docs/rules/confrontation.md, "Mystic actions"). What the seed does fix completely is how a few
abilities change a reserve of mana Gems or T.F. once those rules hold; they are hooks here, like the test, combat
and morale hooks, and pure functions a future Mystic phase reads:

* Piety/X: the T.F. reserve kept at the beginning of the Mystic phase;
* Recovery/X: Gems after the mana recovery roll, within the reserve limit;
* Martyr/X and Devotion/X: the offering's damage roll (STR 5 per point, RES 0) and what it yields, exactly;
* Mastery of the arcana: the POW penalty that buys the missing Gems;
* Mana/X and Faith/X: what eliminating such a fighter yields.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.wording import counted

from .cards import FighterCard, canonical_ability
from .effects import Amount, Bonus
from .wounds import DamageHook, WoundTable, damage_odds

KILLED = "Killed outright"
#: "a Damage Roll of a STR equal to 5 times the number of Gems recovered" (Devotion; T.F. for Martyr).
STR_PER_POINT = 5


class KeepsFaith(Amount):
    """Piety/X: "If at the beginning of the Mystic phase the Faithful has X or less T.F. in his reserve, then it does
    not empty. Otherwise, it reduces to just contain X T.F."."""

    __slots__ = ()


class ExtraGems(Amount):
    """Recovery/X: "after the mana recovery roll, the Magician recovers X additional Gems of a single element he
    dominates, within his reserve limit"."""

    __slots__ = ()


class Offering(Amount):
    """Martyr/X and Devotion/X: a friend within 10 cm gives a Faithful up to X T.F. (a Magician up to X Gems), no more
    than his HP left, and suffers a damage roll of STR 5 times that, RES 0; killed, he gives one more."""

    __slots__ = ()


class Sacrifice(Amount):
    """Mana/X and Faith/X: eliminated by a Magician (Faithful) as a Mystic action, he gives X Gems (T.F.)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class BorrowFromPower:
    """Mastery of the arcana: "he can suffer a -X to his next POW test to get X mana Gems … X can be at most equal to
    the POW of the Magician"."""


MysticHook = KeepsFaith | ExtraGems | Offering | Sacrifice | BorrowFromPower


def _number(make: Callable[[int], MysticHook]) -> Callable[[str], tuple[MysticHook, ...]]:
    return lambda x: (make(int(x)),) if x.strip().lstrip("+-").isdigit() else ()


#: Ability name -> its mystic hooks, from its X as written on the card.
MYSTIC_ABILITIES: dict[str, Callable[[str], tuple[MysticHook, ...]]] = {
    "Piety": _number(KeepsFaith),
    "Recovery": _number(ExtraGems),
    "Martyr": _number(Offering),
    "Devotion": _number(Offering),
    "Mana": _number(Sacrifice),
    "Faith": _number(Sacrifice),
    "Mastery of the arcana": lambda _x: (BorrowFromPower(),),
}


def mystic_hooks(card: FighterCard) -> tuple[MysticHook, ...]:
    return tuple(h for written in card.abilities for name, x in [canonical_ability(written)]
                 if name in MYSTIC_ABILITIES for h in MYSTIC_ABILITIES[name](x))


def _value(card: FighterCard, kind: type[Amount]) -> int | None:
    return max((h.value for h in mystic_hooks(card) if isinstance(h, kind)), default=None)


def faith_kept(card: FighterCard, faith: int) -> int:
    """The T.F. left at the beginning of the Mystic phase: the reserve empties (**estimated**: Piety's "it does not
    empty" implies that it otherwise does), or Piety/X keeps up to X."""
    x = _value(card, KeepsFaith)
    return 0 if x is None else min(faith, x)


def gems_recovered(card: FighterCard, gems: int, limit: int) -> int:
    """Gems of one element after the mana recovery roll left ``gems``: Recovery/X adds X, within ``limit``."""
    return min(limit, gems + (_value(card, ExtraGems) or 0))


def sacrifice_yield(card: FighterCard) -> int:
    """What eliminating him yields (Mana/X in Gems, Faith/X in T.F.), 0 without either."""
    return _value(card, Sacrifice) or 0


def offering_odds(table: WoundTable, giver: FighterCard, points: int, hp_left: int,
                  suffered: tuple[DamageHook, ...] = ()) -> dict[int, Fraction]:
    """Exact odds of what an offering of ``points`` (Martyr's T.F., Devotion's Gems) yields: ``points``, or one more
    when the damage roll (STR 5 × points, "the victim's RES is considered to be equal to 0"; his own damage hooks
    "nevertheless apply in the usual way") eliminates him. "X cannot be higher than the current HP" he has left."""
    most = _value(giver, Offering)
    if most is None or not 1 <= points <= min(most, hp_left):
        raise ValueError(f"{giver.name} can offer 1 to {counted(min(most or 0, hp_left), 'point')}, not {points}")
    out: dict[int, Fraction] = {}
    for line, p in damage_odds(table, STR_PER_POINT * points, 0, suffered).items():
        killed = line == KILLED or table.hp_of(line) >= hp_left
        out[points + killed] = out.get(points + killed, Fraction(0)) + p
    return dict(sorted(out.items()))


def mastery_of_the_arcana(card: FighterCard, missing: int) -> tuple[Bonus, int]:
    """The POW penalty on his next POW test and the Gems it buys: "X is the cost of the next spell … Only the Gems
    that the Magician is missing can be acquired", X at most his POW."""
    if not any(isinstance(h, BorrowFromPower) for h in mystic_hooks(card)):
        raise ValueError(f"{card.name} has no Mastery of the arcana")
    x = min(missing, card.POW or 0)
    return Bonus(-x, frozenset({"POW"}), "final"), x
