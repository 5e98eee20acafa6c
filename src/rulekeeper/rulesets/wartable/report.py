"""The combat report: one frozen record per step, each able to explain itself.

A player checking the keeper's answer wants the arithmetic, not just the result, so
every line keeps the exact numbers it was computed from and renders them as text
(``30 × 55/100 = 16.5``). ``to_dict`` gives the same content as plain JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.wording import counted, noun_for

from .model import SideName, WarTableOptions
from .modifiers import StatTotal
from .report_json import (
    AllocationRow,
    BlockRow,
    CombatantRow,
    CombatReportJson,
    HealthRow,
    HitsRow,
    StepJson,
    TotalsRow,
)
from .rounding import num, show
from .stability import StabilityReport

STEP_TITLES: dict[int, str] = {
    1: "Determine combatants",
    2: "Calculate stat totals (fractions rounded to the nearest 1-digit)",
    3: "Calculate number of hits dealt by each unit (rounded to the nearest 1)",
    4: "Allocate hits evenly across all enemy combatants (rounded up)",
    5: "Calculate number of allocated hits blocked by each unit (rounded up)",
    6: "Reduce Health of each unit by the number of unblocked hits allocated to it",
}


@dataclass(frozen=True)
class CombatantLine:
    """Step 1: a unit taking part, on which side, with its Marks and Curses."""

    label: str
    side: SideName
    unit: str
    traits: tuple[str, ...]
    marks: tuple[str, ...]
    curses: tuple[str, ...]
    health: Fraction

    def to_dict(self) -> CombatantRow:
        return {
            "unit": self.label,
            "profile": self.unit,
            "side": self.side,
            "traits": list(self.traits),
            "marks": list(self.marks),
            "curses": list(self.curses),
            "health": num(self.health),
        }


@dataclass(frozen=True)
class TotalsLine:
    """Step 2: a unit's Health, Attack and Defense totals."""

    label: str
    side: SideName
    health: StatTotal
    attack: StatTotal
    defense: StatTotal

    def to_dict(self) -> TotalsRow:
        return {
            "unit": self.label,
            "side": self.side,
            "health": self.health.to_dict(),
            "attack": self.attack.to_dict(),
            "defense": self.defense.to_dict(),
        }


@dataclass(frozen=True)
class HitsLine:
    """Step 3: hits = Health × Attack / 100, rounded half up to a whole hit."""

    label: str
    side: SideName
    health: Fraction
    attack: Fraction
    exact: Fraction
    hits: Fraction

    def arithmetic(self) -> str:
        text = f"{show(self.health)} × {show(self.attack)}/100 = {show(self.exact)}"
        return text if self.exact == self.hits else f"{text} -> {show(self.hits)} (rounded half up)"

    def to_dict(self) -> HitsRow:
        return {
            "unit": self.label,
            "side": self.side,
            "health": num(self.health),
            "attack": num(self.attack),
            "exact": num(self.exact),
            "hits": num(self.hits),
            "arithmetic": self.arithmetic(),
        }


@dataclass(frozen=True)
class AllocationLine:
    """Step 4: one side's hits, summed and shared evenly over the enemy units."""

    side: SideName
    dealt_by: tuple[tuple[str, Fraction], ...]
    total_hits: Fraction
    targets: tuple[str, ...]
    share: Fraction
    per_unit: Fraction

    def arithmetic(self) -> str:
        summed = " + ".join(show(h) for _, h in self.dealt_by)
        if len(self.dealt_by) > 1:
            summed += f" = {show(self.total_hits)}"
        if not self.targets:
            return f"{summed} {noun_for(self.total_hits, 'hit')}; no enemy unit to allocate them to"
        n = len(self.targets)
        text = f"{summed} {noun_for(self.total_hits, 'hit')} / {counted(n, 'enemy unit')} = {show(self.share)}"
        if self.share != self.per_unit:
            text += f" -> {show(self.per_unit)} (rounded up)"
        return text + " each"

    def to_dict(self) -> AllocationRow:
        return {
            "side": self.side,
            "dealt_by": [{"unit": u, "hits": num(h)} for u, h in self.dealt_by],
            "total_hits": num(self.total_hits),
            "targets": list(self.targets),
            "share": num(self.share),
            "per_unit": num(self.per_unit),
            "arithmetic": self.arithmetic(),
        }


@dataclass(frozen=True)
class BlockLine:
    """Step 5: allocated hits, how many the unit blocks and how many get through.

    ``reading`` is the ``step5`` option: ``example`` keeps ``blocked`` exact and
    rounds ``unblocked`` up; ``literal`` rounds ``blocked`` up.
    """

    label: str
    side: SideName
    allocated: Fraction
    defense: Fraction
    blocked_exact: Fraction
    blocked: Fraction
    unblocked_exact: Fraction
    unblocked: Fraction
    reading: str
    defense_capped: bool = False

    def arithmetic(self) -> str:
        cap = " (Defense capped at 100)" if self.defense_capped else ""
        text = f"{show(self.allocated)} × {show(self.defense)}/100{cap} = {show(self.blocked_exact)} blocked"
        if self.blocked != self.blocked_exact:
            text += f" -> {show(self.blocked)} (rounded up)"
        text += f"; {show(self.allocated)} - {show(self.blocked)} = {show(self.unblocked_exact)} unblocked"
        if self.unblocked != self.unblocked_exact:
            text += f" -> {show(self.unblocked)} (rounded up)"
        return text

    def to_dict(self) -> BlockRow:
        return {
            "unit": self.label,
            "side": self.side,
            "allocated": num(self.allocated),
            "defense": num(self.defense),
            "blocked_exact": num(self.blocked_exact),
            "blocked": num(self.blocked),
            "unblocked_exact": num(self.unblocked_exact),
            "unblocked": num(self.unblocked),
            "reading": self.reading,
            "arithmetic": self.arithmetic(),
        }


@dataclass(frozen=True)
class HealthLine:
    """Step 6: Health after the battle, clamped at 0."""

    label: str
    side: SideName
    before: Fraction
    unblocked: Fraction
    after: Fraction

    @property
    def destroyed(self) -> bool:
        return self.after == 0

    def arithmetic(self) -> str:
        text = f"{show(self.before)} - {show(self.unblocked)} = {show(self.before - self.unblocked)}"
        if self.after != self.before - self.unblocked:
            text += " -> 0 (clamped at 0)"
        return text

    def to_dict(self) -> HealthRow:
        return {
            "unit": self.label,
            "side": self.side,
            "before": num(self.before),
            "unblocked": num(self.unblocked),
            "after": num(self.after),
            "destroyed": self.destroyed,
            "arithmetic": self.arithmetic(),
        }


@dataclass(frozen=True)
class CombatReport:
    """Everything one War Table combat produced, step by step."""

    action: str
    region_traits: tuple[str, ...]
    options: WarTableOptions
    combatants: tuple[CombatantLine, ...]
    excluded: tuple[str, ...]
    totals: tuple[TotalsLine, ...]
    hits: tuple[HitsLine, ...]
    allocations: tuple[AllocationLine, ...]
    blocks: tuple[BlockLine, ...]
    health: tuple[HealthLine, ...]
    stability: StabilityReport | None = None
    notes: tuple[str, ...] = ()
    title: str | None = None

    def health_after(self, label: str) -> Fraction:
        """Health of the unit labelled ``label`` after the battle."""
        for line in self.health:
            if line.label == label:
                return line.after
        raise KeyError(label)

    def steps(self) -> list[StepJson]:
        return [
            {"step": 1, "title": STEP_TITLES[1], "rows": [c.to_dict() for c in self.combatants]},
            {"step": 2, "title": STEP_TITLES[2], "rows": [t.to_dict() for t in self.totals]},
            {"step": 3, "title": STEP_TITLES[3], "rows": [h.to_dict() for h in self.hits]},
            {"step": 4, "title": STEP_TITLES[4], "rows": [a.to_dict() for a in self.allocations]},
            {"step": 5, "title": STEP_TITLES[5], "rows": [b.to_dict() for b in self.blocks]},
            {"step": 6, "title": STEP_TITLES[6], "rows": [h.to_dict() for h in self.health]},
        ]

    def to_dict(self) -> CombatReportJson:
        return {
            "ruleset": "wartable",
            "kind": "combat",
            "title": self.title,
            "action": self.action,
            "region_traits": list(self.region_traits),
            "options": self.options.to_dict(),
            "excluded": list(self.excluded),
            "steps": self.steps(),
            "result": {h.label: num(h.after) for h in self.health},
            "stability": None if self.stability is None else self.stability.to_dict(),
            "notes": list(self.notes),
        }
