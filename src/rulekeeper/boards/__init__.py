"""Rule-system-agnostic boards: zone grids (Ex illis), hex maps with elevation, region maps (War Table).

Rulesets build their geometry on these; this package depends only on :mod:`rulekeeper.core`.
"""

from rulekeeper.boards import hexes as _hexes
from rulekeeper.boards.hexes import *  # noqa: F403 - every hex name, listed once: in hexes.__all__
from rulekeeper.boards.hexpaths import entering
from rulekeeper.boards.regions import RegionMap
from rulekeeper.boards.zones import DIRECTIONS, MAX_WIDTH, Coord, ZoneGrid

__all__ = ["DIRECTIONS", "MAX_WIDTH", "Coord", "RegionMap", "ZoneGrid", "entering"]
__all__ += _hexes.__all__
