"""The zone's states after an action, read as the whole-action odds a player is shown.

Measures: enemy miniatures killed, our own losses (retaliation, Bad Luck, friendly fire), and
the morale state each enemy unit is left in; events: an enemy unit routs (turns Fleeing), one of
ours does, the enemy in the zone is wiped out. Counted from the zone as the action's own rounds
or volleys leave it — before the routs it causes are played out (their cut-down attacks are the
next draws, shown as they happen).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from rulekeeper.core.whole import WholeMeasure, WholeOdds

from ..combatants import Combatant
from ..morale import state_of
from .dist import Zones
from .sampled import PARTICLES

#: Morale states in the order a player reads them, best first.
MORALE_ORDER = ("Overconfident", "Confident", "Neutral", "Shaky", "Broken", "Fleeing", "Furious", "Disabled")


def _lost(start: tuple[Combatant, ...], end: tuple[Combatant, ...], mine: Callable[[Combatant], bool]) -> int:
    return sum(a.count - b.count for a, b in zip(start, end, strict=True) if mine(a))


def whole_odds(start: tuple[Combatant, ...], after: Zones, side: str, note: str = "") -> WholeOdds:
    """The distribution of the action's result from the weighted zones ``after`` it."""
    kept = math.fsum(p for _, p in after.states.values())
    if kept <= 0:
        raise ValueError("no outcome left")
    killed: dict[int, float] = {}
    losses: dict[int, float] = {}
    morale: dict[str, dict[str, float]] = {c.key: {} for c in start if c.side != side and c.count}
    routs = ours_rout = wiped = 0.0
    for zone, p in after.states.values():
        q = p / kept
        k = _lost(start, zone, lambda c: c.side != side)
        killed[k] = killed.get(k, 0.0) + q
        n = _lost(start, zone, lambda c: c.side == side)
        losses[n] = losses.get(n, 0.0) + q
        for a, b in zip(start, zone, strict=True):
            if a.key in morale:
                name = "destroyed" if b.count == 0 else state_of(b)
                morale[a.key][name] = morale[a.key].get(name, 0.0) + q
        if any(b.fleeing and not a.fleeing and a.side != side for a, b in zip(start, zone, strict=True)):
            routs += q
        if any(b.fleeing and not a.fleeing and a.side == side for a, b in zip(start, zone, strict=True)):
            ours_rout += q
        if not any(b.count for b in zone if b.side != side):
            wiped += q
    measures = [
        WholeMeasure.from_weights("enemy_killed", "enemy miniatures killed", sorted(killed.items())),
        WholeMeasure.from_weights("own_losses", "our miniatures lost", sorted(losses.items())),
    ]
    order = {name: i for i, name in enumerate((*MORALE_ORDER, "destroyed"))}
    for key, dist in morale.items():
        rows = sorted(dist.items(), key=lambda kv: order.get(kv[0], 99))
        measures.append(WholeMeasure.from_weights(f"morale:{key}", f"{key}: morale after", rows, numeric=False))
    events = (("an enemy unit routs", min(1.0, routs)), ("one of our units routs", min(1.0, ours_rout)),
              ("no enemy left standing in the zone", min(1.0, wiped)))
    bound = after.dropped + after.half
    method = "estimate" if after.half else "exact" if bound == 0.0 else "grid"
    how = ("each damage roll's whole-number law is exact; " +
           (f"outcomes below 1e-10 dropped (total {after.dropped:.1e})" if after.dropped else "nothing dropped"))
    if after.half:
        how += (f"; the zone too crowded to enumerate in time: {PARTICLES} particles drawn with the same laws, each "
                f"probability within ±{after.half:.2g} (95 %)")
    return WholeOdds(tuple(measures), events, method, bound, (note + "; " if note else "") + how)
