"""A charge's way around the bases and the scenery in its way (issue 24, point 9): the shortest path of the
charger's centre to any point of base contact with his target.

A charge on an open table is a run at the target (docs/rules/confrontation.md, "Skirmishes"); a charger does not
run through his friends, so where the straight line is blocked he goes around: his base may pass no other base and
no obstacle (grazing is allowed, as for a walk), stay on the table, and end in contact with his target and with no
other base. The path is found on a visibility graph: the start, points around each blocker (a polygon
circumscribing the blocker grown by the charger's radius, so that every edge between neighbours is clear) and the
points of contact around the target; Dijkstra's shortest way, pruned by the distance he may run. The geometry is
plain arithmetic for round bases and shapely's distance for obstacles.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from rulekeeper.boards.table import CONTACT, Obstacle

#: Points around each round blocker and each obstacle corner, and points of contact around the target.
AROUND = 16
CONTACTS = 48
#: How much clear of a blocker the graph's points stand (cm), against rounding.
CLEARANCE = 0.01
#: How much farther than needed a bounding box must be for its obstacle to be clear without shapely's exact
#: distance (cm): far above the rounding of either measure, so the answer is shapely's own.
SURE = 1e-7

Point = tuple[float, float]
Circle = tuple[float, float, float]
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Route:
    """The way a charger runs: its length (cm) and its points, from his centre to his centre in contact."""

    length: float
    points: tuple[Point, ...]

    @property
    def end(self) -> Point:
        return self.points[-1]


def _gap(a: Point, b: Point, box: Box) -> float:
    """How far the bounding box of the segment ``a``-``b`` is from ``box``: never more than how far the segment is
    from anything inside ``box`` (so a gap of at least the charger's radius, less :data:`SURE`, clears it)."""
    dx = max(box[0] - max(a[0], b[0]), 0.0, min(a[0], b[0]) - box[2])
    dy = max(box[1] - max(a[1], b[1]), 0.0, min(a[1], b[1]) - box[3])
    return math.hypot(dx, dy)


def _boxes_within(low_x: float, low_y: float, high_x: float, high_y: float, box: Box, reach: float) -> bool:
    """Whether the box ``low``-``high`` is nearer than ``reach`` to ``box``: :func:`_gap` ``< reach``, on the
    segment's box already found (the charge search asks this of every leg it tries)."""
    dx = max(box[0] - high_x, 0.0, low_x - box[2])
    if dx >= reach:
        return False
    dy = max(box[1] - high_y, 0.0, low_y - box[3])
    return dy < reach and math.hypot(dx, dy) < reach


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    u = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(ax + u * dx - p[0], ay + u * dy - p[1])


@dataclass(frozen=True)
class _Field:
    """The table as the charger's centre sees it: round blockers grown by his radius, obstacles, the edges."""

    radius: float
    circles: tuple[Circle, ...]
    obstacles: tuple[Any, ...]
    width: float
    height: float
    #: each obstacle's bounding box (min x, min y, max x, max y): what is farther from it than the charger's
    #: radius is clear of it without asking shapely (issue 28: most of a route's cost)
    boxes: tuple[Box, ...] = ()

    def free(self, p: Point, apart: float = 0.0) -> bool:
        r = self.radius
        px, py = p
        if not (r - 1e-9 <= px <= self.width - r + 1e-9 and r - 1e-9 <= py <= self.height - r + 1e-9):
            return False
        for x, y, rr in self.circles:
            reach = rr + r + apart - 1e-9
            # the box test first: most bases are far from the point, and it costs no call
            if abs(px - x) < reach and abs(py - y) < reach and math.hypot(px - x, py - y) < reach:
                return False
        near = [o for o, box in zip(self.obstacles, self.boxes, strict=True) if _gap(p, p, box) < r - 1e-6 + SURE]
        if not near:
            return True
        from shapely.geometry import Point as ShapelyPoint  # type: ignore[import-untyped]

        return all(o.distance(ShapelyPoint(p)) >= r - 1e-6 for o in near)

    def clear(self, a: Point, b: Point) -> bool:
        r = self.radius
        low_x, high_x = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
        low_y, high_y = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
        for x, y, rr in self.circles:
            reach = rr + r - 1e-6
            # a base farther than its reach from the segment's bounding box is farther from the segment
            if low_x - reach < x < high_x + reach and low_y - reach < y < high_y + reach and \
                    _segment_distance((x, y), a, b) < reach:
                return False
        if a == b or not self.obstacles:
            return True
        near = [o for o, box in zip(self.obstacles, self.boxes, strict=True)
                if _boxes_within(low_x, low_y, high_x, high_y, box, r - 1e-6 + SURE)]
        if not near:
            return True
        from shapely.geometry import LineString

        line = LineString([a, b])
        return all(o.distance(line) >= r - 1e-6 for o in near)

    def around(self, reachable: Callable[[Point], bool]) -> list[Point]:
        """The graph's points around the blockers: free ones the charger may reach (``reachable``, tested first:
        it is cheaper, and most points around a crowded table are out of reach)."""
        grow = 1 / math.cos(math.pi / AROUND)
        centres = [(x, y, (rr + self.radius + CLEARANCE) * grow) for x, y, rr in self.circles]
        for o in self.obstacles:
            centres += [(cx, cy, (self.radius + CLEARANCE) * grow) for cx, cy in list(o.exterior.coords)[:-1]]
        out = []
        for x, y, d in centres:
            for k in range(AROUND):
                angle = 2 * math.pi * (k + 0.5) / AROUND
                out.append((x + d * math.cos(angle), y + d * math.sin(angle)))
        return [p for p in out if reachable(p) and self.free(p)]


def charge_route(start: Point, radius: float, target: Circle, movement: float, circles: Sequence[Circle],
                 obstacles: Sequence[Obstacle], table: tuple[float, float]) -> Route | None:
    """The shortest way of a charger of ``radius`` at ``start`` into contact with ``target`` within ``movement``
    cm, around ``circles`` (other bases: centre and radius) and ``obstacles``; ``None`` if there is none.

    The bases too far from the way to matter are left out (:func:`_within`), so that a route once found is found
    again (remembered) when only a fighter far from it has moved: the search bot's simulations (issue 28)."""
    near = tuple(c for c in circles if _within(start, radius, target, movement, c))
    return _route(start, radius, target, movement, near, tuple(tuple(o.corners) for o in obstacles), table)


def _within(start: Point, radius: float, target: Circle, movement: float, circle: Circle) -> bool:
    """Whether ``circle`` may change the route: every point the search uses lies in the convex region where
    ``|p - start| + max(0, |p - target| - touch) <= movement`` (a graph point outside it is pruned, a goal outside
    it is never reached, a straight leg between two of its points stays in it); that sum grows by at most 2 per cm,
    so a base whose centre's sum exceeds ``movement`` by more than twice :func:`_sway` is farther than its sway
    from the region: it blocks none of its points and legs, and its own graph points lie outside it."""
    tx, ty, tr = target
    x, y, _ = circle
    spent = math.hypot(x - start[0], y - start[1]) + max(0.0, math.hypot(x - tx, y - ty) - (tr + radius))
    return spent <= movement + 2 * _sway(radius, circle)


def _sway(radius: float, circle: Circle) -> float:
    """How far from a base's centre it acts on the charger's centre (cm), with room to spare: its graph points
    stand (its radius + his + :data:`CLEARANCE`) / cos(pi / :data:`AROUND`) away, and a goal must be
    :data:`~rulekeeper.boards.table.CONTACT` clear of it."""
    return 1.05 * (circle[2] + radius) + 0.05


@lru_cache(maxsize=2048)
def _route(start: Point, radius: float, target: Circle, movement: float, circles: tuple[Circle, ...],
           corners: tuple[tuple[Point, ...], ...], table: tuple[float, float]) -> Route | None:
    from shapely.geometry import Polygon

    shapes = tuple(Polygon(c) for c in corners)
    boxes = tuple((min(x for x, _ in c), min(y for _, y in c), max(x for x, _ in c), max(y for _, y in c))
                  for c in corners)
    field = _Field(radius, (*circles, target), shapes, *table, boxes)
    others = _Field(radius, circles, shapes, *table, boxes)
    tx, ty, tr = target
    touch = tr + radius
    ring = [(tx + touch * math.cos(2 * math.pi * k / CONTACTS), ty + touch * math.sin(2 * math.pi * k / CONTACTS))
            for k in range(CONTACTS)]
    goals = {p for p in ring if others.free(p, CONTACT + 1e-6)}
    if not goals:
        return None

    def to_goal(p: Point) -> float:
        return max(0.0, math.hypot(p[0] - tx, p[1] - ty) - touch)

    nodes = field.around(lambda p: math.hypot(p[0] - start[0], p[1] - start[1]) + to_goal(p) <= movement)
    nodes += sorted(goals)
    best: dict[Point, float] = {start: 0.0}
    came: dict[Point, Point] = {}
    queue: list[tuple[float, float, Point]] = [(to_goal(start), 0.0, start)]
    while queue:
        _, dist, p = heapq.heappop(queue)
        if dist > best.get(p, math.inf) + 1e-12:
            continue
        if p in goals:
            points = [p]
            while points[-1] in came:
                points.append(came[points[-1]])
            return Route(dist, tuple(reversed(points)))
        for q in nodes:
            step = dist + math.hypot(q[0] - p[0], q[1] - p[1])
            if step + to_goal(q) > movement + 1e-9 or step >= best.get(q, math.inf) or not field.clear(p, q):
                continue
            best[q], came[q] = step, p
            heapq.heappush(queue, (step + to_goal(q), step, q))
    return None
