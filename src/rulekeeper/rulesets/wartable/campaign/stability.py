"""Every Stability rule of the seed, one small function each, returning the change and its line.

A game master must be able to point at why an Enclave's Stability moved: each function takes an
Enclave (and what happened) and returns a :class:`StabilityChange` holding the rule's key, the
seed's own sentence, the Stability before and after, and the arithmetic. Nothing is mutated;
:func:`apply_change` puts a change into a campaign state. The three battle rules reuse the
one-battle code (:mod:`..stability`): its quotes, its rounding and its report, converted by
:func:`from_battle`, so the calculator and the campaign can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TypedDict

from rulekeeper.core.errors import ImpossibleRequestError

from ..report_json import Num
from ..rounding import num, show
from ..stability import (
    LOSS_PENALTY,
    QUOTE_BLOODLESS,
    QUOTE_FALLEN,
    QUOTE_LOSSES,
    StabilityReport,
    bloodless_penalty,
)
from .model import CampaignOptions, CampaignState, Enclave, FieldUnit

QUOTE_DOWNTIME = (
    "If a Bloodless unit is present in an Enclave at the start of a round of Downtime, it will "
    "likewise decrease the Stability of the Enclave as the restless undead rampage and run amok."
)
QUOTE_RECLAIM = (
    "Likewise, the Reclaim action can raise the Stability of a region by 20 as the wards that "
    "safeguard it from the Shroud and the Bloodless are strengthened or renewed."
)
QUOTE_FAITH = (
    "Spending Faith can also increase a non-Fallen Enclave's stability to full, please see Faith "
    "under Resources for more information."
)
QUOTE_DECREASE = (
    "The consequences of some quests, battles, prayers, bounties, and world events may also "
    "directly reduce the Stability of a given Enclave by a predetermined amount"
)
QUOTE_INCREASE = (
    "The rewards of many quests, prayers, bounties, and world events may increase the Stability "
    "of one or more Enclaves by a predetermined amount."
)
RECLAIM_GAIN = Fraction(20)

#: The rule keys, in the order the seed states them.
RULES = (
    "bloodless_reach", "bloodless_downtime", "enclave_losses", "fallen", "predetermined", "reclaim", "faith",
)


class ChangeJson(TypedDict):
    rule: str
    enclave: str
    before: Num
    after: Num
    delta: Num
    fallen_before: bool
    fallen_after: bool
    cause: str | None
    arithmetic: str
    quote: str


@dataclass(frozen=True)
class StabilityChange:
    """One change to one Enclave, with the seed's line that caused it (``quote``)."""

    rule: str
    quote: str
    enclave: str
    before: Fraction
    after: Fraction
    fallen_before: bool
    fallen_after: bool
    cause: str | None
    arithmetic: str

    @property
    def delta(self) -> Fraction:
        return self.after - self.before

    def to_dict(self) -> ChangeJson:
        return {
            "rule": self.rule,
            "enclave": self.enclave,
            "before": num(self.before),
            "after": num(self.after),
            "delta": num(self.delta),
            "fallen_before": self.fallen_before,
            "fallen_after": self.fallen_after,
            "cause": self.cause,
            "arithmetic": self.arithmetic,
            "quote": self.quote,
        }


def _change(
    enclave: Enclave, rule: str, quote: str, delta: Fraction, cause: str | None, arithmetic: str,
    options: CampaignOptions | None = None, *, fallen: bool | None = None,
) -> StabilityChange:
    """``delta`` applied within the bounds: never below 0, never above full (``stability_cap=full``)."""
    opts = options or CampaignOptions()
    after = max(Fraction(0), enclave.stability + delta)
    if opts.stability_cap == "full" and delta > 0:
        after = max(enclave.stability, min(after, enclave.full))
    if after != enclave.stability + delta:
        arithmetic += f" (kept within 0..{show(enclave.full)}: {show(after)})"
    now_fallen = enclave.fallen if fallen is None else fallen
    return StabilityChange(
        rule, quote, enclave.name, enclave.stability, after, enclave.fallen, now_fallen, cause, arithmetic
    )


def _tenth_of(unit: FieldUnit) -> tuple[Fraction, str]:
    """A tenth of a Bloodless unit's Health, rounded half up as the one-battle rule rounds it."""
    if not unit.bloodless:
        raise ImpossibleRequestError(f"{unit.label} is not a Bloodless unit: this rule is about Bloodless units")
    loss = bloodless_penalty(unit.health)
    rounded = "" if loss == unit.health / 10 else f" -> {show(loss)} (rounded half up)"
    return loss, f"{unit.label} Health {show(unit.health)} / 10 = {show(unit.health / 10)}{rounded}: -{show(loss)}"


def bloodless_reach(enclave: Enclave, unit: FieldUnit) -> StabilityChange:
    """A Bloodless unit reaches or Attacks the Enclave: minus a tenth of its Health."""
    loss, arithmetic = _tenth_of(unit)
    return _change(enclave, "bloodless_reach", QUOTE_BLOODLESS, -loss, unit.label, arithmetic)


def bloodless_downtime(enclave: Enclave, unit: FieldUnit) -> StabilityChange:
    """A Bloodless unit present at the start of Downtime: "likewise", a tenth of its Health."""
    loss, arithmetic = _tenth_of(unit)
    return _change(enclave, "bloodless_downtime", QUOTE_DOWNTIME, -loss, unit.label, arithmetic)


def enclave_losses(enclave: Enclave, label: str, before: Fraction, after: Fraction) -> StabilityChange | None:
    """The defending Enclave unit lost more than half its current Health in one battle: -10.

    None when it lost half or less ("more than half" is strict), so a caller can list only changes.
    """
    lost = before - after
    if not lost > before / 2:
        return None
    arithmetic = f"{label} lost {show(lost)} of {show(before)} Health (> half = {show(before / 2)}): -10"
    return _change(enclave, "enclave_losses", QUOTE_LOSSES, -LOSS_PENALTY, label, arithmetic)


def attacked_directly(enclave: Enclave, attacker: str) -> StabilityChange:
    """A hostile unit acts in the Enclave's region with no defender present: Stability 0, Fallen."""
    arithmetic = f"{attacker} acts in {enclave.region} with no defender present: Stability 0, Fallen"
    return _change(enclave, "fallen", QUOTE_FALLEN, -enclave.stability, attacker, arithmetic, fallen=True)


def predetermined(
    enclave: Enclave, amount: Fraction, source: str, options: CampaignOptions | None = None
) -> StabilityChange:
    """A quest's, prayer's, bounty's or world event's predetermined amount (a table's Stability effect)."""
    quote = QUOTE_INCREASE if amount > 0 else QUOTE_DECREASE
    sign = "+" if amount >= 0 else "-"
    return _change(enclave, "predetermined", quote, amount, source, f"{source}: {sign}{show(abs(amount))}", options)


def reclaim(enclave: Enclave, unit: str, options: CampaignOptions | None = None) -> StabilityChange:
    """The Reclaim action: +20; a Fallen Enclave stands again only with ``reclaim_fallen=lifts``."""
    opts = options or CampaignOptions()
    if enclave.fallen and opts.reclaim_fallen == "stays":
        raise ImpossibleRequestError(
            f"{enclave.name} is Fallen and cannot be Reclaimed (option reclaim_fallen=stays)", enclave=enclave.name
        )
    return _change(enclave, "reclaim", QUOTE_RECLAIM, RECLAIM_GAIN, unit, f"{unit} Reclaims: +20", opts, fallen=False)


def faith(enclave: Enclave, faction: str) -> StabilityChange:
    """Spending Faith restores a non-Fallen Enclave to full; a Fallen one is refused."""
    if enclave.fallen:
        raise ImpossibleRequestError(
            f"{enclave.name} is Fallen: Faith restores only a non-Fallen Enclave", enclave=enclave.name
        )
    return StabilityChange(
        "faith", QUOTE_FAITH, enclave.name, enclave.stability, enclave.full, False, False, faction,
        f"{faction} spends Faith: {show(enclave.stability)} -> full {show(enclave.full)}",
    )


def from_battle(enclave: Enclave, report: StabilityReport) -> list[StabilityChange]:
    """The one-battle Stability report (:func:`..stability.stability_effects`) as campaign changes.

    The battle code decides which rules fire (a Bloodless attacker, more-than-half losses, no
    defenders); here each of its effects becomes a change chained from the Enclave's Stability.
    """
    rules = {"bloodless_attack": "bloodless_reach", "enclave_losses": "enclave_losses", "fallen": "fallen"}
    changes: list[StabilityChange] = []
    current = enclave
    for effect in report.effects:
        if effect.sets_to is not None:
            change = attacked_directly(current, effect.unit or "a hostile unit")
        else:
            delta = effect.delta or Fraction(0)
            change = _change(current, rules[effect.rule], effect.quote, delta, effect.unit, effect.arithmetic)
        changes.append(change)
        current = replace(current, stability=change.after, fallen=change.fallen_after)
    return changes


def apply_change(state: CampaignState, change: StabilityChange) -> CampaignState:
    """The campaign with ``change`` applied to its Enclave (Stability and Fallen state)."""
    enclave = state.enclave(change.enclave)
    return state.with_enclave(replace(enclave, stability=change.after, fallen=change.fallen_after))
