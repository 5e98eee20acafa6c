"""HexMap: axial hexes, lines of fire, and movement with elevation (Guide to the Battle System, Dragon Noir)."""

from __future__ import annotations

from collections import deque
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulekeeper.boards import Hex, HexCell, HexMap, hex_distance, hex_line, hex_neighbours
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

RECT = HexMap.rectangle(7, 6)
HEXES = sorted(RECT.cells)


def bfs_distances(m: HexMap, start: Hex) -> dict[Hex, int]:
    dist = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in m.neighbours(h):
            if n not in dist:
                dist[n] = dist[h] + 1
                queue.append(n)
    return dist


def oracle_reachable(m: HexMap, start: Hex, movement: int, slow: frozenset[str]) -> dict[Hex, int]:
    """Every walk within budget, costs written straight from the Guide's text (not via step_cost)."""
    best: dict[Hex, int] = {}

    def walk(h: Hex, spent: int) -> None:
        if spent > movement or best.get(h, 10**9) <= spent:
            return
        best[h] = spent
        for n in hex_neighbours(h):
            if n not in m.cells:
                continue
            rise = m.cells[n].elevation - m.cells[h].elevation
            if rise >= 2:  # "goes up by two levels instantly ... can't move that way"
                continue
            halved = rise == 1 or m.cells[n].terrain in slow  # "reducing their movement rate by half"
            walk(n, spent + (2 if halved else 1))

    walk(start, 0)
    return best


# ------------------------------------------------------------------ basics


def test_hex_cube_coordinate_and_neighbour_order() -> None:
    h = Hex(2, -1)
    assert h.s == -1
    assert hex_neighbours(Hex(0, 0)) == [Hex(1, 0), Hex(1, -1), Hex(0, -1), Hex(-1, 0), Hex(-1, 1), Hex(0, 1)]
    assert all(hex_distance(h, n) == 1 for n in hex_neighbours(h))


def test_hex_distance_examples() -> None:
    assert hex_distance(Hex(0, 0), Hex(0, 0)) == 0
    assert hex_distance(Hex(0, 0), Hex(3, 0)) == 3
    assert hex_distance(Hex(0, 0), Hex(2, -3)) == 3
    assert hex_distance(Hex(-2, 1), Hex(2, 1)) == 4
    assert hex_distance(Hex(0, 0), Hex(2, 2)) == 4


def test_rectangle_layout() -> None:
    assert len(RECT.cells) == 42
    # odd-r offset: row 0 columns 0..6 are q 0..6; row 2 starts at q = -1
    assert RECT.contains(Hex(0, 0)) and RECT.contains(Hex(6, 0)) and not RECT.contains(Hex(7, 0))
    assert RECT.contains(Hex(-1, 2)) and not RECT.contains(Hex(-2, 2))
    assert RECT.cells[Hex(3, 3)] == HexCell("open", 0)
    assert len(RECT.neighbours(Hex(0, 0))) == 2  # a corner of hex paper
    assert len(RECT.neighbours(Hex(2, 2))) == 6
    with pytest.raises(InvalidStatError):
        HexMap.rectangle(0, 3)


def test_bad_cells_and_maps_are_refused() -> None:
    with pytest.raises(InvalidStatError):
        HexCell("", 0)
    with pytest.raises(InvalidStatError):
        HexCell("hill", 1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidStatError) as err:
        HexMap({(0, 0): HexCell(), Hex(1, 0): "open"})  # type: ignore[dict-item]
    assert len(err.value.details["problems"]) == 2


def test_map_is_read_only_copy() -> None:
    cells = {Hex(0, 0): HexCell()}
    m = HexMap(cells)
    cells[Hex(1, 0)] = HexCell()
    assert not m.contains(Hex(1, 0))
    with pytest.raises(TypeError):
        m.cells[Hex(1, 0)] = HexCell()  # type: ignore[index]


def test_off_map_requests_are_impossible() -> None:
    with pytest.raises(ImpossibleRequestError):
        RECT.neighbours(Hex(20, 20))
    with pytest.raises(ImpossibleRequestError):
        RECT.reachable(Hex(20, 20), 4)
    with pytest.raises(ImpossibleRequestError):
        RECT.line_of_sight(Hex(0, 0), Hex(20, 20), lambda h, c: False)
    with pytest.raises(InvalidStatError):
        RECT.reachable(Hex(0, 0), -2)


@pytest.mark.parametrize("start", HEXES)
def test_distances_match_bfs_on_rectangle(start: Hex) -> None:
    bfs = bfs_distances(RECT, start)
    assert set(bfs) == set(RECT.cells)
    for h, d in bfs.items():
        assert hex_distance(start, h) == d


# ------------------------------------------------------------------- lines


@given(st.sampled_from(HEXES), st.sampled_from(HEXES))
def test_line_endpoints_length_and_adjacency(a: Hex, b: Hex) -> None:
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(x, y) == 1 for x, y in pairwise(line))
    assert all(hex_distance(a, h) == i for i, h in enumerate(line))  # never detours


@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20), st.integers(-20, 20))
def test_line_properties_far_from_origin(q1: int, r1: int, q2: int, r2: int) -> None:
    a, b = Hex(q1, r1), Hex(q2, r2)
    line = hex_line(a, b)
    assert len(line) == hex_distance(a, b) + 1 and line[0] == a and line[-1] == b


def test_line_along_an_axis_and_the_nudge() -> None:
    assert hex_line(Hex(0, 0), Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    assert hex_line(Hex(0, 0), Hex(0, 0)) == [Hex(0, 0)]
    # (0,0)->(1,1) runs exactly along the edge between (1,0) and (0,1): the nudge picks one, consistently
    assert hex_line(Hex(0, 0), Hex(1, 1)) == [Hex(0, 0), Hex(1, 0), Hex(1, 1)]
    assert hex_line(Hex(0, 0), Hex(2, 2))[1:3] == [Hex(1, 0), Hex(1, 1)]


def test_line_of_sight() -> None:
    wall = Hex(2, 0)
    m = HexMap({**RECT.cells, wall: HexCell("wall", 0)})
    walls = lambda h, c: c.terrain == "wall"  # noqa: E731
    assert not m.line_of_sight(Hex(0, 0), Hex(4, 0), walls)
    assert not m.line_of_sight(Hex(4, 0), Hex(0, 0), walls)
    assert m.line_of_sight(Hex(0, 0), Hex(2, 0), walls)  # the target's own hex never blocks
    assert m.line_of_sight(wall, Hex(5, 0), walls)  # nor the shooter's
    assert m.line_of_sight(Hex(0, 1), Hex(4, 1), walls)  # a parallel row is clear
    assert m.line_of_sight(Hex(0, 0), Hex(1, 0), walls)  # adjacent: nothing in between


def test_line_of_sight_asks_only_intermediate_hexes() -> None:
    asked: list[Hex] = []

    def record(h: Hex, c: HexCell) -> bool:
        asked.append(h)
        return False

    assert RECT.line_of_sight(Hex(0, 0), Hex(4, 0), record)
    assert asked == [Hex(1, 0), Hex(2, 0), Hex(3, 0)]


def test_line_of_sight_with_elevation_from_the_callable() -> None:
    cells = dict(RECT.cells)
    cells[Hex(2, 1)] = HexCell("hill", 2)
    m = HexMap(cells)
    a, b = Hex(0, 1), Hex(4, 1)
    ground = lambda h, c: c.elevation > 0  # noqa: E731
    assert not m.line_of_sight(a, b, ground)
    high = HexMap({**cells, a: HexCell("tower", 3), b: HexCell("tower", 3)})
    above = lambda h, c: c.elevation >= 3  # noqa: E731
    assert high.line_of_sight(a, b, above)


# --------------------------------------------------------------- movement


def test_step_rules_from_the_guide() -> None:
    cells = dict(RECT.cells)
    cells[Hex(1, 0)] = HexCell("open", 1)
    cells[Hex(2, 0)] = HexCell("open", 3)
    cells[Hex(0, 1)] = HexCell("forest", 0)
    m = HexMap(cells)
    slow = frozenset({"forest"})
    assert m.step_allowed(Hex(0, 0), Hex(1, 0))  # up one level: allowed
    assert m.step_cost(Hex(0, 0), Hex(1, 0), slow) == 2  # ... at half speed
    assert not m.step_allowed(Hex(1, 0), Hex(2, 0))  # up two: impossible
    assert m.step_allowed(Hex(2, 0), Hex(1, 0))  # down two: fine
    assert m.step_cost(Hex(2, 0), Hex(1, 0), slow) == 1
    assert m.step_cost(Hex(1, 0), Hex(0, 0), slow) == 1  # going down is not slowed
    assert m.step_cost(Hex(0, 0), Hex(0, 1), slow) == 2  # entering a forest
    assert m.step_cost(Hex(0, 1), Hex(0, 0), slow) == 1  # leaving it
    assert m.step_cost(Hex(0, 0), Hex(0, 1)) == 1  # forest not slow for this ruleset
    assert not m.step_allowed(Hex(0, 0), Hex(2, 0))  # not adjacent
    assert not m.step_allowed(Hex(0, 0), Hex(-1, 0))  # off the map
    with pytest.raises(ImpossibleRequestError, match="two levels"):
        m.step_cost(Hex(1, 0), Hex(2, 0), slow)
    with pytest.raises(ImpossibleRequestError, match="adjacent"):
        m.step_cost(Hex(0, 0), Hex(3, 0), slow)


def test_light_infantry_moves_four_on_flat_two_uphill() -> None:
    """Guide: a movement of 4 moves four hexes on flat land; walking up a hill halves it."""
    flat = RECT.reachable(Hex(0, 0), 4)
    assert max(flat.values()) == 4
    assert flat[Hex(4, 0)] == 4 and Hex(5, 0) not in flat
    assert flat == {h: d for h, d in bfs_distances(RECT, Hex(0, 0)).items() if d <= 4}
    cells = {h: HexCell("open", h.q) for h in RECT.cells}  # a slope rising one level per hex eastwards
    uphill = HexMap(cells).reachable(Hex(0, 0), 4)
    assert uphill[Hex(2, 0)] == 4 and Hex(3, 0) not in uphill


def test_reachable_zero_movement_and_cliffs() -> None:
    assert RECT.reachable(Hex(3, 3), 0) == {Hex(3, 3): 0}
    cliff = {h: HexCell("open", 2 if h != Hex(3, 3) else 0) for h in RECT.cells}
    assert HexMap(cliff).reachable(Hex(3, 3), 10) == {Hex(3, 3): 0}  # walled in by a two-level rise


cells_strategy = st.lists(
    st.tuples(st.sampled_from(["open", "open", "forest", "bog"]), st.integers(0, 3)),
    min_size=20,
    max_size=20,
)


@settings(max_examples=60, deadline=None)
@given(cells_strategy, st.integers(0, 19), st.sampled_from([0, 2, 4, 6]), st.booleans())
def test_reachable_matches_brute_force(
    spec: list[tuple[str, int]], start_index: int, movement: int, forest_slow: bool
) -> None:
    shape = sorted(HexMap.rectangle(5, 4).cells)
    m = HexMap({h: HexCell(t, e) for h, (t, e) in zip(shape, spec, strict=True)})
    slow = frozenset({"forest", "bog"}) if forest_slow else frozenset()
    start = shape[start_index]
    assert m.reachable(start, movement, slow) == oracle_reachable(m, start, movement, slow)
