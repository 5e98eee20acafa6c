"""Hex edges, segments between arbitrary points, multi-hex footprints (boards/hexedges.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.boards.hexedges import (
    Edge,
    EdgeFeature,
    EdgeMap,
    Footprint,
    adjacent_to,
    crossed_edges,
    crosses_edge,
    edge_of,
    horseman_footprint,
    pixel_to_hex,
    segment_hexes,
    walls_cross,
)
from rulekeeper.boards.hexes import Hex, hex_centre, hex_distance, hex_line, hex_lines, hex_neighbours
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

coords = st.integers(-12, 12)
hexes = st.builds(Hex, coords, coords)
WALL = EdgeFeature("wall")


def test_an_edge_is_the_same_whichever_side_names_it() -> None:
    a, b = Hex(0, 0), Hex(1, 0)
    assert Edge.between(a, b) == Edge.between(b, a)
    assert Edge.between(a, b).other(a) == b
    with pytest.raises(InvalidStatError, match="not adjacent"):
        Edge.between(a, Hex(2, 0))


def test_an_edge_lies_between_its_two_hexes() -> None:
    e = Edge.between(Hex(0, 0), Hex(1, 0))
    (x1, y1), (x2, y2) = e.ends()
    assert math.isclose(x1, math.sqrt(3) / 2) and math.isclose(x2, math.sqrt(3) / 2)
    assert math.isclose(abs(y1 - y2), 1.0)  # a side is as long as the corner radius
    assert e.midpoint() == pytest.approx((math.sqrt(3) / 2, 0.0))


@settings(deadline=None)
@given(hexes)
def test_pixel_to_hex_inverts_hex_centre(h: Hex) -> None:
    assert pixel_to_hex(hex_centre(h)) == h


@settings(max_examples=150, deadline=None)
@given(hexes, hexes)
def test_a_centre_line_crosses_the_hexes_of_hex_line(a: Hex, b: Hex) -> None:
    # hex_line samples distance + 1 points of the segment: every hex it names is crossed; the exact segment
    # may also clip the corner of a hex between two of them (what "crosses a hex" means on the table)
    crossed = [h for h, _ in segment_hexes(hex_centre(a), hex_centre(b))]
    plus, minus = hex_lines(a, b)
    assert set(crossed) >= set(plus) & set(minus)
    assert crossed[0] == a and crossed[-1] == b
    if plus == minus:  # not along edges: a chain of neighbours from a to b
        assert all(hex_distance(x, y) == 1 for x, y in zip(crossed, crossed[1:], strict=False))


def test_a_line_along_an_edge_is_inside_both_hexes() -> None:
    crossed = [h for h, _ in segment_hexes(hex_centre(Hex(0, 0)), hex_centre(Hex(1, 1)))]
    assert crossed == [Hex(0, 0), Hex(0, 1), Hex(1, 0), Hex(1, 1)] or set(crossed) == {
        Hex(0, 0), Hex(0, 1), Hex(1, 0), Hex(1, 1)}


def test_a_line_crosses_the_wall_between_two_hexes_of_its_path() -> None:
    a, b = Hex(0, 0), Hex(3, 0)
    walls = EdgeMap({Edge.between(Hex(1, 0), Hex(2, 0)): WALL})
    assert walls_cross(hex_centre(a), hex_centre(b), walls) == [Edge.between(Hex(1, 0), Hex(2, 0))]
    # a wall beside the path is not crossed
    aside = EdgeMap({Edge.between(Hex(1, 0), Hex(1, 1)): WALL})
    assert walls_cross(hex_centre(a), hex_centre(b), aside) == []


def test_a_line_along_a_wall_crosses_it_and_one_touching_its_end_does_not() -> None:
    along = Edge.between(Hex(1, 0), Hex(0, 1))  # the line (0,0)-(1,1) runs along this edge
    assert crosses_edge(hex_centre(Hex(0, 0)), hex_centre(Hex(1, 1)), along)
    end = Edge.between(Hex(0, 0), Hex(1, 0))  # the same line only touches a corner of this one
    assert not crosses_edge(hex_centre(Hex(0, 0)), hex_centre(Hex(1, 1)), end)


def test_a_segment_from_an_edge_midpoint() -> None:
    window = Edge.between(Hex(0, 0), Hex(1, 0))
    crossed = [h for h, _ in segment_hexes(window.midpoint(), hex_centre(Hex(4, 0)))]
    assert Hex(0, 0) not in crossed and crossed[0] == Hex(1, 0)
    assert crossed_edges(window.midpoint(), hex_centre(Hex(4, 0)), EdgeMap({window: EdgeFeature("window")})) == []


def test_footprints_turn_with_their_facing() -> None:
    rider = horseman_footprint(Hex(0, 0), 0)
    assert rider.hexes() == [Hex(0, 0), Hex(-1, 0)]
    assert rider.turned(3).hexes() == [Hex(0, 0), Hex(1, 0)]
    cross = Footprint(Hex(0, 0), 1, ((0,), (1,), (3,), (4,)))
    assert len(set(cross.hexes())) == 5 and all(hex_distance(Hex(0, 0), h) <= 1 for h in cross.hexes())
    assert len(adjacent_to(rider.hexes())) == 8  # "the eight hexes around a horseman"
    assert rider.moved(Hex(2, 2)).hexes()[0] == Hex(2, 2)
    with pytest.raises(InvalidStatError):
        Footprint(Hex(0, 0), 7)
    with pytest.raises(InvalidStatError):
        Footprint(Hex(0, 0), 0, ((0, 3),))  # back onto the anchor


def test_edge_features_around_a_hex() -> None:
    e = edge_of(Hex(0, 0), 0)
    m = EdgeMap().with_features({e: WALL})
    assert m.at(Hex(1, 0), Hex(0, 0)) == WALL and m.around(Hex(0, 0)) == {Hex(1, 0): WALL}
    assert set(hex_neighbours(Hex(0, 0))) >= set(m.around(Hex(0, 0)))
    with pytest.raises(ImpossibleRequestError):
        edge_of(Hex(0, 0), 6)


def test_bad_segments_are_typed_errors() -> None:
    with pytest.raises(InvalidStatError):
        segment_hexes((0.0, float("nan")), (1.0, 1.0))


@settings(max_examples=100, deadline=None)
@given(hexes, hexes, st.integers(0, 60))
def test_walls_always_block_a_line_that_steps_across_them(a: Hex, b: Hex, pick: int) -> None:
    plus, minus = hex_lines(a, b)
    line = [h for h, _ in segment_hexes(hex_centre(a), hex_centre(b))]
    if len(line) < 2 or plus != minus:  # along edges the line steps between hexes; covered below
        return
    i = pick % (len(line) - 1)
    wall = Edge.between(line[i], line[i + 1])
    if passes_an_end(hex_centre(a), hex_centre(b), wall):
        return  # through a corner the wall ends at: the line grazes its end (blocked only if both sides are)
    assert walls_cross(hex_centre(a), hex_centre(b), EdgeMap({wall: WALL})) == [wall]


def passes_an_end(p: tuple[float, float], q: tuple[float, float], edge: Edge) -> bool:
    """Whether the segment goes through one of the edge's two corners."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    return any(abs((e[0] - p[0]) * dy - (e[1] - p[1]) * dx) / math.hypot(dx, dy) < 1e-9 for e in edge.ends())


def test_a_line_through_the_corner_where_two_walls_meet_is_blocked() -> None:
    # (0,0)-(2,8) runs exactly through corners; one wall ending there is grazed, two walls closing the corner block
    a, b = hex_centre(Hex(0, 0)), hex_centre(Hex(2, 8))
    one = Edge.between(Hex(0, 1), Hex(0, 2))
    assert passes_an_end(a, b, one) and walls_cross(a, b, EdgeMap({one: WALL})) == []
    corner = [e for e in (Edge.between(Hex(0, 1), n) for n in hex_neighbours(Hex(0, 1)))
              if passes_an_end(a, b, e) and e != one]
    closed = EdgeMap({one: WALL, **{e: WALL for e in corner}})
    assert walls_cross(a, b, closed)


def test_sampled_hex_line_and_the_exact_segment_can_differ_at_corners() -> None:
    # the segment (0,0)-(1,6) clips corners hex_line's eight samples step over
    crossed = [h for h, _ in segment_hexes(hex_centre(Hex(0, 0)), hex_centre(Hex(1, 6)))]
    assert len(crossed) > len(hex_line(Hex(0, 0), Hex(1, 6))) == 8
