"""Preview = roll on reachable fights (issue 27): the policy plays the shipped skirmishes; at every fight met, the
fast whole fray agrees with the engine's exact fractions (the exact walk to 1e-12, the numpy kernel within
4 sigma of every end)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from rulekeeper.core.game import Game, SetupRequest
from rulekeeper.core.ruleset import game
from rulekeeper.rulesets.confrontation.fray import exact_fray_odds
from rulekeeper.rulesets.confrontation.fray_kernel import kernel_ends, supported
from rulekeeper.rulesets.confrontation.fray_whole import exact_fray_floats
from rulekeeper.rulesets.confrontation.skirmish import fray_of, group_of
from rulekeeper.rulesets.confrontation.state import SkirmishState

SCENARIOS = Path(__file__).resolve().parents[2] / "src/rulekeeper/rulesets/confrontation/data/scenarios"
RUNS = 6_000


def fights(g: Game, scenario: str, seed: int, wanted: int) -> list[tuple[SkirmishState, str]]:
    """Up to ``wanted`` (state, fighter) of fights of at most three fighters met while the policy plays."""
    state = g.initial_state(g.setup(SetupRequest(scenario=SCENARIOS / scenario, seed=seed)).document)
    found: list[tuple[SkirmishState, str]] = []
    for _ in range(80):
        assert isinstance(state, SkirmishState)
        if g.status(state).over or len(found) >= wanted:
            break
        for lg in g.legal_actions(state):
            if lg.action["kind"] == "fight":
                group = group_of(state, state.fighter(str(lg.action["fighter"])))
                if group is not None and len(group[0]) + len(group[1]) <= 3:
                    found.append((state, str(lg.action["fighter"])))
                    break
        action = g.policy(state)
        if action is None:
            break
        state = g.apply(state, action).state
    return found


@pytest.mark.parametrize(("scenario", "seed"), [("the_ford.yaml", 2), ("the_mill_race.yaml", 3), ("ruined_wall.yaml", 1)])
def test_reachable_fights_agree_with_the_engines_exact_odds(scenario: str, seed: int) -> None:
    g = game("confrontation")
    assert isinstance(g, Game)
    met = fights(g, scenario, seed, 2)
    assert met, "the policy met no fight"
    for state, lead in met:
        group = group_of(state, state.fighter(lead))
        assert group is not None
        fray = fray_of(group, state)
        exact = {end: float(p) for end, p in exact_fray_odds(fray).items()}
        floats = exact_fray_floats(fray)
        assert set(floats) == set(exact) and all(abs(floats[e] - p) < 1e-12 for e, p in exact.items())
        if supported(fray):
            sampled = kernel_ends(fray, RUNS, seed)
            for end in set(exact) | set(sampled):
                p = exact.get(end, 0.0)
                assert abs(sampled.get(end, 0.0) - p) <= 4 * math.sqrt(max(p * (1 - p), 1 / RUNS) / RUNS), end
