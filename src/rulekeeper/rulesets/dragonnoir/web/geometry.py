"""Where things go on the SVG hex map: hex centres and corners, edges, the viewBox (SVG units)."""

from __future__ import annotations

from rulekeeper.boards.hexedges import Edge
from rulekeeper.boards.hexes import Hex, hex_centre, hex_corners

#: Corner-to-centre distance of one hex in SVG units.
SIZE = 30.0
PAD = 3.0
HEX_WIDTH = 3 ** 0.5 * SIZE

Point = tuple[float, float]


def centre(h: Hex) -> Point:
    x, y = hex_centre(h, SIZE)
    return round(x, 1), round(y, 1)


def points(h: Hex) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(hex_centre(h, SIZE), SIZE))


def edge_line(a: Hex, b: Hex) -> tuple[float, float, float, float]:
    """The two ends of the side ``a`` and ``b`` share, in SVG units."""
    (x1, y1), (x2, y2) = Edge.between(a, b).ends()
    return round(x1 * SIZE, 1), round(y1 * SIZE, 1), round(x2 * SIZE, 1), round(y2 * SIZE, 1)


def view_box(width: int, height: int) -> str:
    left, top = -HEX_WIDTH / 2 - PAD, -SIZE - PAD
    right = HEX_WIDTH * (width - 1) + (HEX_WIDTH / 2 if height > 1 else 0) + HEX_WIDTH / 2 + PAD
    bottom = 1.5 * SIZE * (height - 1) + SIZE + PAD
    return f"{left:.1f} {top:.1f} {right - left:.1f} {bottom - top:.1f}"
