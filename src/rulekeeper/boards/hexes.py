"""Hex maps with terrain and elevation, for the hex-based rule documents.

"Guide to the Battle System" (seed 002) moves units hex by hex on maps with elevation
levels: "When the terrain goes up by two levels instantly, then normal units can't move
that way. Otherwise moving up by one level is fine but it slows the unit down, reducing
their movement rate by half", and hills, shallow rivers and dense forests halve movement
too. Dragon Noir (seed 001) draws lines of fire "from the centre of the shooter's hexagon
to the centre of the target's hexagon". This module gives both, rule-system agnostic:
what blocks a line and which terrains are slow is the caller's (the ruleset's) choice.

Coordinates are axial ``(q, r)`` on pointy-top hexes (the third cube coordinate is
``s = -q - r``), the usual convention of Red Blob Games' hex guide.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

_EPSILON = 1e-6
"""The nudge that makes a line passing exactly between two hexes pick one side consistently."""

_AXIAL_STEPS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial neighbour offsets: E, NE, NW, W, SW, SE on a pointy-top map (counter-clockwise from east)."""


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
    """Hexes between ``a`` and ``b`` on an unobstructed map: ranges and movement are counted this way."""
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.s - b.s)) // 2


def hex_neighbours(h: Hex) -> list[Hex]:
    """The 6 hexes touching ``h`` in a fixed order (E, NE, NW, W, SW, SE), whether on a map or not."""
    return [Hex(h.q + dq, h.r + dr) for dq, dr in _AXIAL_STEPS]


def _cube_round(q: float, r: float, s: float) -> Hex:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes a centre-to-centre line from ``a`` to ``b`` passes through, both ends included.

    Dragon Noir's line of fire is "an imaginary straight line drawn from the centre of the
    shooter's hexagon to the centre of the target's hexagon". This samples the line in cube
    coordinates at ``distance + 1`` evenly spaced points and rounds each to a hex; the
    start is nudged by a tiny epsilon so a line running exactly along hex edges picks one
    side consistently instead of flickering between the two. The result always has
    ``hex_distance(a, b) + 1`` hexes, each adjacent to the next.
    """
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    aq, ar, as_ = a.q + _EPSILON, a.r + _EPSILON, a.s - 2 * _EPSILON
    bq, br, bs = b.q + _EPSILON, b.r + _EPSILON, b.s - 2 * _EPSILON
    out: list[Hex] = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(aq + (bq - aq) * t, ar + (br - ar) * t, as_ + (bs - as_) * t))
    return out


@dataclass(frozen=True)
class HexCell:
    """What a hex holds: a terrain name (the ruleset's vocabulary) and an elevation level."""

    terrain: str = "open"
    elevation: int = 0

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.terrain, str) or not self.terrain.strip():
            problems.append(f"terrain must be a non-empty string, got {self.terrain!r}")
        if not isinstance(self.elevation, int) or isinstance(self.elevation, bool):
            problems.append(f"elevation must be an integer level, got {self.elevation!r}")
        if problems:
            raise InvalidStatError("Invalid hex cell: " + "; ".join(problems) + ".", problems=problems)


def _offset_to_axial(col: int, row: int) -> Hex:
    # "odd-r" offset layout: odd rows are shoved half a hex to the right.
    return Hex(col - (row - (row & 1)) // 2, row)


@dataclass(frozen=True)
class HexMap:
    """A finite map of hexes, each with a :class:`HexCell`; hexes absent from ``cells`` are off the map.

    ``cells`` is copied into a read-only mapping, so a map cannot change under a game
    state that holds it. (Maps compare by content but are not hashable.)
    """

    cells: Mapping[Hex, HexCell] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.cells, Mapping):
            raise InvalidStatError(
                f"Hex map cells must be a mapping of Hex to HexCell, got {type(self.cells).__name__}.",
                problems=["cells is not a mapping"],
            )
        for h, cell in self.cells.items():
            if not isinstance(h, Hex):
                problems.append(f"key {h!r} is not a Hex")
            if not isinstance(cell, HexCell):
                problems.append(f"cell at {h!r} is not a HexCell: {cell!r}")
        if problems:
            raise InvalidStatError("Invalid hex map: " + "; ".join(problems) + ".", problems=problems)
        object.__setattr__(self, "cells", MappingProxyType(dict(self.cells)))

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def rectangle(cls, width: int, height: int) -> HexMap:
        """A ``width`` × ``height`` map of open, level hexes laid out as on printed hex paper.

        Rows are straight lines of hexes and odd rows are shifted half a hex right
        ("odd-r" offset layout); column ``col`` of row ``row`` is
        ``Hex(col - (row - (row & 1)) // 2, row)``. Start from here and replace cells
        with terrain and elevation.
        """
        for label, value in (("width", width), ("height", height)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise InvalidStatError(
                    f"Hex map {label} must be an integer of at least 1, got {value!r}.", **{label: repr(value)}
                )
        return cls({_offset_to_axial(col, row): HexCell() for row in range(height) for col in range(width)})

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the map (units cannot leave it, lines of sight may skirt it)."""
        return h in self.cells

    def _check(self, *hexes: Hex) -> None:
        for h in hexes:
            if h not in self.cells:
                raise ImpossibleRequestError(f"Hex {h} is not on the map.", hex=[h.q, h.r])

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes that exist on the map, in :func:`hex_neighbours` order."""
        self._check(h)
        return [n for n in hex_neighbours(h) if n in self.cells]

    def step_allowed(self, frm: Hex, to: Hex) -> bool:
        """Whether a unit may step from ``frm`` to the adjacent hex ``to``.

        Guide to the Battle System: "When the terrain goes up by two levels instantly, then
        normal units can't move that way" — a rise of 2 or more levels is refused; going
        down any number of levels is allowed. Off-map or non-adjacent hexes are no step.
        """
        if frm not in self.cells or to not in self.cells or hex_distance(frm, to) != 1:
            return False
        return self.cells[to].elevation - self.cells[frm].elevation < 2

    def step_cost(self, frm: Hex, to: Hex, slow_terrains: frozenset[str] = frozenset()) -> int:
        """Movement points spent stepping from ``frm`` into ``to``: 1, or 2 when the step is slowed.

        The Guide halves a unit's movement rating when moving up one level or through slow
        terrain ("Walking up a hill, through a shallow river, or through a dense forest, all
        give movement rate penalties, reducing the speed by half"), and makes every rating
        even so that the half is whole. Halving an even movement is the same as doubling
        the cost of each hex, and doubled costs also handle paths that are only partly
        slowed, so a slowed step costs 2. The terrain that slows is the one entered
        (``to``'s). Penalties do not stack (the Guide never quarters movement): a rise into
        slow terrain still costs 2. A forbidden step raises :class:`ImpossibleRequestError`.
        """
        self._check(frm, to)
        if not self.step_allowed(frm, to):
            if hex_distance(frm, to) != 1:
                raise ImpossibleRequestError(
                    f"Hexes {frm} and {to} are not adjacent.", frm=[frm.q, frm.r], to=[to.q, to.r]
                )
            rise = self.cells[to].elevation - self.cells[frm].elevation
            raise ImpossibleRequestError(
                f"Cannot step from {frm} up {rise} levels to {to}: going up two levels at once is impossible.",
                frm=[frm.q, frm.r],
                to=[to.q, to.r],
                rise=rise,
            )
        rise = self.cells[to].elevation - self.cells[frm].elevation
        slowed = rise == 1 or self.cells[to].terrain in slow_terrains
        return 2 if slowed else 1

    def reachable(self, start: Hex, movement: int, slow_terrains: frozenset[str] = frozenset()) -> dict[Hex, int]:
        """Every hex a unit at ``start`` can end its move on with ``movement`` points, with the cheapest cost.

        Dijkstra over :meth:`step_cost`; ``start`` is included at cost 0. Other units are
        not considered (the ruleset removes occupied hexes from the result or the map).
        """
        self._check(start)
        if not isinstance(movement, int) or isinstance(movement, bool) or movement < 0:
            raise InvalidStatError(
                f"Movement must be a non-negative integer, got {movement!r}.", movement=repr(movement)
            )
        best: dict[Hex, int] = {start: 0}
        heap: list[tuple[int, Hex]] = [(0, start)]
        while heap:
            cost, h = heapq.heappop(heap)
            if cost > best.get(h, movement + 1):
                continue
            for n in hex_neighbours(h):
                if not self.step_allowed(h, n):
                    continue
                c = cost + self.step_cost(h, n, slow_terrains)
                if c <= movement and c < best.get(n, movement + 1):
                    best[n] = c
                    heapq.heappush(heap, (c, n))
        return best

    def line_of_sight(self, a: Hex, b: Hex, blocks: Callable[[Hex, HexCell], bool]) -> bool:
        """Whether nothing between ``a`` and ``b`` blocks the view along :func:`hex_line`.

        ``blocks(hex, cell)`` is the ruleset's judgement of one intermediate hex (trees,
        walls, standing characters, higher ground...); the two end hexes are never asked,
        since a shooter can always see out of its own hex and into its target's. An
        intermediate hex that is off the map (a line skirting a ragged map edge) holds
        nothing and does not block.
        """
        self._check(a, b)
        for h in hex_line(a, b)[1:-1]:
            cell = self.cells.get(h)
            if cell is not None and blocks(h, cell):
                return False
        return True
