"""The search: determinised Monte Carlo over the bot's own actions, a bandit at the root, rollouts by the
game's shipped policy (see the package docstring for why this shape).

One simulation (an *iteration*):

1. **determinise**: the position as the bot's side sees it, with a fresh RNG state and the other sides'
   unrevealed orders drawn afresh (``hooks.determiniser``), seeded by the bot's own seed and the
   iteration number, never by the battle;
2. **select**: UCB1 over the candidate actions (an unvisited one first, in order); candidates enter by
   *progressive widening*, the shipped policy's own choice first, then the others in a seeded order, so a
   side with 150 legal moves still spends its simulations on a few it can compare;
3. **simulate**: the candidate is applied, then every side plays the shipped policy for at most
   ``budget.horizon`` actions (chance drawn from the determinised RNG);
4. **score**: the result if the battle ended (1 won, -1 lost, 0 drawn), else the game's ``evaluate``.

The choice is the most simulated candidate (ties: the better mean, then the earlier in order).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulekeeper.core.game import Game, JsonDict, LegalAction

from .hooks import determiniser, evaluator
from .model import BotRequestError, Budget, Candidate, Decision

#: UCB1's exploration constant for values in [-1, 1].
EXPLORATION = 1.0
#: Candidates compared from the start; then one more each time the simulations pass the next square.
WIDENING_BASE = 6


@dataclass
class _Arm:
    legal: LegalAction
    visits: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def side_actions(game: Game, state: Any, side: str) -> list[LegalAction]:
    """The legal actions of ``side`` now (what that side's own action list shows), in the game's order."""
    return [la for la in game.legal_actions(state) if la.side == side]


def choose(game: Game, state: Any, side: str, *, budget: Budget, seed: int,
           cancelled: Callable[[], bool] | None = None) -> Decision:
    """The action the bot plays for ``side`` in ``state``, with the candidates it weighed.

    Reads of ``state`` itself: its status and ``side``'s own legal actions (both public to ``side``);
    everything simulated starts from a determinised copy. ``cancelled`` (optional) is polled between
    simulations: when it answers true the search stops and answers with what it has.
    """
    start = time.perf_counter()
    if seed < 0:
        raise BotRequestError(f"a bot's seed must be 0 or more, got {seed}", seed=seed)
    status = game.status(state)
    if status.over or side not in status.to_act:
        raise BotRequestError(f"side {side!r} has nothing to do now"
                              + (" (the battle is over)" if status.over else f" (to act: {', '.join(status.to_act)})"),
                              side=side)
    legal = side_actions(game, state, side)
    if not legal:
        raise BotRequestError(f"side {side!r} has no legal action now", side=side)
    if len(legal) == 1:
        only = legal[0]
        return Decision(only.action, (Candidate(only.action, only.text, 0.0, 0),), 0, time.perf_counter() - start)
    seeds = np.random.Generator(np.random.PCG64(seed))
    determinise = determiniser(game)
    arms = _ordered_arms(game, determinise(state, side, _draw(seeds)), side, legal, seeds)
    evaluate = evaluator(game)
    done = 0
    while True:
        world = determinise(state, side, _draw(seeds))
        arm = _select(arms[:_width(done, len(arms))], done)
        value = _simulate(game, world, arm.legal.action, side, budget.horizon, evaluate)
        arm.visits += 1
        arm.total += value
        done += 1
        if budget.iterations is not None and done >= budget.iterations:
            break
        if budget.seconds is not None and time.perf_counter() - start >= budget.seconds:
            break
        if cancelled is not None and cancelled():
            break
    ranked = sorted(range(len(arms)), key=lambda i: (-arms[i].visits, -arms[i].mean, i))
    candidates = tuple(Candidate(arms[i].legal.action, arms[i].legal.text, arms[i].mean, arms[i].visits)
                       for i in ranked)
    return Decision(candidates[0].action, candidates, done, time.perf_counter() - start)


def _draw(seeds: np.random.Generator) -> int:
    return int(seeds.integers(0, 2**62))


def _ordered_arms(game: Game, world: Any, side: str, legal: list[LegalAction],
                  seeds: np.random.Generator) -> list[_Arm]:
    """The candidates in the order they enter the search: the shipped policy's choice (in a determinised
    world: the policy may not read what the side cannot see), then the others in a seeded order."""
    suggested = game.policy(world)
    first = [i for i, la in enumerate(legal) if suggested is not None and la.action == suggested][:1]
    rest = [int(i) for i in seeds.permutation(len(legal)) if int(i) not in first]
    return [_Arm(legal[i]) for i in (*first, *rest)]


def _width(done: int, total: int) -> int:
    return min(total, WIDENING_BASE + math.isqrt(done))


def _select(arms: list[_Arm], done: int) -> _Arm:
    for arm in arms:
        if arm.visits == 0:
            return arm
    log_n = math.log(max(done, 1))
    return max(arms, key=lambda a: a.mean + EXPLORATION * math.sqrt(log_n / a.visits))


def _simulate(game: Game, world: Any, action: JsonDict, side: str, horizon: int,
              evaluate: Callable[[Any, str], float]) -> float:
    """Play ``action`` in ``world``, then the shipped policy for every side for up to ``horizon`` actions."""
    state = game.apply(world, action).state
    for _ in range(horizon):
        if game.status(state).over:
            break
        follow = game.policy(state)
        if follow is None:
            break
        state = game.apply(state, follow).state
    return evaluate(state, side)
