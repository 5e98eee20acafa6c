"""The search bot's own default play in Ex illis (``ExIllisGame.bot_policy``): the shipped policy, but "a group
that can shoot never charges" (``battle/policy.py:bot_score``). It is the search's anchor and its own side's play in
its simulations (``bots/search.py``); the other sides are still simulated by the shipped policy."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.bots import Budget, choose
from rulekeeper.bots.search import _simulate
from rulekeeper.core.memo import recalled
from rulekeeper.core.ruleset import game as game_named
from rulekeeper.rulesets.exillis.battle.actions import legal_actions
from rulekeeper.rulesets.exillis.battle.policy import bot_score
from rulekeeper.rulesets.exillis.battle.policy import choose as policy_choose

from .conftest import started

SCENARIOS = [s.key for s in game_named("exillis").scenarios()]


def _fresh(game: Any, state: Any) -> Any:
    return game.state_from_json(game.state_to_json(state))


def _shooter_charges(game: Any, state: Any, action: dict[str, object] | None) -> bool:
    return (action is not None and action["kind"] == "charge"
            and bool(state.unit(str(action["unit"])).c.profile.shots))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_bots_own_play_is_the_bot_scores_pick_of_the_whole_list(scenario: str) -> None:
    # found without the whole list (as the rollout policy is), it picks what the whole list scored by bot_score
    # picks, in every state of a playthrough where both sides play it; the entry kept for apply is the list's
    game, state = started("exillis", scenario, seed=3)
    asked = 0
    for _ in range(400):
        copy = _fresh(game, state)
        chosen = game.bot_policy(copy)
        whole = policy_choose(state, game.rules.t, legal_actions(state, game.rules.t), bot_score)
        assert chosen == (None if whole is None else game.logged(whole.action))
        if chosen is None:
            break
        kept = recalled(copy, "exillis.bot")
        assert kept is not None and kept in legal_actions(copy, game.rules.t)
        state, asked = game.apply(copy, chosen).state, asked + 1
    assert game.status(state).over and asked >= 3, asked


def test_a_group_that_can_shoot_never_charges_in_the_bots_own_play() -> None:
    # the Hastings pattern: the shipped policy charges with the Longbowmen (melee accuracy 50 = ranged 50); the
    # bot's own play never charges with a group that can shoot, and differs from the shipped policy only there
    game, state = started("exillis", "hastings", seed=2)
    shipped_shooter_charges = differ = 0
    for _ in range(400):
        shipped, own = game.policy(state), game.bot_policy(_fresh(game, state))
        if own is None:
            break
        assert not _shooter_charges(game, state, own)
        if shipped != own:
            differ += 1
            assert _shooter_charges(game, state, shipped)
        shipped_shooter_charges += _shooter_charges(game, state, shipped)
        state = game.apply(state, shipped).state  # the shipped policy's battle, asked of both at every step
    assert shipped_shooter_charges >= 1 and differ == shipped_shooter_charges


def test_the_search_anchors_on_the_bots_own_play() -> None:
    # with one simulation the search plays its anchor: the bot's own play, where it differs from the policy's
    game, state = started("exillis", "hastings", seed=2)
    for _ in range(400):
        own, shipped = game.bot_policy(_fresh(game, state)), game.policy(state)
        if own != shipped:
            break
        state = game.apply(state, shipped).state
    assert own != shipped, "no position where the bot's own play differs"
    side = game.status(state).to_act[0]
    decision = choose(game, state, side, budget=Budget(iterations=1), seed=5)
    assert decision.action == own != shipped


class _Counting:
    """Ex illis, counting for which side to act each policy was asked in a simulation."""

    def __init__(self, game: Any) -> None:
        self._game, self.own, self.other = game, [], []  # type: ignore[var-annotated]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def bot_policy(self, state: Any) -> Any:
        self.own.append(self._game.status(state).to_act)
        return self._game.bot_policy(state)

    def rollout_policy(self, state: Any) -> Any:
        self.other.append(self._game.status(state).to_act)
        return self._game.rollout_policy(state)


def test_in_a_simulation_the_bots_side_plays_its_own_play_and_the_enemy_the_shipped_policy() -> None:
    game, state = started("exillis", "starter", moves=2)
    side = game.status(state).to_act[0]
    counting = _Counting(game)
    first = game.policy(state)
    _simulate(counting, state, first, side, 40, game.evaluate, None, counting.bot_policy)
    assert counting.own and counting.other
    assert set(counting.own) == {(side,)}
    assert side not in {s for to_act in counting.other for s in to_act}
