"""The Guide's movement costs on a hex map (moved here from boards/hexes.py: the board is geometry only).

"When the terrain goes up by two levels instantly, then normal units can't move that way. Otherwise
moving up by one level is fine but it slows the unit down, reducing their movement rate by half."
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hex_oracles import bfs_distances
from rulekeeper.boards import Hex, HexCell, HexMap, hex_neighbours
from rulekeeper.core.errors import ImpossibleRequestError, InvalidStatError
from rulekeeper.rulesets.battlesystem.movement import guide_cost, reachable, step_allowed

RECT = HexMap.rectangle(7, 6)


def oracle_reachable(m: HexMap, start: Hex, movement: int, slow: frozenset[str]) -> dict[Hex, int]:
    """Every walk within budget, costs written straight from the Guide's text (not via guide_cost)."""
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


def test_off_map_and_negative_movement_are_refused() -> None:
    with pytest.raises(ImpossibleRequestError):
        reachable(RECT, Hex(20, 20), 4)
    with pytest.raises(InvalidStatError):
        reachable(RECT, Hex(0, 0), -2)


def test_step_rules_from_the_guide() -> None:
    cells = dict(RECT.cells)
    cells[Hex(1, 0)] = HexCell("open", 1)
    cells[Hex(2, 0)] = HexCell("open", 3)
    cells[Hex(0, 1)] = HexCell("forest", 0)
    m = HexMap(cells)
    slow = frozenset({"forest"})
    assert step_allowed(m, Hex(0, 0), Hex(1, 0))  # up one level: allowed
    assert guide_cost(m, Hex(0, 0), Hex(1, 0), slow) == 2  # ... at half speed
    assert not step_allowed(m, Hex(1, 0), Hex(2, 0))  # up two: impossible
    assert step_allowed(m, Hex(2, 0), Hex(1, 0))  # down two: fine
    assert guide_cost(m, Hex(2, 0), Hex(1, 0), slow) == 1
    assert guide_cost(m, Hex(1, 0), Hex(0, 0), slow) == 1  # going down is not slowed
    assert guide_cost(m, Hex(0, 0), Hex(0, 1), slow) == 2  # entering a forest
    assert guide_cost(m, Hex(0, 1), Hex(0, 0), slow) == 1  # leaving it
    assert guide_cost(m, Hex(0, 0), Hex(0, 1), ()) == 1  # forest not slow for this ruleset
    assert not step_allowed(m, Hex(0, 0), Hex(2, 0))  # not adjacent
    assert not step_allowed(m, Hex(0, 0), Hex(-1, 0))  # off the map
    with pytest.raises(ImpossibleRequestError, match="two levels"):
        guide_cost(m, Hex(1, 0), Hex(2, 0), slow)
    with pytest.raises(ImpossibleRequestError, match="adjacent"):
        guide_cost(m, Hex(0, 0), Hex(3, 0), slow)


def test_light_infantry_moves_four_on_flat_two_uphill() -> None:
    """Guide: a movement of 4 moves four hexes on flat land; walking up a hill halves it."""
    flat = reachable(RECT, Hex(0, 0), 4)
    assert max(flat.values()) == 4
    assert flat[Hex(4, 0)] == 4 and Hex(5, 0) not in flat
    assert flat == {h: d for h, d in bfs_distances(RECT, Hex(0, 0)).items() if d <= 4}
    cells = {h: HexCell("open", h.q) for h in RECT.cells}  # a slope rising one level per hex eastwards
    uphill = reachable(HexMap(cells), Hex(0, 0), 4)
    assert uphill[Hex(2, 0)] == 4 and Hex(3, 0) not in uphill


def test_reachable_zero_movement_and_cliffs() -> None:
    assert reachable(RECT, Hex(3, 3), 0) == {Hex(3, 3): 0}
    cliff = {h: HexCell("open", 2 if h != Hex(3, 3) else 0) for h in RECT.cells}
    assert reachable(HexMap(cliff), Hex(3, 3), 10) == {Hex(3, 3): 0}  # walled in by a two-level rise


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
    assert reachable(m, start, movement, slow) == oracle_reachable(m, start, movement, slow)
