"""A rectangular grid of zones, as used by Ex illis (standard board 5 × 4, any size allowed).

Zones are addressed by ``(col, row)`` tuples, 0-based, and named like spreadsheet cells
("A1" is the top-left zone, column letter first, 1-based row). Row 0 is the north edge:
moving north decreases the row.

The geometry here is the part of the Ex illis rules that does not depend on units:

* "Moving": units move from zone to zone, diagonals included, so a diagonal step counts
  as one zone (Chebyshev distance); fleeing units head for the nearest board edge.
* "Charging": a charge sets a fight direction from the charger's zone of origin; flanks
  and rears are decided by the angle between two directions (0, 45, 90, 135 or 180
  degrees), which :meth:`ZoneGrid.direction` and :meth:`ZoneGrid.turn` provide.
* "Range" → "Visibility": the trajectory runs from the centre of the shooter's zone to the
  centre of the target zone, and "if only one part of the projectile trajectory crosses
  an obstructed zone, the shooter's visibility will be affected only by this portion" —
  :meth:`ZoneGrid.crossed` gives every zone crossed with the portion crossed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TypedDict

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError

Coord = tuple[int, int]
"""A zone address ``(col, row)``, 0-based; row 0 is the north edge."""

DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""Compass directions; index ``i`` is ``45 * i`` degrees clockwise from north (north = row - 1)."""

_STEPS: tuple[Coord, ...] = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
"""The unit step ``(dcol, drow)`` of each entry of :data:`DIRECTIONS`, same order."""

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_NAME_RE = re.compile(r"^\s*([A-Za-z])\s*(\d+)\s*$")
MAX_WIDTH = len(_LETTERS)
"""Columns are named by one letter, hence at most 26 of them."""


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class GridJson(TypedDict):
    """A zone grid as a saved battle stores it (:meth:`ZoneGrid.to_dict`)."""

    width: int
    height: int


@dataclass(frozen=True)
class ZoneGrid:
    """A ``width`` × ``height`` board of square zones (Ex illis: 5 × 4).

    Immutable and hashable so that it can sit inside game states and be shared freely.
    """

    width: int
    height: int

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not _is_int(self.width) or not 1 <= self.width <= MAX_WIDTH:
            problems.append(
                f"width must be an integer from 1 to {MAX_WIDTH} (one letter per column), got {self.width!r}"
            )
        if not _is_int(self.height) or self.height < 1:
            problems.append(f"height must be an integer of at least 1, got {self.height!r}")
        if problems:
            raise InvalidStatError("Invalid zone grid: " + "; ".join(problems) + ".", problems=problems)

    # ------------------------------------------------------------------ basics

    @property
    def size_text(self) -> str:
        """The board size as players say it, e.g. ``"5 × 4 (A1–E4)"``, for error messages."""
        return f"{self.width} × {self.height} (A1–{_LETTERS[self.width - 1]}{self.height})"

    def contains(self, c: Coord) -> bool:
        """Whether ``c`` is a zone of this board (every other method refuses off-board zones)."""
        col, row = c
        return 0 <= col < self.width and 0 <= row < self.height

    def _check(self, *coords: Coord) -> None:
        for c in coords:
            if not self.contains(c):
                raise ImpossibleRequestError(
                    f"Zone {c!r} is off the board: the board is {self.size_text}.",
                    zone=list(c),
                    width=self.width,
                    height=self.height,
                )

    def zones(self) -> list[Coord]:
        """Every zone in row-major order (A1, B1, ... then A2, ...), the order boards are read."""
        return [(col, row) for row in range(self.height) for col in range(self.width)]

    def name(self, c: Coord) -> str:
        """The zone's player-facing name: column letter + 1-based row, ``(1, 2) -> "B3"``."""
        self._check(c)
        return f"{_LETTERS[c[0]]}{c[1] + 1}"

    def parse(self, text: str) -> Coord:
        """The zone a player typed ("b3", "B3" -> ``(1, 2)``); typos and off-board names are errors.

        Malformed text raises :class:`UnknownNameError` (with the closest zone names as
        suggestions); a well-formed name outside the board raises
        :class:`ImpossibleRequestError`. Both messages name the zone and the board size.
        """
        m = _NAME_RE.match(text) if isinstance(text, str) else None
        if m is None:
            err = UnknownNameError("zone", str(text), (self.name(c) for c in self.zones()))
            err.message = f"{err.message} The board is {self.size_text}."
            err.args = (err.message,)
            err.details.update(width=self.width, height=self.height)
            raise err
        col = _LETTERS.index(m.group(1).upper())
        row = int(m.group(2)) - 1
        if not self.contains((col, row)):
            shown = f"{m.group(1).upper()}{m.group(2)}"
            raise ImpossibleRequestError(
                f"Zone {shown!r} is off the board: the board is {self.size_text}.",
                zone=shown,
                width=self.width,
                height=self.height,
            )
        return (col, row)

    # ------------------------------------------------------------- adjacency

    def neighbours(self, c: Coord) -> list[Coord]:
        """The up to 8 adjacent zones (diagonals included, as moves allow), in DIRECTIONS order."""
        self._check(c)
        out: list[Coord] = []
        for dx, dy in _STEPS:
            n = (c[0] + dx, c[1] + dy)
            if self.contains(n):
                out.append(n)
        return out

    def distance(self, a: Coord, b: Coord) -> int:
        """Zones between ``a`` and ``b`` counting a diagonal step as one (Chebyshev), as ranges are counted."""
        self._check(a, b)
        return max(abs(a[0] - b[0]), abs(a[1] - b[1]))

    def is_straight(self, a: Coord, b: Coord) -> bool:
        """Whether ``b`` lies on the same row or column as ``a`` (and differs from it): a straight line."""
        self._check(a, b)
        return a != b and (a[0] == b[0] or a[1] == b[1])

    def is_diagonal(self, a: Coord, b: Coord) -> bool:
        """Whether ``b`` lies on a pure diagonal from ``a`` (|dx| == |dy| != 0): diagonal moves cost more AcP."""
        self._check(a, b)
        dx, dy = abs(b[0] - a[0]), abs(b[1] - a[1])
        return dx == dy != 0

    def direction(self, frm: Coord, to: Coord) -> int | None:
        """Index into DIRECTIONS of the line ``frm -> to`` if it is purely straight or diagonal, else None.

        A charge from ``frm`` into ``to`` sets the fight direction; knight-like offsets
        have no single compass direction and get None (the ruleset decides what they mean).
        """
        self._check(frm, to)
        dx, dy = to[0] - frm[0], to[1] - frm[1]
        if (dx, dy) == (0, 0):
            return None
        if dx != 0 and dy != 0 and abs(dx) != abs(dy):
            return None
        return _STEPS.index((_sign(dx), _sign(dy)))

    def turn(self, d1: int, d2: int) -> int:
        """The smallest angle in degrees (0, 45, 90, 135, 180) between two DIRECTIONS indices.

        The Charging rules classify a new fight direction by this angle: 0/45 front,
        90/135 flank, 180 rear.
        """
        for d in (d1, d2):
            if not _is_int(d) or not 0 <= d < len(DIRECTIONS):
                raise InvalidStatError(
                    f"Direction index must be an integer from 0 to {len(DIRECTIONS) - 1}, got {d!r}.",
                    direction=repr(d),
                )
        diff = abs(d1 - d2) % len(DIRECTIONS)
        return min(diff, len(DIRECTIONS) - diff) * 45

    def step_path(self, frm: Coord, to: Coord) -> list[Coord] | None:
        """The zones after ``frm`` up to and including ``to`` along a straight or diagonal line, else None.

        This is the zone-by-zone route of a multi-zone move (cavalry moves 2 zones), used to
        check what the mover passes through. ``frm == to`` is a move of no step: ``[]``.
        """
        self._check(frm, to)
        if frm == to:
            return []
        d = self.direction(frm, to)
        if d is None:
            return None
        dx, dy = _STEPS[d]
        n = self.distance(frm, to)
        return [(frm[0] + dx * i, frm[1] + dy * i) for i in range(1, n + 1)]

    # ------------------------------------------------------------ trajectory

    def _crossed_exact(self, frm: Coord, to: Coord) -> list[tuple[Coord, Fraction]]:
        """:meth:`crossed` with exact fractions (the visibility formula divides bulk by 64)."""
        self._check(frm, to)
        x0, y0 = Fraction(2 * frm[0] + 1, 2), Fraction(2 * frm[1] + 1, 2)
        dx, dy = to[0] - frm[0], to[1] - frm[1]
        major = max(abs(dx), abs(dy))
        if major <= 1:
            return []

        def interval(start: Fraction, delta: int, lo_edge: int) -> tuple[Fraction, Fraction] | None:
            # Parameter range t in [0, 1] where start + t * delta lies within [lo_edge, lo_edge + 1].
            if delta == 0:
                return (Fraction(0), Fraction(1)) if lo_edge <= start <= lo_edge + 1 else None
            t1 = (lo_edge - start) / delta
            t2 = (lo_edge + 1 - start) / delta
            lo, hi = max(min(t1, t2), Fraction(0)), min(max(t1, t2), Fraction(1))
            return (lo, hi) if lo <= hi else None

        hits: list[tuple[Fraction, Coord, Fraction]] = []
        for col in range(min(frm[0], to[0]), max(frm[0], to[0]) + 1):
            ix = interval(x0, dx, col)
            if ix is None:
                continue
            for row in range(min(frm[1], to[1]), max(frm[1], to[1]) + 1):
                if (col, row) in (frm, to):
                    continue
                iy = interval(y0, dy, row)
                if iy is None:
                    continue
                lo, hi = max(ix[0], iy[0]), min(ix[1], iy[1])
                if hi > lo:  # a point or a zero-length touch is not a crossing
                    hits.append((lo, (col, row), (hi - lo) * major))
        hits.sort()
        return [(c, frac) for _, c, frac in hits]

    def crossed(self, frm: Coord, to: Coord) -> list[tuple[Coord, float]]:
        """Zones strictly between ``frm`` and ``to`` crossed by the centre-to-centre trajectory, with the portion crossed.

        Ex illis measures visibility along the segment from the centre of the shooter's
        zone to the centre of the target zone, and an obstructed zone only counts for the
        portion of the trajectory inside it. The portion is the extent of the segment
        inside the zone measured along the segment's major axis, in zone widths: a
        straight or diagonal shot at range 2 crosses the middle zone fully (1.0); a (2, 1)
        shot crosses two zones by 0.5 each. Zones only touched at a corner are left out,
        as are ``frm`` and ``to``. The portions of a shot sum to its range minus 1 (the
        end zones hold half a zone each). Listed in order from ``frm`` towards ``to``;
        computed with exact fractions and returned as floats.
        """
        return [(c, float(f)) for c, f in self._crossed_exact(frm, to)]

    # ------------------------------------------------------------ board edges

    def edge_distance(self, c: Coord) -> int:
        """Steps from ``c`` to the nearest edge zone (0 on the edge): how far a fleeing unit is from escape."""
        self._check(c)
        col, row = c
        return min(col, row, self.width - 1 - col, self.height - 1 - row)

    def is_edge(self, c: Coord) -> bool:
        """Whether ``c`` is on the board's outer ring, where a fleeing unit can leave the board."""
        return self.edge_distance(c) == 0

    def nearest_edge_exits(self, c: Coord) -> list[Coord]:
        """Edge zones at minimal distance from ``c``, the candidate destinations of a fleeing unit.

        Best first: the closest as the crow flies (so the straight-away exit before the
        diagonal ones), then row-major. On the edge, ``[c]`` itself.
        """
        d = self.edge_distance(c)
        exits = [z for z in self.zones() if self.is_edge(z) and self.distance(c, z) == d]
        exits.sort(key=lambda z: ((z[0] - c[0]) ** 2 + (z[1] - c[1]) ** 2, z[1], z[0]))
        return exits

    def toward(self, frm: Coord, goal: Coord) -> list[Coord]:
        """Neighbours of ``frm`` that bring a unit closer to ``goal``, best first (for pursuit or auto-moves).

        Sorted by remaining distance, then straight moves before diagonals (a diagonal at
        full Movement costs more AcP), then closeness as the crow flies, then DIRECTIONS
        order. Empty when ``frm == goal``.
        """
        self._check(frm, goal)
        here = self.distance(frm, goal)
        cands = [n for n in self.neighbours(frm) if self.distance(n, goal) < here]

        def key(n: Coord) -> tuple[int, int, int, int]:
            step = (n[0] - frm[0], n[1] - frm[1])
            diagonal = int(step[0] != 0 and step[1] != 0)
            crow = (n[0] - goal[0]) ** 2 + (n[1] - goal[1]) ** 2
            return (self.distance(n, goal), diagonal, crow, _STEPS.index(step))

        return sorted(cands, key=key)

    # ---------------------------------------------------------- serialisation

    def to_dict(self) -> GridJson:
        """A JSON-able form, so saved battles can store their board."""
        return {"width": self.width, "height": self.height}

    @classmethod
    def from_dict(cls, data: object) -> ZoneGrid:
        """Rebuild a grid from :meth:`to_dict` output, refusing missing or extra keys."""
        if not isinstance(data, Mapping):
            raise InvalidStatError(
                f"A zone grid must be a mapping with 'width' and 'height', got {type(data).__name__}.",
                problems=["not a mapping"],
            )
        problems = [f"missing key {k!r}" for k in ("width", "height") if k not in data]
        problems += [f"unexpected key {k!r}" for k in sorted(map(str, data)) if k not in ("width", "height")]
        if problems:
            raise InvalidStatError("Invalid zone grid: " + "; ".join(problems) + ".", problems=problems)
        return cls(width=data["width"], height=data["height"])
