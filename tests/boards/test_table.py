"""The continuous table: distances edge to edge, contact, front arcs, line of sight, charges (property tests)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.boards.table import (
    CONTACT,
    Base,
    Obstacle,
    charge_reach,
    contact_position,
    edge_distance,
    engaged,
    in_front_arc,
    line_of_sight,
)
from rulekeeper.core.errors import InvalidStatError

coords = st.floats(-60, 60, allow_nan=False, allow_infinity=False)
radii = st.sampled_from([1.25, 1.5, 2.0, 2.5, 3.0])
facings = st.floats(-360, 360, allow_nan=False, allow_infinity=False)
bases = st.builds(Base, coords, coords, radii, facings)


def test_distances_are_edge_to_edge_in_cm() -> None:
    a, b = Base(0, 0, 1.5), Base(10, 0, 2.5)
    assert edge_distance(a, b) == pytest.approx(6.0)
    assert edge_distance(a, Base(3, 4, 1)) == pytest.approx(2.5)
    assert engaged(a, Base(4, 0, 2.5)) and not engaged(a, Base(4.1, 0, 2.5))


@settings(deadline=None)
@given(bases, bases)
def test_distance_is_symmetric_and_contact_is_distance_zero(a: Base, b: Base) -> None:
    d = edge_distance(a, b)
    assert d == pytest.approx(edge_distance(b, a)) and d >= 0
    assert engaged(a, b) == (d <= CONTACT)
    centre = math.hypot(a.x - b.x, a.y - b.y)
    assert d == pytest.approx(max(0.0, centre - a.radius - b.radius), abs=1e-9)


def test_front_arc_half_circle_and_all_round() -> None:
    viewer = Base(0, 0, 1.5, facing=0)
    assert in_front_arc(viewer, Base(10, 0)) and in_front_arc(viewer, Base(0, 10))  # ahead; beside (half in)
    assert not in_front_arc(viewer, Base(-10, 0))
    assert in_front_arc(Base(0, 0, 1.5, facing=0, arc=360), Base(-10, 0))
    assert not in_front_arc(Base(0, 0, 1.5, facing=0, arc=90), Base(0, 10))


@given(bases, bases)
@settings(max_examples=60, deadline=None)
def test_a_target_ahead_is_in_the_arc_one_behind_is_not(viewer: Base, target: Base) -> None:
    centre = math.hypot(target.x - viewer.x, target.y - viewer.y)
    if centre < viewer.radius + target.radius + 0.5:
        return
    bearing = math.degrees(math.atan2(target.y - viewer.y, target.x - viewer.x))
    assert in_front_arc(viewer.moved_to(viewer.x, viewer.y, bearing), target)
    assert not in_front_arc(viewer.moved_to(viewer.x, viewer.y, bearing + 180), target)  # wholly behind him
    assert line_of_sight(viewer.moved_to(viewer.x, viewer.y, bearing), target)  # an open table


def test_an_obstacle_between_blocks_sight_and_one_aside_does_not() -> None:
    viewer, target = Base(0, 0, 1.5), Base(20, 0, 1.5)
    wall = Obstacle(((9, -10), (11, -10), (11, 10), (9, 10)), "wall")
    assert not line_of_sight(viewer, target, [wall])
    short = Obstacle(((9, -0.5), (11, -0.5), (11, 0.5), (9, 0.5)), "post")  # hides the centre, not the edges
    assert line_of_sight(viewer, target, [short])
    aside = Obstacle(((9, 5), (11, 5), (11, 10), (9, 10)), "rock")
    assert line_of_sight(viewer, target, [aside])
    assert not line_of_sight(viewer, target, others=[Base(10, 0, 12)])  # a huge base between


@given(bases, bases, st.floats(0, 40, allow_nan=False))
@settings(max_examples=60, deadline=None)
def test_a_charge_ends_in_contact_after_exactly_the_edge_distance(charger: Base, target: Base, mov: float) -> None:
    if math.hypot(charger.x - target.x, charger.y - target.y) == 0:
        return
    end = contact_position(charger, target)
    assert engaged(end, target) and edge_distance(end, target) == pytest.approx(0, abs=1e-6)
    moved = math.hypot(end.x - charger.x, end.y - charger.y)
    if edge_distance(charger, target) > 0:
        assert moved == pytest.approx(edge_distance(charger, target), abs=1e-6)
    bearing = math.degrees(math.atan2(target.y - charger.y, target.x - charger.x))
    facing_charger = charger.moved_to(charger.x, charger.y, bearing)
    reach = charge_reach(facing_charger, target, mov)
    assert reach.possible == (moved <= mov + 1e-9), reach.reason
    assert in_front_arc(reach.end, target)  # he ends facing the target


def test_a_charge_needs_sight_reach_and_a_clear_path() -> None:
    charger, target = Base(0, 0, 1.5), Base(20, 0, 1.5)
    assert charge_reach(charger, target, 17).possible and charge_reach(charger, target, 17).distance == 17
    assert "beyond 16 cm" in charge_reach(charger, target, 16).reason
    assert "not in sight" in charge_reach(charger.moved_to(0, 0, 180), target, 30).reason
    post = Obstacle(((9, -0.5), (11, -0.5), (11, 0.5), (9, 0.5)), "post")
    blocked = charge_reach(charger, target, 30, [post])
    assert not blocked.possible and blocked.reason == "the path is blocked"


def test_bad_geometry_is_a_typed_error() -> None:
    with pytest.raises(InvalidStatError, match="radius"):
        Base(0, 0, -1)
    with pytest.raises(InvalidStatError, match="finite"):
        Base(float("nan"), 0)
    with pytest.raises(InvalidStatError, match="arc"):
        Base(0, 0, arc=0)
    with pytest.raises(InvalidStatError, match="simple polygon"):
        line_of_sight(Base(0, 0), Base(5, 0), [Obstacle(((0, 0), (2, 2), (2, 0), (0, 2)), "bow tie")])
    with pytest.raises(InvalidStatError, match="share a centre"):
        contact_position(Base(0, 0), Base(0, 0))
    with pytest.raises(InvalidStatError, match="movement"):
        charge_reach(Base(0, 0), Base(5, 0), -1)
