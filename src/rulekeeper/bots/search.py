"""The search: determinised Monte Carlo over the bot's own actions, compared on common worlds and halved, with
rollouts by the game's shipped policy (see the package docstring for why this shape).

1. **candidates**: the side's legal actions, the *base policy*'s choice first (the shipped policy, or the
   game's ``bot_policy`` where it knows a better default; asked in a determinised world: the policy may not
   read what the side cannot see), then the others in a seeded order, the first
   :data:`SCREEN` of them *screened* (applied once in the first world and scored at once, best first), as many
   as the budget can give :data:`SAMPLES_PER_ARM` simulations each (2 to :data:`WIDTH`; a first *probe*
   simulation of the policy's choice says what one costs): a side with 150 legal moves spends its
   simulations on a few it can compare, and a bot that can think little stays near the shipped policy;
2. **a pass**: one world is drawn (``hooks.determiniser``: a fresh RNG state and the other sides' unrevealed
   orders drawn afresh, seeded by the bot's own seed, never by the battle) and *every* candidate still in the
   race is simulated in it: applied, then every side plays the shipped policy (``hooks.roller``: the game's
   faster ``rollout_policy`` where it gives one; the bot's own side the game's ``bot_policy``, where it gives
   one) for at most ``budget.horizon`` actions, and the end is scored (the result if the battle ended, else the
   game's ``evaluate``). The same worlds for every candidate (common random numbers) make their differences
   show with few simulations;
3. **halving**: after every :data:`PASSES_PER_ROUND` passes the worse half of the *challengers* leaves the race
   (sequential halving, the simple-regret bandit of Karnin et al. 2013), down to two; the base policy's
   choice (the *anchor*) never leaves it, so every challenger is compared with it on the same worlds;
4. the budget (iterations or seconds) is checked after every simulation, and a time budget's deadline within
   one too (a simulation cut short is left out);
5. **the choice**: the anchor, unless a challenger beats it *significantly* on the worlds both were played in:
   the mean of the paired differences less :data:`MARGIN_Z` standard errors is above 0. Why: a budget of a
   second gives each candidate a few dozen noisy simulations, and picking the best mean among many then picks
   noise as often as insight (the winner's curse): measured, the bot that did so won no more than the shipped
   policy it rolls out. Deviating only on evidence keeps the rollout algorithm's promise (no worse than the
   policy) at a small budget, and lets the search correct the policy where the difference is plain.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from rulekeeper.core.game import Game, JsonDict, LegalAction

from .hooks import determiniser, evaluator, horizon_of, own_player, roller
from .model import BotRequestError, Budget, Candidate, Decision

#: Candidates compared at most (the base policy's choice and the first others in a seeded order).
WIDTH = 12
#: Simulations each compared candidate should get at least (what sets the width on a small budget).
SAMPLES_PER_ARM = 6
#: Passes over the candidates between two halvings.
PASSES_PER_ROUND = 2
#: Challengers screened at most: applied once in the first world and scored at once, to pick the ones to race.
SCREEN = 24
#: The share of a time budget the screen may spend.
SCREEN_SHARE = 0.3
#: Standard errors of the paired difference by which a challenger must beat the base policy's choice.
MARGIN_Z = 2.0


@dataclass
class _Arm:
    legal: LegalAction
    visits: int = 0
    total: float = 0.0
    #: the score in each world (by pass number) this candidate was simulated in
    scores: dict[int, float] = field(default_factory=dict)

    def add(self, world: int, value: float) -> None:
        self.visits += 1
        self.total += value
        self.scores[world] = value

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


def side_actions(game: Game, state: object, side: str) -> list[LegalAction]:
    """The legal actions of ``side`` now (what that side's own action list shows), in the game's order."""
    return [la for la in game.legal_actions(state) if la.side == side]


def choose(game: Game, state: object, side: str, *, budget: Budget, seed: int,
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
    evaluate, own = evaluator(game), own_player(game)
    deadline = None if budget.seconds is None else start + budget.seconds
    # the probe: the base policy's choice in the first world, which also says what a simulation costs
    world = determinise(state, side, _draw(seeds))
    probe = time.perf_counter()
    value, _ = _simulate(game, world, arms[0].legal.action, side, budget.horizon, evaluate, deadline, own)
    arms[0].add(0, value)
    arms = [arms[0], *_screened(game, world, arms[1:], side, evaluate,
                                None if budget.seconds is None else start + budget.seconds * SCREEN_SHARE)]
    arms = arms[:_width(budget, time.perf_counter() - probe, deadline, len(arms))]
    race, done, passes, first = list(arms), 1, 0, 1

    def spent() -> bool:
        return ((budget.iterations is not None and done >= budget.iterations)
                or (deadline is not None and time.perf_counter() >= deadline)
                or (cancelled is not None and cancelled()))

    while not spent():
        for arm in race[first:]:
            value, whole = _simulate(game, world, arm.legal.action, side, budget.horizon, evaluate, deadline, own)
            if not whole:  # cut by the deadline: not comparable with the others, left out
                break
            arm.add(passes, value)
            done += 1
            if spent():
                break
        passes += 1
        if passes % PASSES_PER_ROUND == 0 and len(race) > 3:
            challengers = race[1:]
            keep = sorted(challengers, key=lambda a: (-a.mean, arms.index(a)))[: (len(challengers) + 1) // 2]
            race = [race[0], *(a for a in challengers if a in keep)]
        world, first = determinise(state, side, _draw(seeds)), 0
    chosen = _chosen(arms)
    ranked = sorted(range(len(arms)), key=lambda i: (arms[i] is not chosen, -arms[i].visits, -arms[i].mean, i))
    candidates = tuple(Candidate(arms[i].legal.action, arms[i].legal.text, arms[i].mean, arms[i].visits)
                       for i in ranked)
    return Decision(candidates[0].action, candidates, done, time.perf_counter() - start)


def _chosen(arms: list[_Arm]) -> _Arm:
    """The anchor (``arms[0]``, the base policy's choice), or the challenger that beats it by the most on
    the worlds both were played in, if the paired difference's lower bound (mean − :data:`MARGIN_Z` standard
    errors, at least two shared worlds) is above 0."""
    anchor, best, best_bound = arms[0], arms[0], 0.0
    for arm in arms[1:]:
        shared = [w for w in arm.scores if w in anchor.scores]
        if len(shared) < 2:
            continue
        diffs = [arm.scores[w] - anchor.scores[w] for w in shared]
        mean = sum(diffs) / len(diffs)
        var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
        bound = mean - MARGIN_Z * (var / len(diffs)) ** 0.5
        if bound > best_bound:
            best, best_bound = arm, bound
    return best


def _width(budget: Budget, probe_seconds: float, deadline: float | None, total: int) -> int:
    """How many candidates the budget can compare with :data:`SAMPLES_PER_ARM` simulations each (2 to
    :data:`WIDTH`): a bot that can think little stays near the shipped policy instead of picking among many
    candidates on one noisy simulation each. From the iterations, and, with a time budget, from what the probe
    simulation cost (so a time-limited decision depends on the machine's speed, as its length does)."""
    affordable = float(budget.iterations) if budget.iterations is not None else float("inf")
    if deadline is not None:
        left = max(deadline - time.perf_counter(), 0.0)
        affordable = min(affordable, 1 + left / max(probe_seconds, 1e-6))
    return max(2, min(WIDTH, total, int(affordable // SAMPLES_PER_ARM)))


def _screened(game: Game, world: object, challengers: list[_Arm], side: str,
              evaluate: Callable[[object, str], float], until: float | None) -> list[_Arm]:
    """The challengers in the order they enter the race: the first :data:`SCREEN` (in the seeded order), each
    applied once in ``world`` and scored at once by the evaluation, best first (ties keep the seeded order),
    then the rest. Why: a budget of a second races a handful of candidates out of tens (a Battle System turn
    offers ~50); the ones whose immediate effect is best are likelier to be worth a rollout than random ones.
    The screen's scores are not simulations (no visits): they only order the race."""
    screened: list[tuple[float, int]] = []
    for index, arm in enumerate(challengers[:SCREEN]):
        if until is not None and time.perf_counter() >= until:
            break
        screened.append((-evaluate(game.apply(world, arm.legal.action).state, side), index))
    order = [i for _, i in sorted(screened)] + list(range(len(screened), len(challengers)))
    return [challengers[i] for i in order]


def _draw(seeds: np.random.Generator) -> int:
    return int(seeds.integers(0, 2**62))


def _ordered_arms(game: Game, world: object, side: str, legal: list[LegalAction],
                  seeds: np.random.Generator) -> list[_Arm]:
    """The candidates in the order they enter the search: the base policy's choice (the game's ``bot_policy``,
    else its shipped ``policy``; in a determinised world: the policy may not read what the side cannot see),
    then the others in a seeded order."""
    suggested = (own_player(game) or game.policy)(world)
    first = [i for i, la in enumerate(legal) if suggested is not None and la.action == suggested][:1]
    rest = [int(i) for i in seeds.permutation(len(legal)) if int(i) not in first]
    return [_Arm(legal[i]) for i in (*first, *rest)]


def _simulate(game: Game, world: object, action: JsonDict, side: str, horizon: int,
              evaluate: Callable[[object, str], float], deadline: float | None,
              own: Callable[[object], Mapping[str, object] | None] | None = None) -> tuple[float, bool]:
    """Play ``action`` in ``world``, then the shipped policy for every side (``own``, the game's
    ``bot_policy``, for ``side`` alone to act, where the game gives one) until the horizon (``horizon``
    actions, or what the game's ``rollout_done`` says); the score, and whether the simulation ran its course
    (False: the deadline cut it short)."""
    state, follow_policy, done = game.apply(world, action).state, roller(game), horizon_of(game)
    actions, alone = 0, (side,)
    while not done(world, state, actions, horizon):
        status = game.status(state)
        if status.over:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            return evaluate(state, side), False
        follow = (own if own is not None and status.to_act == alone else follow_policy)(state)
        if follow is None:
            break
        state = game.apply(state, follow).state
        actions += 1
    return evaluate(state, side), True
