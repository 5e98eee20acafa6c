"""Where things go on the SVG hex board: hex centres, corners, the viewBox and the outline of a region.

The board (``boards.hexes``) gives hex centres and corners for any size; this module fixes the
size the SVG uses and adds the one shape the Battle System board needs beyond single hexes: the
outline of a set of hexes (a missile or barrage range), drawn as the hex edges between a hex of the
set and one outside it. Everything is in SVG units; the viewBox scales them to the page.
"""

from __future__ import annotations

from collections.abc import Iterable

from rulekeeper.boards.hexes import Hex, hex_centre, hex_corners

#: Corner-to-centre distance of one hex in SVG units.
SIZE = 30.0
#: Space around the map so the outer counters' rings are not clipped.
PAD = 3.0
#: Width of one hex (flat side to flat side) in SVG units.
HEX_WIDTH = 3 ** 0.5 * SIZE

Point = tuple[float, float]


def centre(h: Hex) -> Point:
    x, y = hex_centre(h, SIZE)
    return round(x, 1), round(y, 1)


def points(h: Hex) -> str:
    """The ``points`` of a hex's ``<polygon>``."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in hex_corners(hex_centre(h, SIZE), SIZE))


def view_box(width: int, height: int) -> str:
    """The whole map: ``width`` columns, ``height`` rows, odd rows shifted half a hex east."""
    left, top = -HEX_WIDTH / 2 - PAD, -SIZE - PAD
    right = HEX_WIDTH * (width - 1) + (HEX_WIDTH / 2 if height > 1 else 0) + HEX_WIDTH / 2 + PAD
    bottom = 1.5 * SIZE * (height - 1) + SIZE + PAD
    return f"{left:.1f} {top:.1f} {right - left:.1f} {bottom - top:.1f}"


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
