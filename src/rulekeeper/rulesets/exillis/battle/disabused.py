"""Lucifer's heroic power Disabused, on a unit's profile (a module of its own: a stored state is read with it
without loading the rest of the specials, see :mod:`.stored`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..unit_profile import UnitProfile


def disabused(profile: UnitProfile, kills: int, per_kill: float) -> UnitProfile:
    """Disabused: "Lucifer's Intimidation increases proportionally to his number of kills".

    ``profile`` is the unit's profile at its level without the bonus; returns a copy with
    Intimidation × (1 + per_kill × kills).
    """
    if not kills or not str(profile.heroic_power or "").lower() == "disabused":
        return profile
    sv = profile.stats["intimidation"]
    stats = {**profile.stats, "intimidation": sv.model_copy(update={"value": sv.value * (1 + per_kill * kills)})}
    return profile.model_copy(update={"stats": stats})
