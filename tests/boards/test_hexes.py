"""HexMap: axial hexes, lines of fire and sight with elevation (Guide to the Battle System, Dragon Noir).

The Guide's movement costs are the ruleset's: tests/battlesystem/test_battlesystem_movement.py."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hex_oracles import bfs_distances
from rulekeeper.boards import Hex, HexCell, HexMap, hex_distance, hex_line, hex_neighbours
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError

RECT = HexMap.rectangle(7, 6)
HEXES = sorted(RECT.cells)


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
        RECT.reach(Hex(20, 20), 4, lambda frm, to: 1)
    with pytest.raises(ImpossibleRequestError):
        RECT.line_of_sight(Hex(0, 0), Hex(20, 20), lambda h, c: False)
    with pytest.raises(InvalidStatError):
        RECT.reach(Hex(0, 0), -2, lambda frm, to: 1)


@pytest.mark.parametrize("start", HEXES)
def test_distances_match_bfs_on_rectangle(start: Hex) -> None:
    bfs = bfs_distances(RECT, start)
    assert set(bfs) == set(RECT.cells)
    for h, d in bfs.items():
        assert hex_distance(start, h) == d


# ------------------------------------------------------------------- lines


@settings(deadline=None)
@given(st.sampled_from(HEXES), st.sampled_from(HEXES))
def test_line_endpoints_length_and_adjacency(a: Hex, b: Hex) -> None:
    line = hex_line(a, b)
    assert line[0] == a and line[-1] == b
    assert len(line) == hex_distance(a, b) + 1
    assert all(hex_distance(x, y) == 1 for x, y in pairwise(line))
    assert all(hex_distance(a, h) == i for i, h in enumerate(line))  # never detours


@settings(deadline=None)
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



def test_every_public_hex_name_is_still_importable_from_boards_hexes() -> None:
    """boards/hexes.py was split by concern (hexcoords, hexsight); Dragon Noir and the Battle System import from
    ``rulekeeper.boards.hexes``, so every public function and class of the split modules must still be there."""
    from rulekeeper.boards import hexcoords, hexes, hexsight

    for module in (hexcoords, hexsight):
        defined = [n for n, v in vars(module).items()
                   if not n.startswith("_") and getattr(v, "__module__", None) == module.__name__]
        assert len(defined) >= 5, module.__name__
        for name in defined:
            assert getattr(hexes, name) is getattr(module, name), name
    for constant in ("HEX_DIRECTIONS", "EDGE_RULES", "DEFAULT_SIGHT"):
        assert constant in hexes.__all__
