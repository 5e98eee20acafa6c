"""Rule-system-agnostic boards: zone grids (Ex illis), hex maps with elevation, region maps (War Table).

Rulesets build their geometry on these; this package depends only on :mod:`rulekeeper.core`.
"""

from rulekeeper.boards.hexes import (
    HEX_DIRECTIONS,
    Hex,
    HexCell,
    HexMap,
    SightRule,
    hex_direction,
    hex_distance,
    hex_label,
    hex_line,
    hex_lines,
    hex_neighbour,
    hex_neighbours,
    hex_ring,
    hex_spiral,
    hex_to_offset,
    offset_to_hex,
    parse_hex_label,
)
from rulekeeper.boards.hexpaths import Path, entering
from rulekeeper.boards.regions import RegionMap
from rulekeeper.boards.zones import DIRECTIONS, MAX_WIDTH, Coord, ZoneGrid

__all__ = [
    "DIRECTIONS",
    "HEX_DIRECTIONS",
    "MAX_WIDTH",
    "Coord",
    "Hex",
    "HexCell",
    "HexMap",
    "Path",
    "RegionMap",
    "SightRule",
    "ZoneGrid",
    "entering",
    "hex_direction",
    "hex_distance",
    "hex_label",
    "hex_line",
    "hex_lines",
    "hex_neighbour",
    "hex_neighbours",
    "hex_ring",
    "hex_spiral",
    "hex_to_offset",
    "offset_to_hex",
    "parse_hex_label",
]
