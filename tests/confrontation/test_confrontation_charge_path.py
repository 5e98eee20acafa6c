"""A charge goes around bases (issue 24, point 9).

Issue 24: "Charges run in a straight line to the target's centre, so friendly bases block them: on the shipped ford
(`--seed 7`) the guard is never offered a charge on the engaged Wolfen hunter. A charge goes around bases."
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from cf_start import past_tactical

from rulekeeper.boards.table import Obstacle
from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.rulesets.confrontation.charge_path import charge_route
from rulekeeper.rulesets.confrontation.skirmish import charge_of
from rulekeeper.rulesets.confrontation.state import SkirmishState

FORD = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios/the_ford.yaml"


def test_the_guard_at_the_ford_seed_7_may_charge_the_engaged_hunter_around_the_swordsman(g: Game) -> None:
    """Regression: autoplayed from `--seed 7`, the guard stands behind the swordsman engaged with the hunter; the
    straight line to the hunter crosses the swordsman, and no charge on the hunter was offered."""
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=7)).document))
    assert isinstance(state, SkirmishState)
    offered = []
    for _ in range(40):
        if state.phase == "activation" and state.to_act == "A":
            guard = state.fighter("Alahan guard")
            hunter = state.fighter("Wolfen hunter")
            if not guard.activated and not guard.engaged and hunter.engaged == ("Alahan swordsman",):
                kinds = {(a.action["kind"], a.action.get("target")) for a in g.legal_actions(state)
                         if a.action.get("fighter") == "Alahan guard"}
                offered.append(("charge", "Wolfen hunter") in kinds)
        action = g.policy(state)
        if action is None:
            break
        state = g.apply(state, action).state
    assert offered and all(offered)


def test_a_charge_goes_around_a_friend_and_ends_in_contact_with_the_target_only() -> None:
    # charger at (0, 0), a friend in the way at (4, 0), the target at (8, 0); all bases 1.25 cm
    route = charge_route((0.0, 0.0), 1.25, (8.0, 0.0, 1.25), 20.0, [(4.0, 0.0, 1.25)], [], (40.0, 30.0))
    assert route is not None
    ex, ey = route.end
    assert math.hypot(ex - 8, ey) == pytest.approx(2.5)  # base contact with the target
    assert math.hypot(ex - 4, ey) > 2.5 + 0.05  # not in contact with the friend
    straight = 8 - 2.5
    assert straight < route.length < straight + 3  # a short detour, not a long way round
    assert len(route.points) >= 3
    assert charge_route((0.0, 0.0), 1.25, (8.0, 0.0, 1.25), 5.5, [(4.0, 0.0, 1.25)], [], (40.0, 30.0)) is None


def test_a_charge_goes_around_an_obstacle_and_stays_on_the_table() -> None:
    across = Obstacle(((3.0, -10.0), (5.0, -10.0), (5.0, 40.0), (3.0, 40.0)), "a wall across the table")
    assert charge_route((2.0, 5.0), 1.25, (8.0, 5.0, 1.25), 60.0, [], [across], (40.0, 30.0)) is None
    low = Obstacle(((3.0, -10.0), (5.0, -10.0), (5.0, 2.0), (3.0, 2.0)), "a wall from the bottom edge")
    route = charge_route((0.0, 1.25), 1.25, (8.0, 1.25, 1.25), 30.0, [], [low], (40.0, 30.0))
    assert route is not None and all(p[1] >= 1.25 - 1e-9 for p in route.points)
    assert max(p[1] for p in route.points) >= 2.0 + 1.25  # over the wall's end, his base clear of it


def test_a_clear_straight_charge_is_unchanged(g: Game) -> None:
    state = past_tactical(g.initial_state(g.setup(SetupRequest(scenario=FORD, seed=3)).document))
    assert isinstance(state, SkirmishState)
    reach = charge_of(state, state.fighter("Wolfen hunter"), state.fighter("Alahan swordsman"))
    assert reach.reason in ("in reach", "contact is 24.8 cm away, beyond 30 cm") or reach.possible
