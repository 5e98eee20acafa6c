"""Hex maps with terrain, elevation and sight, for the hex-based rule documents.

"Guide to the Battle System" (seed 002) moves units hex by hex on maps with elevation
levels: "When the terrain goes up by two levels instantly, then normal units can't move
that way. Otherwise moving up by one level is fine but it slows the unit down, reducing
their movement rate by half", and hills, shallow rivers and dense forests halve movement
too. Dragon Noir (seed 001) draws lines of fire "from the centre of the shooter's hexagon
to the centre of the target's hexagon". This module gives both, rule-system agnostic:
what blocks a line, how high things stand and what a step costs are the caller's (the
ruleset's) choice, passed in as predicates, :class:`SightRule` values and cost functions.

Coordinates are axial ``(q, r)`` on pointy-top hexes (the third cube coordinate is
``s = -q - r``), the usual convention of Red Blob Games' hex guide; ``r`` grows southward
(down the page). Printed maps label hexes by offset coordinates: rows are straight lines
of hexes and odd rows are shoved half a hex east ("odd-r"); ``"C4"`` is column C (the third,
``col = 2``) of the fourth row (``row = 3``), as Ex illis names zones. :func:`offset_to_hex`,
:func:`hex_to_offset`, :func:`hex_label` and :func:`parse_hex_label` convert.

Cheapest routes live in :mod:`rulekeeper.boards.hexpaths`; :class:`HexMap` wraps them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

from rulekeeper.boards.hexpaths import Path, cheapest_path, reach
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
    m = _LABEL_RE.match(text) if isinstance(text, str) else None
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


# ------------------------------------------------------------ lines


def _nudged_round(num: int, den: int, eps: int) -> tuple[int, tuple[int, int]]:
    """Round ``num/den + eps·ε`` to the nearest whole number, ε an infinitesimal; also its distance from it.

    The distance ``(a, b)`` means ``a/den + b·ε``; tuples compare as those numbers do.
    Exact integer arithmetic: no float error however far from the origin the map lies.
    """
    k, rem = divmod(2 * num + den, 2 * den)
    if rem == 0 and eps < 0:  # exactly half way: the nudge decides
        k -= 1
    gap = k * den - num
    if gap > 0:
        return k, (gap, -eps)
    if gap < 0:
        return k, (-gap, eps)
    return k, (0, abs(eps))


def _cube_round(nq: int, nr: int, ns: int, den: int, sign: int) -> Hex:
    rq, dq = _nudged_round(nq, den, sign)
    rr, dr = _nudged_round(nr, den, sign)
    rs, ds = _nudged_round(ns, den, -2 * sign)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(rq, rr)


def hex_line(a: Hex, b: Hex, nudge: int = 1) -> list[Hex]:
    """The hexes a centre-to-centre line from ``a`` to ``b`` passes through, both ends included.

    Dragon Noir's line of fire is "an imaginary straight line drawn from the centre of the
    shooter's hexagon to the centre of the target's hexagon". This is Red Blob Games' cube
    lerp: ``distance + 1`` evenly spaced points, each rounded to its hex. A line running
    exactly along hex edges passes between two hexes at each step, so the whole line is
    nudged by ``nudge × (ε, ε, -2ε)`` to pick one side, always the same one (``nudge`` is
    +1 or −1; :func:`hex_lines` gives both sides). Red Blob uses ε = 1e-6 in floats; here
    ε is infinitesimal and the arithmetic exact, so the side never depends on rounding
    noise (which, in floats, changes as a line is moved about the map) and a line keeps its
    shape at any distance from the origin. For lines parallel to the nudge the exact tie
    rule of cube rounding picks the side, again opposite for the two nudges. The result has ``hex_distance(a, b) + 1`` hexes, each
    adjacent to the next, and ``hex_line(b, a, n)`` is ``hex_line(a, b, n)`` reversed.

    >>> [str(h) for h in hex_line(Hex(0, 0), Hex(2, 2))]
    ['(0,0)', '(1,0)', '(1,1)', '(2,1)', '(2,2)']
    >>> [str(h) for h in hex_line(Hex(0, 0), Hex(2, 2), nudge=-1)]
    ['(0,0)', '(0,1)', '(1,1)', '(1,2)', '(2,2)']
    """
    if nudge not in (1, -1) or isinstance(nudge, bool):
        raise InvalidStatError(f"A line's nudge is +1 or -1, got {nudge!r}.", nudge=repr(nudge))
    n = hex_distance(a, b)
    if n == 0:
        return [a]
    dq, dr, ds = b.q - a.q, b.r - a.r, b.s - a.s
    return [_cube_round(a.q * n + dq * i, a.r * n + dr * i, a.s * n + ds * i, n, nudge) for i in range(n + 1)]


def hex_lines(a: Hex, b: Hex) -> tuple[list[Hex], list[Hex]]:
    """The line from ``a`` to ``b`` nudged to each side (+ε, −ε); they differ only where it runs along edges.

    A rule system that says "a line along a hex edge is blocked only if the hexes on both
    sides block" checks both (see :class:`SightRule`'s ``edges``).
    """
    return hex_line(a, b, 1), hex_line(a, b, -1)


# ------------------------------------------------------------ cells and sight


@dataclass(frozen=True)
class HexCell:
    """What a hex holds: a terrain name (the ruleset's vocabulary), an elevation level, and whether it blocks sight.

    ``blocks_sight`` is the default answer of :meth:`HexMap.line_of_sight` (woods, buildings);
    a ruleset may judge with its own predicate instead.
    """

    terrain: str = "open"
    elevation: int = 0
    blocks_sight: bool = False

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.terrain, str) or not self.terrain.strip():
            problems.append(f"terrain must be a non-empty string, got {self.terrain!r}")
        if not _is_int(self.elevation):
            problems.append(f"elevation must be an integer level, got {self.elevation!r}")
        if not isinstance(self.blocks_sight, bool):
            problems.append(f"blocks_sight must be true or false, got {self.blocks_sight!r}")
        if problems:
            raise InvalidStatError("Invalid hex cell: " + "; ".join(problems) + ".", problems=problems)


Blocks = Callable[[Hex, HexCell], bool]
"""``blocks(hex, cell)``: whether what stands on an intermediate hex is an obstacle to sight."""

EdgeRule = Literal["nudge", "lenient", "strict"]
EDGE_RULES: tuple[str, ...] = ("nudge", "lenient", "strict")


def _cell_blocks(h: Hex, cell: HexCell) -> bool:
    return cell.blocks_sight


@dataclass(frozen=True)
class SightRule:
    """How a rule system judges line of sight; every field is the rule system's choice.

    **Flat model** (``elevation=False``, the default): an intermediate hex hides the target
    exactly when ``blocks(hex, cell)`` says so. Ground levels are ignored.

    **Height model** (``elevation=True``), all heights in elevation levels: the eye stands at
    the observer's ground + ``observer``, the aim point at the target's ground + ``target``,
    and the sight line runs straight between them. The line's ``i``-th hex out of a
    distance of ``n`` is where the line is ``i/n`` of the way along, so the line's height
    over it is ``eye + (aim - eye)·i/n``. That hex's top is its ground, plus ``obstacle``
    if ``blocks(hex, cell)`` (``obstacle=None``: an obstacle hides whatever the heights, a
    wall to the sky). The hex hides the target when its top rises *strictly* above the
    line; a line that grazes a crest sees past it. Compared in integers, exactly.

    In both models the two end hexes are never asked (a shooter sees out of its own hex
    and into its target's) and an off-map hex never hides anything.

    **Edges** decide a line that runs exactly along hex edges, between two hexes at a step:
    ``"nudge"`` follows the single +ε line of :func:`hex_line` (one side, always the same);
    ``"lenient"`` is blocked only if both nudged lines are (a wood on one side of an edge
    does not hide); ``"strict"`` is blocked if either is. Elsewhere the three agree.
    """

    elevation: bool = False
    observer: int = 0
    target: int = 0
    obstacle: int | None = None
    edges: EdgeRule = "nudge"

    def __post_init__(self) -> None:
        problems: list[str] = []
        if not isinstance(self.elevation, bool):
            problems.append(f"elevation must be true or false, got {self.elevation!r}")
        for name in ("observer", "target"):
            if not _is_int(getattr(self, name)):
                problems.append(f"{name} height must be an integer number of levels, got {getattr(self, name)!r}")
        if self.obstacle is not None and (not _is_int(self.obstacle) or self.obstacle < 0):
            problems.append(f"obstacle height must be None or an integer of at least 0, got {self.obstacle!r}")
        if self.edges not in EDGE_RULES:
            problems.append(f"edges must be one of {', '.join(EDGE_RULES)}, got {self.edges!r}")
        if problems:
            raise InvalidStatError("Invalid sight rule: " + "; ".join(problems) + ".", problems=problems)


# ------------------------------------------------------------ the map


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
        ("odd-r" offset layout, :func:`offset_to_hex`), labelled ``A1`` to e.g. ``G6``.
        Start from here and replace cells with :meth:`with_cells`.

        >>> m = HexMap.rectangle(7, 6)
        >>> len(m.cells), m.label(m.hexes()[-1])
        (42, 'G6')
        """
        for label, value in (("width", width), ("height", height)):
            if not _is_int(value) or value < 1:
                raise InvalidStatError(
                    f"Hex map {label} must be an integer of at least 1, got {value!r}.", **{label: repr(value)}
                )
        return cls({offset_to_hex(col, row): HexCell() for row in range(height) for col in range(width)})

    def with_cells(self, changes: Mapping[Hex, HexCell]) -> HexMap:
        """A copy with some cells replaced (terrain, hills, woods); only hexes already on the map, to catch typos."""
        self._check(*changes)
        return HexMap({**self.cells, **changes})

    # ---------------------------------------------------------- basics

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` is on the map (units cannot leave it, lines of sight may skirt it)."""
        return h in self.cells

    def _check(self, *hexes: Hex) -> None:
        for h in hexes:
            if h not in self.cells:
                raise ImpossibleRequestError(
                    f"Hex {h} is not on the map.", hex=[h.q, h.r] if isinstance(h, Hex) else repr(h)
                )

    def hexes(self) -> list[Hex]:
        """Every hex in reading order (row by row from the north, west to east), the order maps are drawn."""
        return sorted(self.cells, key=lambda h: (h.r, h.q))

    def label(self, h: Hex) -> str:
        """The player-facing name of an on-map hex (:func:`hex_label`)."""
        self._check(h)
        return hex_label(h)

    def parse(self, text: str) -> Hex:
        """The on-map hex a player typed ("c4"); malformed text suggests close labels, off-map is impossible."""
        try:
            h = parse_hex_label(text)
        except InvalidStatError:
            names = (hex_label(h) for h in self.hexes() if min(hex_to_offset(h)) >= 0)
            raise UnknownNameError("hex", str(text), names) from None
        if h not in self.cells:
            raise ImpossibleRequestError(f"Hex {str(text).strip().upper()!r} is not on the map.", hex=str(text))
        return h

    def _adjacent(self, h: Hex) -> list[Hex]:
        return [n for n in hex_neighbours(h) if n in self.cells]

    def neighbours(self, h: Hex) -> list[Hex]:
        """The adjacent hexes that exist on the map, in :func:`hex_neighbours` order."""
        self._check(h)
        return self._adjacent(h)

    def ring(self, center: Hex, radius: int) -> list[Hex]:
        """The on-map hexes at exactly ``radius`` from ``center``, in :func:`hex_ring` order."""
        self._check(center)
        return [h for h in hex_ring(center, radius) if h in self.cells]

    def within(self, center: Hex, radius: int) -> list[Hex]:
        """The on-map hexes within ``radius`` of ``center``, ring by ring (a barrage's adjacent hexes are radius 1)."""
        self._check(center)
        return [h for h in hex_spiral(center, radius) if h in self.cells]

    def edge_hexes(self) -> list[Hex]:
        """The hexes with a side off the map, in reading order: fleeing units head for these and escape past them."""
        return [h for h in self.hexes() if len(self._adjacent(h)) < 6]

    # ---------------------------------------------------------- sight

    def blockers(
        self, a: Hex, b: Hex, blocks: Blocks | None = None, rule: SightRule = SightRule(), nudge: int = 1
    ) -> list[Hex]:
        """The hexes that hide ``b`` from ``a`` along the ``nudge`` line, nearest ``a`` first (see :class:`SightRule`).

        Presenters draw them; :meth:`line_of_sight` only asks whether there are any.
        ``blocks`` defaults to each cell's ``blocks_sight``.
        """
        self._check(a, b)
        judge = _cell_blocks if blocks is None else blocks
        line = hex_line(a, b, nudge)
        n = len(line) - 1
        eye = self.cells[a].elevation + rule.observer
        aim = self.cells[b].elevation + rule.target
        out: list[Hex] = []
        for i, h in enumerate(line[1:-1], start=1):
            cell = self.cells.get(h)
            if cell is None:
                continue
            obstacle = judge(h, cell)
            if not rule.elevation or (obstacle and rule.obstacle is None):
                hides = obstacle
            else:
                top = cell.elevation + (rule.obstacle or 0 if obstacle else 0)
                hides = top * n > eye * n + (aim - eye) * i  # strictly above the line, i/n of the way along
            if hides:
                out.append(h)
        return out

    def line_of_sight(self, a: Hex, b: Hex, blocks: Blocks | None = None, rule: SightRule = SightRule()) -> bool:
        """Whether ``a`` sees ``b``: no intermediate hex hides it, under ``rule`` (:class:`SightRule`).

        ``blocks(hex, cell)`` is the ruleset's judgement of one intermediate hex (trees,
        walls, standing characters: the caller knows where units are); it defaults to the
        cell's ``blocks_sight``. With the default rule (flat, nudged) sight is blocked
        exactly when ``blocks`` holds for a hex strictly between the two.

        >>> m = HexMap.rectangle(5, 3)
        >>> wood = m.with_cells({Hex(2, 0): HexCell("wood", blocks_sight=True)})
        >>> wood.line_of_sight(Hex(0, 0), Hex(4, 0)), wood.line_of_sight(Hex(0, 0), Hex(2, 0))
        (False, True)
        >>> hill = m.with_cells({Hex(2, 0): HexCell("hill", elevation=1)})
        >>> hill.line_of_sight(Hex(0, 0), Hex(4, 0), rule=SightRule(elevation=True))
        False
        >>> hill.line_of_sight(Hex(0, 0), Hex(4, 0), rule=SightRule(elevation=True, observer=1, target=1))
        True
        """
        clear = not self.blockers(a, b, blocks, rule, 1)
        if rule.edges == "nudge":
            return clear
        other = not self.blockers(a, b, blocks, rule, -1)
        return (clear or other) if rule.edges == "lenient" else (clear and other)

    # ---------------------------------------------------------- movement

    def shortest_path(
        self,
        start: Hex,
        goals: Hex | Iterable[Hex],
        cost: Callable[[Hex, Hex], int | None],
        *,
        occupied: Collection[Hex] = (),
        pass_through: Collection[Hex] = (),
        budget: int | None = None,
    ) -> Path[Hex] | None:
        """The cheapest on-map route from ``start`` to the nearest of ``goals`` (one hex or several), or None.

        ``cost(frm, to)`` prices one step (:mod:`rulekeeper.boards.hexpaths`; ``entering``
        adapts a per-hex cost); ``occupied`` hexes cannot be entered, ``pass_through`` ones
        crossed but not ended on. Ties go to the first route found, neighbours being tried
        in E, NE, NW, W, SW, SE order, so the same map always gives the same route.

        >>> m = HexMap.rectangle(4, 1)
        >>> path = m.shortest_path(Hex(0, 0), Hex(3, 0), lambda frm, to: 1)
        >>> path.cost, [m.label(h) for h in path.nodes]
        (3, ['A1', 'B1', 'C1', 'D1'])
        """
        targets = {goals} if isinstance(goals, Hex) else set(goals)
        self._check(start, *targets)
        return cheapest_path(
            start, targets, self._adjacent, cost, occupied=occupied, pass_through=pass_through, budget=budget
        )

    def reach(
        self,
        start: Hex,
        budget: int,
        cost: Callable[[Hex, Hex], int | None],
        *,
        occupied: Collection[Hex] = (),
        pass_through: Collection[Hex] = (),
    ) -> dict[Hex, int]:
        """Every hex a unit at ``start`` can end its move on with ``budget`` points, with its cheapest cost."""
        self._check(start)
        return reach(start, budget, self._adjacent, cost, occupied=occupied, pass_through=pass_through)
