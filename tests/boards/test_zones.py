"""ZoneGrid: Ex illis zone geometry (names, adjacency, fight directions, shot trajectories, edges)."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.boards import DIRECTIONS, ZoneGrid
from rulekeeper.boards.zones import Coord
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError

BOARD = ZoneGrid(5, 4)  # the standard Ex illis board
BIG = ZoneGrid(9, 9)


@st.composite
def two_zones(draw: st.DrawFn, grid: ZoneGrid = BIG) -> tuple[Coord, Coord]:
    cols = st.integers(0, grid.width - 1)
    rows = st.integers(0, grid.height - 1)
    return (draw(cols), draw(rows)), (draw(cols), draw(rows))


def oracle_crossed(frm: Coord, to: Coord) -> dict[Coord, Fraction]:
    """Independent exact oracle: cut the segment at every grid line it crosses, give each piece to its zone."""
    x0, y0 = Fraction(2 * frm[0] + 1, 2), Fraction(2 * frm[1] + 1, 2)
    dx, dy = to[0] - frm[0], to[1] - frm[1]
    major = max(abs(dx), abs(dy))
    cuts = {Fraction(0), Fraction(1)}
    for start, delta in ((x0, dx), (y0, dy)):
        if delta:
            for k in range(-20, 40):
                t = (k - start) / delta
                if 0 < t < 1:
                    cuts.add(t)
    ts = sorted(cuts)
    out: dict[Coord, Fraction] = {}
    for lo, hi in pairwise(ts):
        mid = (lo + hi) / 2
        x, y = x0 + mid * dx, y0 + mid * dy
        cell = (int(x), int(y))  # the midpoint of a piece is never on a grid line
        out[cell] = out.get(cell, Fraction(0)) + (hi - lo) * major
    out.pop(frm, None)
    out.pop(to, None)
    return out


# ---------------------------------------------------------------- construction


def test_standard_board_has_20_zones_in_row_major_order() -> None:
    zones = BOARD.zones()
    assert len(zones) == 20
    assert zones[:6] == [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (0, 1)]


@pytest.mark.parametrize(("w", "h"), [(0, 4), (5, 0), (27, 4), (-1, -1), (True, 4)])
def test_bad_sizes_are_refused(w: int, h: int) -> None:
    with pytest.raises(InvalidStatError):
        ZoneGrid(w, h)


def test_both_size_problems_reported_at_once() -> None:
    with pytest.raises(InvalidStatError) as err:
        ZoneGrid(0, 0)
    assert len(err.value.details["problems"]) == 2


def test_26_columns_is_the_maximum() -> None:
    g = ZoneGrid(26, 3)
    assert g.name((25, 2)) == "Z3"


def test_dict_round_trip_and_bad_dicts() -> None:
    assert ZoneGrid.from_dict(BOARD.to_dict()) == BOARD
    assert BOARD.to_dict() == {"width": 5, "height": 4}
    with pytest.raises(InvalidStatError) as err:
        ZoneGrid.from_dict({"width": 5, "depth": 4})
    assert err.value.details["problems"] == ["missing key 'height'", "unexpected key 'depth'"]
    with pytest.raises(InvalidStatError):
        ZoneGrid.from_dict({"width": 5, "height": 40.5})


# ----------------------------------------------------------------------- names


def test_a1_and_b3_names() -> None:
    assert BOARD.name((0, 0)) == "A1"
    assert BOARD.name((1, 2)) == "B3"
    assert BOARD.name((4, 3)) == "E4"
    assert BOARD.parse("B3") == (1, 2)
    assert BOARD.parse("b3") == (1, 2)
    assert BOARD.parse(" e4 ") == (4, 3)


@settings(deadline=None)
@given(st.integers(1, 26), st.integers(1, 40), st.data())
def test_names_round_trip(w: int, h: int, data: st.DataObject) -> None:
    g = ZoneGrid(w, h)
    c = (data.draw(st.integers(0, w - 1)), data.draw(st.integers(0, h - 1)))
    assert g.parse(g.name(c)) == c
    assert g.parse(g.name(c).lower()) == c


@pytest.mark.parametrize("text", ["F1", "A5", "A0", "Z9", "e40"])
def test_off_board_names_are_impossible_and_name_the_board(text: str) -> None:
    with pytest.raises(ImpossibleRequestError) as err:
        BOARD.parse(text)
    msg = str(err.value)
    assert text.upper() in msg and "5 × 4" in msg and "E4" in msg


@pytest.mark.parametrize("text", ["", "hello", "BB3", "3B", "B-1", "B3.5"])
def test_malformed_names_are_unknown_with_board_size(text: str) -> None:
    with pytest.raises(UnknownNameError) as err:
        BOARD.parse(text)
    assert "5 × 4" in str(err.value)
    assert err.value.details["width"] == 5 and err.value.details["height"] == 4


def test_malformed_name_suggests_a_close_zone() -> None:
    with pytest.raises(UnknownNameError) as err:
        BOARD.parse("BB3")
    assert "B3" in err.value.suggestions


def test_off_board_coordinates_are_refused_everywhere() -> None:
    with pytest.raises(ImpossibleRequestError):
        BOARD.name((5, 0))
    with pytest.raises(ImpossibleRequestError):
        BOARD.distance((0, 0), (0, -1))
    with pytest.raises(ImpossibleRequestError):
        BOARD.crossed((0, 0), (9, 9))
    assert not BOARD.contains((5, 0)) and BOARD.contains((4, 3))


# ------------------------------------------------------------------- adjacency


def test_eight_neighbours_in_the_middle_in_direction_order() -> None:
    assert BOARD.neighbours((2, 1)) == [(2, 0), (3, 0), (3, 1), (3, 2), (2, 2), (1, 2), (1, 1), (1, 0)]
    for i, n in enumerate(BOARD.neighbours((2, 1))):
        assert BOARD.direction((2, 1), n) == i


def test_three_neighbours_in_a_corner_five_on_an_edge() -> None:
    assert BOARD.neighbours((0, 0)) == [(1, 0), (1, 1), (0, 1)]  # E, SE, S
    assert BOARD.neighbours((4, 3)) == [(4, 2), (3, 3), (3, 2)]  # N, W, NW
    assert len(BOARD.neighbours((2, 0))) == 5
    assert ZoneGrid(1, 1).neighbours((0, 0)) == []


def test_chebyshev_distance() -> None:
    assert BOARD.distance((0, 0), (0, 0)) == 0
    assert BOARD.distance((0, 0), (1, 1)) == 1  # a diagonal step counts one zone
    assert BOARD.distance((0, 0), (2, 1)) == 2
    assert BOARD.distance((0, 0), (4, 3)) == 4
    assert BOARD.distance((4, 0), (0, 3)) == 4


@settings(deadline=None)
@given(two_zones())
def test_distance_equals_fewest_king_steps(pair: tuple[Coord, Coord]) -> None:
    a, b = pair
    frontier, seen, steps = {a}, {a}, 0
    while b not in frontier:
        frontier = {n for z in frontier for n in BIG.neighbours(z)} - seen
        seen |= frontier
        steps += 1
    assert BIG.distance(a, b) == steps == BIG.distance(b, a)


def test_straight_and_diagonal() -> None:
    assert BOARD.is_straight((0, 0), (3, 0)) and BOARD.is_straight((1, 0), (1, 3))
    assert not BOARD.is_straight((0, 0), (0, 0)) and not BOARD.is_straight((0, 0), (1, 1))
    assert BOARD.is_diagonal((0, 0), (2, 2)) and BOARD.is_diagonal((3, 0), (1, 2))
    assert not BOARD.is_diagonal((0, 0), (0, 0)) and not BOARD.is_diagonal((0, 0), (2, 1))


# ---------------------------------------------------------- fight directions


def test_direction_values() -> None:
    c = (2, 2)
    g = BIG
    expected = {
        (2, 0): "N",
        (4, 0): "NE",
        (5, 2): "E",
        (3, 3): "SE",
        (2, 8): "S",
        (0, 4): "SW",
        (0, 2): "W",
        (1, 1): "NW",
    }
    for to, name in expected.items():
        d = g.direction(c, to)
        assert d is not None and DIRECTIONS[d] == name
    assert g.direction(c, c) is None
    assert g.direction(c, (3, 4)) is None  # knight-like: no compass direction
    assert g.direction(c, (5, 3)) is None


def test_turn_values() -> None:
    assert BOARD.turn(0, 0) == 0
    assert BOARD.turn(0, 1) == 45 and BOARD.turn(0, 7) == 45
    assert BOARD.turn(0, 2) == 90 and BOARD.turn(6, 0) == 90
    assert BOARD.turn(1, 4) == 135 and BOARD.turn(7, 2) == 135
    assert BOARD.turn(0, 4) == 180 and BOARD.turn(3, 7) == 180
    for bad in (-1, 8, True):
        with pytest.raises(InvalidStatError):
            BOARD.turn(0, bad)


@settings(deadline=None)
@given(st.integers(0, 7), st.integers(0, 7))
def test_turn_is_symmetric_and_opposite_is_180(d1: int, d2: int) -> None:
    assert BOARD.turn(d1, d2) == BOARD.turn(d2, d1)
    assert BOARD.turn(d1, (d1 + 4) % 8) == 180
    assert BOARD.turn(d1, d2) + BOARD.turn(d2, (d1 + 4) % 8) == 180


def test_step_path() -> None:
    assert BOARD.step_path((0, 0), (3, 0)) == [(1, 0), (2, 0), (3, 0)]
    assert BOARD.step_path((3, 3), (1, 1)) == [(2, 2), (1, 1)]
    assert BOARD.step_path((0, 0), (2, 1)) is None
    assert BOARD.step_path((1, 1), (1, 1)) == []


# ----------------------------------------------------------------- trajectory


def test_crossed_straight_range_2_and_3() -> None:
    assert BOARD.crossed((0, 0), (2, 0)) == [((1, 0), 1.0)]
    assert BOARD.crossed((1, 3), (1, 0)) == [((1, 2), 1.0), ((1, 1), 1.0)]


def test_crossed_range_1_and_own_zone_cross_nothing() -> None:
    assert BOARD.crossed((0, 0), (1, 0)) == []
    assert BOARD.crossed((0, 0), (1, 1)) == []
    assert BOARD.crossed((2, 2), (2, 2)) == []


def test_crossed_pure_diagonal_skips_corner_touched_zones() -> None:
    # (0.5,0.5)->(2.5,2.5) passes exactly through the corners (1,1) and (2,2): B1 and A2 are only touched.
    assert BOARD.crossed((0, 0), (2, 2)) == [((1, 1), 1.0)]
    assert BIG.crossed((0, 0), (3, 3)) == [((1, 1), 1.0), ((2, 2), 1.0)]


def test_crossed_knight_2_1_and_1_2() -> None:
    # (0.5,0.5)->(2.5,1.5): y reaches 1 at x=1.5, the middle of column B: half of B1 then half of B2.
    assert BOARD.crossed((0, 0), (2, 1)) == [((1, 0), 0.5), ((1, 1), 0.5)]
    assert BOARD.crossed((0, 0), (1, 2)) == [((0, 1), 0.5), ((1, 1), 0.5)]


def test_crossed_3_1_passes_a_corner() -> None:
    # (0.5,0.5)->(3.5,1.5): y = 1 exactly at x = 2, a grid corner: B1 fully (x 1..2) then C2 fully (x 2..3).
    assert BOARD.crossed((0, 0), (3, 1)) == [((1, 0), 1.0), ((2, 1), 1.0)]


def test_crossed_3_2_and_4_3_by_hand() -> None:
    # slope 2/3: y=1 at x=1.25, y=2 at x=2.75
    assert BOARD.crossed((0, 0), (3, 2)) == [((1, 0), 0.25), ((1, 1), 0.75), ((2, 1), 0.75), ((2, 2), 0.25)]
    # slope 3/4: y=1 at x=7/6, y=2 at x=2.5, y=3 at x=23/6
    got = BOARD._crossed_exact((0, 0), (4, 3))
    assert got == [
        ((1, 0), Fraction(1, 6)),
        ((1, 1), Fraction(5, 6)),
        ((2, 1), Fraction(1, 2)),
        ((2, 2), Fraction(1, 2)),
        ((3, 2), Fraction(5, 6)),
        ((3, 3), Fraction(1, 6)),
    ]


@settings(deadline=None)
@given(two_zones())
def test_crossed_fractions_sum_to_range_minus_one(pair: tuple[Coord, Coord]) -> None:
    a, b = pair
    total = sum(f for _, f in BIG._crossed_exact(a, b))
    assert total == max(0, BIG.distance(a, b) - 1)
    assert all(0 < f <= 1 for _, f in BIG._crossed_exact(a, b))


@settings(deadline=None)
@given(two_zones())
def test_crossed_is_symmetric(pair: tuple[Coord, Coord]) -> None:
    a, b = pair
    there = BIG.crossed(a, b)
    back = BIG.crossed(b, a)
    assert back == there[::-1]  # same zones, same fractions, walked the other way


@settings(deadline=None)
@given(two_zones())
def test_crossed_matches_independent_oracle(pair: tuple[Coord, Coord]) -> None:
    a, b = pair
    assert dict(BIG._crossed_exact(a, b)) == oracle_crossed(a, b)
    assert [c for c, _ in BIG.crossed(a, b)] == list(dict(BIG._crossed_exact(a, b)))


@settings(deadline=None)
@given(two_zones())
def test_crossed_lines_are_the_step_path(pair: tuple[Coord, Coord]) -> None:
    a, b = pair
    path = BIG.step_path(a, b)
    if path:
        assert BIG.crossed(a, b) == [(c, 1.0) for c in path[:-1]]


# ---------------------------------------------------------------- board edges


def test_edge_distance_on_standard_board() -> None:
    assert BOARD.edge_distance((0, 0)) == 0
    assert BOARD.edge_distance((2, 0)) == 0
    assert BOARD.edge_distance((2, 1)) == 1
    assert [BOARD.is_edge(z) for z in BOARD.zones()].count(False) == 6  # B2..D3
    assert BIG.edge_distance((4, 4)) == 4


def test_nearest_edge_exits_for_fleeing() -> None:
    assert BOARD.nearest_edge_exits((0, 3)) == [(0, 3)]
    # C2 on a 5 × 4 board: straight north first, then the two diagonal north exits
    assert BOARD.nearest_edge_exits((2, 1)) == [(2, 0), (1, 0), (3, 0)]
    # B2 is one step from both the north and the west edges
    assert BOARD.nearest_edge_exits((1, 1)) == [(1, 0), (0, 1), (0, 0), (2, 0), (0, 2)]
    got = BIG.nearest_edge_exits((4, 4))
    assert got[:4] == [(4, 0), (0, 4), (8, 4), (4, 8)]
    assert all(BIG.distance((4, 4), z) == 4 and BIG.is_edge(z) for z in got)
    assert len(got) == 4 * 9 - 4  # the whole ring is 4 steps from the centre


@settings(deadline=None)
@given(two_zones())
def test_nearest_edge_exits_property(pair: tuple[Coord, Coord]) -> None:
    c, _ = pair
    exits = BIG.nearest_edge_exits(c)
    d = BIG.edge_distance(c)
    edge = [z for z in BIG.zones() if BIG.is_edge(z)]
    assert exits and all(BIG.distance(c, z) == d for z in exits)
    assert min(BIG.distance(c, z) for z in edge) == d
    assert sorted(exits) == sorted(z for z in edge if BIG.distance(c, z) == d)


# --------------------------------------------------------------------- toward


def test_toward() -> None:
    assert BOARD.toward((0, 0), (0, 0)) == []
    assert BOARD.toward((0, 0), (3, 0)) == [(1, 0), (1, 1)]
    assert BOARD.toward((0, 0), (3, 1)) == [(1, 0), (1, 1)]  # tie on distance: straight first
    assert BOARD.toward((0, 0), (3, 3)) == [(1, 1)]
    assert BOARD.toward((2, 1), (2, 3)) == [(2, 2), (3, 2), (1, 2)]


@settings(deadline=None)
@given(two_zones())
def test_toward_reduces_distance_by_one(pair: tuple[Coord, Coord]) -> None:
    a, b = pair
    got = BIG.toward(a, b)
    if a == b:
        assert got == []
        return
    assert got
    assert all(BIG.distance(n, b) == BIG.distance(a, b) - 1 for n in got)
    assert set(got) == {n for n in BIG.neighbours(a) if BIG.distance(n, b) < BIG.distance(a, b)}
