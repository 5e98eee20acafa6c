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


def at_level(profile: UnitProfile, level: int, options: ExIllisOptions) -> UnitProfile:
    """``profile`` (basic values) scaled to ``level`` under the chosen reading."""
    if isinstance(level, bool) or not isinstance(level, int):
        raise InvalidStatError(f"level must be a whole number, got {level!r}")
    if level < 1 or level > profile.max_level:
        raise InvalidStatError(
            f"{profile.name} can be fielded at levels 1 to {profile.max_level}, not {level}",
            unit=profile.name, level=level, max_level=profile.max_level,
        )
    return profile.scaled(level, growth_exponent(level, options))
