"""Hex coordinates: axial ``(q, r)`` hexes, distance, neighbours, rings, printed labels, drawing geometry.

Pointy-top hexes, the third cube coordinate ``s = -q - r`` (Red Blob Games' hex guide); ``r``
grows southward. Printed maps label hexes by "odd-r" offset coordinates (``"C4"`` is column C,
row 4). Split out of :mod:`rulekeeper.boards.hexes` (which re-exports every public name here)
so that the map, sight and coordinates each stay one readable module.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError

HEX_DIRECTIONS: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")
"""Names of the six directions out of a pointy-top hex, counter-clockwise from east; index ``i`` is ``60 * i`` degrees."""

_AXIAL_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial neighbour offsets in :data:`HEX_DIRECTIONS` order (E, NE, NW, W, SW, SE)."""

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LABEL_RE = re.compile(r"^\s*([A-Za-z]{1,3})\s*(\d{1,6})\s*$")


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@dataclass(frozen=True, order=True)
class Hex:
    """One hex in axial coordinates; hashable and ordered so it can key maps and sort stably."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0), which makes distances symmetric."""
        return -self.q - self.r

    def __str__(self) -> str:
        return f"({self.q},{self.r})"


def hex_distance(a: Hex, b: Hex) -> int:
    """Hexes between ``a`` and ``b`` on an unobstructed map: ranges and movement are counted this way.

    >>> hex_distance(Hex(0, 0), Hex(2, -3))
    3
    """
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)) // 2


def hex_neighbours(h: Hex) -> list[Hex]:
    """The 6 hexes touching ``h`` in a fixed order (E, NE, NW, W, SW, SE), whether on a map or not."""
    return [Hex(h.q + dq, h.r + dr) for dq, dr in _AXIAL_STEPS]


def _direction_index(direction: int | str) -> int:
    if _is_int(direction) and 0 <= int(direction) < 6:
        return int(direction)
    if isinstance(direction, str) and direction.strip().upper() in HEX_DIRECTIONS:
        return HEX_DIRECTIONS.index(direction.strip().upper())
    raise UnknownNameError("hex direction", str(direction), HEX_DIRECTIONS)


def hex_neighbour(h: Hex, direction: int | str) -> Hex:
    """The hex next to ``h`` in ``direction`` (an index or a name of :data:`HEX_DIRECTIONS`): facings, charges.

    >>> hex_neighbour(Hex(0, 0), "NE"), hex_neighbour(Hex(0, 0), 5)
    (Hex(q=1, r=-1), Hex(q=0, r=1))
    """
    dq, dr = _AXIAL_STEPS[_direction_index(direction)]
    return Hex(h.q + dq, h.r + dr)


def hex_direction(frm: Hex, to: Hex) -> int | None:
    """The :data:`HEX_DIRECTIONS` index of the step ``frm -> to`` if the hexes touch, else None."""
    step = (to.q - frm.q, to.r - frm.r)
    return _AXIAL_STEPS.index(step) if step in _AXIAL_STEPS else None


# ------------------------------------------------------------ offset labels


def offset_to_hex(col: int, row: int) -> Hex:
    """The axial hex at column ``col`` of row ``row`` of an "odd-r" map (odd rows shoved half a hex east).

    >>> offset_to_hex(2, 3)
    Hex(q=1, r=3)
    """
    return Hex(col - (row - (row & 1)) // 2, row)


def hex_to_offset(h: Hex) -> tuple[int, int]:
    """``(col, row)`` of ``h`` on an "odd-r" map; the inverse of :func:`offset_to_hex`.

    >>> hex_to_offset(Hex(1, 3))
    (2, 3)
    """
    return h.q + (h.r - (h.r & 1)) // 2, h.r


def _column_name(col: int) -> str:
    out = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, len(_LETTERS))
        out = _LETTERS[rem] + out
    return out


def hex_label(h: Hex) -> str:
    """The name a player reads on a printed map: column letters then 1-based row (``A1`` is the north-west hex).

    Columns run A…Z, AA, AB… as in spreadsheets, so wide maps have names too. A hex west
    or north of ``A1`` has no label and raises :class:`ImpossibleRequestError`.

    >>> hex_label(offset_to_hex(2, 3)), hex_label(offset_to_hex(27, 0))
    ('C4', 'AB1')
    """
    col, row = hex_to_offset(h)
    if col < 0 or row < 0:
        raise ImpossibleRequestError(f"Hex {h} lies west or north of A1 and has no label.", hex=[h.q, h.r])
    return f"{_column_name(col)}{row + 1}"


def parse_hex_label(text: str) -> Hex:
    """The hex a label such as ``"c4"`` or ``"AB12"`` names (case and spaces do not matter).

    >>> parse_hex_label(" c4 ")
    Hex(q=1, r=3)
    """
    if isinstance(text, str):
        return _parsed_label(text)
    raise InvalidStatError(f"{str(text)[:40]!r} is not a hex label: column letters then a row number from 1, e.g. "
                           "'C4'.", label=str(text))


@functools.lru_cache(maxsize=4096)
def _parsed_label(text: str) -> Hex:
    """:func:`parse_hex_label` of a string, remembered: a Dragon Noir simulation parses the same few hundred labels
    ~100 times each (a third of its line-of-fire cost, profiled for the search bot, issue 28); a Hex is frozen."""
    m = _LABEL_RE.match(text)
    if m is None or int(m.group(2)) < 1:
        raise InvalidStatError(
            f"{str(text)[:40]!r} is not a hex label: column letters then a row number from 1, e.g. 'C4'.",
            label=str(text),
        )
    col = 0
    for ch in m.group(1).upper():
        col = col * len(_LETTERS) + _LETTERS.index(ch) + 1
    return offset_to_hex(col - 1, int(m.group(2)) - 1)


# ------------------------------------------------------------ drawing geometry


def hex_centre(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Pixel centre ``(x, y)`` of pointy-top hex ``h`` whose corners lie ``size`` from its centre.

    Drawings (an SVG board) place hexes here; ``A1`` (axial ``(0, 0)``) is at the origin, ``x``
    grows east and ``y`` south, so an odd row sits half a hex width east of the row above.

    >>> hex_centre(Hex(0, 0)), hex_centre(offset_to_hex(0, 1), 2.0)
    ((0.0, 0.0), (1.7320508075688772, 3.0))
    """
    return size * math.sqrt(3) * (h.q + h.r / 2), size * 1.5 * h.r


def hex_corners(centre: tuple[float, float], size: float = 1.0) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex around ``centre``, clockwise from the top-right (for polygons)."""
    x, y = centre
    return [(x + size * math.cos(math.radians(60 * i - 30)), y + size * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


# ------------------------------------------------------------ rings


def _check_radius(radius: int) -> None:
    if not _is_int(radius) or radius < 0:
        raise InvalidStatError(f"A radius must be a whole number of at least 0, got {radius!r}.", radius=repr(radius))


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The ``6 × radius`` hexes at exactly ``radius`` from ``center`` (``[center]`` for 0): ranges, barrages.

    Walks from the south-west corner around counter-clockwise starting eastward, so the order is fixed.

    >>> hex_ring(Hex(0, 0), 1)
    [Hex(q=-1, r=1), Hex(q=0, r=1), Hex(q=1, r=0), Hex(q=1, r=-1), Hex(q=0, r=-1), Hex(q=-1, r=0)]
    """
    _check_radius(radius)
    if radius == 0:
        return [center]
    dq, dr = _AXIAL_STEPS[4]
    h = Hex(center.q + dq * radius, center.r + dr * radius)
    out: list[Hex] = []
    for sq, sr in _AXIAL_STEPS:
        for _ in range(radius):
            out.append(h)
            h = Hex(h.q + sq, h.r + sr)
    return out


def hex_spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center``, ring by ring outward (``1 + 3r(r+1)`` hexes): areas of effect."""
    _check_radius(radius)
    return [h for k in range(radius + 1) for h in hex_ring(center, k)]
