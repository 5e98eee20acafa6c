"""The effect language, continued: hooks on combat dice, parries and HP, composed into one shape.

Test hooks (:mod:`.effects`) bend a roll; these bend a combat. An ability that acts in combat
is data here, a tuple of hooks, and :func:`compose_combat` folds a fighter's hooks into the one
:class:`CombatShape` the combat reads (``fighters.py``), so a new ability is a new table row,
not new combat code. Order of composition (docs/rules/confrontation.md, "Abilities in combat"):

1. extra dice add up, each with its condition (always, only after a charge, only without one)
   and where it goes (placed freely, or in attack);
2. the parry that gains a die: the smallest margin of all (Ambidextrous' any parry beats
   Counterattack's); Counterattack's margin falls from 2 to 1 for a Character or Warrior-Mystic
   with it on his card, or for a fighter who gets it a second time;
3. HP lost by a damage roll: every first-applied change (Vulnerable's +1) then every last-applied
   one (Ethereal's −1, "this effect applies last"), never below 0;
4. the rest are switches: ATT/DEF swapped, STR replaced after a charge, Fierce's extra HP,
   Immunity/Stunned, "more dice in attack than in defence".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from .effects import Amount


@dataclass(frozen=True, slots=True)
class ExtraDie:
    """One more combat die: ``where`` is ``"any"`` (placed freely) or ``"attack"``; ``when`` is
    ``"always"``, ``"charge"`` (only after a charge) or ``"no charge"``."""

    where: str = "any"
    when: str = "always"


@dataclass(frozen=True, slots=True)
class GainDieOnParry:
    """A parry by at least ``margin`` over the ATT test gains an attack die; a spare defence die may turn
    into an attack die after a failed ATT test. ``counterattack`` marks Counterattack's own margin."""

    margin: int
    counterattack: bool = False


@dataclass(frozen=True, slots=True)
class MoreAttackThanDefence:
    """War fury: "he must place more dice in attack than in defence"."""


@dataclass(frozen=True, slots=True)
class SwapAttackDefence:
    """Additional limb: "swaps his ATT and DEF for the duration of the combat" (active)."""


class ChargeStrength(Amount):
    """Charging strength/X: "his STR is replaced by X until the end of the first combat"."""

    __slots__ = ()


class LastStand(Amount):
    """Fierce: at 0 HP "he gets 2 additional HP"; losing them kills him."""

    __slots__ = ()


class HpLoss(Amount):
    """HP lost by a damage roll changed by ``value`` (first-applied, Vulnerable)."""

    __slots__ = ()


class HpLossLast(Amount):
    """HP lost by a damage roll changed by ``value``, "this effect applies last" (Ethereal)."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ImmuneToStunned:
    """Immunity/Stunned (Ethereal): a Stunned result does nothing."""


CombatHook = (ExtraDie | GainDieOnParry | MoreAttackThanDefence | SwapAttackDefence | ChargeStrength | LastStand
              | HpLoss | HpLossLast | ImmuneToStunned)


def _fixed(*hooks: CombatHook) -> Callable[[str], tuple[CombatHook, ...]]:
    return lambda _x: hooks


def _number(make: Callable[[int], CombatHook]) -> Callable[[str], tuple[CombatHook, ...]]:
    return lambda x: (make(int(x)),) if x.strip().lstrip("+-").isdigit() else ()


#: Ability name -> its combat hooks, from its X as written on the card.
COMBAT_ABILITIES: dict[str, Callable[[str], tuple[CombatHook, ...]]] = {
    "Born killer": _fixed(ExtraDie()),
    "War-horse": _fixed(ExtraDie(when="no charge")),
    "War fury": lambda x: (MoreAttackThanDefence(),) if x == "lasting" else (ExtraDie("attack"), MoreAttackThanDefence()),
    "Brutish charge": _fixed(ExtraDie("attack", "charge")),
    "Counterattack": _fixed(GainDieOnParry(2, counterattack=True)),
    "Warrior-mage": _fixed(GainDieOnParry(2, counterattack=True)),  # "counts as written on his reference card"
    "Warrior-monk": _fixed(GainDieOnParry(2, counterattack=True)),
    "Ambidextrous": _fixed(GainDieOnParry(0)),
    "Additional limb": _fixed(SwapAttackDefence()),
    "Charging strength": _number(ChargeStrength),
    "Fierce": _fixed(LastStand(2)),
    "Vulnerable": _fixed(HpLoss(1)),
    "Ethereal": _fixed(HpLossLast(-1), ImmuneToStunned()),
}

MYSTIC = ("Warrior-mage", "Warrior-monk")


@dataclass(frozen=True, slots=True)
class CombatShape:
    """Everything the combat reads of a fighter's abilities once composed."""

    dice: int = 0
    attack_dice: int = 0
    parry_margin: int | None = None
    more_attack: bool = False
    swap: bool = False
    charge_strength: int | None = None
    last_stand: int = 0
    hp_first: int = 0
    hp_last: int = 0
    immune_to_stunned: bool = False

    def hp_lost(self, base: int) -> int:
        """HP a wound line of ``base`` HP costs: first-applied changes, then last-applied ones (never < 0)."""
        if base <= 0:
            return 0
        return max(0, base + self.hp_first + self.hp_last)


def _applies(hook: ExtraDie, charged: bool) -> bool:
    return hook.when == "always" or (hook.when == "charge") == charged


def compose_combat(named: Iterable[tuple[str, str]], charged: bool, character: bool) -> CombatShape:
    """Fold the combat hooks of ``(ability, X)`` pairs into a :class:`CombatShape` (the documented order)."""
    pairs = list(named)
    hooks = [h for name, x in pairs if name in COMBAT_ABILITIES for h in COMBAT_ABILITIES[name](x)]
    extra = [h for h in hooks if isinstance(h, ExtraDie) and _applies(h, charged)]
    parries = [h for h in hooks if isinstance(h, GainDieOnParry)]
    counters = [h for h in parries if h.counterattack]
    margins = [h.margin for h in parries if not h.counterattack]
    if counters:
        mystic = any(name in MYSTIC for name, _ in pairs)
        on_card = any(name == "Counterattack" for name, _ in pairs) or mystic
        margins.append(1 if len(counters) >= 2 or (on_card and (character or mystic)) else 2)
    strengths = [h.value for h in hooks if isinstance(h, ChargeStrength)]
    return CombatShape(
        dice=sum(1 for h in extra if h.where == "any"),
        attack_dice=sum(1 for h in extra if h.where == "attack"),
        parry_margin=min(margins) if margins else None,
        more_attack=any(isinstance(h, MoreAttackThanDefence) for h in hooks),
        swap=any(isinstance(h, SwapAttackDefence) for h in hooks),
        charge_strength=strengths[0] if strengths and charged else None,
        last_stand=max((h.value for h in hooks if isinstance(h, LastStand)), default=0),
        hp_first=sum(h.value for h in hooks if isinstance(h, HpLoss)),
        hp_last=sum(h.value for h in hooks if isinstance(h, HpLossLast)),
        immune_to_stunned=any(isinstance(h, ImmuneToStunned) for h in hooks),
    )
