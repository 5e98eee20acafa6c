"""The aftermath of a round on flat arrays, as :func:`..aftermath.apply_morale` does it.

In the rulebook's order: each casualty shakes its own unit by (Bulk of the casualty / friendly
Bulk still alive) × 80 × Morale Sensitivity, and a Broken unit that witnesses one flees; then
the charge's static penalty (a Broken unit suffering it flees); then Intimidation, recomputed
from the living miniatures and replacing the previous modifier (ended once one side no longer
fights). Soulless and Enraged units never flee. Morale is kept unclamped (base + modifiers, as
:attr:`..combatants.Combatant.morale` stores it): the kernel reads it only by state bands and by
sign, where the [-60, 240] clamp changes nothing, so an ended Intimidation gives back no floor.
"""

from __future__ import annotations

import numpy as np

from .jit import kernel
from .layout import (
    BULK,
    BULK_OK,
    CAN_ROUT,
    COUNT,
    DRAW,
    FIRST_DESTROYS,
    FIRST_ROUTS,
    FLEEING,
    INTIM_MOD,
    MORALE,
    SECOND_DESTROYS,
    SECOND_ROUTS,
)

CASUALTY_SCALE = 80.0


@kernel
def casualty_morale(x: int, before: int, dead: int, sens: float, side_i: np.ndarray, side_f: np.ndarray,
                    mor: np.ndarray, cnt: np.ndarray, rout_on_breaking: bool) -> None:
    """``dead`` casualties of side ``x``, one after another (the later ones weigh more: less Bulk is left)."""
    if side_i[x, BULK_OK] == 0:
        return
    bulk = side_f[x, BULK]
    total = before * bulk
    for _ in range(dead):
        if cnt[x, FLEEING] == 0:
            was_broken = mor[x, MORALE] < 0
            mor[x, MORALE] = mor[x, MORALE] + (-(bulk / total) * CASUALTY_SCALE) * sens
            rout = was_broken or (rout_on_breaking and mor[x, MORALE] < 0)
            if rout and side_i[x, CAN_ROUT] != 0:
                cnt[x, FLEEING] = 1
        total -= bulk


@kernel
def static_morale(x: int, amount: float, sens: float, side_i: np.ndarray, mor: np.ndarray, cnt: np.ndarray) -> None:
    """A static penalty (a cavalry charge): a Broken unit that suffers one flees."""
    if amount == 0 or cnt[x, FLEEING] != 0 or cnt[x, COUNT] == 0:
        return
    was_broken = mor[x, MORALE] < 0
    change = amount * sens
    mor[x, MORALE] = mor[x, MORALE] + change
    if was_broken and change < 0 and side_i[x, CAN_ROUT] != 0:
        cnt[x, FLEEING] = 1


@kernel
def intimidation(s: int, sens: np.ndarray, intim: np.ndarray, mor: np.ndarray, cnt: np.ndarray) -> None:
    """Intimidation replaces last round's modifier; with one side left fighting it ends."""
    fighting = 0
    for x in range(2):
        if cnt[x, COUNT] > 0 and cnt[x, FLEEING] == 0:
            fighting += 1
    for x in range(2):
        if fighting < 2:
            if mor[x, INTIM_MOD] != 0:
                mor[x, MORALE] = mor[x, MORALE] - mor[x, INTIM_MOD]
                mor[x, INTIM_MOD] = 0.0
        else:
            new = intim[x, cnt[x, COUNT], cnt[1 - x, COUNT]] * sens[s, x]
            mor[x, MORALE] = mor[x, MORALE] - mor[x, INTIM_MOD] + new
            mor[x, INTIM_MOD] = new


@kernel
def count_alive(hp: np.ndarray, x: int, n: int) -> int:
    alive = 0
    for i in range(n):
        if hp[x, i] > 0:
            alive += 1
    return alive


@kernel
def ended(cnt: np.ndarray) -> int:
    """How the fight ended (an outcome code of :mod:`.layout`), or -1 while both units still fight.

    A unit destroyed outranks one fleeing, and the second unit's end is read first.
    """
    if cnt[1, COUNT] == 0:
        return FIRST_DESTROYS
    if cnt[0, COUNT] == 0:
        return SECOND_DESTROYS
    if cnt[1, FLEEING] != 0:
        return FIRST_ROUTS
    if cnt[0, FLEEING] != 0:
        return SECOND_ROUTS
    return -1


__all__ = ["DRAW", "casualty_morale", "count_alive", "ended", "intimidation", "static_morale"]
