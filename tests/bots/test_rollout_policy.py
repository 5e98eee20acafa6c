"""A game's ``rollout_policy`` (the search bot's simulations) plays exactly what its shipped policy plays."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import started


def _follow(game: Any, state: Any, tried: Callable[[Any], bool]) -> tuple[set[str], set[str | None], Any]:
    """Play the shipped policy to the end, checking ``rollout_policy`` in every state and, after each legal action
    ``tried`` picks (a bot's candidate), in the state it leaves: the kinds played (a leaping charge marked), the
    kinds answered after candidates, and the final state."""
    kinds: set[str] = set()
    answered: set[str | None] = set()
    for _ in range(400):
        action = game.policy(state)
        assert game.rollout_policy(state) == action
        if action is None:
            break
        for legal in game.legal_actions(state):
            if tried(legal):
                after = game.apply(state, legal.action).state
                answer = game.policy(after)
                assert game.rollout_policy(after) == answer
                answered.add(answer["kind"] if answer else None)
        kinds.add(action["kind"] + (" (leap)" if action.get("leap") else ""))
        state = game.apply(state, action).state
    return kinds, answered, state


def test_confrontations_rollout_policy_is_the_shipped_policy() -> None:
    # bot.py: "the action is the same in every state" (it only skips disengagements and other fighters' walks)
    game, state = started("confrontation", "the_ford", seed=0)
    kinds, _, state = _follow(game, state, lambda legal: False)
    assert game.status(state).over
    assert {"charge", "fight", "move"} <= kinds  # the playthrough went through the phases the shortcut skips in


@pytest.mark.parametrize("scenario", ["the_seers_circle", "the_moonlit_shrine"])
def test_confrontations_rollout_policy_answers_reaction_fire_and_casts_as_the_policy_does(scenario: str) -> None:
    # The seer's circle has Mystics (the policy casts before it charges) and a sentry with Reaction fire (a charge
    # on him waits for "react" or "withhold"): the shortcut must hand both to the policy, or a simulation plays an
    # action the rules refuse (found by playing: `battle new the_seers_circle.yaml --seed 1 --bot B`); so must a spell
    # waiting for the enemy's counter (the moonlit shrine). The shipped policy never charges the sentry, but the
    # bot's candidates do: so every charge and cast offered along the playthrough is also tried, and the state it
    # leaves is checked too.
    game, state = started("confrontation", scenario, seed=0)
    kinds, answered, state = _follow(game, state, lambda legal: legal.action["kind"] in ("charge", "cast"))
    assert game.status(state).over
    assert {"cast", "charge"} <= kinds
    assert {"react", "counter"} & answered


@pytest.mark.parametrize(("scenario", "candidates", "seen"), [
    ("the_mill_race", True, {"ready", "shoot", "charge", "hold"}),
    ("the_stalkers_ford", False, {"ready", "shoot", "charge (leap)", "flee"}),
])
def test_confrontations_rollout_policy_measures_only_what_the_policy_picks(scenario: str, candidates: bool,
                                                                           seen: set[str]) -> None:
    # The shortcut measures the charges nearest first and stops when none left can be cheaper, skips the assault
    # fire's twin of a charge, answers "ready" before the Tactical roll, and lets a marksman who walked shoot or
    # hold (issue 28): along a playthrough (the stalkers' ford: a leaping charge), and in the state after each of
    # the bot's candidates (every legal action: moves under cover, the charges the policy does not pick, passes),
    # it plays the policy's action.
    game, state = started("confrontation", scenario, seed=1)
    kinds, answered, state = _follow(game, state, lambda legal: candidates)
    assert game.status(state).over
    assert seen <= kinds | answered
