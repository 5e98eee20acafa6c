"""Unit levels: which exponent the seed's growth formulas take (option ``stat_levels``).

The seed prints ``Basic Stat x 1.029183^Level`` and ``x 1.0717735^Level`` but also says
"The Armour value at level 1 is usually around 12/24/36", which are exactly the table
values. Default ``level-1``: the tables hold level-1 values, growth uses ``level − 1``.
``level``: the printed exponent literally (level 1 = table × 1.029183).
"""

from __future__ import annotations

from rulekeeper.core.errors import InvalidStatError

from .options import ExIllisOptions
from .profiles import UnitProfile


def growth_exponent(level: int, options: ExIllisOptions) -> int:
    return level if options.stat_levels == "level" else level - 1


#: Profiles already scaled, by (id of the basic profile, level, options). Each value keeps its
#: basic profile alive, so an id in a key cannot be reused by another profile while cached.
_SCALED: dict[tuple[int, int, ExIllisOptions], tuple[UnitProfile, UnitProfile]] = {}
_SCALED_MAX = 4096


def at_level(profile: UnitProfile, level: int, options: ExIllisOptions) -> UnitProfile:
    """``profile`` (basic values) scaled to ``level`` under the chosen reading.

    Memoized: scaling rebuilds every stat through pydantic (~100 µs), and loading a saved
    battle or building a unit asks for the same few (unit, level) pairs over and over.
    Profiles are immutable, so the shared result is indistinguishable from a fresh one.
    """
    if isinstance(level, bool) or not isinstance(level, int):
        raise InvalidStatError(f"level must be a whole number, got {level!r}")
    key = (id(profile), level, options)
    hit = _SCALED.get(key)
    if hit is not None and hit[0] is profile:
        return hit[1]
    scaled = _scale(profile, level, options)
    if len(_SCALED) >= _SCALED_MAX:
        _SCALED.clear()
    _SCALED[key] = (profile, scaled)
    return scaled


def _scale(profile: UnitProfile, level: int, options: ExIllisOptions) -> UnitProfile:
    if level < 1 or level > profile.max_level:
        raise InvalidStatError(
            f"{profile.name} can be fielded at levels 1 to {profile.max_level}, not {level}",
            unit=profile.name, level=level, max_level=profile.max_level,
        )
    return profile.scaled(level, growth_exponent(level, options))
