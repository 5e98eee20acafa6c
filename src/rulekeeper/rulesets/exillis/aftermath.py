"""What follows a resolution: morale from casualties, Intimidation and static penalties,
routing of Broken units, and Fatigue gained.
"""

from __future__ import annotations

from dataclasses import dataclass

from .combatants import Combatant, Modifier
from .fastcopy import evolve
from .fatigue import morale_sensitivity, thresholds
from .modifiers import end, put, shift
from .morale import can_rout, casualty_penalty, intimidation_modifier, state_of
from .options import ExIllisOptions
from .records import FatigueLine, MoraleLine


@dataclass(frozen=True)
class Death:
    side: str
    unit: str
    miniature: str
    bulk: float


@dataclass(frozen=True)
class StaticModifier:
    """A morale modifier from an effect; ``static`` ones make a Broken unit flee."""

    unit: str
    amount: float
    reason: str
    static: bool = True


@dataclass(frozen=True)
class MoraleChange:
    unit: str
    before: float
    after: float
    state_before: str
    state_after: str
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> MoraleLine:
        return {
            "unit": self.unit,
            "before": round(self.before, 2),
            "after": round(self.after, 2),
            "change": round(self.after - self.before, 2),
            "state_before": self.state_before,
            "state_after": self.state_after,
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class FatigueChange:
    unit: str
    gained: float
    before: float
    after: float
    thresholds_before: int
    thresholds_after: int

    def to_dict(self) -> FatigueLine:
        return {
            "unit": self.unit,
            "gained": round(self.gained, 3),
            "before": round(self.before, 3),
            "after": round(self.after, 3),
            "thresholds_before": self.thresholds_before,
            "thresholds_after": self.thresholds_after,
        }


def sensitivity(c: Combatant, options: ExIllisOptions) -> float:
    return morale_sensitivity(c.stat("mrls"), c.fatigue, c.veil, options)


def _state(c: Combatant) -> str:
    return state_of(c)


def _casualty_morale(
    units: dict[str, Combatant],
    reasons: dict[str, list[str]],
    before: tuple[Combatant, ...],
    deaths: list[Death],
    options: ExIllisOptions,
    space_key: str,
) -> None:
    """Each casualty shakes the units of its side that witness it, in proportion to its Bulk.

    The friendly Bulk still alive is counted from the zone before the round and shrinks as
    casualties happen, so the later deaths of a round weigh more. A Broken unit that witnesses
    a casualty flees (``rout_on_breaking_casualty=yes``: also the one this casualty breaks).
    """
    bulk_alive = {c.key: c.count * c.stat(space_key) for c in before}
    for d in deaths:
        friends = [k for k, c in units.items() if c.side == d.side and bulk_alive.get(k, 0) > 0]
        total = sum(bulk_alive[k] for k in friends)
        for k in friends:
            c = units[k]
            if c.fleeing or total <= 0:
                continue
            was_broken = c.morale < 0
            amount = casualty_penalty(d.bulk, total) * sensitivity(c, options)
            c = shift(c, amount)
            reasons[k].append(f"casualty {d.miniature}: {amount:+.1f} (bulk {d.bulk:g} / {total:g} × 80 × sensitivity)")
            rout = was_broken or (options.rout_on_breaking_casualty == "yes" and c.morale < 0)
            if rout and can_rout(c):
                c = evolve(c, fleeing=True)
                reasons[k].append("Broken and witnessed a casualty: Fleeing")
            units[k] = c
        bulk_alive[d.unit] = bulk_alive.get(d.unit, 0.0) - d.bulk


def _static_morale(
    units: dict[str, Combatant], reasons: dict[str, list[str]], statics: list[StaticModifier], options: ExIllisOptions
) -> None:
    """Morale modifiers from effects (friendly fire, a spell, an action); a static penalty makes a Broken unit flee."""
    for s in statics:
        if s.unit not in units:
            continue
        c = units[s.unit]
        if c.fleeing or c.destroyed:
            continue
        was_broken = c.morale < 0
        amount = s.amount * sensitivity(c, options)
        c = shift(c, amount)
        reasons[s.unit].append(f"{s.reason}: {amount:+.1f}")
        if was_broken and amount < 0 and s.static and can_rout(c):
            c = evolve(c, fleeing=True)
            reasons[s.unit].append("Broken and suffered a static penalty: Fleeing")
        units[s.unit] = c


def _intimidation(units: dict[str, Combatant], reasons: dict[str, list[str]], options: ExIllisOptions,
                  counts: dict[str, Combatant] | None = None) -> None:
    """Intimidation, recomputed as a dynamic modifier replacing the previous one.

    It compares each side's Intimidation (living, not fleeing miniatures) with the enemy's;
    when only one side still fights, the melee is over and its Intimidation ends with it.
    ``counts``: the zone whose miniatures are counted, when not ``units`` themselves (a charge
    sets the new melee's Intimidation from the zone as the charge lands, before its casualties).
    """
    zone = counts if counts is not None else units
    sides = {c.side for c in zone.values() if not c.destroyed and not c.fleeing}
    if len(sides) < 2:
        for k, c in list(units.items()):
            if c.intimidation_mod:
                reasons[k].append(f"melee over: intimidation modifier {c.intimidation_mod:+.1f} ends")
                units[k] = end_intimidation(c)
        return
    # per side: this loop changes morale only, never who is alive or fleeing, so the sums hold
    strength: dict[str, tuple[float, float]] = {}
    for k, c in list(units.items()):
        if c.destroyed or c.fleeing:
            continue
        if c.side not in strength:
            strength[c.side] = (
                sum(u.count * u.stat("intimidation") for u in zone.values() if u.side == c.side and not u.fleeing),
                sum(u.count * u.stat("intimidation") for u in zone.values() if u.side != c.side and not u.fleeing),
            )
        friendly, enemy = strength[c.side]
        new = intimidation_modifier(friendly, enemy, options) * sensitivity(c, options)
        if new != c.intimidation_mod:
            reasons[k].append(
                f"intimidation {friendly:g} vs {enemy:g}: modifier {c.intimidation_mod:+.1f} → {new:+.1f}"
            )
        units[k] = put(c, Modifier("morale", new, "intimidation"))


def apply_morale(
    before: tuple[Combatant, ...],
    after: tuple[Combatant, ...],
    deaths: list[Death],
    statics: list[StaticModifier],
    options: ExIllisOptions,
    space_key: str = "bulk",
    charge: bool = False,
) -> tuple[tuple[Combatant, ...], list[MoraleChange]]:
    """Apply morale effects of ``deaths`` and ``statics`` to the zone ``after``.

    In the rulebook's order: casualties, then static modifiers, then Intimidation (which
    reads the morale and fleeing the first two leave). After a ``charge`` (option
    ``charge_intimidation``, default ``before-casualties``) the new melee's Intimidation is set
    first, from the zone as the charge lands: "If a unit becomes or was already Broken and
    witnesses a casualty in its zone, it will become Fleeing" — a unit the charge's Intimidation
    breaks flees at the charge's first casualty, not at the next one.
    """
    start = {c.key: c for c in after}
    units = dict(start)
    reasons: dict[str, list[str]] = {k: [] for k in units}
    if charge and options.charge_intimidation == "before-casualties":
        landed = {c.key: c for c in before if c.key in units}
        _intimidation(units, reasons, options, {**units, **landed})
    _casualty_morale(units, reasons, before, deaths, options, space_key)
    _static_morale(units, reasons, statics, options)
    _intimidation(units, reasons, options)
    changes = [
        MoraleChange(k, start[k].morale, units[k].morale, _state(start[k]), _state(units[k]), tuple(reasons[k]))
        for k in units
    ]
    return tuple(units[c.key] for c in after), changes


def end_intimidation(c: Combatant) -> Combatant:
    """Take back the unit's Intimidation modifier: "Intimidation represents how the unit perceives
    its own chance of coming out of the melee victorious" — with no melee there is nothing to perceive."""
    return end(c, "intimidation")


def add_fatigue(c: Combatant, basic_cost: float, veil: bool = False) -> tuple[Combatant, FatigueChange]:
    """Fatigue (or Veil) gained by an action: basic cost × Fatigue (Veil) Rate."""
    rate = c.stat("veil_rate") if veil else c.stat("fatigue_rate")
    gained = basic_cost * rate
    before_t = thresholds(c.fatigue, c.veil)
    if veil:
        new = evolve(c, veil=c.veil + gained)
        change = FatigueChange(c.key, gained, c.veil, new.veil, before_t, thresholds(new.fatigue, new.veil))
    else:
        new = evolve(c, fatigue=c.fatigue + gained)
        change = FatigueChange(c.key, gained, c.fatigue, new.fatigue, before_t, thresholds(new.fatigue, new.veil))
    return new, change
