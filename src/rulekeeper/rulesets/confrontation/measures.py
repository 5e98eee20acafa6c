"""The table's measures a skirmish takes again and again, remembered: charge reaches, lines of sight, the ground a
way crosses, whether a walk's way is clear.

Why (issue 28, profiled): the search bot's simulations replay the same few positions from the same world dozens of
times a decision, and every activation measures every fighter's charges, shots and walks with shapely (~1 ms
each): along 60 simulations of one decision a charge reach was asked ~1,200 times for ~60 different bases, a
walk's way ~1,000 times for ~70. Each function here is a pure function of frozen geometry (bases, obstacles,
points) to a frozen answer, so an answer remembered is the answer measured: a battle replays byte for byte.

The keys are the values themselves (:class:`~rulekeeper.boards.table.Base` and
:class:`~rulekeeper.boards.table.Obstacle` are frozen and hashable); sequences are frozen into tuples. Each cache
is bounded (least recently used out), so a long-lived keeper does not grow.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from rulekeeper.boards import table
from rulekeeper.boards.table import Base, ChargeReach, Obstacle

#: Answers kept per measure (a decision of the search bot asks for a few hundred different ones).
KEPT = 8192


def charge_reach(charger: Base, target: Base, movement: float, obstacles: Sequence[Obstacle] = (),
                 others: Sequence[Base] = (), sight: Sequence[Obstacle] | None = None) -> ChargeReach:
    """:func:`rulekeeper.boards.table.charge_reach`, remembered."""
    return _charge_reach(charger, target, movement, tuple(obstacles), tuple(others),
                         None if sight is None else tuple(sight))


@functools.lru_cache(maxsize=KEPT, typed=True)
def _charge_reach(charger: Base, target: Base, movement: float, obstacles: tuple[Obstacle, ...],
                  others: tuple[Base, ...], sight: tuple[Obstacle, ...] | None) -> ChargeReach:
    return table.charge_reach(charger, target, movement, obstacles, others, sight)


def line_of_sight(viewer: Base, target: Base, obstacles: Sequence[Obstacle] = (), others: Sequence[Base] = ()) -> bool:
    """:func:`rulekeeper.boards.table.line_of_sight` (front arc included), remembered."""
    return _line_of_sight(viewer, target, tuple(obstacles), tuple(others))


@functools.lru_cache(maxsize=KEPT)
def _line_of_sight(viewer: Base, target: Base, obstacles: tuple[Obstacle, ...], others: tuple[Base, ...]) -> bool:
    return table.line_of_sight(viewer, target, obstacles, others)


def length_inside(points: Sequence[tuple[float, float]], areas: Sequence[Obstacle]) -> float:
    """:func:`rulekeeper.boards.table.length_inside`, remembered."""
    return _length_inside(tuple(points), tuple(areas))


@functools.lru_cache(maxsize=KEPT, typed=True)
def _length_inside(points: tuple[tuple[float, float], ...], areas: tuple[Obstacle, ...]) -> float:
    return table.length_inside(points, areas)


def way_problem(start: Base, x: float, y: float, through: bool, walls: Sequence[Obstacle],
                others: Sequence[Base]) -> str | None:
    """Why a base at ``start`` cannot walk straight to (x, y) past ``walls`` and the ``others`` (the other standing
    fighters' bases, each named by its fighter), or None: its swept way enters no wall and no other base (unless it
    passes ``through``, Ethereal), it ends in no wall, out of contact with every other base
    (:func:`~.skirmish.move_problem`'s geometry, remembered)."""
    return _way_problem(start.x, start.y, start.radius, x, y, through, tuple(walls), tuple(others))


@functools.lru_cache(maxsize=KEPT, typed=True)
def _way_problem(x0: float, y0: float, radius: float, x: float, y: float, through: bool,
                 walls: tuple[Obstacle, ...], others: tuple[Base, ...]) -> str | None:
    from shapely.geometry import LineString, Point  # type: ignore[import-untyped]

    path = (LineString([(x0, y0), (x, y)]) if (x, y) != (x0, y0) else Point(x0, y0)).buffer(
        radius, quad_segs=table.QUAD_SEGS)
    end = Base(x, y, radius).shape()
    for o in walls:
        if not through and path.intersection(o.shape()).area > 1e-6:
            return f"the way crosses {o.name or 'an obstacle'}"
        if end.intersection(o.shape()).area > 1e-6:
            return f"it ends in {o.name or 'an obstacle'} (an Ethereal fighter \"cannot stop 'in' an obstacle\")"
    for g in others:
        if not through and path.intersection(g.shape()).area > 1e-6:
            return f"the way crosses {g.name}'s base"
        if table.edge_distance(Base(x, y, radius), g) <= table.CONTACT:
            return f"it ends in contact with {g.name} (contact is made by a charge)"
    return None


def edge_distance(a: Base, b: Base) -> float:
    """:func:`rulekeeper.boards.table.edge_distance` (base edge to base edge), remembered by place and size."""
    return _edge_distance(a.x, a.y, a.radius, b.x, b.y, b.radius)


@functools.lru_cache(maxsize=KEPT, typed=True)
def _edge_distance(ax: float, ay: float, ar: float, bx: float, by: float, br: float) -> float:
    return table.edge_distance(Base(ax, ay, ar), Base(bx, by, br))
