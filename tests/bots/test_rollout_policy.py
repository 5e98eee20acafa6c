"""A game's ``rollout_policy`` (the search bot's simulations) plays exactly what its shipped policy plays."""

from __future__ import annotations

from .conftest import started


def test_confrontations_rollout_policy_is_the_shipped_policy() -> None:
    # bot.py: "the action is the same in every state" (it only skips disengagements and other fighters' walks)
    game, state = started("confrontation", "the_ford", seed=0)
    kinds = set()
    for _ in range(400):
        action = game.policy(state)
        assert game.rollout_policy(state) == action
        if action is None:
            break
        kinds.add(action["kind"])
        state = game.apply(state, action).state
    assert game.status(state).over
    assert {"charge", "fight", "move"} <= kinds  # the playthrough went through the phases the shortcut skips in
