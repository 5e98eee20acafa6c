"""A hex map drawn in SVG units: the size every rule system's SVG hex board uses, hex centres and polygon
corners rounded for the page, and the viewBox of a whole map.

Geometry only (no rule system): the Battle System's and Dragon Noir's boards both draw with it, so a hex
sits at the same place on both and a change of size or padding is made once.
"""

from __future__ import annotations

from .hexcoords import Hex, hex_centre, hex_corners

#: Corner-to-centre distance of one hex in SVG units.
SIZE = 30.0
#: Space around the map so the outer counters' rings are not clipped.
PAD = 3.0
#: Width of one hex (flat side to flat side) in SVG units.
HEX_WIDTH = 3 ** 0.5 * SIZE

Point = tuple[float, float]


def centre(h: Hex) -> Point:
    """The centre of ``h`` in SVG units, rounded to the tenth the page needs.

    >>> centre(Hex(0, 0)), centre(Hex(1, 0))
    ((0.0, 0.0), (52.0, 0.0))
    """
    x, y = hex_centre(h, SIZE)
    return round(x, 1), round(y, 1)


def points(h: Hex) -> str:
    """The ``points`` of a hex's ``<polygon>``."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(hex_centre(h, SIZE), SIZE))


def view_box(width: int, height: int) -> str:
    """The whole map: ``width`` columns, ``height`` rows, odd rows shifted half a hex east.

    >>> view_box(1, 1)
    '-29.0 -33.0 58.0 66.0'
    """
    left, top = -HEX_WIDTH / 2 - PAD, -SIZE - PAD
    right = HEX_WIDTH * (width - 1) + (HEX_WIDTH / 2 if height > 1 else 0) + HEX_WIDTH / 2 + PAD
    bottom = 1.5 * SIZE * (height - 1) + SIZE + PAD
    return f"{left:.1f} {top:.1f} {right - left:.1f} {bottom - top:.1f}"
