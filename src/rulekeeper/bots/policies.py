"""Named policies for autoplay and the lab: ``simple`` (the game's shipped policy) and ``search`` (the bot).

A policy answers the action to play in a state for whichever side must act now (the first of
``Status.to_act`` that has a legal action, as the shipped policies do), or None when nobody can act.
``seed`` makes the search reproducible: callers derive one per move (:func:`move_seed`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from rulekeeper.core.errors import UnknownNameError
from rulekeeper.core.game import Game

from .model import BotRequestError, Budget, Decision
from .search import choose, side_actions

#: The bot's strengths (``battle new --bot B --strength ...``), each a budget per decision. ``normal`` is the
#: default: p95 move time at most about a second on a 2-core machine whatever the game.
STRENGTHS: Mapping[str, Budget] = {
    "easy": Budget(seconds=0.25, iterations=40, horizon=20),
    "normal": Budget(seconds=1.0, iterations=300),
    "strong": Budget(seconds=2.0, iterations=2000),
}
DEFAULT_STRENGTH = "normal"


class Policy(Protocol):
    """Who plays a side in autoplay, the lab and against a player."""

    @property
    def name(self) -> str: ...

    def act(self, game: Game, state: object, seed: int) -> Mapping[str, object] | None:
        """The action to play now, or None when nobody can act."""
        ...


@dataclass(frozen=True)
class SimplePolicy:
    """The game's shipped policy (``Game.policy``): legal, quick, naive."""

    name: str = "simple"

    def act(self, game: Game, state: object, seed: int) -> Mapping[str, object] | None:
        return game.policy(state)


@dataclass(frozen=True)
class SearchPolicy:
    """The search bot (:func:`~rulekeeper.bots.search.choose`) at ``budget``."""

    budget: Budget = STRENGTHS[DEFAULT_STRENGTH]
    name: str = "search"

    def decide(self, game: Game, state: object, seed: int, side: str | None = None) -> Decision | None:
        """The bot's decision for ``side`` (default: the side to act now; None when it cannot act)."""
        side = acting_side(game, state) if side is None else side
        if side is None or not side_actions(game, state, side):
            return None
        return choose(game, state, side, budget=self.budget, seed=seed)

    def act(self, game: Game, state: object, seed: int) -> Mapping[str, object] | None:
        decision = self.decide(game, state, seed)
        return None if decision is None else decision.action


#: Every policy name, with what it is (``--policy`` help texts).
POLICIES: Mapping[str, str] = {
    "simple": "the game's shipped policy (legal, quick, naive)",
    "search": "the search bot: determinised Monte Carlo over the game protocol",
}


def policy_named(name: str, budget: Budget | None = None) -> SimplePolicy | SearchPolicy:
    """The policy called ``name`` (``simple`` or ``search``); ``budget`` is the search's (default: normal)."""
    key = name.strip().lower()
    if key == "simple":
        return SimplePolicy()
    if key == "search":
        return SearchPolicy(budget or STRENGTHS[DEFAULT_STRENGTH])
    raise UnknownNameError("policy", name, list(POLICIES))


def strength_named(name: str) -> Budget:
    """The budget of a named strength (``easy``, ``normal``, ``strong``)."""
    key = name.strip().lower()
    if key not in STRENGTHS:
        raise UnknownNameError("bot strength", name, list(STRENGTHS))
    return STRENGTHS[key]


def parse_budget(text: str, horizon: int | None = None) -> Budget:
    """A budget typed on the command line: ``1s``, ``250ms``, ``200`` (simulations), ``200i``, or a strength."""
    raw = text.strip().lower()
    base = STRENGTHS.get(raw)
    try:
        if base is not None:
            budget = base
        elif raw.endswith("ms"):
            budget = Budget(seconds=float(raw[:-2]) / 1000)
        elif raw.endswith("s"):
            budget = Budget(seconds=float(raw[:-1]))
        else:
            budget = Budget(iterations=int(raw.removesuffix("i")))
    except ValueError:
        raise BotRequestError(f"a budget is seconds (1s, 250ms), simulations (200) or a strength "
                              f"({', '.join(STRENGTHS)}), got {text!r}", budget=text) from None
    if horizon is not None:
        budget = Budget(budget.seconds, budget.iterations, horizon)
    return budget


def acting_side(game: Game, state: object) -> str | None:
    """The side a policy plays for now: the first side to act that has a legal action."""
    status = game.status(state)
    if status.over:
        return None
    return next((side for side in status.to_act if side_actions(game, state, side)), None)


def move_seed(seed: int, index: int) -> int:
    """The bot's seed for move ``index`` of a battle played with ``seed`` (independent streams per move)."""
    if seed < 0:
        raise BotRequestError(f"a bot's seed must be 0 or more, got {seed}", seed=seed)
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0]) >> 2
