"""The Battle System's ``rollout_policy`` (the search bot's simulations, ``battlesystem/bot.py``) plays exactly what
its shipped policy plays: along a playthrough of every shipped scenario, and after the bot's candidates there (every
legal action of the side, most of which the shipped policy never plays: a unit moved away, a shot taken instead of an
attack, a general spent), so that the states a simulation reaches from any candidate are covered too."""

from __future__ import annotations

import pytest

from rulekeeper.core.ruleset import game as game_named

from .conftest import started

SCENARIOS = [s.key for s in game_named("battlesystem").scenarios()]


def test_every_shipped_scenario_is_covered() -> None:
    assert SCENARIOS == ["hill_road", "river_crossing"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_battle_systems_rollout_policy_is_the_shipped_policy(scenario: str) -> None:
    game, state = started("battlesystem", scenario, seed=0)
    kinds: set[str] = set()
    after_candidates = 0
    for step in range(600):
        action = game.policy(state)
        assert game.rollout_policy(state) == action, (scenario, step)
        if action is None:
            break
        if step % 5 == 0:  # the bot's candidates: every legal action of the side (a fifth of the positions: cheap)
            for legal in game.legal_actions(state):
                after = game.apply(state, legal.action).state
                assert game.rollout_policy(after) == game.policy(after), (scenario, step, legal.action)
                after_candidates += 1
        kinds.add(str(action["kind"]))
        state = game.apply(state, action).state
    assert game.status(state).over
    # the playthrough went through what the shortcut asks unit by unit, and the candidates were many
    assert {"move", "attack", "end_turn"} <= kinds, kinds
    assert after_candidates >= 300, after_candidates
