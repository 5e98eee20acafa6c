"""Morale: casualty penalties, Intimidation, flank/rear penalties, states and routing.

All modifiers except Leadership are multiplied by the unit's Morale Sensitivity, which
grows with Fatigue/Veil thresholds (see :func:`.fatigue.morale_sensitivity`).
"""

from __future__ import annotations

import bisect

from rulekeeper.core.errors import InvalidStatError

from .combatants import MORALE_MAX, MORALE_MIN, Combatant
from .options import ExIllisOptions

#: Intimidation result → morale modifier (seed, "Morale Modifiers").
INTIMIDATION_TABLE: tuple[tuple[float, float], ...] = (
    (0.25, -60),
    (0.33, -40),
    (0.5, -20),
    (0.66, -10),
    (1.0, 0),
    (1.5, 10),
    (2.0, 20),
    (3.0, 40),
    (4.0, 60),
)

#: Flank/rear "Intimidation Comparison" → static morale penalty (seed, "Flank Attack").
FLANK_TABLE: tuple[tuple[float, float], ...] = (
    (1.0, 0),
    (1.5, -10),
    (2.0, -20),
    (2.5, -30),
    (3.0, -40),
    (3.5, -50),
    (4.0, -60),
)

#: Standard morale type: (lowest points, state), highest band first (seed, "Morale States").
STANDARD_STATES: tuple[tuple[float, str], ...] = (
    (180, "Overconfident"),
    (120, "Confident"),
    (60, "Neutral"),
    (0, "Shaky"),
    (MORALE_MIN, "Broken"),
)

CASUALTY_SCALE = 80.0
FRIENDLY_FIRE_PENALTY = -5.0


def casualty_penalty(casualty_bulk: float, friendly_bulk_in_zone: float) -> float:
    """(Bulk of casualty / Total friendly bulk in the zone) × 80, as a negative modifier."""
    if casualty_bulk < 0 or friendly_bulk_in_zone <= 0:
        raise InvalidStatError("casualty bulk must be >= 0 and friendly bulk > 0")
    return -(casualty_bulk / friendly_bulk_in_zone) * CASUALTY_SCALE


def _lookup(ratio: float, table: tuple[tuple[float, float], ...], interpolate: bool) -> float:
    xs = [x for x, _ in table]
    ys = [y for _, y in table]
    if ratio <= xs[0]:
        return ys[0]
    if ratio >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, ratio) - 1
    if interpolate:
        t = (ratio - xs[i]) / (xs[i + 1] - xs[i])
        return ys[i] + t * (ys[i + 1] - ys[i])
    # step reading: a row applies once the ratio reaches it, counting away from 1:1
    if ratio >= 1.0:
        return ys[i]
    return ys[bisect.bisect_left(xs, ratio)]


def intimidation_modifier(friendly: float, enemy: float, options: ExIllisOptions) -> float:
    """Total friendly Intimidation / total enemy Intimidation, crossed in the table."""
    if friendly < 0 or enemy < 0:
        raise InvalidStatError("intimidation must be >= 0")
    if enemy == 0:
        return INTIMIDATION_TABLE[-1][1] if friendly > 0 else 0.0
    if friendly == 0:
        return INTIMIDATION_TABLE[0][1]
    return _lookup(friendly / enemy, INTIMIDATION_TABLE, options.intimidation_lookup == "interpolate")


def flank_penalty(charger_intimidation: float, victim_intimidation: float, rear: bool, options: ExIllisOptions) -> float:
    """Static penalty of a flank (charger ×2) or rear (×3) charge, per unit."""
    if charger_intimidation < 0 or victim_intimidation < 0:
        raise InvalidStatError("intimidation must be >= 0")
    charger = charger_intimidation * (3 if rear else 2)
    if victim_intimidation == 0:
        return FLANK_TABLE[-1][1] if charger > 0 else 0.0
    ratio = charger / victim_intimidation
    if ratio <= 1.0:
        return 0.0
    return _lookup(ratio, FLANK_TABLE, options.intimidation_lookup == "interpolate")


def cavalry_charge_penalty(rule: str, knights: int, victim_bulk: float) -> float:
    """Heavy (4 per knight) / Light (2 per knight) Cavalry Charge penalty on Bulk ≤ 3 victims."""
    if victim_bulk > 3:
        return 0.0
    per = {"heavy cavalry charge": 4.0, "light cavalry charge": 2.0}.get(rule.lower(), 0.0)
    return -per * knights


def clamp(points: float) -> float:
    return max(MORALE_MIN, min(MORALE_MAX, points))


def morale_state(points: float, fleeing: bool = False, rules: tuple[str, ...] = ()) -> str:
    """The morale state for ``points`` under the unit's Morale Type.

    Standard: Overconfident … Broken, Fleeing once routed. Soulless: "only has a 'Neutral'
    state and a 'Disabled' one". Enraged: "only has a neutral morale state when its morale is
    positive. If its morale falls negative, its morale state becomes Furious."
    """
    low_rules = {r.lower() for r in rules}
    if "soulless" in low_rules:
        return "Neutral" if points >= 0 else "Disabled"
    if "enraged" in low_rules:
        return "Neutral" if points >= 0 else "Furious"
    if fleeing:
        return "Fleeing"
    for low, name in STANDARD_STATES:
        if points >= low:
            return name
    return "Broken"


def state_of(c: Combatant, fleeing: bool = True) -> str:
    """The morale state of a combatant (its Morale Type read from its special rules)."""
    return morale_state(c.morale, c.fleeing if fleeing else False, tuple(c.profile.special_rules))


def can_rout(c: Combatant) -> bool:
    """Soulless units are disabled and Enraged units turn Furious instead of routing."""
    rules = {r.lower() for r in c.profile.special_rules}
    return not ({"soulless", "enraged"} & rules)
