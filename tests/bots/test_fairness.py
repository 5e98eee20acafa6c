"""Fair by construction (issue 28): "the bot decides from its side's view and the public odds only. It never
reads the RNG state, the other side's hidden orders or a face-down result: simulations re-seed the chance
they need (determinisation), and a test proves that the bot's decision distribution does not change when the
battle's RNG state (or the other side's hidden orders) is replaced."

With an iteration budget a decision is a function of (what the side sees, seed), so the distribution over
seeds is unchanged exactly when every seed's decision is: the tests compare whole decisions, candidate
values included. Each has a control: the same bot *without* determinisation does see the difference.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from rulekeeper.bots import Budget, choose, hooks
from rulekeeper.core.rng import RngState
from rulekeeper.core.ruleset import register_for_tests, unregister_for_tests
from toygame import ToyGame

from .conftest import started

SEEDS = (0, 1, 2)


def decisions(game: Any, state: Any, side: str, iterations: int = 10, horizon: int = 6) -> list[Any]:
    """The decisions for a few seeds, all but the time they took (which depends on the machine)."""
    out = []
    for seed in SEEDS:
        d = choose(game, state, side, budget=Budget(iterations=iterations, horizon=horizon), seed=seed)
        out.append((d.action, d.candidates, d.iterations))
    return out


def _cheating(monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: a bot whose simulations start from the real state (it reads the RNG and hidden orders)."""
    monkeypatch.setattr("rulekeeper.bots.search.determiniser", lambda game: lambda state, side, seed: state)


@pytest.mark.parametrize(("name", "scenario", "moves", "iterations"),
                         [("exillis", "starter", 4, 8), ("dragonnoir", "the_mill_house", 3, 8),
                          ("confrontation", "the_ford", 1, 3)])
def test_replacing_the_battles_rng_state_changes_no_decision(name: str, scenario: str, moves: int,
                                                             iterations: int) -> None:
    game, state = started(name, scenario, moves=moves)
    side = game.status(state).to_act[0]
    other = replace(state, rng=RngState.from_seed(987654321))
    assert other.rng != state.rng
    assert decisions(game, state, side, iterations) == decisions(game, other, side, iterations)


@pytest.fixture
def toy() -> Iterator[None]:
    register_for_tests(ToyGame)
    yield
    unregister_for_tests(ToyGame.name)


def test_the_toy_race_decisions_ignore_its_rng_and_its_secret_picks(toy: None) -> None:
    game, state = started("toy", "race", moves=3)
    side = game.status(state).to_act[0]
    other = replace(state, rng=RngState.from_seed(42), picks=(state.picks[1], state.picks[0]))
    assert decisions(game, state, side, 30, 8) == decisions(game, other, side, 30, 8)


def test_the_control_bot_that_reads_the_rng_does_see_it(toy: None, monkeypatch: pytest.MonkeyPatch) -> None:
    game, state = started("toy", "race", moves=3)
    side = game.status(state).to_act[0]
    _cheating(monkeypatch)
    values = {tuple((c.text, c.value, c.visits) for c in decisions(game, replace(state, rng=RngState.from_seed(rng_seed)), side, 30, 8)[0][1])
              for rng_seed in range(4)}
    assert len(values) > 1


def _after_oathsworn(orders_index: int) -> tuple[Any, Any]:
    """The Long Night, round 1: the Oathsworn have given one of their order sets (hidden); the Bloodless to act."""
    game, state = started("wartable-campaign", "shroudfall_long_night")
    mine = [la.action for la in game.legal_actions(state) if la.side == "oathsworn"]
    state = game.apply(state, mine[orders_index]).state
    assert game.status(state).to_act == ("bloodless",)
    return game, state


def test_replacing_the_other_sides_hidden_orders_and_rng_changes_no_decision() -> None:
    game, first = _after_oathsworn(0)
    _, second = _after_oathsworn(-1)
    assert first.pending != second.pending
    second = replace(second, rng=RngState.from_seed(5))
    assert decisions(game, first, "bloodless", 16, 1) == decisions(game, second, "bloodless", 16, 1)


def test_the_control_bot_that_reads_hidden_orders_does_see_them(monkeypatch: pytest.MonkeyPatch) -> None:
    _cheating(monkeypatch)
    game, first = _after_oathsworn(0)
    _, second = _after_oathsworn(-1)
    second = replace(second, rng=first.rng)
    assert decisions(game, first, "bloodless", 16, 1) != decisions(game, second, "bloodless", 16, 1)


def test_determinisation_draws_new_rng_and_orders_but_keeps_the_sides_own() -> None:
    game, state = _after_oathsworn(0)
    worlds = [hooks.determiniser(game)(state, "bloodless", s) for s in range(12)]
    assert all(w.rng != state.rng for w in worlds)
    assert all(w.campaign == state.campaign and [p.side for p in w.pending] == ["oathsworn"] for w in worlds)
    assert len({w.pending for w in worlds}) > 1  # the hidden orders are drawn afresh, not copied
    ex, ex_state = started("exillis", "starter", moves=2)
    world = hooks.determiniser(ex)(ex_state, "A", 3)
    assert world.rng != ex_state.rng and replace(world, rng=ex_state.rng) == ex_state
