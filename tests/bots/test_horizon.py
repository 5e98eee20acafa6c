"""A simulation's horizon in each game's own time (issue 28: a Dragon Noir move is one hex, so 4 actions never saw
a charge or a volley land): the default counts the budget's actions; Dragon Noir plays to the end of the sequence
after the current one, Confrontation through the next combat phase, each bounded in actions."""

from __future__ import annotations

from dataclasses import replace

from rulekeeper.bots import Budget, choose, hooks
from rulekeeper.rulesets.confrontation import bot as confrontation_bot
from rulekeeper.rulesets.dragonnoir import bot as dragonnoir_bot

from .conftest import started


def test_without_a_hook_a_simulation_plays_the_budget_s_horizon_in_actions() -> None:
    game, state = started("exillis", "duel")
    done = hooks.horizon_of(game)
    assert [done(state, state, n, 4) for n in (0, 3, 4, 5)] == [False, False, True, True]


def test_dragonnoir_plays_to_the_end_of_the_next_sequence() -> None:
    game, state = started("dragonnoir", "the_mill_house")
    done = hooks.horizon_of(game)
    move = replace(state, phase="move")
    assert not done(move, replace(move, phase="combat"), 30, 4)  # the combat a step leads to is seen
    assert done(move, replace(move, phase="fire", player_turn=move.player_turn + 1), 30, 4)
    assert done(move, replace(move, phase="combat"), 40, 4)  # bounded: 10 actions per action of the horizon
    assert dragonnoir_bot.clock(replace(move, phase="combat")) == dragonnoir_bot.clock(move) + 1


def test_confrontation_plays_through_the_next_combat_phase() -> None:
    game, state = started("confrontation", "the_ford")
    done = hooks.horizon_of(game)
    act = replace(state, phase="activation")
    assert not done(act, replace(act, phase="combat"), 5, 4)
    assert done(act, replace(act, phase="maintenance"), 5, 4)
    late = replace(act, phase="maintenance")  # after this round's combat: the next round's counts
    assert not done(late, replace(act, round=act.round + 1, phase="activation"), 5, 4)
    assert done(late, replace(act, round=act.round + 1, phase="maintenance"), 5, 4)
    assert confrontation_bot.rollout_done(act, act, 40, 4)


def test_a_game_time_horizon_keeps_decisions_reproducible() -> None:
    game, state = started("dragonnoir", "the_mill_house", moves=2)  # a Goblin step to choose
    side = game.status(state).to_act[0]
    one, two = (choose(game, state, side, budget=Budget(iterations=8), seed=5) for _ in range(2))
    assert (one.action, one.candidates, one.iterations) == (two.action, two.candidates, two.iterations) \
        and one.iterations == 8
