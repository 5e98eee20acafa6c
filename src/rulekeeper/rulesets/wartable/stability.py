"""Enclave Stability effects that follow a battle.

Three of the seed's "Negative Factors" are decided by a battle's outcome; the rest
(quests, Downtime, prayers, Reclaim, Faith) are not battle results and are left to
the keeper of the campaign. This module is pure: it reads each unit's Health before
and after the battle and returns the Stability changes with the quote behind each.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .model import EnclaveState, SideName, WarTableOptions
from .report_json import StabilityEffectJson, StabilityJson
from .rounding import num, round_half_up, show

QUOTE_BLOODLESS = (
    "Should a Bloodless unit reach or Attack an Enclave, the Stability will decrease by a "
    "tenth of the Bloodless unit's Health."
)
QUOTE_LOSSES = (
    "Should the Enclave unit defending a settlement lose more than half of its current Health "
    "as the result of a single battle, the Stability of its Enclave will decrease by 10"
)
QUOTE_FALLEN = (
    "Should an Enclave be attacked directly, that is a Bloodless or other hostile unit is present "
    "in the region of an Enclave without any defenders present when it takes an action, the "
    'Stability of the Enclave will be reduced to 0, and the Enclave becomes "Fallen".'
)
LOSS_PENALTY = Fraction(10)


@dataclass(frozen=True)
class UnitOutcome:
    """What the Stability rules need to know about one combatant after the battle."""

    label: str
    side: SideName
    bloodless: bool
    health_before: Fraction
    health_after: Fraction
    attacks: bool = True  # it performs the Attack (a unit only attacked does not "Attack an Enclave")


@dataclass(frozen=True)
class StabilityEffect:
    """One Stability change: a delta, or ``sets_to`` for the Fallen rule."""

    rule: str
    unit: str | None
    delta: Fraction | None
    sets_to: Fraction | None
    arithmetic: str
    quote: str

    def to_dict(self) -> StabilityEffectJson:
        return {
            "rule": self.rule,
            "unit": self.unit,
            "delta": None if self.delta is None else num(self.delta),
            "sets_to": None if self.sets_to is None else num(self.sets_to),
            "arithmetic": self.arithmetic,
            "quote": self.quote,
        }


@dataclass(frozen=True)
class StabilityReport:
    """The Enclave's Stability before and after, and every effect that changed it."""

    enclave: str
    side: SideName
    before: Fraction | None
    after: Fraction | None
    fallen: bool
    effects: tuple[StabilityEffect, ...]
    notes: tuple[str, ...] = ()

    @property
    def total_delta(self) -> Fraction:
        return sum((e.delta for e in self.effects if e.delta is not None), Fraction(0))

    def to_dict(self) -> StabilityJson:
        return {
            "enclave": self.enclave,
            "side": self.side,
            "before": None if self.before is None else num(self.before),
            "after": None if self.after is None else num(self.after),
            "total_delta": num(self.total_delta),
            "fallen": self.fallen,
            "effects": [e.to_dict() for e in self.effects],
            "notes": list(self.notes),
        }


def bloodless_penalty(health: Fraction) -> Fraction:
    """A tenth of a Bloodless unit's Health, rounded half up to a whole Stability point."""
    return round_half_up(health / 10)


def _bloodless_attack(outcome: UnitOutcome, opts: WarTableOptions) -> StabilityEffect:
    """The Stability a Bloodless unit attacking the Enclave costs: a tenth of its Health.

    ``bloodless_health`` chooses which Health counts (before or after the battle); the
    arithmetic shows the rounding only when there was some.
    """
    health = outcome.health_before if opts.bloodless_health == "before" else outcome.health_after
    loss = bloodless_penalty(health)
    return StabilityEffect(
        "bloodless_attack",
        outcome.label,
        -loss,
        None,
        f"{outcome.label} Health {show(health)} ({opts.bloodless_health} the battle) / 10 = "
        f"{show(health / 10)}"
        + ("" if loss == health / 10 else f" -> {show(loss)} (rounded half up)")
        + f": -{show(loss)}",
        QUOTE_BLOODLESS,
    )


def _enclave_losses(
    guards: Sequence[UnitOutcome], opts: WarTableOptions
) -> tuple[list[StabilityEffect], list[str]]:
    """The -10 for Enclave units losing more than half their Health, and a note for each that did not.

    The penalty counts once per battle unless ``enclave_loss=per_unit``.
    """
    effects: list[StabilityEffect] = []
    notes: list[str] = []
    heavy = [o for o in guards if o.health_before - o.health_after > o.health_before / 2]
    for o in heavy if opts.enclave_loss == "per_unit" else heavy[:1]:
        lost = o.health_before - o.health_after
        effects.append(
            StabilityEffect(
                "enclave_losses",
                o.label,
                -LOSS_PENALTY,
                None,
                f"{o.label} lost {show(lost)} of {show(o.health_before)} Health "
                f"(> half = {show(o.health_before / 2)}) -> -10",
                QUOTE_LOSSES,
            )
        )
    for o in guards:
        if o not in heavy:
            notes.append(
                f"{o.label} lost {show(o.health_before - o.health_after)} of {show(o.health_before)} Health "
                f"(not more than half): no -10."
            )
    return effects, notes


def _stability_after(
    enclave: EnclaveState, fallen: bool, effects: Sequence[StabilityEffect], notes: list[str]
) -> Fraction | None:
    """Stability after the battle: 0 if Fallen, unknown if it was unknown, never below 0."""
    if fallen:
        return Fraction(0)
    if enclave.stability is None:
        notes.append("Stability before the battle is unknown: only the changes are given.")
        return None
    return max(Fraction(0), enclave.stability + sum((e.delta or Fraction(0) for e in effects), Fraction(0)))


def stability_effects(
    enclave: EnclaveState,
    outcomes: Sequence[UnitOutcome],
    options: WarTableOptions | None = None,
) -> StabilityReport:
    """Stability changes for ``enclave`` after a battle whose attacking side is ``attackers``.

    * each Bloodless unit attacking the Enclave's side: -(Health / 10), rounded half up;
    * an Enclave unit (a non-Bloodless unit on the Enclave's side) losing more than half
      of its Health in the battle: -10 (once per battle, or per unit with
      ``enclave_loss=per_unit``);
    * the Enclave's side is attacked with no defenders: Stability 0, "Fallen".

    Stability never goes below 0.
    """
    opts = options or WarTableOptions()
    effects: list[StabilityEffect] = []
    notes: list[str] = []
    enemy: SideName = "attackers" if enclave.side == "defenders" else "defenders"
    attacked = enclave.side == "defenders"

    if attacked:
        effects += [_bloodless_attack(o, opts) for o in outcomes if o.side == enemy and o.bloodless and o.attacks]
    else:
        notes.append("The Enclave's side made the attack: no Bloodless unit attacked the Enclave in this battle.")

    guards = [o for o in outcomes if o.side == enclave.side and not o.bloodless]
    loss_effects, loss_notes = _enclave_losses(guards, opts)
    effects += loss_effects
    notes += loss_notes

    fallen = attacked and not guards
    if fallen:
        effects.append(
            StabilityEffect(
                "fallen", None, None, Fraction(0), "no defenders present -> Stability 0, Enclave Fallen", QUOTE_FALLEN
            )
        )
    elif guards and all(o.health_after == 0 for o in guards):
        notes.append(
            "Every defender was destroyed: the Enclave is now undefended and falls if a hostile unit "
            "takes an action in its region."
        )

    after = _stability_after(enclave, fallen, effects, notes)
    return StabilityReport(enclave.name, enclave.side, enclave.stability, after, fallen, tuple(effects), tuple(notes))
