"""Where things go on the SVG hex board: hex centres, corners, the viewBox and the outline of a region.

The board (``boards.hexsvg``) places hexes, corners and the viewBox in SVG units; this module adds
the one shape the Battle System board needs beyond single hexes: the outline of a set of hexes (a
missile or barrage range), drawn as the hex edges between a hex of the set and one outside it. Everything is in SVG units; the viewBox scales them to the page.
"""

from __future__ import annotations

from collections.abc import Iterable

from rulekeeper.boards.hexes import Hex, hex_centre, hex_corners
from rulekeeper.boards.hexsvg import HEX_WIDTH, PAD, SIZE, Point, centre, points, view_box

__all__ = ["HEX_WIDTH", "PAD", "SIZE", "Point", "centre", "points", "view_box"]


def _key(p: Point) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def outline(region: Iterable[Hex]) -> str:
    """An SVG path ``d`` of the edges between the hexes of ``region`` and the hexes (or map edge) outside it.

    The hex across an edge has its centre at the mirror image of this hex's centre through the
    edge's midpoint, so the test needs no orientation table: it works for any hex layout.
    """
    hexes = list(region)
    inside = {_key(hex_centre(h, SIZE)) for h in hexes}
    parts: list[str] = []
    for h in hexes:
        cx, cy = hex_centre(h, SIZE)
        corners = hex_corners((cx, cy), SIZE)
        for i, (x1, y1) in enumerate(corners):
            x2, y2 = corners[(i + 1) % len(corners)]
            across = (x1 + x2 - cx, y1 + y2 - cy)  # c + 2·(midpoint − c)
            if _key(across) not in inside:
                parts.append(f"M{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}")
    return "".join(parts)
