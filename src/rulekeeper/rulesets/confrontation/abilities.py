"""Abilities as data: a name (and value X) mapped to the hooks it puts on tests and damage rolls.

Only abilities the seed describes fully in terms of tests and damage rolls are implemented here (their
wound-penalty part, Fine blade's, Parade's…, is in :mod:`.penalties`; Reflexes' tie in :mod:`.fray`);
every other ability of the seed is in :data:`NOT_YET` with what it waits for, so the catalogue
(docs/rules/confrontation.md) is complete. The condition of an ability that depends on the board
or the opponent (Bane's designated target, Desperate's outnumbered camp, Wild's distance) is the
caller's to check: the hooks say what happens once it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .effects import (
    AutoSuccess,
    Bonus,
    Hook,
    KeepOf2d6,
    NoNegativeOpening,
    NoOpeningNorReRoll,
    Opens,
    ReRollOnce,
    TestShape,
    compose,
)
from .wounds import CancellationRoll, DamageHook, InstinctRoll, LineShift, StunnedReadAs

AnyHook = Hook | DamageHook


def _t(*names: str) -> frozenset[str]:
    return frozenset(names)


SIX_TESTS = _t("INI", "ATT", "DEF", "AIM", "COU", "DIS")
FIVE = frozenset({5})


@dataclass(frozen=True, slots=True)
class Ability:
    """One implemented ability: its category, what its X is, its hooks and what of it is not yet done.

    ``value`` is ``""`` (no X), ``"number"`` (Resolute/2: the hooks depend on it) or ``"condition"``
    (Bane/Acheron, Wild/10: X is part of a condition the caller checks, whom or how far).
    """

    name: str
    category: str
    hooks: Callable[[int], tuple[AnyHook, ...]]
    value: str = ""
    partial: str = ""


def _fixed(*hooks: AnyHook) -> Callable[[int], tuple[AnyHook, ...]]:
    return lambda _x: hooks


_IMPLEMENTED = (
    Ability("Bravery", "test", _fixed(NoNegativeOpening(_t("COU")), Opens(FIVE, _t("COU")))),
    Ability("Brutal", "test", _fixed(Opens(FIVE, _t("ATT"))), partial="its Force +1 for pushes and charge penalties"),
    Ability("Dodge", "test", _fixed(Opens(FIVE, _t("DEF")))),  # moving under cover as a cumulative action: cover_move.py
    Ability("Enlightened", "test", _fixed(Opens(FIVE, _t("FAI")))),  # keeping his focus when censured: magic.py
    Ability("Exalted", "test", _fixed(NoNegativeOpening(_t("FAI")))),
    Ability("Fine blade", "test", _fixed(NoNegativeOpening(_t("ATT")))),
    Ability("Focus", "test", _fixed(Opens(FIVE, _t("POW")))),  # keeping his focus against counter-magic: magic.py
    Ability("Hardened", "test", _fixed(Opens(FIVE, SIX_TESTS))),
    Ability("Loved by the gods", "test", _fixed(Opens(frozenset({4, 5}), SIX_TESTS))),
    Ability("Parade", "test", _fixed(NoNegativeOpening(_t("DEF")))),
    Ability("Precision", "test", _fixed(Opens(FIVE, _t("AIM")))),  # its −1 at medium and long range: shooting.py
    Ability("Reflexes", "test", _fixed(Opens(FIVE, _t("INI")))),
    Ability("Rigour", "test", _fixed(NoNegativeOpening(_t("DIS")))),
    Ability("Sharp shooter", "test", _fixed(NoNegativeOpening(_t("AIM")))),
    Ability("Spirit of X", "test", _fixed(NoNegativeOpening(_t("POW"))), partial="its uses after a POW test"),
    Ability("Strategist", "test", _fixed(Opens(FIVE, _t("DIS")))),
    Ability("Vivacity", "test", _fixed(NoNegativeOpening(_t("INI")))),
    Ability("Cursed", "test", _fixed(NoOpeningNorReRoll())),
    Ability("Luck", "test", _fixed(ReRollOnce(_t(*SIX_TESTS, "POW", "FAI"))),
            partial="Abilities, Capacities, Steam and Naphtha tests"),
    Ability("Dreadful", "test", _fixed(KeepOf2d6(True, _t("COU")))),
    Ability("Rallying cry", "test", _fixed(Bonus(1, _t("COU"), "natural")),
            partial="its use as a simple action (skirmishes: used at the start of a round)"),
    Ability("War fury", "test", _fixed(Bonus(-1, _t("DEF"), "natural"))),  # its attack die: fighters.py
    Ability("Resolute", "test", lambda x: (Bonus(x, _t("INI", "ATT", "DEF", "COU"), "characteristic"),), value="number"),
    Ability("Desperate", "test", _fixed(Bonus(1, _t("INI", "ATT", "DEF")))),
    Ability("Wild", "test", _fixed(Bonus(1, _t("INI", "ATT", "DEF"), "characteristic")), value="condition"),
    Ability("Born killer", "test", _fixed(AutoSuccess(_t("COU")))),  # its combat die: combat_effects.py
    Ability("Bane", "damage", _fixed(LineShift(1)), value="condition"),
    Ability("Hard-boiled", "damage", _fixed(LineShift(-1)), partial="its Force +1 against pushes and charges"),
    Ability("Ferocious", "damage", _fixed(StunnedReadAs("Light"))),
    Ability("Survival instinct", "damage", _fixed(InstinctRoll(6))),
    Ability("Guardian", "damage", lambda x: (CancellationRoll(x),), value="number"),
)

#: Every implemented ability by name.
ABILITIES: dict[str, Ability] = {a.name: a for a in _IMPLEMENTED}


def check_number(name: str, written: str) -> None:
    """Refuse the X of a numeric ability (``Resolute/2``, ``Tall/3``) unless it is a whole number of at most three
    digits and not negative: the seed's X is added ("the Characteristic is increased by X") or counted (HP, dice,
    cm), so ``Resolute/-3`` is a typo, never a rule. A ``+`` is allowed (``Resolute/+2``)."""
    value = written.partition("/")[2].strip()
    digits = value.lstrip("+-")
    if not (digits.isdigit() and len(digits) <= 3):
        raise ValueError(f"{name}/X needs a whole number X, got {written!r}")
    if value.startswith("-") and int(digits):
        raise ValueError(f"{name}/X cannot be negative (X is added or counted), got {written!r}")


def hooks_of(names: list[str] | tuple[str, ...]) -> tuple[AnyHook, ...]:
    """The hooks of abilities written as on a card: ``Brutal``, ``Resolute/2``, ``Bane/Acheron``.

    An unknown name, or a numeric X missing, is refused with :class:`ValueError` naming it: a typo
    must not silently do nothing. An X given to an ability without one is ignored (``Brutal/1``).
    """
    out: list[AnyHook] = []
    for written in names:
        name, _, value = written.partition("/")
        ability = ABILITIES.get(name.strip())
        if ability is None:
            raise ValueError(f"no implemented Confrontation ability {name.strip()!r}")
        if ability.value == "number":
            check_number(ability.name, written)
        x = int(value) if ability.value == "number" else 0
        out.extend(ability.hooks(x))
    return tuple(out)


def shape_of(test: str, names: list[str] | tuple[str, ...]) -> TestShape:
    """The composed shape of a ``test`` (``"ATT"``…) made by a fighter with these abilities."""
    return compose(test, [h for h in hooks_of(names) if not isinstance(h, DamageHook)])


def damage_hooks_of(names: list[str] | tuple[str, ...]) -> tuple[DamageHook, ...]:
    """The damage-roll hooks of these abilities (the attacker's and the target's together)."""
    return tuple(h for h in hooks_of(names) if isinstance(h, DamageHook))
