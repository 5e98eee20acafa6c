"""Ex illis's ``rollout_policy`` (the search bot's simulations, ``exillis/battle/rollout.py``) plays exactly what its
shipped policy plays: along playthroughs of every shipped scenario (two seeds), and after each of the bot's candidates
there (every legal action of the acting group: a retreat, a Challenge, a stance, a move the policy would not make), so
that the states a simulation reaches from any candidate are covered too. The candidates are tried at every other step
with seed 0 and every eighth with seed 1 (the suite's 15 minutes: they are most of the test's cost). The entry it keeps on the state for
``apply`` is the legal list's own entry (the same AcP and note), so the outcome is the same."""

from __future__ import annotations

from typing import Any

import pytest

from rulekeeper.bots.hooks import replace_rng
from rulekeeper.core.memo import recalled
from rulekeeper.core.ruleset import game as game_named
from rulekeeper.rulesets.exillis.battle.actions import legal_actions

from .conftest import started

SCENARIOS = [s.key for s in game_named("exillis").scenarios()]
#: Actions of the shipped policy followed from each candidate (a simulation of the bot, in a re-seeded world).
FOLLOWED = 3
#: The bot's candidates are tried at every EVERY[seed]-th step of the playthrough.
EVERY = {0: 2, 1: 8}


def test_every_shipped_scenario_is_covered() -> None:
    assert SCENARIOS == ["duel", "forest_fence", "hastings", "skirmish", "starter"]


def _fresh(game: Any, state: Any) -> Any:
    """The same position with nothing remembered on it (the bot's simulations ask the rollout policy first)."""
    return game.state_from_json(game.state_to_json(state))


def _agrees(game: Any, state: Any) -> dict[str, object] | None:
    """The rollout policy's action in a fresh copy of ``state`` is the shipped policy's, and the entry it keeps
    for ``apply`` is the legal list's."""
    copy = _fresh(game, state)
    chosen = game.rollout_policy(copy)
    action = game.policy(state)
    assert chosen == action
    if action is not None:
        kept = recalled(copy, "exillis.rollout")
        assert kept is not None and kept in legal_actions(copy, game.rules.t)
    return action  # type: ignore[no-any-return]


def _simulated(game: Any, state: Any) -> set[str]:
    """The kinds the policy picks along :data:`FOLLOWED` actions of a simulation from ``state``, each checked."""
    kinds: set[str] = set()
    for _ in range(FOLLOWED):
        action = _agrees(game, state)
        if action is None:
            break
        kinds.add(str(action["kind"]))
        state = game.apply(state, action).state
    return kinds


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_ex_illis_rollout_policy_is_the_shipped_policy(scenario: str, seed: int) -> None:
    game, state = started("exillis", scenario, seed=seed)
    kinds: set[str] = set()
    after_candidates = 0
    for step in range(400):
        action = _agrees(game, state)
        if action is None:
            break
        for index, legal in enumerate(game.legal_actions(state) if step % EVERY[seed] == 0 else []):  # the candidates,
            world = replace_rng(game, state, 1000 * step + index)  # each in a world of its own (every other step)
            kinds |= _simulated(game, game.apply(world, legal.action).state)
            after_candidates += 1
        kinds.add(str(action["kind"]))
        state = game.apply(state, action).state
    assert game.status(state).over, step
    # the policy's picks in a melee and out of one, and the states after many candidates, were all asked
    assert {"charge", "fight"} <= kinds, kinds
    assert after_candidates >= 8, after_candidates


def test_the_picked_entry_is_applied_as_the_lists() -> None:
    # the outcome of the rollout's pick (applied with the entry it kept) is the outcome of the same action applied
    # from the legal list, record and all (its AcP, events, chance, report)
    game, state = started("exillis", "hastings", seed=0)
    applied = 0
    for _ in range(60):
        if game.status(state).over:
            break
        copy = _fresh(game, state)
        action = game.rollout_policy(copy)
        ours, theirs = game.apply(copy, action), game.apply(_fresh(game, state), action)
        assert ours.record == theirs.record
        assert game.state_to_json(ours.state) == game.state_to_json(theirs.state)
        applied += 1
        state = ours.state
    assert applied >= 30, applied
