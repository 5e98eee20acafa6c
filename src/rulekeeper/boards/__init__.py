"""Rule-system-agnostic boards: zone grids (Ex illis), hex maps with elevation, region maps (War Table).

Rulesets build their geometry on these; this package depends only on :mod:`rulekeeper.core`.
"""

from rulekeeper.boards.hexes import Hex, HexCell, HexMap, hex_distance, hex_line, hex_neighbours
from rulekeeper.boards.regions import RegionMap
from rulekeeper.boards.zones import DIRECTIONS, MAX_WIDTH, Coord, ZoneGrid

__all__ = [
    "DIRECTIONS",
    "MAX_WIDTH",
    "Coord",
    "Hex",
    "HexCell",
    "HexMap",
    "RegionMap",
    "ZoneGrid",
    "hex_distance",
    "hex_line",
    "hex_neighbours",
]
