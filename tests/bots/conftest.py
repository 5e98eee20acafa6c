"""Shared set-ups for the bot's tests: a shipped scenario's state after a few moves of the shipped policy."""

from __future__ import annotations

from typing import Any

from rulekeeper.core.game import SetupRequest
from rulekeeper.core.ruleset import game as game_named


def started(name: str, scenario: str, seed: int = 1, moves: int = 0) -> tuple[Any, Any]:
    """(game, state) of ``scenario`` of game ``name`` after ``moves`` actions of the shipped policy."""
    game = game_named(name)
    path = {s.key: s.path for s in game.scenarios()}[scenario]
    state = game.initial_state(game.setup(SetupRequest(scenario=path, seed=seed)).document)
    for _ in range(moves):
        action = game.policy(state)
        assert action is not None
        state = game.apply(state, action).state
    return game, state
