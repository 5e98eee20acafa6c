"""Properties of the generic hex board (issue 12): distance is a metric, lines have ``distance + 1`` hexes
and both endpoints, rings have ``6r`` hexes, and no route costs less than ``distance × the cheapest step``.

Brute-force oracles (Bellman-Ford relaxation, breadth-first search, Red Blob Games' float line) check the
fast code on maps small enough to enumerate. The docstring examples of both modules run here too, since
the suite does not collect doctests itself.
"""

from __future__ import annotations

import doctest
from collections.abc import Callable
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hex_oracles import bfs_distances
from rulekeeper.boards import (
    HEX_DIRECTIONS,
    Hex,
    HexCell,
    HexMap,
    SightRule,
    entering,
    hex_direction,
    hex_distance,
    hex_label,
    hex_line,
    hex_lines,
    hex_neighbour,
    hex_neighbours,
    hex_ring,
    hex_spiral,
    hex_to_offset,
    offset_to_hex,
    parse_hex_label,
)
from rulekeeper.boards import hexcoords as hexcoords_module
from rulekeeper.boards import hexes as hexes_module
from rulekeeper.boards import hexpaths as hexpaths_module
from rulekeeper.boards import hexsight as hexsight_module
from rulekeeper.boards import hexsvg as hexsvg_module
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError, UnknownNameError

coord = st.integers(-60, 60)
hexes = st.builds(Hex, coord, coord)
#: a translation far from the origin, where floats would lose the nudge
far = st.builds(Hex, st.integers(-(10**15), 10**15), st.integers(-(10**15), 10**15))
nudges = st.sampled_from([1, -1])

W, H = 6, 5
SHAPE = HexMap.rectangle(W, H).hexes()
on_map = st.sampled_from(SHAPE)
#: per-hex cost of entering it: 1..4, or None for impassable
costs = st.lists(st.one_of(st.integers(1, 4), st.none()), min_size=len(SHAPE), max_size=len(SHAPE))


def test_docstring_examples_run() -> None:
    for module in (hexes_module, hexcoords_module, hexsight_module, hexpaths_module, hexsvg_module):
        result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
        assert result.attempted > 0 and result.failed == 0, module.__name__


# ------------------------------------------------------------------ metric


@settings(deadline=None)
@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert hex_distance(a, a) == 0
    assert (hex_distance(a, b) == 0) == (a == b)
    assert hex_distance(a, b) == hex_distance(b, a)
    assert hex_distance(a, c) <= hex_distance(a, b) + hex_distance(b, c)


@settings(deadline=None)
@given(hexes)
def test_neighbours_and_directions(h: Hex) -> None:
    ns = hex_neighbours(h)
    assert len(set(ns)) == 6 and all(hex_distance(h, n) == 1 for n in ns)
    for i, name in enumerate(HEX_DIRECTIONS):
        assert hex_neighbour(h, i) == hex_neighbour(h, name.lower()) == ns[i]
        assert hex_direction(h, ns[i]) == i
    assert hex_direction(h, h) is None and hex_direction(h, Hex(h.q + 2, h.r)) is None


# ------------------------------------------------------------------- lines


def shift(h: Hex, by: Hex) -> Hex:
    return Hex(h.q + by.q, h.r + by.r)


@settings(deadline=None)
@given(hexes, hexes, nudges, st.one_of(st.just(Hex(0, 0)), far))
def test_line_has_distance_plus_one_hexes_and_both_endpoints(a: Hex, b: Hex, nudge: int, offset: Hex) -> None:
    near = hex_line(a, b, nudge)
    a, b = shift(a, offset), shift(b, offset)
    line = hex_line(a, b, nudge)
    assert line == [shift(h, offset) for h in near]  # the same shape wherever it is drawn
    assert len(line) == hex_distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    assert all(hex_distance(x, y) == 1 for x, y in pairwise(line))
    assert all(hex_distance(a, h) == i for i, h in enumerate(line))  # never detours
    assert hex_line(b, a, nudge) == line[::-1]  # the same hexes whichever end looks


def red_blob_line(a: Hex, b: Hex) -> list[Hex]:
    """Red Blob Games' float version with its 1e-6 nudge, as the module had it before."""

    def cube_round(q: float, r: float, s: float) -> Hex:
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        return Hex(int(rq), int(rr))

    n = hex_distance(a, b)
    e = 1e-6
    aq, ar, as_ = a.q + e, a.r + e, a.s - 2 * e
    bq, br, bs = b.q + e, b.r + e, b.s - 2 * e
    return [cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n, as_ + (bs - as_) * i / n) for i in range(n + 1)]


@settings(deadline=None)
@given(hexes, hexes)
def test_exact_nudge_matches_red_blob_floats_near_the_origin(a: Hex, b: Hex) -> None:
    """Where the line never runs along an edge both agree; along an edge the float version's side is
    float noise (a tie between two rounding errors), which changes as the line is moved about the map."""
    if a == b:
        return
    plus, minus = hex_lines(a, b)
    floats = red_blob_line(a, b)
    if plus == minus:
        assert floats == plus
    assert all(f in (p, m) for f, p, m in zip(floats, plus, minus, strict=True))


@settings(deadline=None)
@given(hexes, hexes)
def test_the_two_nudged_lines_differ_only_by_sides_of_an_edge(a: Hex, b: Hex) -> None:
    plus, minus = hex_lines(a, b)
    for x, y in zip(plus, minus, strict=True):
        assert x == y or hex_distance(x, y) == 1


def test_a_line_along_edges_takes_each_side_with_each_nudge() -> None:
    plus, minus = hex_lines(Hex(0, 0), Hex(1, 1))
    assert plus == [Hex(0, 0), Hex(1, 0), Hex(1, 1)] and minus == [Hex(0, 0), Hex(0, 1), Hex(1, 1)]
    assert hex_lines(Hex(0, 0), Hex(3, 0))[0] == hex_lines(Hex(0, 0), Hex(3, 0))[1]
    with pytest.raises(InvalidStatError):
        hex_line(Hex(0, 0), Hex(1, 1), nudge=0)


@pytest.mark.parametrize("dq, dr", [(1, 1), (2, -1), (1, -2), (-1, -1), (-2, 1), (-1, 2)])
def test_the_two_nudges_take_opposite_sides_in_all_six_edge_directions(dq: int, dr: int) -> None:
    plus, minus = hex_lines(Hex(0, 0), Hex(3 * dq, 3 * dr))
    assert plus[::2] == minus[::2]  # the hexes the line passes through the centre of
    assert all(hex_distance(p, m) == 1 for p, m in zip(plus[1::2], minus[1::2], strict=True))  # one on each side


# ------------------------------------------------------------------- rings


@settings(deadline=None)
@given(hexes, st.integers(0, 12))
def test_ring_has_6r_hexes_all_at_distance_r(center: Hex, r: int) -> None:
    ring = hex_ring(center, r)
    assert len(ring) == max(1, 6 * r) == len(set(ring))
    assert all(hex_distance(center, h) == r for h in ring)
    assert all(hex_distance(x, y) == 1 for x, y in pairwise([*ring, ring[0]])) or r == 0  # walks around
    spiral = hex_spiral(center, r)
    assert len(spiral) == 1 + 3 * r * (r + 1) == len(set(spiral))
    assert all(hex_distance(center, h) <= r for h in spiral)


def test_negative_radius_is_refused() -> None:
    with pytest.raises(InvalidStatError):
        hex_ring(Hex(0, 0), -1)


# ----------------------------------------------------------------- offsets


@settings(deadline=None)
@given(st.integers(-500, 500), st.integers(-500, 500))
def test_offset_axial_round_trip(col: int, row: int) -> None:
    h = offset_to_hex(col, row)
    assert hex_to_offset(h) == (col, row)
    assert offset_to_hex(*hex_to_offset(h)) == h


@settings(deadline=None)
@given(st.integers(0, 18_000), st.integers(0, 10_000))
def test_label_round_trip(col: int, row: int) -> None:
    h = offset_to_hex(col, row)
    assert parse_hex_label(hex_label(h)) == h
    assert parse_hex_label(hex_label(h).lower()) == h


@settings(deadline=None)
@given(st.integers(0, W - 1), st.integers(0, H - 1))
def test_offset_rows_are_straight_and_columns_zigzag(col: int, row: int) -> None:
    h = offset_to_hex(col, row)
    if col + 1 < W:
        assert hex_direction(h, offset_to_hex(col + 1, row)) == HEX_DIRECTIONS.index("E")
    if row + 1 < H:  # odd-r: from an even row the hex below is SE, from an odd row it is SW
        below = hex_direction(h, offset_to_hex(col, row + 1))
        assert HEX_DIRECTIONS[below or 0] == ("SE" if row % 2 == 0 else "SW")


def test_label_examples_and_errors() -> None:
    m = HexMap.rectangle(W, H)
    assert [m.label(h) for h in m.hexes()[:3]] == ["A1", "B1", "C1"]
    assert m.label(offset_to_hex(2, 3)) == "C4" and m.parse(" c4 ") == offset_to_hex(2, 3)
    assert hex_label(offset_to_hex(25, 0)) == "Z1" and hex_label(offset_to_hex(26, 0)) == "AA1"
    with pytest.raises(UnknownNameError):
        m.parse("C-4")
    with pytest.raises(ImpossibleRequestError):
        m.parse("Z9")
    with pytest.raises(InvalidStatError):
        parse_hex_label("A0")
    with pytest.raises(ImpossibleRequestError):
        hex_label(offset_to_hex(-1, 0))


# ------------------------------------------------------------------ routes


def make_map(spec: list[int | None]) -> tuple[HexMap, Callable[[Hex, Hex], int | None]]:
    m = HexMap({h: HexCell("open" if c is not None else "lake") for h, c in zip(SHAPE, spec, strict=True)})
    price = dict(zip(SHAPE, spec, strict=True))
    return m, entering(price.__getitem__)


def bellman_ford(m: HexMap, start: Hex, cost: Callable[[Hex, Hex], int | None], occupied: set[Hex]) -> dict[Hex, int]:
    """Cheapest cost to every hex by relaxing every step until nothing changes (slow and obviously right)."""
    best = {start: 0}
    changed = True
    while changed:
        changed = False
        for h in list(best):
            for n in m.neighbours(h):
                c = cost(h, n)
                if n in occupied or c is None:
                    continue
                if best[h] + c < best.get(n, 10**9):
                    best[n] = best[h] + c
                    changed = True
    return best


@settings(max_examples=150, deadline=None)
@given(costs, on_map, on_map, st.sets(on_map, max_size=6))
def test_no_path_costs_less_than_distance_times_the_cheapest_hex(
    spec: list[int | None], start: Hex, goal: Hex, occupied: set[Hex]
) -> None:
    m, cost = make_map(spec)
    occupied.discard(start)
    path = m.shortest_path(start, goal, cost, occupied=occupied)
    oracle = bellman_ford(m, start, cost, occupied)
    if path is None:
        assert goal not in oracle
        return
    cheapest = min(c for c in spec if c is not None)
    assert path.cost >= hex_distance(start, goal) * cheapest
    assert path.cost == oracle[goal]
    assert path.nodes[0] == start and path.nodes[-1] == goal
    assert all(hex_distance(x, y) == 1 for x, y in pairwise(path.nodes))
    assert sum(cost(x, y) or 0 for x, y in pairwise(path.nodes)) == path.cost
    assert not occupied & set(path.nodes)
    assert m.shortest_path(start, goal, cost, occupied=occupied) == path  # deterministic


@settings(max_examples=100, deadline=None)
@given(costs, on_map, st.integers(0, 8), st.sets(on_map, max_size=4), st.sets(on_map, max_size=4))
def test_reach_is_the_oracle_within_the_budget(
    spec: list[int | None], start: Hex, budget: int, occupied: set[Hex], friends: set[Hex]
) -> None:
    m, cost = make_map(spec)
    occupied.discard(start)
    friends -= occupied | {start}
    got = m.reach(start, budget, cost, occupied=occupied, pass_through=friends)
    oracle = bellman_ford(m, start, cost, occupied)
    assert got == {h: c for h, c in oracle.items() if c <= budget and h not in friends}
    for h, c in got.items():
        path = m.shortest_path(start, h, cost, occupied=occupied, pass_through=friends, budget=budget)
        assert path is not None and path.cost == c


@settings(deadline=None)
@given(on_map, on_map)
def test_unit_cost_paths_are_breadth_first_distances(start: Hex, goal: Hex) -> None:
    m = HexMap.rectangle(W, H)
    dist = bfs_distances(m, start)
    path = m.shortest_path(start, goal, lambda frm, to: 1)
    assert path is not None and path.cost == dist[goal] == hex_distance(start, goal)


def test_nearest_of_several_goals_and_edges() -> None:
    m = HexMap.rectangle(W, H)
    centre = offset_to_hex(2, 2)
    edges = m.edge_hexes()
    assert len(edges) == 2 * W + 2 * H - 4 and centre not in edges
    path = m.shortest_path(centre, edges, lambda frm, to: 1)
    assert path is not None and path.cost == 2 and path.nodes[-1] in edges
    assert m.shortest_path(centre, [], lambda frm, to: 1) is None


def test_route_errors() -> None:
    m = HexMap.rectangle(W, H)
    with pytest.raises(InvalidStatError):
        m.shortest_path(Hex(0, 0), Hex(2, 0), lambda frm, to: -1)
    with pytest.raises(InvalidStatError):
        m.reach(Hex(0, 0), -1, lambda frm, to: 1)
    with pytest.raises(ImpossibleRequestError):
        m.shortest_path(Hex(0, 0), Hex(40, 0), lambda frm, to: 1)
    with pytest.raises(ImpossibleRequestError):
        m.with_cells({Hex(40, 0): HexCell()})


# ------------------------------------------------------------------- sight

flags = st.lists(st.booleans(), min_size=len(SHAPE), max_size=len(SHAPE))
levels = st.lists(st.integers(0, 3), min_size=len(SHAPE), max_size=len(SHAPE))


def sight_map(blocking: list[bool], elevation: list[int]) -> HexMap:
    cells = {h: HexCell("wood" if b else "open", e, b) for h, b, e in zip(SHAPE, blocking, elevation, strict=True)}
    return HexMap(cells)


@settings(deadline=None)
@given(flags, on_map, on_map)
def test_flat_sight_is_symmetric_and_the_edge_rules_are_ordered(blocking: list[bool], a: Hex, b: Hex) -> None:
    m = sight_map(blocking, [0] * len(SHAPE))
    seen = {e: m.line_of_sight(a, b, rule=SightRule(edges=e)) for e in ("nudge", "lenient", "strict")}
    assert seen["strict"] <= seen["nudge"] <= seen["lenient"]
    for e, s in seen.items():
        assert m.line_of_sight(b, a, rule=SightRule(edges=e)) == s
    if hex_distance(a, b) <= 1:
        assert seen["strict"]  # nothing in between


@settings(deadline=None)
@given(flags, levels, on_map, on_map, st.integers(0, 3), st.integers(0, 3), st.sampled_from([None, 0, 1, 2]))
def test_height_model_is_monotone_and_reduces_to_flat(
    blocking: list[bool], elevation: list[int], a: Hex, b: Hex, eye: int, aim: int, obstacle: int | None
) -> None:
    m = sight_map(blocking, elevation)
    rule = SightRule(elevation=True, observer=eye, target=aim, obstacle=obstacle)
    seen = m.line_of_sight(a, b, rule=rule)
    taller = SightRule(elevation=True, observer=eye + 1, target=aim, obstacle=obstacle)
    assert not seen or m.line_of_sight(a, b, rule=taller)  # a higher eye never loses sight
    if eye == aim:
        assert m.line_of_sight(b, a, rule=rule) == seen
    flat = sight_map(blocking, [0] * len(SHAPE))
    tall_walls = SightRule(elevation=True, obstacle=None)
    assert flat.line_of_sight(a, b, rule=tall_walls) == flat.line_of_sight(a, b)


def test_sight_examples() -> None:
    m = HexMap.rectangle(W, H)
    a, b = Hex(0, 0), Hex(1, 1)  # the line between them runs along the edge of (1,0) and (0,1)
    half = m.with_cells({Hex(1, 0): HexCell("wood", blocks_sight=True)})
    assert not half.line_of_sight(a, b)  # the +ε line goes through the wood
    assert half.line_of_sight(a, b, rule=SightRule(edges="lenient"))
    assert not half.line_of_sight(a, b, rule=SightRule(edges="strict"))
    both = half.with_cells({Hex(0, 1): HexCell("wood", blocks_sight=True)})
    assert not both.line_of_sight(a, b, rule=SightRule(edges="lenient"))
    # a 1-level hedge on a hill of 1 hides men standing 1 high on the plain, but not from a 3-high tower
    row = [Hex(q, 0) for q in range(5)]
    hedge = m.with_cells({row[2]: HexCell("hedge", 1, True)})
    rule = SightRule(elevation=True, observer=1, target=1, obstacle=1)
    assert hedge.blockers(row[0], row[4], rule=rule) == [row[2]]
    assert hedge.line_of_sight(row[0], row[4], rule=SightRule(elevation=True, observer=3, target=1, obstacle=1))
    assert hedge.line_of_sight(row[0], row[4], lambda h, c: False, rule)  # the caller's judgement: no hedge


def test_bad_sight_rules_are_refused() -> None:
    with pytest.raises(InvalidStatError) as err:
        SightRule(elevation=1, observer=1.5, obstacle=-1, edges="sideways")  # type: ignore[arg-type]
    assert len(err.value.details["problems"]) == 4
    with pytest.raises(InvalidStatError):
        HexCell("wood", 0, "yes")  # type: ignore[arg-type]
