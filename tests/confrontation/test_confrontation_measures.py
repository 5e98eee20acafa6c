"""The search bot's shortcuts through the table's geometry (issue 28) give the answers measured in full."""

from __future__ import annotations

import dataclasses
import math
import random
from pathlib import Path

import pytest

from rulekeeper.boards import table
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation import measures
from rulekeeper.rulesets.confrontation.charge_path import _Field, _route, _within, charge_route
from rulekeeper.rulesets.confrontation.skirmish import charge_cm, charge_of, out_of_reach, straight_cm
from rulekeeper.rulesets.confrontation.state import SkirmishState, replace
from rulekeeper.rulesets.confrontation.terrain import barriers, sight_scenery

STALKERS = Path(__file__).resolve().parents[2] / \
    "src/rulekeeper/rulesets/confrontation/data/scenarios/the_stalkers_ford.yaml"


def test_no_charge_is_shorter_than_the_straight_way_and_one_out_of_straight_reach_is_out_of_reach(g: Game) -> None:
    # offers.strikes skips a target out of straight reach, and bot._cheapest_charge stops at the first pair whose
    # straight way is dearer than the cheapest charge found: both rest on these two facts
    state = g.initial_state(g.setup(SetupRequest(scenario=STALKERS, seed=0)).document)
    assert isinstance(state, SkirmishState) and state.obstacles + tuple(p.outline for p in state.terrain)
    reached = around = 0
    for f in state.fighters:
        for t in state.standing("B" if f.side == "A" else "A"):
            for movement in (float(charge_cm(f)), 30.0):
                reach = charge_of(state, f, t, movement)
                assert not (out_of_reach(f, t, movement) and reach.possible)
                if reach.possible:
                    reached += 1
                    around += reach.reason.startswith("in reach, going around")
                    assert reach.distance >= straight_cm(f, t) - 1e-9
            remembered = measures.charge_reach(f.base, t.base, 30.0, barriers(state, f.card),
                                               state.others(f.key, t.key), sight_scenery(state, f, t))
            assert remembered == table.charge_reach(f.base, t.base, 30.0, barriers(state, f.card),
                                                    state.others(f.key, t.key), sight_scenery(state, f, t))
    assert reached >= 6 and around >= 6  # charges made, around the ford's banks


def test_a_route_clears_the_obstacles_its_bounding_boxes_leave_out_as_shapely_does() -> None:
    # charge_path: an obstacle farther than the charger's radius from a point's (a segment's) bounding box is clear
    # without shapely; a box covering the whole table sends every question to shapely, as before the shortcut
    rng = random.Random(28)
    shapes = [table.Obstacle(((10.0, 10.0), (18.0, 10.5), (14.0, 16.0))).shape(),
              table.Obstacle(((25.0, 5.0), (30.0, 5.0), (30.0, 25.0), (25.0, 25.0))).shape()]
    boxes = tuple((min(x for x, _ in s.exterior.coords), min(y for _, y in s.exterior.coords),
                   max(x for x, _ in s.exterior.coords), max(y for _, y in s.exterior.coords)) for s in shapes)
    whole = ((-math.inf, -math.inf, math.inf, math.inf),) * len(shapes)
    quick, slow = (_Field(1.25, ((5.0, 25.0, 1.25),), tuple(shapes), 40.0, 30.0, b) for b in (boxes, whole))
    points = [(rng.uniform(0, 40), rng.uniform(0, 30)) for _ in range(150)]
    points += [(c[0] + dx, c[1] + dy) for s in shapes for c in s.exterior.coords for dx in (-1.3, 1.24) for dy in (0, 1.3)]
    assert [quick.free(p) for p in points] == [slow.free(p) for p in points]
    assert any(quick.free(p) for p in points) and not all(quick.free(p) for p in points)
    pairs = list(zip(points, points[1:] + points[:1], strict=True))
    assert [quick.clear(a, b) for a, b in pairs] == [slow.clear(a, b) for a, b in pairs]
    assert any(quick.clear(a, b) for a, b in pairs) and not all(quick.clear(a, b) for a, b in pairs)


def test_the_quick_replace_builds_what_dataclasses_replace_builds(g: Game) -> None:
    # state.replace sets the fields directly (issue 28: dataclasses.replace was a tenth of a simulation)
    state = g.initial_state(g.setup(SetupRequest(scenario=STALKERS, seed=0)).document)
    assert isinstance(state, SkirmishState)
    f = state.fighters[0]
    assert f.base.x == f.x  # remembered by this fighter value: a moved one must measure his own
    moved = replace(f, x=f.x + 1.5, activated=True)
    assert moved == dataclasses.replace(f, x=f.x + 1.5, activated=True) and moved.base.x == f.x + 1.5
    assert replace(state, round=3, no_pass="A") == dataclasses.replace(state, round=3, no_pass="A")
    assert state.with_fighters(moved).fighters[0] is moved
    with pytest.raises(TypeError):
        replace(f, speed=3)


def test_a_route_is_the_same_without_the_bases_too_far_from_it_to_matter() -> None:
    # charge_path.charge_route leaves out the bases far from the way (so that a route is found again, remembered,
    # when only a far fighter moved): the route found is the one found among every base
    rng = random.Random(24)
    dropped = found = 0
    for _ in range(30):
        start = (round(rng.uniform(5, 55), 1), round(rng.uniform(5, 55), 1))
        angle, far = rng.uniform(0, 2 * math.pi), rng.uniform(4, 14)
        target = (round(start[0] + far * math.cos(angle), 1), round(start[1] + far * math.sin(angle), 1), 1.25)
        circles = tuple((round(rng.uniform(3, 57), 1), round(rng.uniform(3, 57), 1), 1.25) for _ in range(12))
        circles += ((round((start[0] + target[0]) / 2, 1), round((start[1] + target[1]) / 2, 1), 1.875),)  # in the way
        wall = ((start[0] + 3, start[1] - 4), (start[0] + 4, start[1] - 4), (start[0] + 4, start[1] + 4))
        kept = [c for c in circles if _within(start, 1.25, target, 12.0, c)]
        route = charge_route(start, 1.25, target, 12.0, circles, [table.Obstacle(wall)], (60.0, 60.0))
        assert route == _route(start, 1.25, target, 12.0, circles, (wall,), (60.0, 60.0))
        dropped += len(kept) < len(circles)
        found += route is not None and len(route.points) > 2
    assert dropped >= 25 and found >= 10  # bases left out, and routes that go around
