"""A continuous table measured in centimetres: round bases, front arcs, line of sight, charges.

Geometry only (no rule system): a skirmish game on an open table (Confrontation measures in cm)
places round :class:`Base` s with a facing, and asks how far apart two bases are (edge to edge),
whether one is in the other's front arc, whether a line of sight clears the obstacles, how far a
charge must go to bring two bases into contact and whether its path is clear. The geometry goes
through shapely (imported lazily: the CLI must not pay for it at start-up); nothing here is
hand-rolled polygon code but the circle and sector the library is given.

Conventions (the ruleset documents its own readings on top of these):

* positions are the centres of the bases, in cm, ``x`` to the right and ``y`` up; facings are
  degrees anticlockwise from the ``x`` axis;
* distances between fighters are measured base edge to base edge; two bases are *engaged* (in
  base contact) when that distance is at most :data:`CONTACT` cm;
* the front arc is the sector of ``arc`` degrees centred on the facing (180 by default, 360 for
  all-round vision); a target is in it when any part of its base is;
* a line of sight is clear when a straight line from the viewer's centre reaches some point of the
  target's base (its centre or one of :data:`SIGHT_POINTS` points on its edge) without entering an
  obstacle or another base;
* a charge moves the charger straight at the target until the bases touch; its path (the charger's
  base swept along the line) must not enter an obstacle or another base.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from rulekeeper.core.errors import InvalidStatError

#: Two bases within this distance (cm) are in contact (measuring tolerance).
CONTACT = 0.05
#: Points on the edge of a target's base a line of sight may reach (besides its centre).
SIGHT_POINTS = 16
#: Segments per quarter circle of a base polygon (shapely's ``quad_segs``).
QUAD_SEGS = 16


class Shape(Protocol):
    """What this module and its callers ask of a shapely geometry (shapely ships no type hints): its area and
    length, whether it is valid, and how it meets another geometry."""

    @property
    def area(self) -> float: ...

    @property
    def length(self) -> float: ...

    @property
    def is_valid(self) -> bool: ...

    def intersects(self, other: Shape) -> bool: ...

    def intersection(self, other: Shape) -> Shape: ...

    def distance(self, other: Shape) -> float: ...

    def contains(self, other: Shape) -> bool: ...


@dataclass(frozen=True, slots=True)
class Base:
    """A round base: its centre (cm), radius (cm), facing (degrees) and front arc (degrees)."""

    x: float
    y: float
    radius: float = 1.5
    facing: float = 0.0
    arc: float = 180.0
    name: str = ""

    def __post_init__(self) -> None:
        for label, value in (("x", self.x), ("y", self.y), ("facing", self.facing), ("radius", self.radius),
                             ("arc", self.arc)):
            if not math.isfinite(value):
                raise InvalidStatError(f"base {self.name!r}: {label} must be a finite number, got {value}",
                                       field=label)
        if not 0 < self.radius <= 100:
            raise InvalidStatError(f"base {self.name!r}: radius must be in (0, 100] cm, got {self.radius}",
                                   field="radius")
        if not 0 < self.arc <= 360:
            raise InvalidStatError(f"base {self.name!r}: arc must be in (0, 360] degrees, got {self.arc}",
                                   field="arc")

    def shape(self) -> Shape:
        """The base as a shapely polygon (a circle of :data:`QUAD_SEGS` segments a quarter), built once per
        place and size (:func:`_disc`): a search bot's rollouts ask for the same bases thousands of times."""
        return _disc(self.x, self.y, self.radius)

    def moved_to(self, x: float, y: float, facing: float | None = None) -> Base:
        return Base(x, y, self.radius, self.facing if facing is None else facing, self.arc, self.name)


@functools.lru_cache(maxsize=4096)
def _disc(x: float, y: float, radius: float) -> Shape:
    """A base's polygon; shapely 2 geometries are immutable, so one object may be shared by every caller."""
    from shapely.geometry import Point  # type: ignore[import-untyped]

    disc: Shape = Point(x, y).buffer(radius, quad_segs=QUAD_SEGS)
    return disc


@dataclass(frozen=True, slots=True)
class Obstacle:
    """An obstacle seen from above: a polygon of (x, y) corners in cm that blocks sight and movement."""

    corners: tuple[tuple[float, float], ...]
    name: str = ""

    def __post_init__(self) -> None:
        if len(self.corners) < 3 or not all(math.isfinite(c) for xy in self.corners for c in xy):
            raise InvalidStatError(f"obstacle {self.name!r}: needs at least three finite corners", field="corners")

    def shape(self) -> Shape:
        """The obstacle's polygon, checked; a valid one is built once per set of corners (lines of sight and
        charges ask for every obstacle again and again; shapely 2 geometries are immutable)."""
        known = _OBSTACLES.get(self.corners)
        if known is not None:
            return known
        from shapely.geometry import Polygon

        poly: Shape = Polygon(self.corners)
        if not poly.is_valid or poly.area <= 0:
            raise InvalidStatError(f"obstacle {self.name!r}: its corners do not make a simple polygon",
                                   field="corners")
        if len(_OBSTACLES) >= 4096:
            _OBSTACLES.clear()
        _OBSTACLES[self.corners] = poly
        return poly


#: Valid obstacle polygons by their corners (:meth:`Obstacle.shape`).
_OBSTACLES: dict[tuple[tuple[float, float], ...], Shape] = {}


def edge_distance(a: Base, b: Base) -> float:
    """Base edge to base edge, in cm (0 when they touch or overlap)."""
    from shapely.geometry import Point

    return max(0.0, float(Point(a.x, a.y).distance(Point(b.x, b.y))) - a.radius - b.radius)


def engaged(a: Base, b: Base, tolerance: float = CONTACT) -> bool:
    """Whether the two bases are in contact (within ``tolerance`` cm)."""
    return edge_distance(a, b) <= tolerance


def front_arc(viewer: Base, reach: float) -> Shape:
    """The viewer's front arc out to ``reach`` cm from his centre, as a shapely polygon."""
    from shapely.geometry import Point, Polygon

    arc: Shape
    if viewer.arc >= 360:
        arc = Point(viewer.x, viewer.y).buffer(reach, quad_segs=QUAD_SEGS)
        return arc
    steps = max(2, math.ceil(viewer.arc / 5))
    half = viewer.arc / 2
    corners = [(viewer.x, viewer.y)]
    for i in range(steps + 1):
        angle = math.radians(viewer.facing - half + viewer.arc * i / steps)
        corners.append((viewer.x + reach * math.cos(angle), viewer.y + reach * math.sin(angle)))
    arc = Polygon(corners)
    return arc


def in_front_arc(viewer: Base, target: Base) -> bool:
    """Whether any part of ``target``'s base is in ``viewer``'s front arc."""
    reach = math.hypot(target.x - viewer.x, target.y - viewer.y) + target.radius + 1.0
    arc = front_arc(viewer, reach)
    return bool(arc.intersects(target.shape()) and arc.intersection(target.shape()).area > 1e-9)


def _sight_points(target: Base) -> list[tuple[float, float]]:
    pts = [(target.x, target.y)]
    for i in range(SIGHT_POINTS):
        angle = 2 * math.pi * i / SIGHT_POINTS
        edge = target.radius * (1 - 1e-6)
        pts.append((target.x + edge * math.cos(angle), target.y + edge * math.sin(angle)))
    return pts


def _blockers(obstacles: Iterable[Obstacle], others: Iterable[Base]) -> list[Shape]:
    return [o.shape() for o in obstacles] + [b.shape() for b in others]


def line_of_sight(viewer: Base, target: Base, obstacles: Sequence[Obstacle] = (),
                  others: Sequence[Base] = (), need_arc: bool = True) -> bool:
    """Whether ``viewer`` sees ``target``: in his front arc (unless ``need_arc`` is off) and a straight line
    from his centre reaches some point of the target's base without entering an obstacle or another base."""
    from shapely.geometry import LineString

    if need_arc and not in_front_arc(viewer, target):
        return False
    blockers = _blockers(obstacles, others)
    for point in _sight_points(target):
        line = LineString([(viewer.x, viewer.y), point])
        if not any(_enters(line, b) for b in blockers):
            return True
    return False


def _enters(line: Shape, shape: Shape) -> bool:
    """Whether a line passes through the inside of a shape (grazing its edge does not block)."""
    return bool(line.intersection(shape).length > 1e-9)


@dataclass(frozen=True, slots=True)
class ChargeReach:
    """What a charge needs: the distance to contact, the end position, and whether it can be made."""

    distance: float
    end: Base
    possible: bool
    reason: str


def contact_position(charger: Base, target: Base) -> Base:
    """Where the charger stands once moved straight at the target into base contact, facing it."""
    dx, dy = charger.x - target.x, charger.y - target.y
    length = math.hypot(dx, dy)
    if length == 0:
        raise InvalidStatError("the two bases share a centre: no direction to charge in", field="position")
    touch = charger.radius + target.radius
    x, y = target.x + dx / length * touch, target.y + dy / length * touch
    facing = math.degrees(math.atan2(-dy, -dx))
    return charger.moved_to(x, y, facing)


def charge_reach(charger: Base, target: Base, movement: float, obstacles: Sequence[Obstacle] = (),
                 others: Sequence[Base] = (), sight: Sequence[Obstacle] | None = None) -> ChargeReach:
    """Whether ``charger`` can charge ``target`` with ``movement`` cm: he must see it (front arc and line of
    sight past ``sight``, the ``obstacles`` when not given: a low wall stops a charge but not the eye), reach base
    contact within his movement, and sweep his base along the way without entering an obstacle or another base."""
    from shapely.geometry import LineString

    if not math.isfinite(movement) or movement < 0:
        raise InvalidStatError(f"movement must be a finite number of cm >= 0, got {movement}", field="movement")
    end = contact_position(charger, target)
    distance = math.hypot(end.x - charger.x, end.y - charger.y)
    if not line_of_sight(charger, target, obstacles if sight is None else sight, others):
        return ChargeReach(distance, end, False, "the target is not in sight (front arc and line of sight)")
    if distance > movement + 1e-9:
        return ChargeReach(distance, end, False, f"contact is {distance:.1f} cm away, beyond {movement:g} cm")
    path = LineString([(charger.x, charger.y), (end.x, end.y)]).buffer(charger.radius, quad_segs=QUAD_SEGS) \
        if distance > 0 else charger.shape()
    for blocker in _blockers(obstacles, others):
        if path.intersection(blocker).area > 1e-6:
            return ChargeReach(distance, end, False, "the path is blocked")
    return ChargeReach(distance, end, True, "in reach")


def length_inside(points: Sequence[tuple[float, float]], areas: Sequence[Obstacle]) -> float:
    """How many cm of the way through ``points`` (a polyline of centres) lie inside any of ``areas`` (overlapping
    areas counted once): what a ruleset charges extra for slow ground."""
    from shapely.geometry import LineString
    from shapely.ops import unary_union  # type: ignore[import-untyped]

    if not areas or len(points) < 2 or all(p == points[0] for p in points):
        return 0.0
    line = LineString(points)
    return float(line.intersection(unary_union([a.shape() for a in areas])).length)
