"""Step 2: stat totals, with every applied modifier named.

The seed asks to "add up each unit's total Health, Attack, and Defense, including
all relevant modifiers for Region traits, unit traits, Marks, Curses, or actions".
Modifiers are data (:class:`~.model.ModifierDef`); this module only decides which
ones apply to a unit in a battle and adds them up, keeping the arithmetic so the
report can show ``50 + 10 (Oathsworn (attacking)) + 10 (Vanguard (attacking)) = 70``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from .model import STATS, Combatant, ModifierDef, Stat, WarTableOptions, fold
from .report_json import AppliedRow, StatTotalRow
from .rounding import num, round_half_up, show

BattleRole = Literal["attacker", "defender"]


@dataclass(frozen=True)
class AppliedModifier:
    """One modifier as it applied to one unit's stat."""

    name: str
    source: str
    key: str
    amount: Fraction
    estimate: bool

    def to_dict(self) -> AppliedRow:
        return {
            "name": self.name,
            "source": self.source,
            "key": self.key,
            "amount": num(self.amount),
            "estimate": self.estimate,
        }


@dataclass(frozen=True)
class StatTotal:
    """A stat's base, the modifiers added, the exact sum and the rounded total.

    ``total`` is the sum rounded half up (one decimal, or whole with
    ``stat_rounding=whole``) and clamped at 0: a Curse cannot make Health or
    Defense negative (negative Defense would add hits, which no rule describes).
    """

    stat: Stat
    base: Fraction
    applied: tuple[AppliedModifier, ...]
    raw: Fraction
    total: Fraction

    @property
    def clamped(self) -> bool:
        return self.raw < 0

    def arithmetic(self) -> str:
        parts = [show(self.base)]
        for m in self.applied:
            sign = "-" if m.amount < 0 else "+"
            parts.append(f"{sign} {show(abs(m.amount))} ({m.name}{', estimate' if m.estimate else ''})")
        text = " ".join(parts)
        if self.applied:
            text += f" = {show(self.raw)}"
        if self.total != self.raw:
            why = "clamped at 0" if self.clamped else "rounded half up"
            text += f" -> {show(self.total)} ({why})"
        return text

    def to_dict(self) -> StatTotalRow:
        return {
            "base": num(self.base),
            "modifiers": [m.to_dict() for m in self.applied],
            "raw": num(self.raw),
            "total": num(self.total),
            "arithmetic": self.arithmetic(),
        }


def applies(
    mod: ModifierDef,
    combatant: Combatant,
    role: BattleRole,
    action: str,
    region_traits: Iterable[str],
) -> bool:
    """Whether ``mod`` applies to ``combatant`` playing ``role`` in this battle."""
    if mod.role != "any" and mod.role != role:
        return False
    if mod.action != "any" and fold(mod.action) != fold(action):
        return False
    key = fold(mod.key)
    if mod.source == "region_trait":
        return key in {fold(t) for t in region_traits}
    if mod.source == "unit_trait":
        return combatant.unit.has_trait(mod.key)
    if mod.source == "mark":
        return key in {fold(m) for m in combatant.marks}
    if mod.source == "curse":
        return key in {fold(c) for c in combatant.curses}
    return key == fold(action)  # source == "action"


def stat_totals(
    combatant: Combatant,
    role: BattleRole | frozenset[BattleRole],
    action: str,
    region_traits: Sequence[str],
    modifiers: Sequence[ModifierDef],
    options: WarTableOptions,
) -> dict[Stat, StatTotal]:
    """Health, Attack and Defense totals of one combatant (step 2).

    ``role`` may be a set: in a campaign battle a unit can both perform an Attack and be the
    target of one (two units attacking each other), and then the modifiers of both roles apply.
    """
    roles: frozenset[BattleRole] = frozenset((role,)) if isinstance(role, str) else role
    digits = 1 if options.stat_rounding == "tenth" else 0
    base = {
        "health": combatant.base_health,
        "attack": combatant.unit.attack,
        "defense": combatant.unit.defense,
    }
    out: dict[Stat, StatTotal] = {}
    for stat in STATS:
        applied = tuple(
            AppliedModifier(m.name, m.source, m.key, m.amount, m.estimate is not None)
            for m in modifiers
            if m.stat == stat and any(applies(m, combatant, r, action, region_traits) for r in sorted(roles))
        )
        raw = base[stat] + sum((a.amount for a in applied), Fraction(0))
        total = max(Fraction(0), round_half_up(raw, digits))
        out[stat] = StatTotal(stat, base[stat], applied, raw, total)
    return out
