"""Hex edges and straight lines between arbitrary points of a hex map: walls, doors, windows, facings.

Dragon Noir (seed 001) puts features on the sides of hexes ("Walls block the line of fire";
"a character in a building can shoot outside only from a window hex. The line of fire then starts
from the middle of the outer edge of the window") and starts some lines of fire from the middle of
an edge instead of a hex centre. This module gives that geometry, rule-system agnostic, on the
pointy-top axial hexes of :mod:`rulekeeper.boards.hexes` (size 1: corners 1 from the centre):

* :class:`Edge` — the side two adjacent hexes share; :class:`EdgeMap` — what stands on edges;
* :func:`segment_hexes` — the hexes a segment crosses, in order, each with the length inside it;
* :func:`crossed_edges` — the featured edges a segment crosses or runs along;
* :class:`Footprint` — a counter covering several hexes (a horseman's two, a dragon's five), with a facing.

A segment exactly along hex edges or through a corner is decided the "lenient" way of
:class:`~rulekeeper.boards.hexes.SightRule`: each test is made on the segment shifted a hair to each
side (:data:`HAIR`), and something hides the far end only if it hides it on both sides.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from rulekeeper.boards.hexes import Hex, hex_centre, hex_direction, hex_neighbour, hex_neighbours
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

Point = tuple[float, float]

#: How far a segment is shifted to each side to decide lines along edges and through corners.
HAIR = 1e-7
#: Shortest length inside a hex that counts as crossing it (longer than any hair-shift artefact).
MIN_INSIDE = 1e-5
_APOTHEM = math.sqrt(3) / 2
#: Tolerance of the closed-hexagon test: a segment along an edge is inside both hexes despite float error.
_TOLERANCE = 1e-9
_NORMALS = tuple((math.cos(math.radians(a)), math.sin(math.radians(a))) for a in (0, 60, 120))


def pixel_to_hex(p: Point) -> Hex:
    """The hex whose (size 1) hexagon holds point ``p`` (the inverse of :func:`hex_centre`, rounded)."""
    x, y = p
    q = (math.sqrt(3) / 3 * x - y / 3)
    r = 2 / 3 * y
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))


# -- edges -----------------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Edge:
    """The side shared by two adjacent hexes, whichever order they are given in (``Edge.between``)."""

    a: Hex
    b: Hex

    def __post_init__(self) -> None:
        if hex_direction(self.a, self.b) is None:
            raise InvalidStatError(f"Hexes {self.a} and {self.b} are not adjacent: they share no edge.",
                                   a=[self.a.q, self.a.r], b=[self.b.q, self.b.r])
        if self.b < self.a:
            raise InvalidStatError("Build edges with Edge.between (the smaller hex first).")

    @classmethod
    def between(cls, a: Hex, b: Hex) -> Edge:
        return cls(min(a, b), max(a, b))

    def other(self, h: Hex) -> Hex:
        if h not in (self.a, self.b):
            raise InvalidStatError(f"Hex {h} is not on edge {self.a}|{self.b}.")
        return self.b if h == self.a else self.a

    def ends(self) -> tuple[Point, Point]:
        """The two corners the hexes share."""
        (ax, ay), (bx, by) = hex_centre(self.a), hex_centre(self.b)
        mx, my = (ax + bx) / 2, (ay + by) / 2
        # the edge is perpendicular to the centre line, half a side (0.5) each way from its middle
        dx, dy = bx - ax, by - ay
        n = math.hypot(dx, dy)
        ux, uy = -dy / n * 0.5, dx / n * 0.5
        return (mx + ux, my + uy), (mx - ux, my - uy)

    def midpoint(self) -> Point:
        """"the middle of the outer edge of the window": where some lines of fire start."""
        (ax, ay), (bx, by) = hex_centre(self.a), hex_centre(self.b)
        return (ax + bx) / 2, (ay + by) / 2


@dataclass(frozen=True)
class EdgeFeature:
    """What stands on an edge (``kind`` is the ruleset's word: wall, door, window, bars, rampart)."""

    kind: str
    blocks_sight: bool = True
    passable: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not self.kind.strip():
            raise InvalidStatError(f"An edge feature needs a kind, got {self.kind!r}.")


@dataclass(frozen=True)
class EdgeMap:
    """The features on the edges of a map; edges absent are plain (nothing on them)."""

    features: Mapping[Edge, EdgeFeature] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for e, f in self.features.items():
            if not isinstance(e, Edge) or not isinstance(f, EdgeFeature):
                raise InvalidStatError(f"Edge map entries are Edge -> EdgeFeature, got {e!r} -> {f!r}.")
        object.__setattr__(self, "features", MappingProxyType(dict(self.features)))

    __hash__ = None  # type: ignore[assignment]

    def at(self, a: Hex, b: Hex) -> EdgeFeature | None:
        """The feature between two adjacent hexes, if any."""
        return self.features.get(Edge.between(a, b))

    def with_features(self, changes: Mapping[Edge, EdgeFeature]) -> EdgeMap:
        return EdgeMap({**self.features, **changes})

    def around(self, h: Hex) -> dict[Hex, EdgeFeature]:
        """The features on the six sides of ``h``, by the neighbour across each."""
        out: dict[Hex, EdgeFeature] = {}
        for n in hex_neighbours(h):
            f = self.at(h, n)
            if f is not None:
                out[n] = f
        return out


# -- segments --------------------------------------------------------------------------------------


def _inside_length(p: Point, q: Point, h: Hex) -> tuple[float, float]:
    """(entry parameter, length) of segment ``p``→``q`` inside the closed hexagon of ``h`` (length 0: misses)."""
    cx, cy = hex_centre(h)
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    for nx, ny in _NORMALS:
        a = (p[0] - cx) * nx + (p[1] - cy) * ny
        b = dx * nx + dy * ny
        if abs(b) < 1e-15:
            if abs(a) > _APOTHEM + _TOLERANCE:
                return 0.0, 0.0
            continue
        lo, hi = sorted(((-_APOTHEM - _TOLERANCE - a) / b, (_APOTHEM + _TOLERANCE - a) / b))
        t0, t1 = max(t0, lo), min(t1, hi)
        if t0 >= t1:
            return 0.0, 0.0
    return t0, (t1 - t0) * math.hypot(dx, dy)


def _candidates(p: Point, q: Point) -> set[Hex]:
    n = max(1, math.ceil(math.hypot(q[0] - p[0], q[1] - p[1]) / 0.25))
    seen: set[Hex] = set()
    for i in range(n + 1):
        h = pixel_to_hex((p[0] + (q[0] - p[0]) * i / n, p[1] + (q[1] - p[1]) * i / n))
        seen.add(h)
        seen.update(hex_neighbours(h))
    return seen


def _check_points(p: Point, q: Point) -> None:
    for v in (*p, *q):
        if not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InvalidStatError(f"A segment's ends must be finite numbers, got {p!r} and {q!r}.")


def segment_hexes(p: Point, q: Point) -> list[tuple[Hex, float]]:
    """The hexes segment ``p``→``q`` passes through, in order from ``p``, each with the length inside it.

    Only hexes entered for at least :data:`MIN_INSIDE` count: a segment touching a corner does not
    enter the hex; a segment along an edge is inside both hexes' closed outlines and lists both.
    """
    _check_points(p, q)
    return list(_segment_hexes((float(p[0]), float(p[1])), (float(q[0]), float(q[1]))))


@functools.lru_cache(maxsize=8192)
def _segment_hexes(p: Point, q: Point) -> tuple[tuple[Hex, float], ...]:
    """:func:`segment_hexes`, remembered: a Dragon Noir simulation judges the same lines of fire again and again (a
    quarter of its cost, profiled for the search bot, issue 28); the answer depends on the two points only."""
    if math.hypot(q[0] - p[0], q[1] - p[1]) < MIN_INSIDE:
        return ((pixel_to_hex(p), 0.0),)  # a point: the hex it lies in
    found = []
    for h in _candidates(p, q):
        t, length = _inside_length(p, q, h)
        if length >= MIN_INSIDE:
            found.append((t, h, length))
    return tuple((h, length) for _, h, length in sorted(found, key=lambda x: (x[0], x[1])))


def shifted(p: Point, q: Point, side: int, hair: float = HAIR) -> tuple[Point, Point]:
    """Segment ``p``→``q`` moved ``hair`` to its left (``side`` +1) or right (−1)."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    ox, oy = -dy / n * hair * side, dx / n * hair * side
    return (p[0] + ox, p[1] + oy), (q[0] + ox, q[1] + oy)


def sides(p: Point, q: Point) -> Iterator[tuple[Point, Point]]:
    """The segment shifted a hair to each side: what both block, the segment is blocked by."""
    yield shifted(p, q, 1)
    yield shifted(p, q, -1)


def _cross(o: Point, a: Point, b: Point) -> float:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _proper_cross(p: Point, q: Point, e1: Point, e2: Point) -> bool:
    """Whether the segments cross at a point inside both (not at an end of either)."""
    d1, d2 = _cross(e1, e2, p), _cross(e1, e2, q)
    d3, d4 = _cross(p, q, e1), _cross(p, q, e2)
    return d1 * d2 < 0 and d3 * d4 < 0


def _runs_along(p: Point, q: Point, e1: Point, e2: Point) -> bool:
    """Whether the segment runs along the edge for a positive length (collinear and overlapping)."""
    length = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
    if abs(_cross(p, q, e1)) / length > 1e-9 or abs(_cross(p, q, e2)) / length > 1e-9:
        return False
    dx, dy = q[0] - p[0], q[1] - p[1]
    t1 = ((e1[0] - p[0]) * dx + (e1[1] - p[1]) * dy) / (length * length)
    t2 = ((e2[0] - p[0]) * dx + (e2[1] - p[1]) * dy) / (length * length)
    lo, hi = max(0.0, min(t1, t2)), min(1.0, max(t1, t2))
    return (hi - lo) * length > MIN_INSIDE


def crosses_edge(p: Point, q: Point, edge: Edge) -> bool:
    """Whether segment ``p``→``q`` crosses ``edge`` (on both hair-shifted sides) or runs along it."""
    e1, e2 = edge.ends()
    if _runs_along(p, q, e1, e2):
        return True
    return all(_proper_cross(a, b, e1, e2) for a, b in sides(p, q))


def _by_distance(p: Point, found: Iterable[Edge], edges: EdgeMap) -> list[tuple[Edge, EdgeFeature]]:
    def key(e: Edge) -> tuple[float, Edge]:
        m = e.midpoint()
        return math.hypot(m[0] - p[0], m[1] - p[1]), e

    return [(e, edges.features[e]) for e in sorted(set(found), key=key)]


def crossed_edges(p: Point, q: Point, edges: EdgeMap) -> list[tuple[Edge, EdgeFeature]]:
    """The featured edges segment ``p``→``q`` crosses (:func:`crosses_edge`) or runs along, nearest ``p`` first."""
    return _by_distance(p, (e for e in edges.features if crosses_edge(p, q, e)), edges)


def walls_cross(p: Point, q: Point, edges: EdgeMap) -> list[Edge]:
    """The sight-blocking edges that close the way from ``p`` to ``q`` (empty: the walls let the line pass).

    The line is shut when it runs along a wall, or when each hair-shifted side of it crosses a wall,
    not necessarily the same one: a line through the corner where two walls meet is blocked, a
    line grazing the end of a single wall is not.
    """
    blocking = [e for e, f in edges.features.items() if f.blocks_sight]
    along = [e for e in blocking if _runs_along(p, q, *e.ends())]
    per_side = [[e for e in blocking if _proper_cross(a, b, *e.ends())] for a, b in sides(p, q)]
    shut = along + (per_side[0] + per_side[1] if all(per_side) else [])
    return [e for e, _ in _by_distance(p, shut, edges)]


# -- counters on several hexes ---------------------------------------------------------------------


@dataclass(frozen=True)
class Footprint:
    """A counter covering several hexes: an anchor hex, a facing (0–5, the :data:`HEX_DIRECTIONS` index)
    and the other hexes as steps from the anchor, given for facing 0 and turned with the facing.

    A horseman is ``Footprint(front, facing, ((3,),))``: one hex behind the front one. A cross of
    five hexes around a centre (the Black Dragon) is ``Footprint(centre, f, ((0,), (1,), (3,), (4,)))``.
    """

    anchor: Hex
    facing: int = 0
    parts: tuple[tuple[int, ...], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.facing, int) or not 0 <= self.facing < 6:
            raise InvalidStatError(f"A facing is 0 to 5, got {self.facing!r}.")
        if len(set(self.hexes())) != len(self.parts) + 1:
            raise InvalidStatError("A footprint's hexes must be distinct.")

    def hexes(self) -> list[Hex]:
        """The anchor first, then each part in order."""
        out = [self.anchor]
        for steps in self.parts:
            h = self.anchor
            for s in steps:
                h = hex_neighbour(h, (s + self.facing) % 6)
            out.append(h)
        return out

    def turned(self, facing: int) -> Footprint:
        return Footprint(self.anchor, facing % 6, self.parts)

    def moved(self, anchor: Hex) -> Footprint:
        return Footprint(anchor, self.facing, self.parts)


def horseman_footprint(front: Hex, facing: int) -> Footprint:
    """A horseman's two hexes: the front one (where the arrow points) and the one behind it."""
    return Footprint(front, facing, ((3,),))


def adjacent_to(hexes: Iterable[Hex]) -> list[Hex]:
    """The hexes touching a group of hexes (a counter's footprint), outside it, in a fixed order."""
    group = list(hexes)
    inside = set(group)
    out: list[Hex] = []
    for h in group:
        for n in hex_neighbours(h):
            if n not in inside and n not in out:
                out.append(n)
    return out


def edge_of(h: Hex, direction: int) -> Edge:
    """The side of ``h`` facing ``direction`` (0–5): a tower's chosen side, a window's outer edge."""
    if not isinstance(direction, int) or not 0 <= direction < 6:
        raise ImpossibleRequestError(f"A hex side is 0 to 5, got {direction!r}.")
    return Edge.between(h, hex_neighbour(h, direction))
