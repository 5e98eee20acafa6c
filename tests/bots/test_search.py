"""The search bot's API: budgets, reproducible decisions, candidates, named policies, and that it plays
better than the policy it rolls out where a test can show it in seconds (the toy race)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rulekeeper.bots import (
    POLICIES,
    STRENGTHS,
    BotRequestError,
    Budget,
    choose,
    move_seed,
    parse_budget,
    policy_named,
)
from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from toygame import ToyGame

from .conftest import started


@pytest.fixture
def toy() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests(ToyGame.name)


def test_a_decision_is_reproducible_from_its_seed_and_lists_its_candidates() -> None:
    game, state = started("exillis", "starter", moves=2)
    side = game.status(state).to_act[0]
    budget = Budget(iterations=14, horizon=6)
    one, two = (choose(game, state, side, budget=budget, seed=7) for _ in range(2))
    assert (one.action, one.candidates, one.iterations) == (two.action, two.candidates, two.iterations)
    assert one.iterations == 14 == sum(c.visits for c in one.candidates)
    legal = [la.action for la in game.legal_actions(state) if la.side == side]
    assert one.action == one.candidates[0].action and one.action in legal
    assert 2 <= len(one.candidates) <= len(legal)
    assert all(-1.0 <= c.value <= 1.0 for c in one.candidates)
    visits = [c.visits for c in one.candidates]
    assert visits == sorted(visits, reverse=True)


def test_a_single_legal_action_is_played_without_thinking() -> None:
    game, state = started("wartable", "oathsworn_vs_bloodless")
    decision = choose(game, state, game.status(state).to_act[0], budget=Budget(seconds=5), seed=0)
    assert decision.iterations == 0 and len(decision.candidates) == 1 and decision.seconds < 1


def test_a_time_budget_stops_the_search_in_time() -> None:
    game, state = started("exillis", "starter")
    decision = choose(game, state, "A", budget=Budget(seconds=0.2), seed=1)
    assert decision.iterations >= 1 and decision.seconds < 1.5


def test_bad_requests_are_typed_errors() -> None:
    game, state = started("exillis", "starter")
    with pytest.raises(BotRequestError, match="seconds or iterations"):
        Budget()
    with pytest.raises(BotRequestError, match="at most 600"):
        Budget(seconds=601)
    with pytest.raises(BotRequestError, match="1 to 1000000"):
        Budget(iterations=0)
    with pytest.raises(BotRequestError, match="nothing to do now"):
        choose(game, state, "B", budget=Budget(iterations=1), seed=0)
    with pytest.raises(UnknownNameError):
        policy_named("clever")
    with pytest.raises(BotRequestError, match="a budget is seconds"):
        parse_budget("fast")


def test_budgets_read_from_the_command_line() -> None:
    assert parse_budget("1s") == Budget(seconds=1.0)
    assert parse_budget("250ms") == Budget(seconds=0.25)
    assert parse_budget("200") == Budget(iterations=200) == parse_budget("200i")
    assert parse_budget("easy") == STRENGTHS["easy"]
    assert parse_budget("30", horizon=4) == Budget(iterations=30, horizon=4)
    assert set(POLICIES) == {"simple", "search"}
    assert move_seed(1, 0) != move_seed(1, 1) and move_seed(1, 0) == move_seed(1, 0)


def test_the_search_corrects_the_policy_it_rolls_out(toy: None) -> None:
    """The sprint, Greens ahead 4-3 with two turns left. The shipped policy holds ("ahead with two turns or fewer
    left"), and the Greys then win 5 times in 6 (a 2 or more passes or reaches six). Rolling wins 5 times in 6
    (2-6 reaches six at once; only a 1 busts). The bot's simulations see it: it rolls."""
    from dataclasses import replace

    game, state = started("toy", "sprint")
    state = replace(state, scores=(4, 3), turn=state.turn_limit - 2, to_act="A")
    assert game.policy(state) == {"kind": "hold", "side": "A"}
    decision = choose(game, state, "A", budget=Budget(iterations=60, horizon=4), seed=3)
    assert decision.action == {"kind": "roll", "side": "A"}
    roll, hold = decision.candidates
    assert roll.value > 0.4 and hold.value < -0.4


def test_the_bot_leaves_the_policys_choice_only_on_evidence() -> None:
    """Issue 28: picking the best mean of a dozen noisy candidates picked noise (the bot won no more than the
    policy it rolls out). A challenger replaces the shipped policy's choice (the anchor) only when the paired
    difference on shared worlds, less two standard errors, is above 0."""
    from rulekeeper.bots.search import _Arm, _chosen
    from rulekeeper.core.game import LegalAction

    def arm(name: str, scores: list[float]) -> _Arm:
        a = _Arm(LegalAction({"kind": name}, name, "A"))
        for world, value in enumerate(scores):
            a.add(world, value)
        return a

    anchor = arm("policy", [0.0, 0.2, -0.2, 0.0])
    lucky = arm("lucky", [0.6, -0.4, 0.2, 0.0])      # +0.1 over the anchor, standard error 0.26
    assert _chosen([anchor, lucky]) is anchor
    better = arm("better", [0.3, 0.4, 0.0, 0.4])     # +0.2 to +0.4 in every world: 0.275 - 2 × 0.048 > 0
    assert _chosen([anchor, lucky, better]) is better
    once = arm("once", [1.0])                         # one shared world is no evidence
    assert _chosen([anchor, once]) is anchor
