"""Property (issue 27): in random reachable Ex illis battles, whatever the engine's ``apply`` draws for an
action is an outcome its whole-action odds give a chance to — enemy killed, own losses, each enemy unit's
morale state and an enemy rout — and every shown distribution is one (checked by ``core.whole``).

States come from ``walk_kit.reach`` (random legal actions from every shipped scenario); each action with
whole-action odds is played once with the state's own seed of fate.
"""

from __future__ import annotations

import pytest
from exillis_whole_kit import observed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekeeper.core.ruleset import game
from rulekeeper.core.whole import WholeOdds
from rulekeeper.rulesets.exillis.battle.actions import Action, find_legal
from rulekeeper.rulesets.exillis.whole import dist
from walk_kit import reach

G = game("exillis")
SCENARIOS = list(G.scenarios())
#: Chance actions checked per state (the walk reaches dozens; a few per state keep the test quick).
PER_STATE = 2


def possible(odds: WholeOdds, key: str, outcome: str) -> bool:
    return odds.measure(key).probability(outcome) > 0 or odds.error_bound > 0


@settings(max_examples=6, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from([s.key for s in SCENARIOS]), seed=st.integers(0, 2**31), steps=st.integers(5, 30))
def test_what_the_engine_draws_is_an_outcome_the_whole_odds_allow(scenario: str, seed: int, steps: int) -> None:
    state = reach(G, SCENARIOS, scenario, seed, steps)
    tried = 0
    for lg in G.legal_actions(state):
        if tried >= PER_STATE or lg.action["kind"] not in ("charge", "fight", "shoot"):
            continue
        tried += 1
        odds = G.whole_odds(state, lg.action)
        if odds is None:
            continue
        legal = find_legal(state, G.t, Action.from_dict(lg.action))
        seen = observed(state, G.t, legal, seed)
        assert possible(odds, "enemy_killed", str(seen["enemy_killed"])), (lg.text, seen)
        assert possible(odds, "own_losses", str(seen["own_losses"])), (lg.text, seen)
        for unit, state_after in seen["morale"].items():
            key = f"morale:{unit}"
            if any(m.key == key for m in odds.measures):
                assert possible(odds, key, state_after), (lg.text, unit, state_after)
        if seen["enemy_routs"]:
            assert odds.event("an enemy unit routs") > 0 or odds.error_bound > 0


@pytest.fixture(autouse=True)
def _no_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dist, "MAX_SECONDS", 0.5)
