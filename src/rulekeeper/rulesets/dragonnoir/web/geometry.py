"""Where things go on the SVG hex map: hex centres and corners, edges, the viewBox (SVG units)."""

from __future__ import annotations

from rulekeeper.boards.hexedges import Edge
from rulekeeper.boards.hexes import Hex
from rulekeeper.boards.hexsvg import HEX_WIDTH, PAD, SIZE, Point, centre, points, view_box

__all__ = ["HEX_WIDTH", "PAD", "SIZE", "Point", "centre", "edge_line", "points", "view_box"]


def edge_line(a: Hex, b: Hex) -> tuple[float, float, float, float]:
    """The two ends of the side ``a`` and ``b`` share, in SVG units."""
    (x1, y1), (x2, y2) = Edge.between(a, b).ends()
    return round(x1 * SIZE, 1), round(y1 * SIZE, 1), round(x2 * SIZE, 1), round(y2 * SIZE, 1)
