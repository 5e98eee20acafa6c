"""Random reachable states of a game, for the property tests that must hold in every state a battle can reach.

A state is reached by playing ``steps`` actions from a shipped scenario set up with ``seed``, each picked
by a ``Random`` seeded alike, so a failing example names its state by (scenario, seed, steps).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from rulekeeper.core.game import SetupRequest

#: How the next action is picked: (game, state, legal actions, the walk's Random) -> an action.
Choose = Callable[[Any, Any, Sequence[Any], random.Random], Any]


def any_legal(g: Any, state: Any, legal: Sequence[Any], rnd: random.Random) -> Any:
    """Any legal action, uniformly."""
    return rnd.choice(legal).action


def reach(g: Any, scenarios: Sequence[Any], key: str, seed: int, steps: int, choose: Choose = any_legal) -> Any:
    """The state after ``steps`` actions of game ``g`` from the scenario ``key`` (one of ``scenarios``), or
    the state where no action is legal any more, whichever comes first."""
    sc = next(s for s in scenarios if s.key == key)
    state = g.initial_state(g.setup(SetupRequest(scenario=sc.path, seed=seed)).document)
    rnd = random.Random(seed)
    for _ in range(steps):
        legal = g.legal_actions(state)
        if not legal:
            break
        state = g.apply(state, choose(g, state, legal, rnd)).state
    return state
