"""The search: determinised Monte Carlo over the bot's own actions, compared on common worlds and halved, with
rollouts by the game's shipped policy (see the package docstring for why this shape).

1. **candidates**: the side's legal actions, the shipped policy's own choice first (asked in a determinised
   world: the policy may not read what the side cannot see), then the others in a seeded order, at most
   :data:`WIDTH` of them (a side with 150 legal moves spends its simulations on a few it can compare);
2. **a pass**: one world is drawn (``hooks.determiniser``: a fresh RNG state and the other sides' unrevealed
   orders drawn afresh, seeded by the bot's own seed, never by the battle) and *every* candidate still in the
   race is simulated in it: applied, then every side plays the shipped policy for at most ``budget.horizon``
   actions, and the end is scored (the result if the battle ended, else the game's ``evaluate``). The same
   worlds for every candidate (common random numbers) make their differences show with few simulations;
3. **halving**: after every :data:`PASSES_PER_ROUND` passes the worse half of the candidates leaves the race
   (sequential halving, the simple-regret bandit of Karnin et al. 2013), down to two;
4. the budget (iterations or seconds) is checked after every simulation; the choice is the candidate with the
   most simulations, then the best mean, then the earlier in order (the shipped policy's choice wins ties).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from rulekeeper.core.game import Game, JsonDict, LegalAction

from .hooks import determiniser, evaluator
from .model import BotRequestError, Budget, Candidate, Decision

#: Candidates compared at most (the shipped policy's choice and the first others in a seeded order).
WIDTH = 12
#: Passes over the candidates between two halvings.
PASSES_PER_ROUND = 2


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
    arms = _ordered_arms(game, determinise(state, side, _draw(seeds)), side, legal, seeds)[:WIDTH]
    evaluate = evaluator(game)
    race, done, passes = list(arms), 0, 0

    def spent() -> bool:
        return ((budget.iterations is not None and done >= budget.iterations)
                or (budget.seconds is not None and time.perf_counter() - start >= budget.seconds)
                or (cancelled is not None and cancelled()))

    while not spent():
        world = determinise(state, side, _draw(seeds))
        for arm in race:
            arm.total += _simulate(game, world, arm.legal.action, side, budget.horizon, evaluate)
            arm.visits += 1
            done += 1
            if spent():
                break
        passes += 1
        if passes % PASSES_PER_ROUND == 0 and len(race) > 2:
            keep = sorted(race, key=lambda a: (-a.mean, arms.index(a)))[: (len(race) + 1) // 2]
            race = [a for a in race if a in keep]
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
